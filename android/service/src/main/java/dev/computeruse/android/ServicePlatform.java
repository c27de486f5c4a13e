package dev.computeruse.android;

import android.accessibilityservice.AccessibilityService;
import android.accessibilityservice.GestureDescription;
import android.graphics.Path;
import android.os.Build;
import android.view.accessibility.AccessibilityWindowInfo;
import dev.computeruse.core.Platform;
import dev.computeruse.core.WindowView;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The phone as the core's Platform, over the running AccessibilityService: getWindows for the application
 * windows (focused first), dispatchGesture for taps and presses (waited for, bounded), performGlobalAction for
 * back / home / recents / notifications. Called from the link thread, never the main one.
 */
final class ServicePlatform implements Platform {
  private final AccessibilityService service;
  private volatile long lastEvent = System.currentTimeMillis();

  ServicePlatform(AccessibilityService service) { this.service = service; }

  /** Called for every accessibility event (ComputerUseService). */
  void touched() { lastEvent = System.currentTimeMillis(); }

  @Override public long lastEventAt() { return lastEvent; }

  @Override public List<WindowView> windows() {
    List<WindowView> out = new ArrayList<WindowView>();
    List<AccessibilityWindowInfo> all = service.getWindows();
    if (all == null) return out;
    for (AccessibilityWindowInfo w : all) {
      if (w.getType() != AccessibilityWindowInfo.TYPE_APPLICATION) continue;
      ScreenWindow sw = new ScreenWindow(w);
      if (sw.isFocused()) out.add(0, sw); else out.add(sw);
    }
    return out;
  }

  @Override public boolean gesture(int x1, int y1, int x2, int y2, long ms) {
    Path path = new Path();
    path.moveTo(x1, y1);
    if (x1 != x2 || y1 != y2) path.lineTo(x2, y2);
    GestureDescription g = new GestureDescription.Builder().addStroke(new GestureDescription.StrokeDescription(path, 0, Math.max(1, ms))).build();
    final CountDownLatch done = new CountDownLatch(1);
    final boolean[] completed = {false};
    AccessibilityService.GestureResultCallback cb = new AccessibilityService.GestureResultCallback() {
      @Override public void onCompleted(GestureDescription d) { completed[0] = true; done.countDown(); }
      @Override public void onCancelled(GestureDescription d) { done.countDown(); }
    };
    // The callback runs on the main thread (null handler); this thread waits for it, bounded.
    if (!service.dispatchGesture(g, cb, null)) return false;
    try { return done.await(ms + 5000, TimeUnit.MILLISECONDS) && completed[0]; } catch (InterruptedException e) { Thread.currentThread().interrupt(); return false; }
  }

  @Override public boolean global(String action) {
    int id;
    if ("back".equals(action)) id = AccessibilityService.GLOBAL_ACTION_BACK;
    else if ("home".equals(action)) id = AccessibilityService.GLOBAL_ACTION_HOME;
    else if ("recents".equals(action)) id = AccessibilityService.GLOBAL_ACTION_RECENTS;
    else if ("notifications".equals(action)) id = AccessibilityService.GLOBAL_ACTION_NOTIFICATIONS;
    else return false;
    return service.performGlobalAction(id);
  }

  @Override public Map<String, String> facts() {
    Map<String, String> m = new LinkedHashMap<String, String>();
    m.put("model", String.valueOf(Build.MODEL));
    m.put("manufacturer", String.valueOf(Build.MANUFACTURER));
    m.put("android", String.valueOf(Build.VERSION.RELEASE));
    m.put("api_level", String.valueOf(Build.VERSION.SDK_INT));
    m.put("channel", "accessibility service");
    return m;
  }
}
