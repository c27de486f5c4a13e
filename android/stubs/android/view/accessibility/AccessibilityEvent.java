package android.view.accessibility;

public final class AccessibilityEvent {
  private AccessibilityEvent() { throw new RuntimeException("Stub!"); }
}
