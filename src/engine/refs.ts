import { ancestryPath, distill, fnv1a, walkDistilled, type DistilledNode } from './distill.js';
import type { RawNode, WindowInfo } from './node.js';
import { redactTree } from './redact.js';
import type { Role } from './role.js';

/**
 * What identifies an element beyond its native handle: used to re-check a ref before acting and
 * to find the element again when the handle died (redraw, list virtualization).
 */
export interface Fingerprint {
  /** Native id of the window root the element belongs to. */
  window: string;
  pid: number;
  startToken?: string;
  role: Role;
  name?: string;
  stableId?: string;
  /** Position in the distilled parent. */
  index: number;
  /** Hash of the ancestor chain (`ancestryPath`). */
  path: string;
  /**
   * Hash of the row or container texts around the element (`rowContext`): which row an "Archive" button is
   * in. Relocation requires it to match; missing in tables saved by older versions (they never relocate).
   */
  context?: string;
  /** Other elements of the window had the same role, name and path when it was seen (rows of a list). */
  repeated?: boolean;
  /**
   * Other elements had the same role, name and path, whatever their row texts (`repeated` needs different
   * ones): alike recipient rows whose only difference is the address their entry holds.
   */
  alike?: boolean;
  /**
   * Hash of what the element held when seen (its value, `contentOf`): the address in one of several alike
   * recipient rows. A look-alike whose content changed under it is another row's element in a recycled widget.
   * Undefined when unknown (an edit of ours in flight): then it is not compared.
   */
  content?: string;
  /**
   * False for an `alike` element its place tells apart (gnumeric's address box and edit line: two nameless entries
   * of one tool bar), whose content may change under it; unset for one only its content tells apart.
   */
  byContent?: boolean;
  /** The real index of its row (`DistilledNode.slot`): a list child's index in the whole list, a cell's row. */
  slot?: number;
  /** Native ids of its nearest raw ancestors (`DistilledNode.rawParents`), nearest first. */
  parents?: string[];
}

/** One table entry: the native handle a ref pointed at last, and its fingerprint. */
export interface RefEntry {
  id: string;
  fingerprint: Fingerprint;
  /** The window generation (assign count) in which the element was last seen. */
  seen: number;
  /**
   * Its handle now holds another element (moved to another row): the handle must not be used for this ref,
   * only a relocation may find the element again.
   */
  retired?: boolean;
}

/** Answer of `RefTable.relocate`. */
export type Relocation = { id: string } | { ambiguous: number } | { missing: true };

/** Serialized form of a RefTable (`toJSON` / `fromJSON`). */
export interface RefTableJSON {
  version: 1;
  counter: number;
  /** Window id → number of snapshots assigned for it. */
  generations: Record<string, number>;
  entries: [string, RefEntry][];
}

/** An element of the tree being assigned, with the ref it keeps or inherits (none yet: it gets a new one). */
interface Placed { node: DistilledNode; fingerprint: Fingerprint; ref?: string | undefined }

/** Entries of elements not seen for this many snapshots of their window are forgotten, unless out of sight. */
const KEEP_GENERATIONS = 5;
/**
 * Entries of elements the raw tree shows are still there out of sight (a tab page not shown) kept beyond
 * KEEP_GENERATIONS per window, at most: the most recently seen ones (the table's memory bound).
 */
const KEEP_OUT_OF_SIGHT = 1000;
/** Raw ancestors followed up from an element at most (a loop in stale chains ends there). */
const MAX_CHAIN = 64;

const key = (window: string, id: string): string => `${window}\n${id}`;

/** What an element holds, hashed (a value may be a secret the table must not keep). */
/**
 * What an element holds, hashed (a value may be a secret the table must not keep); undefined for a value
 * within a range (a scroll bar, a slider): that is where it stands, not what it holds, and it moves by itself
 * (a tree view's two scroll bars look alike, and the vertical one lost its ref on every scroll).
 */
