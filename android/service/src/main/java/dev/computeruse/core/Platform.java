package dev.computeruse.core;

import java.util.List;
import java.util.Map;

/**
 * What the phone offers the service's methods: its windows, gestures and global actions. The Android adapter
 * implements it over AccessibilityService; tests implement it in memory, so every method's logic runs off the
 * phone.
 */
public interface Platform {
  /** The application windows on screen now, the focused one first. */
  List<WindowView> windows();
  /** One stroke from (x1, y1) to (x2, y2) lasting `ms` (a tap or a long press does not move); false when refused. */
  boolean gesture(int x1, int y1, int x2, int y2, long ms);
  /** A global action: back, home, recents or notifications; false when refused. */
  boolean global(String action);
  /** Millisecond clock time of the last accessibility event (ui.settle waits for a quiet screen). */
  long lastEventAt();
  /** Facts for hello: model, API level, screen size. */
  Map<String, String> facts();
}
