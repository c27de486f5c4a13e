/**
 * Fast tree reads through `org.a11y.atspi.Cache.GetItems`: one call returns role, name, states, child count
 * and interfaces of every object an app has cached (2-6 ms). The cache is incomplete and can be stale
 * (GTK3 omits children of lists and tables, keeps detached objects; Qt returns nothing), so the tree is
 * rebuilt from (parent, index in parent) and any node whose cached children do not exactly cover
 * 0..childCount-1 is read live. Measured in the notes: same node set and content as a full walk.
 */
import type { RawNode } from '../../../protocol/nodes.js';
import { LIMITS } from '../../../protocol/methods.js';
import { ATSPI_ROLES } from './atspi-constants.generated.js';
import type { A11yBus, Target } from './bus.js';
import { isGone } from './bus.js';
import { showingHeard } from './showing-heard.js';
import type { ElementInfo, ReadOptions } from '../tree/reader.js';
import { annotateCells, readByCoordinate, readGrid } from '../tree/table.js';
import { annotateTableSlice } from '../tree/column-heads.js';
import {
  MAX_CHILDREN,
  MAX_LIST_CHILDREN,
  childrenOf,
  markSlice,
  optionsFrom,
  decodeStates,
  enrich,
  handleOf,
  readElement,
  showingIsReliable,
  showsOnScreen,
  toRawNode,
  zeroSized,
} from '../tree/reader.js';
import { isTextBody, TextBudget } from '../tree/text.js';
import { annotateSet } from '../tree/virtualset.js';
import { iconViewBounds, judgeIconItem, type IconViews } from '../tree/icon-view.js';
import type { Rect } from '../../common/rects.js';

export interface CachedItem { info: ElementInfo; parent: string; index: number }

/** Reads one app's cache into items keyed by handle; empty when the app has no usable cache. */
export async function readCache(bus: A11yBus, dest: string): Promise<Map<string, CachedItem>> {
  const items = new Map<string, CachedItem>();
  let body: unknown[];
  try {
    body = await bus.call({ dest, path: '/org/a11y/atspi/cache' }, 'org.a11y.atspi.Cache', 'GetItems', '', [], 2000);
  } catch { return items; }
  for (const raw of (body[0] ?? []) as unknown[][]) {
    // at-spi2 >= 2.34: (self, app, parent, index, childCount, ifaces, name, role, description, states).
    if (raw.length < 10 || Array.isArray(raw[3])) continue;
    const [self, , parent, index, childCount, ifaces, name, role, description, states] = raw as
      [[string, string], unknown, [string, string], number, number, string[], string, number, string, number[]];
    const target = { dest: self[0], path: self[1] };
    const decoded = decodeStates(states);
    showingHeard.apply(handleOf(target), decoded, ATSPI_ROLES[role] ?? 'unknown');
    items.set(handleOf(target), {
      parent: parent[0] + parent[1], index,
      info: {
        // Capped as a live read caps them (reader.ts): Chromium named a status after its 1 MB of text, and the
        // cached read answered a snapshot outside the protocol.
        target, atspiRole: ATSPI_ROLES[role] ?? 'unknown', name: String(name ?? '').slice(0, LIMITS.text),
        description: String(description ?? '').slice(0, LIMITS.text), accessibleId: '',
        states: decoded, interfaces: new Set(ifaces), children: [], childCount,
      },
    });
  }
  return items;
}

/**
 * One app's cache read, shared by the reads that ask for it while it is in flight when nothing of the app happened
 * since it was asked (`quietSince`: no event of the app, no input sent): a find reads up to 8 scrolled-out parts at
 * once, and each read the app's whole cache (act-lab: 8 GetItems queued in one app's main loop).
 */
export class SharedCacheReads {
  private readonly asked = new Map<string, { at: number; read: Promise<Map<string, CachedItem>> }>();
  constructor(private readonly quietSince: (dest: string, at: number) => boolean) {}

  read(bus: A11yBus, dest: string): Promise<Map<string, CachedItem>> {
    const asked = this.asked.get(dest);
    if (asked && this.quietSince(dest, asked.at)) return asked.read;
    const entry = { at: performance.now(), read: readCache(bus, dest) };
    this.asked.set(dest, entry);
    void entry.read.finally(() => { if (this.asked.get(dest) === entry) this.asked.delete(dest); });
    return entry.read;
  }
}

