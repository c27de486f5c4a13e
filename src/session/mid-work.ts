/**
 * A window read in the middle of its app's work. After ctrl+s in LibreOffice Writer the act's re-read caught the
 * save under way: three nameless combo boxes added, the document area `enabled → disabled, (not busy) → busy` and
 * 85 elements `enabled → disabled`, none of which was the outcome. When the re-read finds elements newly busy, or
 * many newly disabled, the window is read again, bounded, until that clears, so the receipt shows what came of it.
 */
import type { RawNode, WindowInfo } from '../engine/node.js';
import type { Snapshot } from '../engine/snapshot.js';
import type { SnapshotResult } from '../protocol/methods.js';
import type { Session } from './session.js';

/** The longest the re-read waits for an app's work to end. */
export const MID_WORK_MS = 3000;
/** Newly disabled elements from which a re-read counts as caught mid-work (a window greyed out while it works). */
const MASS_DISABLED = 10;
/** Between two reads. */
const POLL_MS = 150;
/** Reads alike in a row (~1.2 s) after which many disabled elements, nothing busy, are the outcome, not work under way. */
const ALIKE_READS = 8;

/** What makes `after` read as mid-work against `before`: `busy` (an element newly busy), `disabled`, or nothing. */
export function midWork(before: Snapshot, after: Snapshot): 'busy' | 'disabled' | undefined {
  const old = new Map(before.elements.map((l) => [l.ref, l]));
  let disabled = 0;
  for (const l of after.elements) {
    const a = old.get(l.ref);
    if (l.states.includes('busy') && !a?.states.includes('busy')) return 'busy';
    if (a && l.states.includes('disabled') && !a.states.includes('disabled')) disabled++;
  }
  return disabled >= MASS_DISABLED ? 'disabled' : undefined;
}

/**
 * Whether the raw read `raw` may read as mid-work against `before`, without building its snapshot: an element's states
 * are its raw node's (distill copies them), and its ref is the one its handle holds. Any busy node, or MASS_DISABLED
 * disabled ones that were not disabled (or not seen) before, send it to the snapshot's check (`midWork`); fewer cannot
 * read as mid-work there. Saves building the re-read's snapshot twice per act.
 */
export function mayBeMidWork(session: Session, before: Snapshot, raw: SnapshotResult): boolean {
  const old = new Map(before.elements.map((l) => [l.ref, l]));
  let disabled = 0;
  const stack: RawNode[] = [raw.root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.states.includes('busy')) return true;
    if (n.states.includes('disabled')) {
      const ref = session.refs.refOfHandle(raw.window.id, n.id);
      const was = ref !== undefined ? old.get(ref) : undefined;
      if (!was?.states.includes('disabled') && ++disabled >= MASS_DISABLED) return true;
    }
    for (const c of n.children ?? []) stack.push(c);
  }
  return false;
}

/**
 * The window read again until it no longer reads as mid-work against `before`, at most MID_WORK_MS; many disabled
 * elements that stay ALIKE_READS reads in a row with nothing busy are taken as the outcome. Answers the last read.
 */
export async function readPastWork(session: Session, window: WindowInfo, before: Snapshot | undefined,
  raw: SnapshotResult, limitMs = MID_WORK_MS): Promise<SnapshotResult> {
  if (!before || !mayBeMidWork(session, before, raw)) return raw;
  try {
    return await readOn(session, window, before, raw, limitMs);
  } finally {
    // Reading a snapshot notes it as the window's last: the act's diff is still against the one before.
    session.last.set(window.id, before);
  }
}

async function readOn(session: Session, window: WindowInfo, before: Snapshot, raw: SnapshotResult,
  limitMs: number): Promise<SnapshotResult> {
  const start = Date.now();
  let cur = raw;
  let signature = '';
  let alike = 0;
  for (;;) {
    const why = midWork(before, session.snapshotOf(cur).full);
    if (!why || Date.now() - start >= limitMs) return cur;
    const now = JSON.stringify(cur.root, (k, v: unknown) => (k === 'bounds' ? undefined : v));
    alike = now === signature ? alike + 1 : 0;
    signature = now;
    if (why === 'disabled' && alike >= ALIKE_READS - 1) return cur;
    await new Promise((r) => setTimeout(r, POLL_MS));
    const next = await session.readWindow(window).catch(() => null);
    if (!next) return cur;
    cur = next;
  }
}