const contentOf = (n: { value?: string; range?: unknown }): string | undefined =>
  n.range !== undefined ? undefined : fnv1a(n.value ?? '');

/**
 * The native ids a raw tree read (`all`) and those of them that are hidden (offscreen or invisible: the driver
 * did not read their children). An element missing from a snapshot whose handle is still read, or whose
 * nearest remembered ancestor is hidden, was scrolled or hidden away, not re-created: no other element may
 * take its ref (the recipient row a compose window scrolls out while it scrolls a new empty one in).
 */
export interface RawPresence { all: ReadonlySet<string>; hidden: ReadonlySet<string> }

/** Presence of every node of a raw tree. */
export function rawPresence(raw: RawNode): RawPresence {
  const all = new Set<string>();
  const hidden = new Set<string>();
  const stack = [raw];
  while (stack.length) {
    const n = stack.pop()!;
    all.add(n.id);
    if (n.states.includes('offscreen') || n.states.includes('invisible')) hidden.add(n.id);
    if (n.children) stack.push(...n.children);
  }
  return { all, hidden };
}

/** True when the raw tree proves the element of `f` (native id `id`) still exists, out of sight. */
function stillThere(id: string, f: Fingerprint, presence: RawPresence): boolean {
  if (presence.all.has(id)) return true;
  const nearest = (f.parents ?? []).find((p) => presence.all.has(p));
  return nearest !== undefined && presence.hidden.has(nearest);
}

/**
 * The refs of `window`'s entries whose element the raw tree shows is still there out of sight (`stillThere`), also
 * when its remembered ancestors are all gone from the read: the table remembers each entry's nearest raw ancestors,
 * so together they chain an element up to the node that hides it (a check box three wrappers deep in a tab page
 * that the driver read as one hidden node: its model toggled [e5], went to another page and back, and read [e34]).
 */
function outOfSight(entries: Iterable<[string, RefEntry]>, window: string, presence: RawPresence): Set<string> {
  const up = new Map<string, string>();
  const mine: [string, RefEntry][] = [];
  for (const [ref, e] of entries) {
    if (e.fingerprint.window !== window) continue;
    mine.push([ref, e]);
    const chain = [e.id, ...(e.fingerprint.parents ?? [])];
    for (let i = 0; i + 1 < chain.length; i++) if (!up.has(chain[i]!)) up.set(chain[i]!, chain[i + 1]!);
  }
  const known = new Map<string, boolean>();
  const hiddenAbove = (id: string): boolean => {
    const path: string[] = [];
    let cur: string | undefined = id;
    let answer = false;
    for (let i = 0; cur !== undefined && i < MAX_CHAIN; i++, cur = up.get(cur)) {
      const k = known.get(cur);
      if (k !== undefined) { answer = k; break; }
      path.push(cur);
      if (presence.all.has(cur)) { answer = presence.hidden.has(cur); break; }
    }
    for (const p of path) known.set(p, answer);
    return answer;
  };
  const out = new Set<string>();
  for (const [ref, e] of mine) if (stillThere(e.id, e.fingerprint, presence) || hiddenAbove(e.id)) out.add(ref);
  return out;
}

/**
 * Whether `now` may be the element `was` described, by what its row held. In another real row (both know
 * it) only a unique element with its name unchanged is the same one moved (a row inserted above it); a
 * recycled row widget shows another item under the same handle. Look-alikes must also hold the same content
 * when both know it: alike recipient rows differ only by the address in their entry.
 */
function sameHolding(was: Fingerprint, now: Holding): boolean {
  const alike = toldByContent(was) || now.alike === true;
  if (was.slot !== undefined && now.slot !== undefined && was.slot !== now.slot && (alike || was.name !== now.name))
    return false;
  return !alike || was.content === undefined || now.content === undefined || was.content === now.content;
}

/** Whether only what it held told the element of `f` apart from its look-alikes (`alike`, `byContent`). */
const toldByContent = (f: Fingerprint): boolean => f.alike === true && f.byContent !== false;

