package dev.computeruse.android;

import android.graphics.Rect;
import android.os.Bundle;
import android.view.accessibility.AccessibilityNodeInfo;
import dev.computeruse.core.ViewNode;

/** An AccessibilityNodeInfo as the core's ViewNode; Acts' action names become the node's ACTION_* ids. */
final class NodeView implements ViewNode {
  private final AccessibilityNodeInfo node;

  NodeView(AccessibilityNodeInfo node) { this.node = node; }

  private static String s(CharSequence c) { return c == null ? "" : c.toString(); }

  @Override public String className() { return s(node.getClassName()); }
  @Override public String packageName() { return s(node.getPackageName()); }
  // A password field's text is never asked for (ViewNode.text): the platform hands it to accessibility services.
  @Override public String text() { return node.isPassword() ? "" : s(node.getText()); }
  @Override public String contentDescription() { return s(node.getContentDescription()); }
  @Override public String hintText() { return s(node.getHintText()); }
  @Override public String viewId() { return node.getViewIdResourceName() == null ? "" : node.getViewIdResourceName(); }
  @Override public int[] boundsInScreen() {
    Rect r = new Rect();
    node.getBoundsInScreen(r);
    return new int[] {r.left, r.top, r.right, r.bottom};
  }
  @Override public boolean isCheckable() { return node.isCheckable(); }
  @Override public boolean isChecked() { return node.isChecked(); }
  @Override public boolean isClickable() { return node.isClickable(); }
  @Override public boolean isLongClickable() { return node.isLongClickable(); }
  @Override public boolean isEnabled() { return node.isEnabled(); }
  @Override public boolean isFocusable() { return node.isFocusable(); }
  @Override public boolean isFocused() { return node.isFocused(); }
  @Override public boolean isScrollable() { return node.isScrollable(); }
  @Override public boolean isSelected() { return node.isSelected(); }
  @Override public boolean isPassword() { return node.isPassword(); }
  @Override public boolean isEditable() { return node.isEditable(); }
  @Override public boolean isVisibleToUser() { return node.isVisibleToUser(); }
  @Override public int childCount() { return node.getChildCount(); }
  @Override public ViewNode child(int i) {
    AccessibilityNodeInfo c = node.getChild(i);
    return c == null ? null : new NodeView(c);
  }

  @Override public boolean perform(String action, String argument) {
    if ("set_text".equals(action)) {
      Bundle args = new Bundle();
      args.putCharSequence(AccessibilityNodeInfo.ACTION_ARGUMENT_SET_TEXT_CHARSEQUENCE, argument);
      return node.performAction(AccessibilityNodeInfo.ACTION_SET_TEXT, args);
    }
    int id;
    if ("click".equals(action)) id = AccessibilityNodeInfo.ACTION_CLICK;
    else if ("long_click".equals(action)) id = AccessibilityNodeInfo.ACTION_LONG_CLICK;
    else if ("focus".equals(action)) id = AccessibilityNodeInfo.ACTION_FOCUS;
    else if ("scroll_forward".equals(action)) id = AccessibilityNodeInfo.ACTION_SCROLL_FORWARD;
    else if ("scroll_backward".equals(action)) id = AccessibilityNodeInfo.ACTION_SCROLL_BACKWARD;
    else return false;
    return node.performAction(id);
  }
}
