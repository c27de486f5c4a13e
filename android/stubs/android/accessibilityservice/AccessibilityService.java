package android.accessibilityservice;

import android.view.accessibility.AccessibilityEvent;
import android.view.accessibility.AccessibilityNodeInfo;
import android.view.accessibility.AccessibilityWindowInfo;
import java.util.List;

public abstract class AccessibilityService extends android.app.Service {
  public static final int GLOBAL_ACTION_BACK = 1;
  public static final int GLOBAL_ACTION_HOME = 2;
  public static final int GLOBAL_ACTION_RECENTS = 3;
  public static final int GLOBAL_ACTION_NOTIFICATIONS = 4;

  public abstract void onAccessibilityEvent(AccessibilityEvent event);
  public abstract void onInterrupt();
  protected void onServiceConnected() { throw new RuntimeException("Stub!"); }
  public AccessibilityNodeInfo getRootInActiveWindow() { throw new RuntimeException("Stub!"); }
  public List<AccessibilityWindowInfo> getWindows() { throw new RuntimeException("Stub!"); }
  public final boolean performGlobalAction(int action) { throw new RuntimeException("Stub!"); }
  public final boolean dispatchGesture(GestureDescription gesture, GestureResultCallback callback, android.os.Handler handler) { throw new RuntimeException("Stub!"); }

  public abstract static class GestureResultCallback {
    public GestureResultCallback() { throw new RuntimeException("Stub!"); }
    public void onCompleted(GestureDescription gestureDescription) { throw new RuntimeException("Stub!"); }
    public void onCancelled(GestureDescription gestureDescription) { throw new RuntimeException("Stub!"); }
  }
}
