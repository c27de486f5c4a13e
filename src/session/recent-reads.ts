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
/** Parts of windows read and lists searched beyond a whole read, kept (a find reads at most 8 parts per window). */
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
   * What a find asked the app beyond a window's whole read (a scrolled-out part's subtree, a search of a list's rows),
   * by window and request, with the mark of the whole read that was good when it was asked (`since`): it is as good
   * as that read while the app sends no event since that mark. A new whole read of the window keeps the parts asked
   * under the read it replaces; the next reuse asks about both marks and, when neither changed, stamps them with
   * the new read's mark (nothing changed from the older mark until after the newer one was taken).
   */
  private readonly parts = new Map<string, { window: string; since: string; value: unknown }>();

  /** Keeps a whole-window read the driver marked. */
  note(raw: SnapshotResult): void {
    const id = raw.window.id;
    const before = this.reads.get(id)?.mark;
    this.dropParts(id, (since) => since !== before || raw.mark === undefined);
    if (raw.mark === undefined) { this.marks.delete(id); this.reads.delete(id); return; }
    this.marks.delete(id);
    this.marks.set(id, raw.mark);
    if (this.marks.size > MAX_READS) this.marks.delete(this.marks.keys().next().value!);
    this.reads.delete(id);
    // The read itself, not a copy: the snapshot built from it is found again by the object (Session.wholeSnapshot).
    this.reads.set(id, raw as SnapshotResult & { mark: string });
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
   * closed or was renamed anywhere); else undefined, and the read and its parts are forgotten.
   */
  async reuseWindow(windowId: string, changedSince: ChangedSince, byName = false): Promise<SnapshotResult | undefined> {
    const read = this.reads.get(windowId);
    if (!read) return undefined;
    const id = read.window.id;
    // Parts asked under the read this one replaced: good too when the app sent nothing since that older mark.
    const older = [...this.parts.values()].find((p) => p.window === id && p.since !== read.mark)?.since;
    const ask = (mark: string): Promise<ChangedResult | undefined> => changedSince(id, mark).catch(() => undefined);
    const [answer, olderAnswer] = await Promise.all([ask(read.mark), older === undefined ? undefined : ask(older)]);
    if (!answer || answer.changed || (byName && answer.windows)) {
      this.reads.delete(id);
      this.dropParts(id, () => true);
      return undefined;
    }
    if (older !== undefined) {
      const good = olderAnswer !== undefined && !olderAnswer.changed;
      for (const [k, p] of [...this.parts]) if (p.window === id && p.since === older) {
        if (good) p.since = read.mark;
        else this.parts.delete(k);
      }
    }
    return read;
  }

  /**
   * What was asked the same way (`request`) beyond `raw`, a whole read found unchanged, while that read was good;
   * undefined when nothing is kept or `raw` is not the window's kept read.
   */
  part<T>(raw: SnapshotResult, request: string): T | undefined {
    const kept = this.parts.get(`${raw.window.id}\n${request}`);
    const good = raw.mark !== undefined && this.reads.get(raw.window.id)?.mark === raw.mark && kept?.since === raw.mark;
    return good ? (kept.value as T) : undefined;
  }

  /** Keeps what was asked beyond `raw` (a part's read, a list's search), while `raw` is the window's kept read. */
  notePart(raw: SnapshotResult, request: string, value: unknown): void {
    if (raw.mark === undefined || this.reads.get(raw.window.id)?.mark !== raw.mark) return;
    const key = `${raw.window.id}\n${request}`;
    this.parts.delete(key);
    this.parts.set(key, { window: raw.window.id, since: raw.mark, value });
    if (this.parts.size > MAX_PARTS) this.parts.delete(this.parts.keys().next().value!);
  }

  /** The mark of the last whole read of a window, for a re-read the driver may patch (tree.snapshot `since`). */
  markOf(windowId: string): string | undefined { return this.marks.get(windowId); }

  /** Forgets the reads of windows that are no longer open. */
  keepOnly(open: readonly string[]): void {
    for (const id of [...this.reads.keys()]) if (!open.includes(id)) this.forgetWindow(id);
  }

  clear(): void { this.reads.clear(); this.targets.clear(); this.marks.clear(); this.parts.clear(); }

  private dropParts(window: string, which: (since: string) => boolean): void {
    for (const [k, p] of [...this.parts]) if (p.window === window && which(p.since)) this.parts.delete(k);
  }

  private forgetWindow(id: string): void {
    this.reads.delete(id);
    this.marks.delete(id);
    this.dropParts(id, () => true);
    for (const [k, r] of [...this.targets]) if (r.windowId === id) this.targets.delete(k);
  }
}

/** The window id a `wN` target names, when the session knows it. */
function byRef(target: WindowTarget, windows: WindowTable): string | undefined {
  return target.window && isWindowRef(target.window) ? windows.get(target.window)?.id : undefined;
}

const keyOf = (target: WindowTarget): string => JSON.stringify([target.app ?? null, target.window ?? null]);