/** The facts `sameHolding` compares (`alike`: told apart by content). */
type Holding = Pick<Fingerprint, 'slot' | 'content' | 'alike' | 'name'>;

/** The facts `sameHolding` compares, of a distilled node (focused: being typed into, its content not compared). */
function holdingOf(n: DistilledNode, alike: boolean, held: string | undefined = contentOf(n)): Holding {
  const out: Holding = { alike };
  if (n.slot !== undefined) out.slot = n.slot;
  if (n.name !== undefined) out.name = n.name;
  const content = n.states.includes('focused') ? undefined : held;
  if (content !== undefined) out.content = content;
  return out;
}

/** What makes two elements look alike: same role, name and ancestry path. */
const lookAlike = (n: DistilledNode): string => `${n.role}\n${n.name ?? ''}\n${n.path}`;

/**
 * Each element's look-alike key, and for each key in how many different rows (contexts) its elements stand and how
 * many elements have it (in any rows). Only look-alikes in different rows need their row to tell them apart (the
 * Archive buttons of a list); look-alikes in one row (two "Menu" buttons of a header bar) cannot be told apart by
 * it, so a label changing next to them (a title getting its "*") must not retire their refs.
 */
function lookAlikes(tree: DistilledNode): {
  keys: Map<DistilledNode, string>;
  rows: Map<string, Set<string>>;
  alikes: Map<string, number>;
} {
  const keys = new Map<DistilledNode, string>();
  const rows = new Map<string, Set<string>>();
  const alikes = new Map<string, number>();
  walkDistilled(tree, (n) => {
    const k = lookAlike(n);
    keys.set(n, k);
    let set = rows.get(k);
    if (!set) rows.set(k, (set = new Set()));
    set.add(n.context ?? '');
    alikes.set(k, (alikes.get(k) ?? 0) + 1);
  });
  return { keys, rows, alikes };
}

/**
 * For each element (by id), how many elements only what they hold tells apart: the same role, name and path, and
 * the same role before them in their parent (the entry after each recipient row's "To:" combo), or anywhere in a
 * list slice (a row's slot tells those apart). Look-alikes at different places of one tool bar are told apart by
 * their place: gnumeric's address box and edit line, two nameless entries, lost their refs on every commit when
 * told apart by what they held (the address moves on).
 */
function byContentCounts(tree: DistilledNode, looks: ReadonlyMap<DistilledNode, string>): Map<string, number> {
  const keys = new Map<string, string>();
  const lookAlikeOf = (n: DistilledNode): string => looks.get(n) ?? lookAlike(n);
  const visit = (n: DistilledNode): void => {
    const kids = n.children ?? [];
    kids.forEach((c, i) => {
      const around = `\n${kids[i - 1]?.role ?? ''}`;
      keys.set(c.id, c.slot === undefined ? `${lookAlikeOf(c)}${around}` : lookAlikeOf(c));
      visit(c);
    });
  };
  keys.set(tree.id, lookAlikeOf(tree));
  visit(tree);
  const count = new Map<string, number>();
  for (const k of keys.values()) count.set(k, (count.get(k) ?? 0) + 1);
  return new Map([...keys].map(([id, k]) => [id, count.get(k) ?? 0]));
}

/**
 * Ref allocator and resolver. One counter per table, so refs are unique across all windows and
 * never reused for another element. An element keeps its ref while its native id lives in the same window and
 * process and its role is unchanged; name and value may change. An element re-created under a new native id
 * with the same fingerprint (role, name, stable id, ancestry path, row context) as one that vanished in the
 * same window keeps that one's ref: to the user it is the same element. The table outlives a single process
 * through `toJSON`.
 */
export class RefTable {
  private counter = 0;
  /** Hook (devices): the device prefix of new refs ("d2" → `d2e14`); '' on the first device. */
  prefix = '';
  private readonly entries = new Map<string, RefEntry>();
  private readonly byKey = new Map<string, string>();
  private readonly generations = new Map<string, number>();

