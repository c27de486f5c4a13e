package dev.computeruse.core;

/**
 * One view as the AccessibilityService sees it (AccessibilityNodeInfo), behind an interface so the mapping runs
 * and is tested off the phone. The Android adapter wraps AccessibilityNodeInfo; tests wrap recorded screens.
 */
public interface ViewNode {
  String className();
  String packageName();
  /** getText(), or "" (a password field's text is never asked for: the mapper writes bullets). */
  String text();
  String contentDescription();
  String hintText();
  /** getViewIdResourceName(), or "". */
  String viewId();
  /** Screen bounds: left, top, right, bottom in pixels. */
  int[] boundsInScreen();
  boolean isCheckable();
  boolean isChecked();
  boolean isClickable();
  boolean isLongClickable();
  boolean isEnabled();
  boolean isFocusable();
  boolean isFocused();
  boolean isScrollable();
  boolean isSelected();
  boolean isPassword();
  boolean isEditable();
  boolean isVisibleToUser();
  int childCount();
  /** The i-th child, or null when the view went away meanwhile. */
  ViewNode child(int i);
  /**
   * Performs one of Acts' accessibility actions on the view (click, long_click, focus, set_text, scroll_forward,
   * scroll_backward; `argument` is set_text's text, else null). False when the view refused it.
   */
  boolean perform(String action, String argument);
}
