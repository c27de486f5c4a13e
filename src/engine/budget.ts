import { walkDistilled, type DistilledNode } from './distill.js';
import type { WindowInfo } from './node.js';
import { isGrid, MAX_GRID_ROWS } from './grid.js';
import {
  foldedRowsLine,
  gridBlock,
  moreLine,
  render,
  renderFooter,
  renderLine,
  rowLine,
  visibleChildren,
  type FooterNotes,
  type Rendered,
} from './render.js';
import { DEFAULT_MAX_TOKENS, estimateTokens, MAX_LIST_ITEMS } from './measure.js';
import { INTERACTIVE_ROLES } from './role.js';
import { bodyCharsFor } from './text.js';
import { columnsLine, sliceRows } from './rows.js';

/** Rows of a list, tree or table: a long list is cut before the controls that come after it. */
const ROW_ROLES: ReadonlySet<string> = new Set(['listitem', 'treeitem', 'row', 'cell', 'gridcell', 'option']);

/** Roles that say how the window is laid out; kept before the other controls. */
const STRUCTURE_ROLES: ReadonlySet<string> = new Set(['tablist', 'tab']);

/** True for an element inside a combo box that is not open (its popup's list and items). */
function inClosedPopup(info: Info): boolean {
  for (let p = info.parent; p; p = p.parent) {
    if (p.node.role === 'combobox' && !p.node.states.includes('expanded')) return true;
  }
  return false;
}

/**
 * Priority class for the budget: lower is kept first. The rows of a list rank after the other
 * controls: a file chooser's 30 rows came first in document order and used the whole budget, so its Cancel
 * and Save buttons were cut ("108 elements over budget"); rows are what a scope shows later.
 */
export function priorityOf(node: DistilledNode, focusPath: ReadonlySet<DistilledNode>, inClosedPopup = false): number {
  if (focusPath.has(node)) return 0;
  // A closed combo box's item list is seen only once it opens: DB Browser's docks printed three of them as grids
  // and its main tab bar was cut.
  if (inClosedPopup) return 2.5;
  // Tab bars are the window's structure: which pages exist and which is shown.
  if (STRUCTURE_ROLES.has(node.role)) return 0.5;
  if (ROW_ROLES.has(node.role)) return 1.5;
  if (INTERACTIVE_ROLES.has(node.role) || node.actions.length > 0) return 1;
  if (node.name || node.value) return 2;
  return 3;
}

/** Options of `renderWithinBudget`. */
export interface BudgetOptions {
  maxTokens?: number;
  maxListItems?: number;
  uncapped?: DistilledNode;
  notes?: FooterNotes;
  /** The node whose text the caller prints below it (RenderOptions.textBelow). */
  textBelow?: DistilledNode;
}

/** A render that fits the budget, with what was left out. */
export interface BudgetedRender extends Rendered {
  tokens: number;
  /** Elements left out by the budget (list cutting not included). */
  omitted: number;
  /** Refs to pass as `scope` to see omitted elements (at most 5). */
  scopes: string[];
}

interface Info {
  node: DistilledNode;
  parent: Info | undefined;
  order: number;
  /** Tokens of the element's line. */
  cost: number;
  /** Tokens of its "… K more items" line when list cutting applies. */
  moreCost: number;
  priority: number;
}

/**
 * Renders the tree, and when the text exceeds `maxTokens` keeps elements by priority — focus path, then
 * interactive elements, then elements with text, then containers; document order within a class — with
 * the ancestors of every kept element, until the estimate reaches the budget. The footer names how many
 * elements were left out and which `scope=` refs show them. The returned text is always within budget.
 */