  /**
   * Gives every node of a distilled window tree a ref (setting `node.ref`), reusing the refs of elements
   * already known. Returns ref → node for this tree. Call it with the whole window tree, not a scoped part,
   * and the raw tree it was distilled from: without it, an element scrolled out of sight cannot be told from
   * one that is gone, and a look-alike scrolled in might inherit its ref.
   */
  assign(tree: DistilledNode, window: WindowInfo, raw?: RawNode): Map<string, DistilledNode> {
    const gen = (this.generations.get(window.id) ?? 0) + 1;
    this.generations.set(window.id, gen);
    const out = new Map<string, DistilledNode>();
    const { keys: looks, rows, alikes } = lookAlikes(tree);
    const byContents = byContentCounts(tree, looks);
    const present = new Set<string>();
    walkDistilled(tree, (node) => { present.add(node.id); });
    // Which refs are out of sight, not gone: worked out only when a vanished element or an old entry asks.
    let outOf: Set<string> | undefined;
    const hidden = (): ReadonlySet<string> | undefined =>
      raw === undefined ? undefined : (outOf ??= outOfSight(this.entries, window.id, rawPresence(raw)));
    // 1. Elements whose handle is known keep their ref; the others are collected for step 2.
    const placed: Placed[] = [];
    walkDistilled(tree, (node) => {
      const k = key(window.id, node.id);
      const fingerprint: Fingerprint = { window: window.id, pid: window.pid, role: node.role, index: node.index,
        path: node.path, context: node.context ?? '' };
      if (window.startToken !== undefined) fingerprint.startToken = window.startToken;
      if (node.name !== undefined) fingerprint.name = node.name;
      if (node.stableId !== undefined) fingerprint.stableId = node.stableId;
      const look = looks.get(node) ?? lookAlike(node);
      const repeated = (rows.get(look)?.size ?? 0) > 1;
      if (repeated) fingerprint.repeated = true;
      const alike = (alikes.get(look) ?? 0) > 1;
      if (alike) fingerprint.alike = true;
      const byContent = (byContents.get(node.id) ?? 0) > 1;
      if (alike && !byContent) fingerprint.byContent = false;
      const content = contentOf(node);
      if (content !== undefined) fingerprint.content = content;
      if (node.slot !== undefined) fingerprint.slot = node.slot;
      if (node.rawParents) fingerprint.parents = [...node.rawParents];
      const ref = this.byKey.get(k);
      const old = ref === undefined ? undefined : this.entries.get(ref);
      // A handle that now sits in another row (a recycling list) is another element: it gets a new ref, so the
      // diff never shows the old ref as unchanged. Only look-alikes need their row to tell them apart; a unique
      // element keeps its ref when a label next to it changes (a status bar's "Ln 1, Col 8").
      const sameRow = !(repeated || old?.fingerprint.repeated) || old?.fingerprint.context === (node.context ?? '');
      // What the row holds must not have changed under it either, unless it is being typed into (focused).
      const holding = holdingOf(node, byContent, content);
      // Back after longer than an element is kept away (a tab page shown again): only with its name unchanged,
      // else its handle may have been given to another item while out of sight, and a new ref is the honest answer.
      const same =
        old !== undefined &&
        (gen - old.seen < KEEP_GENERATIONS || old.fingerprint.name === node.name) &&
        old.fingerprint.role === node.role &&
        old.fingerprint.pid === window.pid &&
        old.fingerprint.startToken === window.startToken &&
        !out.has(ref ?? '') &&
        sameRow &&
        sameHolding(old.fingerprint, holding);
      if (same) {
        out.set(ref as string, node);
        placed.push({ node, fingerprint, ref });
        return;
      }
      // The old ref keeps its fingerprint but may no longer use this handle.
      if (old !== undefined && ref !== undefined && !out.has(ref)) old.retired = true;
      placed.push({ node, fingerprint });
    });
    // 2. Re-created elements: a new handle with exactly the fingerprint of an element whose handle is gone from
    // the window (Swing re-creates a table's cells on every change, apps rebuild lists with identical rows)
    // takes that element's ref, so the diff shows only what really changed.
    this.inheritRefs(window.id, placed, present, out, hidden);
    // 3. Refs in document order, new ones numbered top to bottom.
    for (const p of placed) {
      const r = p.ref ?? `${this.prefix}e${++this.counter}`;
      const k = key(window.id, p.node.id);
      const prior = this.entries.get(r);
      if (prior && prior.id !== p.node.id && this.byKey.get(key(window.id, prior.id)) === r)
        this.byKey.delete(key(window.id, prior.id));
      this.entries.set(r, { id: p.node.id, fingerprint: p.fingerprint, seen: gen });
      this.byKey.set(k, r);
      p.node.ref = r;
      out.set(r, p.node);
    }
    this.forgetOld(window.id, gen, hidden);
    return out;
  }

