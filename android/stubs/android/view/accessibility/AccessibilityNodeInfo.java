package android.view.accessibility;

public class AccessibilityNodeInfo {
  public static final int ACTION_FOCUS = 0x00000001;
  public static final int ACTION_CLICK = 0x00000010;
  public static final int ACTION_LONG_CLICK = 0x00000020;
  public static final int ACTION_SCROLL_FORWARD = 0x00001000;
  public static final int ACTION_SCROLL_BACKWARD = 0x00002000;
  public static final int ACTION_SET_TEXT = 0x00200000;
  public static final String ACTION_ARGUMENT_SET_TEXT_CHARSEQUENCE = "ACTION_ARGUMENT_SET_TEXT_CHARSEQUENCE";

  AccessibilityNodeInfo() { throw new RuntimeException("Stub!"); }
  public int getChildCount() { throw new RuntimeException("Stub!"); }
  public AccessibilityNodeInfo getChild(int index) { throw new RuntimeException("Stub!"); }
  public CharSequence getClassName() { throw new RuntimeException("Stub!"); }
  public CharSequence getPackageName() { throw new RuntimeException("Stub!"); }
  public CharSequence getText() { throw new RuntimeException("Stub!"); }
  public CharSequence getContentDescription() { throw new RuntimeException("Stub!"); }
  public CharSequence getHintText() { throw new RuntimeException("Stub!"); }
  public String getViewIdResourceName() { throw new RuntimeException("Stub!"); }
  public void getBoundsInScreen(android.graphics.Rect outBounds) { throw new RuntimeException("Stub!"); }
  public boolean isCheckable() { throw new RuntimeException("Stub!"); }
  public boolean isChecked() { throw new RuntimeException("Stub!"); }
  public boolean isClickable() { throw new RuntimeException("Stub!"); }
  public boolean isLongClickable() { throw new RuntimeException("Stub!"); }
  public boolean isEnabled() { throw new RuntimeException("Stub!"); }
  public boolean isFocusable() { throw new RuntimeException("Stub!"); }
  public boolean isFocused() { throw new RuntimeException("Stub!"); }
  public boolean isScrollable() { throw new RuntimeException("Stub!"); }
  public boolean isSelected() { throw new RuntimeException("Stub!"); }
  public boolean isPassword() { throw new RuntimeException("Stub!"); }
  public boolean isEditable() { throw new RuntimeException("Stub!"); }
  public boolean isVisibleToUser() { throw new RuntimeException("Stub!"); }
  public boolean performAction(int action) { throw new RuntimeException("Stub!"); }
  public boolean performAction(int action, android.os.Bundle arguments) { throw new RuntimeException("Stub!"); }
}