export function renderWithinBudget(root: DistilledNode, window: WindowInfo, opts: BudgetOptions = {}): BudgetedRender {
  const maxTokens = opts.maxTokens ?? DEFAULT_MAX_TOKENS;
  const maxList = opts.maxListItems ?? MAX_LIST_ITEMS;
  // A grid takes 60% of the budget (so a larger maxTokens shows more of it), all of it but a margin when it is
  // the scope itself.
  const gridTokens =
    opts.uncapped && isGrid(opts.uncapped) ? Math.max(100, maxTokens - 150) : Math.floor(maxTokens * 0.6);
  const bodyChars = bodyCharsFor(maxTokens);
  const base = {
    maxListItems: maxList,
    gridTokens,
    bodyChars,
    ...(opts.uncapped ? { uncapped: opts.uncapped } : {}),
    ...(opts.textBelow ? { textBelow: opts.textBelow } : {}),
  };
  const full = render(root, window, { ...base, notes: opts.notes ?? {} });
  const fullTokens = estimateTokens(full.text);
  if (fullTokens <= maxTokens) return { ...full, tokens: fullTokens, omitted: 0, scopes: [] };

  const { infos, focused, totalCut } = costedTree(root, {
    maxList,
    gridTokens,
    bodyChars,
    uncapped: opts.uncapped,
    textBelow: opts.textBelow,
  });
  for (const i of infos) i.priority = priorityOf(i.node, focused, inClosedPopup(i));
  const ranked = [...infos].sort((a, b) => a.priority - b.priority || a.order - b.order);

  // Room for the header and the largest footer we could print; refined below if the real render is over.
  const notes = opts.notes ?? {};
  let reserve = worstReserve(full.text, infos, notes, totalCut);
  for (;;) {
    const keep = fill(ranked, reserve, maxTokens);
    const result = finish(root, window, infos, keep, base, notes);
    if (result.tokens <= maxTokens) return result;
    if (keep.size === 0) return hardCut(result, maxTokens);
    reserve += Math.max(result.tokens - maxTokens, 2);
  }
}

/** How `costedTree` walks: as the renderer would (list cutting, grid rows, body text). */
interface WalkOptions {
  maxList: number;
  gridTokens: number;
  bodyChars: number;
  uncapped: DistilledNode | undefined;
  textBelow: DistilledNode | undefined;
}

/** The tree as the renderer would walk it (after list cutting), with each line's cost and the focus path. */
function costedTree(
  root: DistilledNode,
  o: WalkOptions,
): { infos: Info[]; focused: Set<DistilledNode>; totalCut: number } {
  const infos: Info[] = [];
  const focused = new Set<DistilledNode>();
  let totalCut = 0;
  const collect = (node: DistilledNode, depth: number, parent: Info | undefined): void => {
    const { shown, cut } = visibleChildren(node, o.maxList, o.uncapped);
    totalCut += cut;
    const info: Info = {
      node,
      parent,
      order: infos.length,
      priority: 3,
      cost: estimateTokens(
        `${'  '.repeat(depth)}${renderLine(node, o.bodyChars, node === o.textBelow, node === o.uncapped)}\n`,
      ),
      moreCost: ((m) => (m === undefined ? 0 : estimateTokens(`${m}\n`)))(moreLine(node, shown.length, cut, depth)),
    };
    infos.push(info);
    if (node.states.includes('focused')) for (let p: Info | undefined = info; p; p = p.parent) focused.add(p.node);
    // A grid prints as one block (its cells are not element lines): it is kept or left out whole.
    if (isGrid(node)) {
      info.cost = estimateTokens(
        gridBlock(node, depth, o.gridTokens, node === o.uncapped ? Infinity : MAX_GRID_ROWS).text.join('\n') + '\n',
      );
      info.moreCost = 0;
      return;
    }
    if (costedRows(node, depth, info, infos)) return;
    for (const c of shown) collect(c, depth + 1, info);
  };
  collect(root, 0, undefined);
  return { infos, focused, totalCut };
}

/**
 * A sliced table's lines (rows.ts), false when the node is none: the row's cost sits on its first cell, the
 * header's on the first column header; the cells inside print on those lines.
 */
