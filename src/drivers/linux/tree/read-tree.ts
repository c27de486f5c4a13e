/**
 * Reading a whole subtree of a window: each element by reader.ts, a huge table's visible cells by coordinate
 * (table.ts), a long list's rows on screen (visible.ts), hidden subtrees pruned. It sits above both the element
 * reader and the table reader, which therefore never import each other in a loop.
 */
import type { RawNode } from '../../../protocol/nodes.js';
import type { A11yBus, Target } from '../bus/bus.js';
import { isGone } from '../bus/bus.js';
import { annotateCells, readGrid } from './table.js';
import { annotateSet } from './virtualset.js';
import { annotateTableSlice } from './column-heads.js';
import { TextBudget } from './text.js';
import {
  decodeStates,
  markSlice,
  MAX_CHILDREN,
  MAX_LIST_CHILDREN,
  readElement,
  showingIsReliable,
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

/** Reads a whole subtree concurrently. Nodes that vanish mid-read are skipped. */
export async function readTree(
  bus: A11yBus,
  root: Target,
  opts: ReadOptions = {},
): Promise<{ root: RawNode; nodes: number; truncated: boolean }> {
  const maxNodes = opts.maxNodes ?? 5000;
  const text = opts.text ?? new TextBudget();
  let nodes = 0;
  let truncated = false;
  let reliable = true;
  const visit = async (t: Target, depth: number, parentShowing: boolean, known?: ElementInfo): Promise<RawNode | null> => {
    if (nodes >= maxNodes) { truncated = true; return null; }
    nodes++;
    let info: ElementInfo;
    try {
      info =
        known ??
        (await readElement(bus, t, { bounds: (opts.bounds ?? false) || (!reliable && opts.pruneHidden !== false), text }));
    } catch (e) {
      if (isGone(e)) return null;
      // A node that does not answer is left out (and the read marked incomplete) rather than failing it all.
      if (depth > 0) { truncated = true; return null; }
      throw e;
    }
    const node = toRawNode(info, reliable);
    const showing = showsOnScreen(info);
    const hidden = opts.pruneHidden !== false && depth > 0 && (reliable ? parentShowing && !showing : zeroSized(info));
    // Grid hook (table.ts): a huge table's visible cells, read by coordinate, are its children.
    const grid = hidden ? undefined : await readGrid(bus, info, node, depth === 0).catch(() => undefined);
    if (grid) { nodes += grid.length; if (grid.length) node.children = grid; return node; }
    const kids = info.children.slice(0, MAX_CHILDREN);
    if (info.children.length > MAX_CHILDREN || info.childCount > MAX_LIST_CHILDREN || (opts.depth !== undefined && depth >= opts.depth) || hidden) {
      node.childCount = Math.max(info.childCount, info.children.length);
      if (hidden) return node;
      if (opts.depth !== undefined && depth >= opts.depth) return node;
      truncated = true;
    }
    markSlice(node, info, kids.length);
    const children = await Promise.all(kids.map((k) => visit(k, depth + 1, showing)));
    const present = children.filter((c): c is RawNode => c !== null);
    if (present.length) node.children = present;
    await annotateCells(bus, info, node).catch(() => undefined);
    await annotateSet(bus, info, node).catch(() => undefined);
    if (node.childRange && info.interfaces.has('org.a11y.atspi.Table'))
      await annotateTableSlice(bus, info.target, node, reliable);
    return node;
  };
  let rootInfo: ElementInfo;
  try {
    rootInfo = await readElement(bus, root, { bounds: opts.bounds ?? false, text });
  } catch (e) {
    if (isGone(e)) throw Object.assign(new Error('root vanished'), { type: 'org.freedesktop.DBus.Error.UnknownObject' });
    throw e;
  }
  reliable = showingIsReliable(rootInfo, await childStatesLive(bus, rootInfo));
  const root_ = await visit(root, 0, false, rootInfo);
  if (!root_) throw Object.assign(new Error('root vanished'), { type: 'org.freedesktop.DBus.Error.UnknownObject' });
  return { root: root_, nodes, truncated };
}
