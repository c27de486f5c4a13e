/**
 * The last read of each window, kept for the next find while the driver's events say nothing changed. A find
 * right after an observe or an act used to read and distill the whole window again; the driver, which receives
 * the apps' events, answers in one short call whether a read is still good (tree.changed with the read's mark).
 * The cache lives in the session, not in the driver: the session owns what was read and the engine's work on it,
 * and the driver stays a reader that reports events; only reads the driver marked (drivers with tree.changed)
 * are kept, so every other driver reads afresh as before. Anything unsure means a fresh read: a mark the driver
 * did not make, an app that does not answer, any event of the window's app, a window opened, closed or renamed
 * anywhere when the window was named by title or app. An act never trusts a find: the driver checks the element's
 * role and name against the live object before it sends anything.
 */
import type { ChangedResult, SnapshotResult } from '../protocol/methods.js';
import { isWindowRef, type WindowTable } from './windows.js';

/** How a tool names a window (the session's WindowTarget, restated here so that this module sits below it). */
interface WindowTarget { app?: string; window?: string }

/** Windows whose last read is kept (the oldest is forgotten first). */
const MAX_READS = 8;
/** Reads of parts of windows kept (a find reads at most 8 per window). */
const MAX_PARTS = 64;

/** Asks the driver whether a window may have changed since a read's mark. */
export type ChangedSince = (window: string, mark: string) => Promise<ChangedResult>;

/** What a target resolved to, and whether finding it again needs the windows unchanged. */
interface Resolved { windowId: string; byName: boolean }

export class RecentReads {
  private readonly reads = new Map<string, SnapshotResult & { mark: string }>();
  private readonly targets = new Map<string, Resolved>();
  /** The mark of each window's last whole read, kept even when the read itself is no longer good for a find. */
  private readonly marks = new Map<string, string>();
  /**
   * Reads of parts of a window (a scrolled-out part's subtree) taken while its whole read with this mark was good,
   * by mark and request: the part is as good as the read (no event of the app since its mark).
   */
  private readonly parts = new Map<string, SnapshotResult>();

  /** Keeps a whole-window read the driver marked. */
  note(raw: SnapshotResult): void {
    if (raw.mark === undefined) { this.marks.delete(raw.window.id); return; }
    this.marks.delete(raw.window.id);
    this.marks.set(raw.window.id, raw.mark);
    if (this.marks.size > MAX_READS) this.marks.delete(this.marks.keys().next().value!);
    this.reads.delete(raw.window.id);
    this.reads.set(raw.window.id, { ...raw, mark: raw.mark });
    if (this.reads.size > MAX_READS) this.forgetWindow(this.reads.keys().next().value!);
  }

  /** Keeps which window a target named, for the next find by the same words. */
  noteTarget(target: WindowTarget, windowId: string, windows: WindowTable): void {
    this.targets.set(keyOf(target), { windowId, byName: byRef(target, windows) === undefined });
  }

  /**
   * The kept read of the window `target` names when the driver says neither that window's app nor (for a window
   * named by title or app) any window changed since it; else undefined.
   */
  async reuse(
    target: WindowTarget,
    windows: WindowTable,
    changedSince: ChangedSince,
  ): Promise<SnapshotResult | undefined> {
    const known = byRef(target, windows);
    const resolved = known ? { windowId: known, byName: false } : this.targets.get(keyOf(target));
    return resolved ? this.reuseWindow(resolved.windowId, changedSince, resolved.byName) : undefined;
  }

  /**
   * The kept read of a window while the driver says its app sent no event since (and, `byName`, no window opened,
   * closed or was renamed anywhere); else undefined, and the read is forgotten.
   */
  async reuseWindow(windowId: string, changedSince: ChangedSince, byName = false): Promise<SnapshotResult | undefined> {
    const read = this.reads.get(windowId);
    if (!read) return undefined;
    const answer = await changedSince(read.window.id, read.mark).catch(() => undefined);
    if (!answer || answer.changed || (byName && answer.windows)) {
      this.reads.delete(read.window.id);
      return undefined;
    }
    return read;
  }

  /** A kept read of a part of the window read with `mark`, asked the same way; undefined when none is kept. */
  part(mark: string, request: string): SnapshotResult | undefined { return this.parts.get(`${mark}\n${request}`); }

  /** Keeps a read of a part of the window whose whole read had `mark` (while that read was still good). */
  notePart(mark: string, request: string, read: SnapshotResult): void {
    this.parts.set(`${mark}\n${request}`, read);
    if (this.parts.size > MAX_PARTS) this.parts.delete(this.parts.keys().next().value!);
  }

  /** The mark of the last whole read of a window, for a re-read the driver may patch (tree.snapshot `since`). */
  markOf(windowId: string): string | undefined { return this.marks.get(windowId); }

  /** Forgets the reads of windows that are no longer open. */
  keepOnly(open: readonly string[]): void {
    for (const id of [...this.reads.keys()]) if (!open.includes(id)) this.forgetWindow(id);
  }

  clear(): void { this.reads.clear(); this.targets.clear(); this.marks.clear(); this.parts.clear(); }

  private forgetWindow(id: string): void {
    this.reads.delete(id);
    this.marks.delete(id);
    for (const [k, r] of [...this.targets]) if (r.windowId === id) this.targets.delete(k);
  }
}

/** The window id a `wN` target names, when the session knows it. */
function byRef(target: WindowTarget, windows: WindowTable): string | undefined {
  return target.window && isWindowRef(target.window) ? windows.get(target.window)?.id : undefined;
}

const keyOf = (target: WindowTarget): string => JSON.stringify([target.app ?? null, target.window ?? null]);
