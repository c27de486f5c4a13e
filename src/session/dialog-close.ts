/**
 * The wait for a dialog's structural outcome after Return in one of its fields. GTK 4 closes a Save dialog only
 * once the app's save handler ran, after the act's settle: gnome-text-editor's receipt showed the dialog still open
 * (its completion list gone) and no "window closed", and the model spent a call to learn it had closed (AbiWord's
 * GTK 3 dialog alike). So while the dialog is open and nothing else came of the Return (no window opened or closed,
 * no other window of the app changed), the window list is read again, bounded, until the dialog is gone or a new
 * window opened; the effects are then read as the act's.
 */
import type { WindowInfo } from '../engine/node.js';
import { collectEffects, DIALOG_ROLES, openWindows, type Effects } from './effects.js';
import type { Session, SettleOptions } from './session.js';

/** How long a dialog may take to close after its Return, at most (the wait ends as soon as it does). */
export const DIALOG_CLOSE_MS = 2500;
/** Between two reads of the window list. */
const POLL_MS = 100;

/** Effects of a Return in a field of `window`, waited on (bounded) for the dialog to close or a window to open. */
export async function dialogOutcome(
  session: Session,
  window: WindowInfo,
  fx: Effects,
  settle: SettleOptions,
  limitMs = DIALOG_CLOSE_MS,
): Promise<Effects> {
  if (!DIALOG_ROLES.has(window.role) || fx.busy || fx.closedWindows.length || fx.newWindows.length) return fx;
  if (fx.unread?.length || fx.others?.length || fx.popups.length) return fx;
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
    return later;
  }
}
