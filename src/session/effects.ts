/**
 * What an input did: settle, re-observe the target window, diff it against what the model last saw, and
 * snapshot windows that appeared. Shared by element actions and keys.
 */
import type { AppInfo, RawNode, WindowInfo } from '../engine/node.js';
import { walk } from '../engine/node.js';
import type { Snapshot } from '../engine/snapshot.js';
import { diffSnapshots, type DiffOptions } from '../engine/diff.js';
import { isComputerUseError } from '../protocol/errors.js';
import { redactText } from '../engine/redact.js';
import type { Session, SettleOptions } from './session.js';
import { DEFAULT_QUIET_MS, type SnapshotResult } from '../protocol/methods.js';
import { readPastWork } from './mid-work.js';

/** The re-read that found the app busy. */
const BUSY = Symbol('busy');

/** Open windows by id. */
export async function openWindows(session: Session): Promise<Map<string, WindowInfo>> {
  return windowsOf(await session.apps());
}

/** The windows of listed apps by id. */
export function windowsOf(apps: AppInfo[]): Map<string, WindowInfo> {
  const out = new Map<string, WindowInfo>();
  for (const a of apps) for (const w of a.windows) out.set(w.id, w);
  return out;
}

export interface Effects {
  diff: string[];
  newWindows: { window: WindowInfo; snapshot: Snapshot }[];
  closedWindows: WindowInfo[];
  /** New windows whose content already shows in the target window's diff. */
  popups: WindowInfo[];
  /** The window that took the focus back when the target closed; `diff` is then its diff. */
  refocused?: WindowInfo;
  /** The app's other windows the model has seen that changed while the target (a dialog) stayed open, with their diffs. */
  others?: { window: WindowInfo; diff: string[] }[];
  /** The target's app did not answer the re-read (busy: a modal dialog it is running, a long job). */
  busy?: boolean;
  /** New windows that could not be read (their app is busy): listed by title, without content. */
  unread?: WindowInfo[];
  /**
   * The target window's title as the display has it, when it changed (a save drops the modified mark): the diff
   * compares elements, and a frame not named by its title showed no change at all.
   */
  title?: { before: string; after: string };
  /**
   * The diff's line of the window's own element shows its new title (`~ [e1] window name "*a…" → "a - Editor"`):
   * a header above it names the window by its ref only, and `title` is left unset (the title is said once).
   */
  retitled?: boolean;
  settle: { settled: boolean; events: number; ms: number };
  /** The windows open when the act's effects were read. */
  listed?: Map<string, WindowInfo>;
  before?: Snapshot;
  after?: Snapshot;
}

export async function collectEffects(
  session: Session,
  window: WindowInfo,
  windowsBefore: Map<string, WindowInfo>,
  settle: SettleOptions,
  diffOptions: DiffOptions = {},
): Promise<Effects> {
  const { apps, ...settled } = await settleAfter(session, window, settle);
  // The window list and the re-read are independent: run them together.
  const [after, raw] = await Promise.all([
    apps ? windowsOf(session.noteApps(apps)) : openWindows(session),
    rereadTarget(session, window),
  ]);
  const fx: Effects = { diff: [], newWindows: [], closedWindows: [], popups: [], settle: settled, listed: after };
  if (raw === BUSY) fx.busy = true;
  const before = session.last.get(window.id);
  if (before) fx.before = before;
  const still = after.get(window.id);
  // A busy app is listed with no windows (the Linux driver cannot ask it for them): its windows did not close.
  if (still || fx.busy) {
    if (raw && raw !== BUSY) {
      const { full } = session.snapshotOf(raw);
      fx.after = full;
      if (before) {
        // Removals name only what the model was shown; what this receipt shows it was shown then.
        const seen = session.seenOf(window.id);
        fx.diff = diffSnapshots(before, full, { ...diffOptions, ...(seen ? { seen } : {}) }).lines;
        session.noteSeen(window.id, fx.diff.join('\n'));
      }
      if (before && retitled(before, full)) fx.retitled = true;
      const was = before ? redactText(before.window.title) : undefined;
      if (was !== undefined && was !== redactText(full.window.title) && !fx.retitled)
        fx.title = { before: was, after: redactText(full.window.title) };
    }
    // A dialog acts on its app's other windows (Replace All changes the document): those the model saw are read
    // again, one round trip each, and their diffs shown; a plain window's act is read in the window itself.
    if (!fx.busy && DIALOG_ROLES.has(window.role)) fx.others = await otherWindowDiffs(session, window, after);
  } else {
    fx.closedWindows.push(window);
    // A dialog that closed hands the focus back to a window the model saw: its diff is what the dialog did
    // (gedit's title after Save As read "(no visible change in the window)").
    const back = refocusedWindow(session, window, after, windowsBefore);
    const seen = back ? session.last.get(back.id) : undefined;
    const raw2 = back && seen ? await session.readWindow(back).catch(() => null) : null;
    if (back && seen && raw2) {
      fx.refocused = raw2.window;
      const now = session.snapshotOf(raw2).full;
      const shown = session.seenOf(back.id);
      fx.diff = diffSnapshots(seen, now, shown ? { seen: shown } : {}).lines;
      session.noteSeen(back.id, fx.diff.join('\n'));
      if (retitled(seen, now)) fx.retitled = true;
    }
  }
  await newWindowEffects(session, window, after, windowsBefore, fx);
  if (!fx.busy) {
    for (const [id, w] of windowsBefore) {
      if (!after.has(id) && id !== window.id && w.pid === window.pid) fx.closedWindows.push(w);
    }
  }
  return fx;
}