function costedRows(node: DistilledNode, depth: number, info: Info, infos: Info[]): boolean {
  const rows = sliceRows(node);
  if (!rows) return false;
  const pad = '  '.repeat(depth + 1);
  const rest = foldedRowsLine(node, depth);
  if (rest !== undefined) info.moreCost += estimateTokens(`${rest}\n`);
  const cols = columnsLine(node);
  node.children.filter((c) => c.role === 'columnheader').forEach((h, i) => {
    infos.push({
      node: h,
      parent: info,
      order: infos.length,
      priority: 3,
      cost: i === 0 && cols ? estimateTokens(`${pad}${cols}\n`) : 0,
      moreCost: 0,
    });
  });
  for (const r of rows) {
    r.cells.forEach((c, i) => {
      infos.push({
        node: c,
        parent: info,
        order: infos.length,
        priority: 3,
        cost: i === 0 ? estimateTokens(`${pad}${rowLine(r)}\n`) : 0,
        moreCost: 0,
      });
    });
  }
  return true;
}

/** Tokens kept for the header line and the largest footer the render could print. */
function worstReserve(fullText: string, infos: Info[], notes: FooterNotes, totalCut: number): number {
  const longestRef = infos.reduce((a, i) => ((i.node.ref ?? '').length > a.length ? i.node.ref ?? '' : a), '');
  const worstFooter = renderFooter({ ...notes, omitted: infos.length, scopes: Array(Math.min(5, infos.length))
    .fill(longestRef) as string[] }, totalCut);
  return estimateTokens(`${fullText.split('\n', 1)[0] ?? ''}\n${worstFooter ?? ''}`) + 1;
}

/** The elements kept within `maxTokens` past the `reserve`: each with its ancestors not kept yet, in rank order. */
function fill(ranked: Info[], reserve: number, maxTokens: number): Set<DistilledNode> {
  const keep = new Set<DistilledNode>();
  let used = reserve;
  for (const info of ranked) {
    if (keep.has(info.node)) continue;
    let add = 0;
    const chain: Info[] = [];
    for (let p: Info | undefined = info; p && !keep.has(p.node); p = p.parent) {
      add += p.cost + p.moreCost;
      chain.push(p);
    }
    // Greedy in rank order: an element that does not fit is left out and the fill goes on with smaller ones,
    // so one big block (a grid, a long value) does not push out the tab bar or a dialog's buttons after it.
    if (used + add > maxTokens) continue;
    used += add;
    for (const c of chain) keep.add(c.node);
  }
  return keep;
}

function finish(
  root: DistilledNode,
  window: WindowInfo,
  infos: Info[],
  keep: Set<DistilledNode>,
  base: {
    maxListItems: number;
    gridTokens: number;
    bodyChars: number;
    uncapped?: DistilledNode;
    textBelow?: DistilledNode;
  },
  notes: FooterNotes,
): BudgetedRender {
  const omittedUnder = new Map<Info, number>();
  let omitted = 0;
  for (const i of infos) {
    if (keep.has(i.node)) continue;
    omitted++;
    let p = i.parent;
    while (p && !keep.has(p.node)) p = p.parent;
    if (p) omittedUnder.set(p, (omittedUnder.get(p) ?? 0) + 1);
  }
  const scopes = [...omittedUnder].sort((a, b) => b[1] - a[1] || a[0].order - b[0].order).slice(0, 5)
    .sort((a, b) => a[0].order - b[0].order).map(([i]) => i.node.ref ?? '?');
  const r = render(root, window, { ...base, keep, notes: { ...notes, omitted, scopes } });
  return { ...r, tokens: estimateTokens(r.text), omitted, scopes };
}

/** Last resort when not even the header fits: cut the text itself. */
function hardCut(r: BudgetedRender, maxTokens: number): BudgetedRender {
  let text = r.text;
  while (text.length > 0 && estimateTokens(text) > maxTokens) text = text.slice(0, Math.floor(text.length * 0.8));
  const keptLines = text.split('\n').length - 1;
  return { ...r, text, lines: r.lines.slice(0, Math.max(0, keptLines)), tokens: estimateTokens(text) };
}

/** Counts the nodes of a distilled tree. */
export function countDistilled(root: DistilledNode): number {
  let n = 0;
  walkDistilled(root, () => n++);
  return n;
}
