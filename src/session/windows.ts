/** Short window refs (`w1`, `w2`, …) so a model can name a window without its native handle. */
import type { WindowInfo } from '../engine/node.js';

/** Serialized window table. */
export interface WindowTableJSON { counter: number; entries: [string, WindowInfo][] }

/** A process as `WindowTable.processes` keys it: its pid and start token (a reused pid is another process). */
export const processKey = (p: { pid: number; startToken?: string }): string => `${p.pid} ${p.startToken ?? ''}`;

export class WindowTable {
  private counter = 0;
  /** The device prefix of new refs ("d2" → `d2w1`); '' on the first device. */
  prefix = '';
  private readonly byRef = new Map<string, WindowInfo>();
  private readonly byId = new Map<string, string>();

  /** The ref of a window, allocating one the first time it is seen; keeps the latest info. */
  refOf(w: WindowInfo): string {
    let ref = this.byId.get(w.id);
    const old = ref ? this.byRef.get(ref) : undefined;
    // A window handle reused by another process is another window.
    if (!ref || (old && (old.pid !== w.pid || old.startToken !== w.startToken))) {
      ref = `${this.prefix}w${++this.counter}`;
      this.byId.set(w.id, ref);
    }
    this.byRef.set(ref, w);
    return ref;
  }

  /**
   * The ref of a window its app lists from the display while it is busy (no accessibility answer): the same window
   * under another handle keeps the ref it had, when exactly one window of that process with that title is known
   * and not listed now (`listed`: the handles listed with it); else a ref of its own.
   */
  refOfDisplayed(w: WindowInfo, listed: ReadonlySet<string>): string {
    if (!this.byId.has(w.id)) {
      const same = [...this.byRef].filter(([, k]) => k.pid === w.pid && k.startToken === w.startToken
        && k.title === w.title && k.id !== w.id && !listed.has(k.id));
      const only = same.length === 1 ? same[0] : undefined;
      if (only) this.byId.set(w.id, only[0]);
    }
    return this.refOf(w);
  }

  get(ref: string): WindowInfo | undefined { return this.byRef.get(ref); }

  /** The processes whose windows this session has seen (`pid startToken`): what it knows was running. */
  processes(): Set<string> { return new Set([...this.byRef.values()].map(processKey)); }

  toJSON(): WindowTableJSON { return { counter: this.counter, entries: [...this.byRef] }; }

  static fromJSON(j: WindowTableJSON): WindowTable {
    const t = new WindowTable();
    t.counter = j.counter;
    for (const [ref, w] of j.entries) { t.byRef.set(ref, w); t.byId.set(w.id, ref); }
    return t;
  }
}

/** True for a window ref (`w3`, or `d2w3` on a second device). */
export const isWindowRef = (ref: string): boolean => /^(d\d+)?w\d+$/.test(ref);