  /**
   * Gives each element of `placed` without a ref the ref of a vanished element of the same window with the same
   * fingerprint (role, name, stable id, ancestry path, row context), one to one. Several candidates on either
   * side are paired by their index in the parent; anything still ambiguous gets a new ref (never a guess).
   */
  private inheritRefs(
    window: string,
    placed: Placed[],
    present: Set<string>,
    taken: Map<string, DistilledNode>,
    hidden: () => ReadonlySet<string> | undefined,
  ): void {
    const sig = (f: Fingerprint): string =>
      [f.pid, f.startToken ?? '', f.role, f.name ?? '', f.stableId ?? '', f.path, f.context ?? ''].join('\u0001');
    const orphans = new Map<string, Placed[]>();
    for (const p of placed) {
      if (p.ref !== undefined) continue;
      const s = sig(p.fingerprint);
      const list = orphans.get(s);
      if (list) list.push(p); else orphans.set(s, [p]);
    }
    if (orphans.size === 0) return;
    const vanished = new Map<string, { ref: string; entry: RefEntry }[]>();
    for (const [ref, entry] of this.entries) {
      const f = entry.fingerprint;
      if (f.window !== window || present.has(entry.id) || taken.has(ref)) continue;
      // Out of sight is not gone: its ref stays its own.
      if (hidden()?.has(ref)) continue;
      const s = sig(f);
      if (!orphans.has(s)) continue;
      const list = vanished.get(s);
      if (list) list.push({ ref, entry }); else vanished.set(s, [{ ref, entry }]);
    }
    for (const [s, olds] of vanished) {
      const news = orphans.get(s) ?? [];
      // Only an element holding what the vanished one held, in its real row, is it re-created.
      const fits = (p: Placed, o: { entry: RefEntry }): boolean => sameHolding(o.entry.fingerprint, p.fingerprint);
      const pair = (p: Placed, o: { ref: string; entry: RefEntry }): void => {
        p.ref = o.ref;
        taken.set(o.ref, p.node);
        delete o.entry.retired;
      };
      if (olds.length === 1 && news.length === 1) {
        if (fits(news[0]!, olds[0]!)) pair(news[0]!, olds[0]!);
        continue;
      }
      // Several alike: only pairs whose index is the same and unique on both sides.
      for (const p of news) {
        const byIndex = olds.filter(
          (o) => o.entry.fingerprint.index === p.fingerprint.index && !taken.has(o.ref) && fits(p, o),
        );
        const rivals = news.filter((q) => q.fingerprint.index === p.fingerprint.index);
        if (byIndex.length === 1 && rivals.length === 1) pair(p, byIndex[0]!);
      }
    }
  }

