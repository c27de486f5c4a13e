/**
 * What the helper's `focus` answers (helper/Foreground.cs): whether the window is in front, which step of the
 * ladder brought it there, and, when none did, what the user can do. Keys, typing and the pointer need the
 * window in front and take it from the user; patterns (Invoke, Toggle, Value, SelectionItem, ScrollItem...) do not.
 */

/** The helper's answer to `focus`. */
export interface FocusAnswer {
  foreground: boolean;
  /** "already", "SetForegroundWindow", "AttachThreadInput" or "Alt key". */
  method?: string;
  /** True when the window was minimized and was restored first. */
  restored?: boolean;
  /** When not in front: why, and what the user can do. */
  why?: string;
}

/** The start of a window_not_focused message: the helper's reason, or the plain fact. */
export function notInFront(a: FocusAnswer): string {
  if (typeof a.why === 'string' && a.why.length > 0) return a.why.slice(0, 400);
  return 'Windows did not bring the window to the front (another app holds the foreground)';
}

/** Said in the receipt of pointer input: it needs the window in front, which takes the focus from the user. */
export function tookFront(a: FocusAnswer): string {
  return a.method === 'already' ? 'the window was already in front (pointer input goes to the window in front)'
    : `the window was brought to the front for it${a.method ? ` (${a.method})` : ''}, taking the focus from the ` +
      'user\'s app: pointer input goes to the window in front';
}