/** The window's own element (the root, depth 0) was renamed: the diff's first change line shows the new title. */
function retitled(before: Snapshot, after: Snapshot): boolean {
  const a = before.elements.find((l) => l.depth === 0);
  const b = after.elements.find((l) => l.depth === 0);
  return a !== undefined && b !== undefined && a.ref === b.ref && a.name !== b.name && b.name === after.window.title;
}

/** Waits for the app to settle after the act: `ui.settle` (listing the windows, given act_windows), else polling. */
async function settleAfter(session: Session, window: WindowInfo, settle: SettleOptions):
  Promise<{ settled: boolean; events: number; ms: number; apps?: AppInfo[] | undefined }> {
  const hello = await session.device.hello();
  // With act_windows the settle's answer lists the windows open then: no apps.list follows it.
  const listing = hello.capabilities.includes('act_windows');
  return hello.capabilities.includes('events')
    ? await session.device.call('ui.settle', {
      ...(settle.quietMs !== undefined ? { quietMs: settle.quietMs } : {}),
      timeoutMs: settle.timeoutMs, window: window.id,
      ...(settle.minMs !== undefined ? { minMs: Math.min(settle.minMs, settle.timeoutMs) } : {}),
      ...(listing ? { apps: true } : {}) }, settle.timeoutMs + 5000)
    : { ...await pollSettle(session, window, settle), apps: undefined };
}

/** The target window read again after the act: null when it cannot be read, BUSY when its app stopped answering. */
function rereadTarget(session: Session, window: WindowInfo): Promise<SnapshotResult | null | typeof BUSY> {
  // A read that caught the app mid-work (busy, greyed out) is read again until the work is done, bounded.
  return session.readWindow(window, { patch: true })
    .then((r) => readPastWork(session, window, session.last.get(window.id), r)).catch((e) => {
      // A target that became hidden (e.g. it now shows an authentication dialog) is not read either.
      // A window known from the display only (its app busy or off the bus) has no tree to read: unread, not an
      // error.
      const unread = ['window_not_found', 'stale_ref', 'denied_by_policy', 'unsupported'] as const;
      if (unread.some((code) => isComputerUseError(e, code))) return null;
      // Dispatched, then the app stopped answering (claws-mail's Compose ran a modal spell check): the act may
      // have worked, so the receipt stays unknown with what can be seen, never a bare timeout that invites a retry.
      if (isComputerUseError(e, 'timeout')) return BUSY;
      throw e;
    });
}

/** The windows that appeared since the act began: popups of the target's content, new windows read whole. */
async function newWindowEffects(session: Session, window: WindowInfo, after: Map<string, WindowInfo>,
  windowsBefore: Map<string, WindowInfo>, fx: Effects): Promise<void> {
  // Handles already shown in the target window: a popup window holding the same menu (GTK3 combo boxes)
  // is reported as a window without repeating its content. Looked up when a window appeared (most acts open none).
  let shown: Set<string | undefined> | undefined;
  const seenBefore = [...windowsBefore.values()];
  for (const [id, w] of after) {
    if (windowsBefore.has(id)) continue;
    shown ??= new Set((fx.after?.elements ?? []).map((l) => session.refs.lookup(l.ref)?.id));
    // A busy app's windows are listed from the display under other handles: one seen before is not new.
    if (fx.busy && w.pid === window.pid && seenBefore.some((b) => b.pid === w.pid && b.title === w.title)) continue;
    // A denied app's window is reported without its title or content (denied means unseen).
    if (session.hidden(w)) {
      fx.diff.push('(a window of a denied app appeared; computer-use may not read it)');
      continue;
    }
    const first = await session.readWindow(w).catch(() => null);
    if (!first) { (fx.unread ??= []).push(w); continue; }
    // Shown once laid out (FIRST_LAYOUT); a read that fails later keeps the one that worked.
    const raw = (
      await readUntilStable(async () => (await session.readWindow(w).catch(() => null)) ?? first, FIRST_LAYOUT, first)
    ).last;
    const inner: string[] = [];
    walk(raw.root, (n) => { if (n !== raw.root) inner.push(n.id); });
    if (inner.length > 0 && inner.every((h) => shown!.has(h))) { fx.popups.push(raw.window); continue; }
    const snapshot = session.snapshotOf(raw).full;
    // Every receipt prints its new windows whole: the next observe of one reads as what changed since.
    session.notePrinted(snapshot);
    fx.newWindows.push({ window: raw.window, snapshot });
  }
}