  /**
   * An element hidden for a while keeps its ref when it comes back with the same native id and role; after
   * KEEP_GENERATIONS snapshots without it, it is forgotten, unless the raw tree shows it still there out of sight
   * (`hidden`: a tab page not shown, whose page an act's several reads outlasted), up to KEEP_OUT_OF_SIGHT of those.
   */
  private forgetOld(window: string, gen: number, hidden: () => ReadonlySet<string> | undefined): void {
    const away: [string, RefEntry][] = [];
    for (const [ref, e] of this.entries)
      if (e.fingerprint.window === window && gen - e.seen >= KEEP_GENERATIONS) away.push([ref, e]);
    // A retired ref, or one whose handle another ref took, waits for a relocation only as long as any other.
    const kept = away
      .filter(([ref, e]) => hidden()?.has(ref) && !e.retired && this.byKey.get(key(window, e.id)) === ref)
      .sort((a, b) => b[1].seen - a[1].seen);
    const keep = new Set(kept.slice(0, KEEP_OUT_OF_SIGHT).map(([ref]) => ref));
    for (const [ref, e] of away) {
      if (keep.has(ref)) continue;
      this.entries.delete(ref);
      const k = key(window, e.id);
      if (this.byKey.get(k) === ref) this.byKey.delete(k);
    }
  }

  /**
   * A ref for an element read outside a snapshot (a part of a scrolled area out of view that find searched): the
   * ref its handle holds already, else a new one. `parents` are the native ids of its raw ancestors, nearest first:
   * while the nearest one read is hidden, the element counts as out of sight, not gone. An act on the ref goes to
   * its handle, which the driver checks by role and name at dispatch.
   */
  adopt(window: WindowInfo, node: RawNode, parents: readonly string[], index: number): string {
    const k = key(window.id, node.id);
    const known = this.byKey.get(k);
    const entry = known === undefined ? undefined : this.entries.get(known);
    if (known !== undefined && entry?.id === node.id && !entry.retired && entry.fingerprint.role === node.role)
      return known;
    const fingerprint: Fingerprint = {
      window: window.id,
      pid: window.pid,
      role: node.role,
      index,
      path: '',
      context: '',
      parents: [...parents],
    };
    if (window.startToken !== undefined) fingerprint.startToken = window.startToken;
    if (node.name) fingerprint.name = node.name;
    if (node.stableId !== undefined) fingerprint.stableId = node.stableId;
    const content = contentOf(node);
    if (content !== undefined) fingerprint.content = content;
    const ref = `${this.prefix}e${++this.counter}`;
    this.entries.set(ref, { id: node.id, fingerprint, seen: this.generations.get(window.id) ?? 0 });
    this.byKey.set(k, ref);
    return ref;
  }

  /**
   * After an edit of ours on a ref: what its element holds is unknown until the next snapshot records it, so
   * the next identity check does not take our own edit for a recycled row (handle, row and labels still count).
   */
  forgetContent(ref: string): void {
    const e = this.entries.get(ref);
    if (e) delete e.fingerprint.content;
  }

  /** The native id and fingerprint a ref stood for when last seen. */
  lookup(ref: string): { id: string; fingerprint: Fingerprint; retired?: boolean } | undefined {
    const e = this.entries.get(ref);
    return e === undefined
      ? undefined
      : { id: e.id, fingerprint: { ...e.fingerprint }, ...(e.retired ? { retired: true } : {}) };
  }

  /**
   * Why an act on `ref` must read its window live first instead of riding on the last snapshot, or undefined when
   * the handle and the driver's own checks at dispatch (role, name, process) are proof enough:
   * - `retired`: its handle now holds another element (a recycled row); only a relocation may find it again;
   * - `look-alike`: one of several alike elements (an "Archive" button of one row among many, alike recipient
   *   entries), told apart only by its row and what it holds, which the driver cannot check: a handle recycled for
   *   another row would pass its role and name test.
   * Any other ref, even one not in the latest snapshot (a far row computer_find gave), goes to its handle: the
   * driver refuses it with stale_ref when the handle died or its role or name changed, and the act relocates then.
   */
  needsLiveRead(ref: string): 'retired' | 'look-alike' | undefined {
    const e = this.entries.get(ref);
    if (e === undefined) return undefined;
    if (e.retired) return 'retired';
    return e.fingerprint.repeated === true || e.fingerprint.alike === true ? 'look-alike' : undefined;
  }

