package dev.computeruse.core;

/** One window on the phone's screen (AccessibilityWindowInfo), behind an interface like ViewNode. */
public interface WindowView {
  /** The window's handle: "w" and the system's window id. */
  String id();
  String title();
  /** The package of the app that owns the window (its root view's package), or "" for a system window. */
  String packageName();
  /** Screen bounds: left, top, right, bottom in pixels. */
  int[] boundsInScreen();
  boolean isFocused();
  /** The window's root view, or null when it has none (yet). */
  ViewNode root();
}
