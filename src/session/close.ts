/**
 * The `close` op above the protocol: a close asked on any element goes to the root of the window that holds it (the
 * driver closes window roots only, as their title bar's close button does), and its receipt says what became of the
 * window: closed (and whether its app exited or runs on with no window), still open behind a dialog the app opened
 * to ask first ("Save changes?"), or still open.
 */
import { nameText, quoteText } from '../engine/escape.js';
import { redactText } from '../engine/redact.js';
import type { WindowInfo } from '../engine/node.js';
import type { Snapshot } from '../engine/snapshot.js';
import type { Chord } from '../protocol/keys.js';
import type { ActionReceipt } from './receipts.js';
import type { Session } from './session.js';

/** Roles of a window's root node: the element a close goes to. */
const WINDOW_ROOTS: ReadonlySet<string> = new Set(['window', 'dialog', 'alert']);

/**
 * The ref of the root of a window, from its last snapshot; undefined when that snapshot does not show the window's
 * root (a scoped read).
 */
export function windowRootRef(last: Snapshot | undefined): string | undefined {
  const root = last?.elements.find((l) => l.depth === 0 && l.parent === undefined);
  if (!root || !WINDOW_ROOTS.has(root.role)) return undefined;
  return root.ref;
}

/** What the receipt of a close reads from the effects the act settled on. */
export interface CloseEffects {
  window?: WindowInfo | undefined;
  closedWindows: readonly WindowInfo[];
  newWindows: readonly { window: WindowInfo }[];
  busy?: boolean | undefined;
}

/**
 * Words the receipts of close ops by what became of their window: closed (then whether its app exited or runs on
 * with no window, from the app list), a dialog the app opened instead, or still open (`unknown`: never a success).
 */
export async function closeReceipts(session: Session, receipts: ActionReceipt[], fx: CloseEffects): Promise<void> {
  const closes = receipts.filter((r) => r.op === 'close' && r.status === 'unknown');
  const target = fx.window;
  if (closes.length === 0 || !target) return;
  const r = closes[closes.length - 1]!;
  const sep = r.detail ? '; ' : '';
  if (fx.closedWindows.some((w) => w.id === target.id)) {
    r.status = 'confirmed';
    r.detail += `${sep}the window closed${await appAfter(session, target)}`;
    return;
  }
  const asked = fx.newWindows.find((w) => w.window.pid === target.pid);
  if (asked) {
    const w = asked.window;
    r.status = 'confirmed';
    const dialog = `[${session.windows.refOf(w)}] ${w.role} ${quoteText(redactText(w.title))}`;
    r.detail += `${sep}the app asked first: it opened ${dialog} (below); the window stays open until that is answered`;
    return;
  }
  r.detail +=
    `${sep}the window is still open: its app did not close it${fx.busy ? ' (it is busy and not answering)' : ''} ` +
    '(it may ask elsewhere, refuse, or need its own Quit or Close command)';
}

/** What became of a closed window's app: exited, runs on with no window, or nothing to say (other windows open). */
async function appAfter(session: Session, closed: WindowInfo): Promise<string> {
  const apps = await session.apps().catch(() => undefined);
  if (!apps) return '';
  const app = apps.find((a) => a.pid === closed.pid);
  if (!app) return `; ${nameText(closed.app)} exited`;
  return app.windows.length === 0
    ? `; ${nameText(closed.app)} is still running with no window (computer_apps lists it)`
    : '';
}

/** Whether keys are the one chord that closes a window or quits its app where the app binds it (ctrl+q, ctrl+w, alt+F4). */
export function closeChord(chords: readonly Chord[] | undefined): boolean {
  if (chords?.length !== 1) return false;
  const { mods, key } = chords[0]!;
  const only = (m: string): boolean => mods.length === 1 && mods[0] === m;
  const primary = only('Primary') || only('Control');
  return (primary && /^[qw]$/i.test(key)) || (only('Alt') && key === 'F4');
}

/**
 * What a close chord that changed nothing says: the app may not bind it, and the close op on the window's root (by
 * its ref in the last snapshot) closes the window as its close button does. Undefined without a root ref.
 */
export function closeChordHint(last: Snapshot | undefined): string | undefined {
  const root = windowRootRef(last);
  return root === undefined ? undefined
    : `the app may not bind this key: computer_act ${root} close closes the window as its close button does`;
}