  /** True when the ref's element was present in the latest snapshot of its window. */
  isCurrent(ref: string): boolean {
    const e = this.entries.get(ref);
    return e !== undefined && this.generations.get(e.fingerprint.window) === e.seen;
  }

  /**
   * Finds a ref's element in a fresh raw tree of its window. The native id wins when it is still there with
   * the same role and name (or same stable id) — and, for look-alikes, the same row context. Otherwise
   * candidates have the same role and name (and stable id when the fingerprint has one), the same ancestor
   * path AND the same row context (the texts of the row it sits in), narrowed by index when several are
   * left. A single remaining candidate in another row is not the element: `missing`. More than one left is
   * `ambiguous` — never a guess. With `window`, a different process (pid/start time) means `missing`. `read`: the
   * tree redacted and distilled already (only read here).
   */
  relocate(
    ref: string,
    freshRawTree: RawNode,
    window?: WindowInfo,
    read?: { redacted: RawNode; tree: DistilledNode },
  ): Relocation {
    const e = this.entries.get(ref);
    if (e === undefined) return { missing: true };
    const fp = e.fingerprint;
    if (
      window !== undefined &&
      (window.id !== fp.window || window.pid !== fp.pid || window.startToken !== fp.startToken)
    ) {
      return { missing: true };
    }
    const fresh = read?.redacted ?? redactTree(freshRawTree);
    const distilled = read?.tree ?? distill(fresh).root;
    const placed = new Map<string, DistilledNode>();
    walkDistilled(distilled, (n) => placed.set(n.id, n));
    const { keys: looks, rows } = lookAlikes(distilled);
    const byContents = byContentCounts(distilled, looks);
    const isAlike = (d: DistilledNode): boolean => toldByContent(fp) || (byContents.get(d.id) ?? 0) > 1;
    interface Candidate {
      id: string;
      path: string;
      index: number | undefined;
      context: string | undefined;
      node: DistilledNode | undefined;
    }
    const candidates: Candidate[] = [];
    let sameId: RawNode | undefined;
    const visit = (n: RawNode, ancestors: RawNode[]): void => {
      const name = n.name === '' ? undefined : n.name;
      if (n.id === e.id) sameId = n;
      if (n.role === fp.role && name === fp.name && (fp.stableId === undefined || n.stableId === fp.stableId)) {
        const d = placed.get(n.id);
        candidates.push({
          id: n.id,
          path: ancestryPath(ancestors),
          index: d?.index,
          context: d === undefined ? undefined : (d.context ?? ''),
          node: d,
        });
      }
      ancestors.push(n);
      for (const c of n.children ?? []) visit(c, ancestors);
      ancestors.pop();
    };
    visit(fresh, []);
    const live = sameId as RawNode | undefined;
    if (live && live.role === fp.role && ((live.name || undefined) === fp.name
      || (fp.stableId !== undefined && live.stableId === fp.stableId))) {
      const d = placed.get(live.id);
      const lookAlikes = fp.repeated === true || (d !== undefined && (rows.get(lookAlike(d))?.size ?? 0) > 1);
      // The same handle in another row, or holding another row's content: not the element the ref was given for.
      if (d !== undefined && !sameHolding(fp, holdingOf(d, isAlike(d)))) return { missing: true };
      if (!lookAlikes || (d?.context ?? '') === fp.context) return { id: live.id };
      return { missing: true };
    }
    // Its handle is still read (out of sight) or its row is hidden: no other element is it.
    if (stillThere(e.id, fp, rawPresence(fresh))) return { missing: true };
    let left = candidates;
    const narrow = (keep: (c: Candidate) => boolean): void => {
      const next = left.filter(keep);
      if (next.length > 0) left = next;
    };
    // The ancestry must match: a same-named button under another parent (the close button of another tab)
    // is another element, and acting on it would be a guess.
    left = left.filter((c) => c.path === fp.path && c.context !== undefined && c.context === fp.context
      && c.node !== undefined && sameHolding(fp, holdingOf(c.node, isAlike(c.node))));
    if (left.length > 1) narrow((c) => c.index === fp.index);
    const only = left[0];
    if (left.length === 1 && only) return { id: only.id };
    return left.length === 0 ? { missing: true } : { ambiguous: left.length };
  }

