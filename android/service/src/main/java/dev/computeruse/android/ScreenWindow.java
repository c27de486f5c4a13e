package dev.computeruse.android;

import android.graphics.Rect;
import android.view.accessibility.AccessibilityNodeInfo;
import android.view.accessibility.AccessibilityWindowInfo;
import dev.computeruse.core.ViewNode;
import dev.computeruse.core.WindowView;

/** An application window (AccessibilityWindowInfo) as the core's WindowView; its app is its root view's package. */
final class ScreenWindow implements WindowView {
  private final AccessibilityWindowInfo window;
  private final AccessibilityNodeInfo root;

  ScreenWindow(AccessibilityWindowInfo window) {
    this.window = window;
    this.root = window.getRoot();
  }

  @Override public String id() { return "w" + window.getId(); }
  @Override public String title() { return window.getTitle() == null ? "" : window.getTitle().toString(); }
  @Override public String packageName() { return root == null || root.getPackageName() == null ? "" : root.getPackageName().toString(); }
  @Override public int[] boundsInScreen() {
    Rect r = new Rect();
    window.getBoundsInScreen(r);
    return new int[] {r.left, r.top, r.right, r.bottom};
  }
  @Override public boolean isFocused() { return window.isFocused(); }
  @Override public ViewNode root() { return root == null ? null : new NodeView(root); }
}
