/**
 * Reading a whole subtree of a window: each element by reader.ts, a huge table's visible cells by coordinate
 * (table.ts), a long list's rows on screen (visible.ts), hidden subtrees pruned. It sits above both the element
 * reader and the table reader, which therefore never import each other in a loop.
 */
import type { RawNode } from '../../../protocol/nodes.js';
import type { Rect } from '../../common/rects.js';
import type { A11yBus, Target } from '../bus/bus.js';
import { isGone } from '../bus/bus.js';
import { annotateCells, readGrid } from './table.js';
import { annotateSet } from './virtualset.js';
import { annotateTableSlice } from './column-heads.js';
import { TextBudget } from './text.js';
import { iconViewBounds, judgeIconItem, type IconViews } from './icon-view.js';
import {
  decodeStates,
  markSlice,
  MAX_CHILDREN,
  MAX_LIST_CHILDREN,
  readElement,
  showingIsReliable,
  optionsFrom,
  showsOnScreen,
  toRawNode,
  zeroSized,
  type ElementInfo,
  type ReadOptions,
} from './reader.js';

const ACC = 'org.a11y.atspi.Accessible';

async function childStatesLive(bus: A11yBus, info: ElementInfo): Promise<Set<string>[]> {
  const words = await Promise.all(info.children.slice(0, MAX_CHILDREN).map((c) =>
    bus.call(c, ACC, 'GetState').then((r) => decodeStates(r[0] as number[])).catch(() => new Set<string>())));
  return words;
}

/** What a walk shares across its nodes. */
interface Walk {
  /** Icon views' bounds by handle (icon-view.ts). */
  views: IconViews;
  bus: A11yBus;
  opts: ReadOptions;
  text: TextBudget;
  maxNodes: number;
  nodes: number;
  truncated: boolean;
  reliable: boolean;
}

/** Reads one node and, unless it is hidden or cut, its children; null when it vanished or did not answer. */
async function visit(
  w: Walk,
  t: Target,
  depth: number,
  parentShowing: boolean,
  known?: ElementInfo,
  clip?: Rect,
): Promise<RawNode | null> {
  const { bus, opts } = w;
  if (w.nodes >= w.maxNodes) { w.truncated = true; return null; }
  w.nodes++;
  let info: ElementInfo;
  try {
    info =
      known ??
      (await readElement(bus, t, {
        bounds: (opts.bounds ?? false) || (!w.reliable && opts.pruneHidden !== false),
        text: w.text,
      }));
  } catch (e) {
    if (isGone(e)) return null;
    // A node that does not answer is left out (and the read marked incomplete) rather than failing it all.
    if (depth > 0) { w.truncated = true; return null; }
    throw e;
  }
  await judgeIconItem(bus, info, clip, w.views);
  const node = toRawNode(info, w.reliable);
  const showing = showsOnScreen(info);
  if (!showing) opts.notShowing?.add(node.id);
  const hidden = opts.pruneHidden !== false && depth > 0 && (w.reliable ? parentShowing && !showing : zeroSized(info));
  // Grid hook (table.ts): a huge table's visible cells, read by coordinate, are its children.
  const grid = hidden ? undefined : await readGrid(bus, info, node, depth === 0).catch(() => undefined);
  if (grid) { w.nodes += grid.length; if (grid.length) node.children = grid; return node; }
  const kids = info.children.slice(0, MAX_CHILDREN);
  if (
    info.children.length > MAX_CHILDREN ||
    info.childCount > MAX_LIST_CHILDREN ||
    (opts.depth !== undefined && depth >= opts.depth) ||
    hidden
  ) {
    node.childCount = Math.max(info.childCount, info.children.length);
    if (hidden) return node;
    if (opts.depth !== undefined && depth >= opts.depth) return node;
    w.truncated = true;
  }
  markSlice(node, info, kids.length);
  const view = await iconViewBounds(bus, info);
  const children = await Promise.all(kids.map((k) => visit(w, k, depth + 1, showing, undefined, view)));
  const present = children.filter((c): c is RawNode => c !== null);
  if (present.length) node.children = present;
  await annotateCells(bus, info, node).catch(() => undefined);
  await annotateSet(bus, info, node).catch(() => undefined);
  if (node.childRange && info.interfaces.has('org.a11y.atspi.Table'))
    await annotateTableSlice(bus, info.target, node, w.reliable);
  return node;
}

const walkOf = (bus: A11yBus, opts: ReadOptions, reliable: boolean): Walk => ({
  bus,
  opts,
  text: opts.text ?? new TextBudget(),
  maxNodes: opts.maxNodes ?? 5000,
  nodes: 0,
  truncated: false,
  reliable,
  views: new Map(),
});

/** Reads a whole subtree concurrently. Nodes that vanish mid-read are skipped. */
export async function readTree(
  bus: A11yBus,
  root: Target,
  opts: ReadOptions = {},
): Promise<{ root: RawNode; nodes: number; truncated: boolean; reliable: boolean }> {
  const w = walkOf(bus, opts, true);
  let rootInfo: ElementInfo;
  try {
    rootInfo = await readElement(bus, root, { bounds: opts.bounds ?? false, text: w.text });
  } catch (e) {
    if (isGone(e))
      throw Object.assign(new Error('root vanished'), { type: 'org.freedesktop.DBus.Error.UnknownObject' });
    throw e;
  }
  w.opts = optionsFrom(rootInfo, opts);
  w.reliable = showingIsReliable(rootInfo, await childStatesLive(bus, rootInfo));
  const root_ = await visit(w, root, 0, false, rootInfo);
  if (!root_) throw Object.assign(new Error('root vanished'), { type: 'org.freedesktop.DBus.Error.UnknownObject' });
  return { root: root_, nodes: w.nodes, truncated: w.truncated, reliable: w.reliable };
}

/**
 * Reads the subtree of a node below a window's root as a whole read would: its parent's showing and the window's
 * `reliable` (showingIsReliable) are given, the read having judged them. Null when the node is gone.
 */
export async function readSubtree(
  bus: A11yBus,
  t: Target,
  ctx: { parentShowing: boolean; reliable: boolean },
  opts: ReadOptions = {},
): Promise<{ root: RawNode | null; nodes: number; truncated: boolean }> {
  const w = walkOf(bus, opts, ctx.reliable);
  const root = await visit(w, t, 1, ctx.parentShowing);
  return { root, nodes: w.nodes, truncated: w.truncated };
}