/** Roles of a window that acts on its app's other windows. */
export const DIALOG_ROLES: ReadonlySet<string> = new Set(['dialog', 'alert']);

/** At most this many other windows of the app are read again after an act in a dialog. */
const MAX_OTHER_WINDOWS = 2;

/** The app's other windows the model has seen, still open and not hidden, that changed, with their diffs. */
async function otherWindowDiffs(
  session: Session,
  target: WindowInfo,
  now: Map<string, WindowInfo>,
): Promise<{ window: WindowInfo; diff: string[] }[]> {
  const seen = [...now.values()]
    .filter((w) => w.id !== target.id && w.pid === target.pid && session.last.has(w.id) && !session.hidden(w))
    .slice(0, MAX_OTHER_WINDOWS);
  // Read together: each is one round trip to the same app, and none depends on another.
  const reads = await Promise.all(
    seen.map(async (w) => ({ before: session.last.get(w.id)!, raw: await session.readWindow(w).catch(() => null) })),
  );
  const out: { window: WindowInfo; diff: string[] }[] = [];
  for (const { before, raw } of reads) {
    if (!raw) continue;
    const shown = session.seenOf(raw.window.id);
    const diff = diffSnapshots(before, session.snapshotOf(raw).full, shown ? { seen: shown } : {}).lines
      .filter((l) => !l.startsWith('focus:'));
    session.noteSeen(raw.window.id, diff.join('\n'));
    if (diff.length) out.push({ window: raw.window, diff });
  }
  return out;
}

/**
 * The window that has the focus after `closed` closed, when the model has seen it: the app's focused window, else
 * its one other window that was open before. Never a window hidden from reads.
 */
function refocusedWindow(
  session: Session,
  closed: WindowInfo,
  now: Map<string, WindowInfo>,
  before: Map<string, WindowInfo>,
): WindowInfo | undefined {
  const seen = [...now.values()].filter(
    (w) => w.id !== closed.id && before.has(w.id) && session.last.has(w.id) && !session.hidden(w),
  );
  const mine = seen.filter((w) => w.pid === closed.pid);
  return mine.find((w) => w.focused) ?? seen.find((w) => w.focused) ?? (mine.length === 1 ? mine[0] : undefined);
}

/**
 * Settling for drivers without events: re-read the window until two reads in a row, `quietMs` apart, have
 * the same signature (the text of every element), or the timeout passes.
 */
export async function pollSettle(
  session: Session,
  window: WindowInfo,
  settle: SettleOptions,
): Promise<{ settled: boolean; events: number; ms: number }> {
  const { settled, ms } = await readUntilStable(
    () => session.device.call('tree.snapshot', { window: window.id }).catch(() => null),
    settle,
  );
  return { settled, events: 0, ms };
}

/**
 * The wait for a new window's first layout: two reads alike, 150 ms apart, within 2 s. GTK 4 lists a window
 * before laying it out: gnome-text-editor's window read with an info bar that is never shown ("Could Not Open
 * File", 114 nodes) and its Save As dialog with "No results found" (175 nodes), each gone one read later (49 and
 * 140 nodes), and the few events between do not tell (test/unit/first-layout).
 */
export const FIRST_LAYOUT: SettleOptions = { quietMs: 30, timeoutMs: 2000 };

/** Most reads one wait for a stable tree makes. */
const MAX_STABLE_READS = 200;

/**
 * Reads a window until two reads in a row, `quietMs` apart, have the same signature (every element's role,
 * name, states, value and children; bounds left out), or `timeoutMs` passed; answers the last read. A null
 * read (the window is gone) counts as a signature of its own. `first`: a read already made, counted as the first.
 */
export async function readUntilStable<T extends { root: RawNode } | null>(
  read: () => Promise<T>,
  settle: SettleOptions,
  first?: T,
): Promise<{ last: T; settled: boolean; ms: number; reads: number }> {
  const start = performance.now();
  const signatureOf = (r: T): string =>
    r ? JSON.stringify(r.root, (k, v: unknown) => (k === 'bounds' ? undefined : v)) : 'gone';
  let previous = first !== undefined ? signatureOf(first) : undefined;
  for (let reads = first !== undefined ? 2 : 1; ; reads++) {
    const pause = Math.max(10, settle.quietMs ?? DEFAULT_QUIET_MS);
    if (previous !== undefined) await new Promise((r) => setTimeout(r, pause));
    const last = await read();
    const signature = signatureOf(last);
    const ms = Math.round(performance.now() - start);
    if (signature === previous) return { last, settled: true, ms, reads };
    if (ms >= settle.timeoutMs || reads >= MAX_STABLE_READS) return { last, settled: false, ms, reads };
    previous = signature;
  }
}