  /**
   * Points a ref at the native id `relocate` found, so the element keeps its ref under its new handle (the
   * next snapshot shows it as the same element, not as removed and added).
   */
  rebind(ref: string, newId: string): void {
    const e = this.entries.get(ref);
    if (!e) return;
    const oldKey = key(e.fingerprint.window, e.id);
    if (this.byKey.get(oldKey) === ref) this.byKey.delete(oldKey);
    const newKey = key(e.fingerprint.window, newId);
    const previous = this.byKey.get(newKey);
    if (previous !== undefined && previous !== ref) this.entries.delete(previous);
    e.id = newId;
    delete e.retired;
    this.byKey.set(newKey, ref);
  }

  /** Forgets every entry of windows not in `liveWindowIds`; returns how many entries were dropped. */
  prune(liveWindowIds: Iterable<string>): number {
    const live = new Set(liveWindowIds);
    let dropped = 0;
    for (const [ref, e] of this.entries) {
      if (live.has(e.fingerprint.window)) continue;
      this.entries.delete(ref);
      this.byKey.delete(key(e.fingerprint.window, e.id));
      dropped++;
    }
    for (const w of [...this.generations.keys()]) if (!live.has(w)) this.generations.delete(w);
    return dropped;
  }

  /** The ref an element of `window` holds by its native id (an element the driver named itself), if it has one. */
  refOfHandle(window: string, id: string): string | undefined {
    const ref = this.byKey.get(key(window, id));
    return ref !== undefined && this.entries.get(ref)?.id === id ? ref : undefined;
  }

  /** True when this table gave out `ref` (its device prefix, a number it has reached), whether or not it still holds it. */
  issued(ref: string): boolean {
    const m = /^(.*?)e(\d+)$/.exec(ref);
    return m !== null && m[1] === this.prefix && Number(m[2]) >= 1 && Number(m[2]) <= this.counter;
  }

  /** Number of refs the table remembers. */
  get size(): number {
    return this.entries.size;
  }

  /** Plain JSON for persisting between CLI processes. */
  toJSON(): RefTableJSON {
    return {
      version: 1,
      counter: this.counter,
      generations: Object.fromEntries(this.generations),
      entries: [...this.entries].map(([ref, e]) => [
        ref,
        { id: e.id, fingerprint: { ...e.fingerprint }, seen: e.seen, ...(e.retired ? { retired: true } : {}) },
      ]),
    };
  }

  /** Rebuilds a table saved with `toJSON`. Refs issued afterwards continue the saved counter. */
  static fromJSON(json: RefTableJSON): RefTable {
    if (json.version !== 1) throw new Error(`unsupported ref table version ${String(json.version)}`);
    const t = new RefTable();
    t.counter = json.counter;
    for (const [w, g] of Object.entries(json.generations)) t.generations.set(w, g);
    for (const [ref, e] of json.entries) {
      t.entries.set(ref, {
        id: e.id,
        fingerprint: { ...e.fingerprint },
        seen: e.seen,
        ...(e.retired ? { retired: true } : {}),
      });
      const n = Number(ref.slice(1));
      if (Number.isFinite(n) && n > t.counter) t.counter = n;
      if (!e.retired) t.byKey.set(key(e.fingerprint.window, e.id), ref);
    }
    return t;
  }
}
