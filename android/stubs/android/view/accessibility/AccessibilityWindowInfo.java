package android.view.accessibility;

public final class AccessibilityWindowInfo {
  public static final int TYPE_APPLICATION = 1;
  private AccessibilityWindowInfo() { throw new RuntimeException("Stub!"); }
  public int getId() { throw new RuntimeException("Stub!"); }
  public int getType() { throw new RuntimeException("Stub!"); }
  public CharSequence getTitle() { throw new RuntimeException("Stub!"); }
  public void getBoundsInScreen(android.graphics.Rect outBounds) { throw new RuntimeException("Stub!"); }
  public boolean isFocused() { throw new RuntimeException("Stub!"); }
  public AccessibilityNodeInfo getRoot() { throw new RuntimeException("Stub!"); }
}
