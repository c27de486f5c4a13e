/**
 * The wait for a dialog's closing after Return in it. GTK 4 closes a Save dialog only once the app's save handler
 * ran, after the act's settle: gnome-text-editor's receipt showed the dialog still open (its completion list gone)
 * and no "window closed", and the model spent a call to learn it had closed (AbiWord's GTK 3 dialog alike). GTK 4
 * lists that dialog as a `generic` window, not a `dialog`, and the Return changes the dialog's own rows and the
 * main window's title before the dialog goes: neither the role nor "nothing else came of it" tells a closing. So
 * after a Return in a dialog-like window (a dialog, a modal window, or another window of an app whose main window
 * is open) that is still listed, the window list is read again, bounded, until that window is gone or a new window
 * opened; the effects are then read again and joined to the act's. The window list says it closed, not its role.
 */
import type { WindowInfo } from '../engine/node.js';
import type { Chord } from '../protocol/keys.js';
import { joinDiffs } from '../engine/diff-join.js';
import { collectEffects, DIALOG_ROLES, openWindows, type Effects } from './effects.js';
import type { Session, SettleOptions } from './session.js';

/** How long a dialog may take to close after its Return, at most (the wait ends as soon as it does). */
export const DIALOG_CLOSE_MS = 2500;
/** Between two reads of the window list. */
const POLL_MS = 100;

/** Whether keys end with Return: what submits a dialog. */
export function endsInReturn(chords: readonly Chord[]): boolean {
  return chords[chords.length - 1]?.key === 'Enter';
}

/**
 * Whether `window` may close on a Return: it held the focus (listed focused, active, or an element of it focused), and
 * it is a dialog by role or state, or a window that
 * is not a frame (`window`) beside another window of its app (GTK 4's Save dialog is a `generic` window over its
 * editor). An app's only window, or one of two document frames, is not waited on.
 */
export function closesOnReturn(window: WindowInfo, fx: Effects): boolean {
  const listed = fx.listed?.get(window.id) ?? window;
  const seen = fx.before ?? fx.after;
  const root = seen?.elements[0];
  // GTK 4 lists its Save dialog unfocused while its name field holds the focus: the field's focus counts too.
  const focused = listed.focused || window.focused || seen?.focusRef !== undefined || root?.states.includes('active');
  if (!focused) return false;
  if (DIALOG_ROLES.has(window.role)) return true;
  if (root?.states.includes('modal')) return true;
  if (window.role === 'window') return false;
  return [...(fx.listed?.values() ?? [])].some((w) => w.id !== window.id && w.pid === window.pid);
}

/**
 * Whether a click on `ref` may close `window` as its Return does: a push button among the dialog's own buttons
 * (a child of the window's root as printed: Cancel, Save, OK, Close) of a window that `closesOnReturn` would wait
 * on. GTK 4's Save button closes its dialog only once the app's save handler ran, after the act's settle: the
 * receipt read `unknown` and "(no visible change in the window)" while the dialog had closed and the main window
 * was retitled. A toggle button (pressed, checked) and a button inside the dialog's content are not waited on.
 */
export function closesOnClick(window: WindowInfo, fx: Effects, ref: string): boolean {
  const seen = fx.before ?? fx.after;
  const line = seen?.elements.find((l) => l.ref === ref);
  const root = seen?.elements[0];
  if (!line || !root || line.role !== 'button' || line.parent !== root.ref) return false;
  if (line.states.some((s) => s === 'pressed' || s === 'checked' || s === 'expanded' || s === 'collapsed'))
    return false;
  return closesOnReturn(window, fx);
}

/**
 * Effects of a Return in `window` (or of a click that `closes` judges may close it), waited on (bounded) for the
 * window to close or another to open, joined to the act's own `fx`. Answers `fx` itself when no wait applies or
 * nothing structural came within `limitMs`.
 */
export async function dialogOutcome(
  session: Session,
  window: WindowInfo,
  fx: Effects,
  settle: SettleOptions,
  limitMs = DIALOG_CLOSE_MS,
  closes: (window: WindowInfo, fx: Effects) => boolean = closesOnReturn,
): Promise<Effects> {
  if (fx.busy || fx.newWindows.length || fx.unread?.length) return fx;
  if (fx.closedWindows.some((w) => w.id === window.id) || !closes(window, fx)) return fx;
  const base = fx.listed ?? (await openWindows(session));
  const start = Date.now();
  for (;;) {
    if (Date.now() - start >= limitMs) return fx;
    await new Promise((r) => setTimeout(r, POLL_MS));
    const now = await openWindows(session).catch(() => undefined);
    if (!now) continue;
    const opened = [...now.keys()].some((id) => !base.has(id));
    if (now.has(window.id) && !opened) continue;
    const later = await collectEffects(session, window, base, settle);
    // The dialog still lists (a busy app's window listed again from the display): nothing structural came.
    if (!later.closedWindows.length && !later.newWindows.length && !later.unread?.length) return fx;
    return joinLater(fx, later, window);
  }
}

/** The act's effects and those read once the dialog closed (or a window opened), as one. */
function joinLater(fx: Effects, later: Effects, window: WindowInfo): Effects {
  const closed = later.closedWindows.some((w) => w.id === window.id);
  return {
    ...later,
    // Closed: what it did shows in the window that took the focus back, and the dialog's own changes are moot.
    diff: closed ? later.diff : joinDiffs(fx.diff, later.diff),
    newWindows: [...fx.newWindows, ...later.newWindows],
    closedWindows: [...fx.closedWindows, ...later.closedWindows],
    popups: [...fx.popups, ...later.popups],
    ...(fx.before ? { before: fx.before } : {}),
  };
}
