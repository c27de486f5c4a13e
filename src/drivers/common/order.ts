/**
 * Content panes in the order a user sees them. A toolkit lists children in the order they were added, which
 * need not be where they show: meld 3.22 (GTK 3) lists its right file's text view before its left one, and a
 * model in the loop read the right file as the left. Siblings that each hold a text body (a document or a
 * terminal; not a form's fields) are put in screen order, only when every one of them has known bounds, no two overlap,
 * and
 * they sit in one row (ordered left to right) or one column (top to bottom); otherwise the tree's order stays.
 */
import type { RawNode } from '../../protocol/nodes.js';
import { empty, overlap, spansMeet, type Rect } from './rects.js';

/** Roles whose node shows text a user reads as a pane's content. */
const CONTENT_ROLES: ReadonlySet<string> = new Set(['document', 'terminal']);
/** Most panes one parent's order is checked for (each costs a bounds read). */
const MAX_PANES = 6;

/** True when the node or a descendant shows text content. */
function holdsContent(n: RawNode): boolean {
  return CONTENT_ROLES.has(n.role) || (n.children ?? []).some(holdsContent);
}

/**
 * The rectangles in screen order: indexes into `rects` sorted left to right when all share a row, top to bottom
 * when all share a column; undefined when their order cannot be told (overlapping, scattered, or no area).
 */
export function screenOrder(rects: readonly Rect[]): number[] | undefined {
  if (rects.some(empty)) return undefined;
  for (let i = 0; i < rects.length; i++)
    for (let j = i + 1; j < rects.length; j++) if (overlap(rects[i]!, rects[j]!)) return undefined;
  const idx = rects.map((_, i) => i);
  const all = (meet: (a: Rect, b: Rect) => boolean): boolean => rects.every((a) => rects.every((b) => meet(a, b)));
  if (all((a, b) => spansMeet(a[1], a[3], b[1], b[3]))) return idx.sort((a, b) => rects[a]![0] - rects[b]![0]);
  if (all((a, b) => spansMeet(a[0], a[2], b[0], b[2]))) return idx.sort((a, b) => rects[a]![1] - rects[b]![1]);
  return undefined;
}

/** The children of `parent` that hold text content, when two or more do (their order is worth checking). */
export function contentPanes(parent: RawNode): RawNode[] {
  const panes = (parent.children ?? []).filter(holdsContent);
  return panes.length >= 2 && panes.length <= MAX_PANES ? panes : [];
}

/**
 * Puts `panes` (children of `parent`, with their bounds) in screen order within the slots they occupy; the other
 * children keep their places. True when the order changed.
 */
export function orderPanes(parent: RawNode, panes: readonly RawNode[], bounds: readonly (Rect | undefined)[]): boolean {
  if (bounds.some((b) => b === undefined)) return false;
  const order = screenOrder(bounds as Rect[]);
  if (!order || order.every((k, i) => k === i)) return false;
  const kids = parent.children ?? [];
  const slots = panes.map((p) => kids.indexOf(p));
  slots.forEach((slot, i) => { kids[slot] = panes[order[i]!]!; });
  return true;
}

/** Every parent in the tree with two or more content panes, deepest last (each parent once). */
export function parentsOfPanes(root: RawNode): RawNode[] {
  const out: RawNode[] = [];
  const visit = (n: RawNode): void => {
    if (contentPanes(n).length) out.push(n);
    for (const c of n.children ?? []) visit(c);
  };
  visit(root);
  return out;
}