/** Reads a subtree using the cache where it is consistent and live calls elsewhere. */
export async function readTreeCached(
  bus: A11yBus,
  root: Target,
  opts: ReadOptions = {},
  items: (dest: string) => Promise<Map<string, CachedItem>> = (dest) => readCache(bus, dest),
): Promise<{ root: RawNode; nodes: number; truncated: boolean; cached: number; reliable: boolean }> {
  // The cache and the (always live) start node are independent: fetch them together.
  const [cache, rootRead] = await Promise.all([
    items(root.dest),
    readElement(bus, root, { bounds: opts.bounds ?? false }).then(
      (info) => ({ info }),
      (error: unknown) => ({ error }),
    ),
  ]);
  // Children per parent as the cache claims them.
  const byParent = new Map<string, CachedItem[]>();
  for (const [, item] of cache) {
    const list = byParent.get(item.parent);
    if (list) list.push(item); else byParent.set(item.parent, [item]);
  }
  const maxNodes = opts.maxNodes ?? 5000;
  const text = opts.text ?? new TextBudget();
  let nodes = 0;
  let cached = 0;
  let truncated = false;

  const cachedChildren = (info: ElementInfo): Target[] | null => {
    const claimed = byParent.get(handleOf(info.target)) ?? [];
    if (info.childCount < 0 || claimed.length !== info.childCount) return null;
    const ordered: Target[] = new Array<Target>(info.childCount);
    for (const c of claimed) {
      if (c.index < 0 || c.index >= info.childCount || ordered[c.index]) return null;
      ordered[c.index] = c.info.target;
    }
    return ordered;
  };

  let reliable = true;
  // The start's own showing decides what a scoped read prunes (optionsFrom); set once it is read.
  let prune = opts.pruneHidden !== false;
  const views: IconViews = new Map();
  const visit = async (t: Target, depth: number, parentShowing: boolean, view?: Rect): Promise<RawNode | null> => {
    if (nodes >= maxNodes) { truncated = true; return null; }
    nodes++;
    const hit = cache.get(handleOf(t));
    let info: ElementInfo;
    try {
      if (hit && depth > 0) {
        // Copy so the shared cache entry is not mutated by enrich().
        info = { ...hit.info, children: [], states: new Set(hit.info.states) };
        cached++;
        await judgeIconItem(bus, info, view, views);
        // A hidden subtree is cut below this node: its children and text are not needed.
        // Where "showing" is unreliable the size decides (zeroSized); it is read together with the children,
        // not before them, so each level still costs one round trip.
        if (!(prune && reliable && parentShowing && !showsOnScreen(info))) {
          const kids = cachedChildren(info);
          const [live] = await Promise.all([
            // Never an unbounded GetChildren: childrenOf reads huge containers by index.
            kids && kids.length <= MAX_CHILDREN
              ? Promise.resolve({ children: kids, count: kids.length, start: 0 })
              : // Grid hook (table.ts): a spreadsheet-sized table is read by coordinate, never by child index.
                readByCoordinate(info.interfaces, info.childCount)
                ? Promise.resolve({ children: [], count: info.childCount, start: 0 })
                : childrenOf(bus, t, kids ? kids.length : info.childCount),
            // Only a node with children can hide a subtree: leaves skip the extra call.
            enrich(
              bus,
              info,
              (opts.bounds ?? false) || (!reliable && prune && info.childCount > 0),
              text,
            ),
          ]);
          info.children = live.children;
          info.childCount = live.count;
          if (live.start > 0) info.childStart = live.start;
          if ('visible' in live && live.visible) info.childVisible = true;
        } else if (isTextBody(info)) {
          // A page scrolled out of view: only its text length (text.ts), so find knows to search it.
          await enrich(bus, info, false, text);
        }
      } else {
        // The start node is always read live: caches hold stale roots (GTK4 caches the app root with 0 children).
        if (depth === 0) {
          if ('error' in rootRead) throw rootRead.error;
          info = rootRead.info;
        } else {
          info = await readElement(bus, t, { bounds: opts.bounds ?? false, text });
          await judgeIconItem(bus, info, view, views);
        }
        if (depth === 0) {
          const states = await Promise.all(info.children.slice(0, MAX_CHILDREN).map((c) => {
            const hitChild = cache.get(handleOf(c));
            return hitChild ? hitChild.info.states : bus.call(c, 'org.a11y.atspi.Accessible', 'GetState')
              .then((r) => decodeStates(r[0] as number[])).catch(() => new Set<string>());
          }));
          reliable = showingIsReliable(info, states);
          prune = optionsFrom(info, opts).pruneHidden !== false;
        }
      }
    } catch (e) {
      if (isGone(e)) return null;
      // A node that does not answer is left out (and the read marked incomplete) rather than failing it all.
      if (depth > 0) { truncated = true; return null; }
      throw e;
    }
    const node = toRawNode(info, reliable);
    const showing = showsOnScreen(info);
    if (!showing) opts.notShowing?.add(node.id);
    const hidden = prune && depth > 0 && (reliable ? parentShowing && !showing : zeroSized(info));
    const atDepth = opts.depth !== undefined && depth >= opts.depth;
    // Grid hook (table.ts): a huge table's visible cells, read by coordinate, are its children.
    const grid = hidden || atDepth ? undefined : await readGrid(bus, info, node, depth === 0).catch(() => undefined);
    if (grid) { nodes += grid.length; if (grid.length) node.children = grid; return node; }
    if (hidden || atDepth || info.children.length > MAX_CHILDREN || info.childCount > MAX_LIST_CHILDREN) {
      node.childCount = Math.max(info.childCount, info.children.length);
      if (hidden || atDepth) return node;
      truncated = true;
    }
    markSlice(node, info, Math.min(info.children.length, MAX_CHILDREN));
    const around = await iconViewBounds(bus, info);
    const children = await Promise.all(
      info.children.slice(0, MAX_CHILDREN).map((k) => visit(k, depth + 1, showing, around)),
    );
    const present = children.filter((c): c is RawNode => c !== null);
    if (present.length) node.children = present;
    await annotateCells(bus, info, node).catch(() => undefined);
    await annotateSet(bus, info, node).catch(() => undefined);
    if (node.childRange && info.interfaces.has('org.a11y.atspi.Table'))
      await annotateTableSlice(bus, info.target, node, reliable);
    return node;
  };
  const top = await visit(root, 0, false);
  if (!top) throw Object.assign(new Error('root vanished'), { type: 'org.freedesktop.DBus.Error.UnknownObject' });
  return { root: top, nodes, truncated, cached, reliable };
}
