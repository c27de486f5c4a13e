/**
 * Which parts of a window's last read its app's events say changed: the plan of a partial re-read. An act's
 * receipt used to read the whole window again after every act (46–420 ms on gtk3-widget-factory), while the
 * app's events name the few objects the act touched. Anything unsure plans a whole read: events not all known, none
 * at all (an act that changed something always sends some), too many (a flood), a source that cannot be placed, a
 * change at the window's root, a change inside a table or a set (their cells are numbered by the container), or a
 * re-read that would cover most of the window anyway. The window's own facts (its title) are read again always: not
 * every toolkit says when they change. Pure: the driver places unknown sources (patch-read.ts).
 */
import type { RawNode } from '../../../protocol/nodes.js';

/** What the driver keeps of a whole-window read to patch it later. */
export interface KeptRead {
  /** The mark the read was answered with. */
  mark: string;
  /** The tree as read, before the passes that run on the whole tree (panes, field labels, choosers). */
  root: RawNode;
  nodes: number;
  /** Handles of the nodes read that do not show on screen. */
  notShowing: Set<string>;
  /** Characters of the read's text budget left after it. */
  textLeft: number;
  /** Whether the toolkit's "showing" state could be trusted (showingIsReliable). */
  reliable: boolean;
}

/** One received event, as much as the plan needs. */
export interface PlanEvent { type: string; source: string }

/** A whole read, and why (for benchmarks and traces). */
export interface WholeRead { whole: string }
/**
 * Subtrees to read again whole, nodes whose own facts are read again (their children kept), and nodes of which only
 * where the user is in their text (caret, selection) is read again: what changes there sends no event the driver
 * hears, and everything else of them would have.
 */
export interface PartialRead { subtrees: string[]; refresh: string[]; carets: string[] }
export type PatchPlan = WholeRead | PartialRead;

/**
 * Where an event's source sits: `outside` (another window of the app), the handle of the nearest node of the kept
 * read above it, or undefined when that could not be told.
 */
export type Locate = (source: string) => Promise<string | 'outside' | undefined>;

/** More events than this since the read: a flood, read whole. */
export const MAX_PATCH_EVENTS = 200;
/** Sources not in the read placed by walking up their parents; beyond this, read whole. */
export const MAX_UNPLACED = 24;
/** Fields an ancestor sets on a node (table cells, set items): a node carrying one is never re-read alone. */
const ANNOTATED_BY_ANCESTOR = ['cell', 'posInSet'] as const;
/** Event kinds after which a node's children may differ: its subtree is read again. */
const STRUCTURAL =
  /children-changed|row-inserted|row-deleted|row-reordered|model-changed|selection-changed|active-descendant-changed|property-change:accessible-parent|property-change:accessible-table/;
/** State changes that change what a read keeps below the node (a hidden subtree is cut): its parent's subtree is read again. */
const SHOWING = /state-changed:(showing|visible|defunct)/;
/** The application's root object: its children are the app's windows, not this window's content. */
const APP_ROOT_PATH = '/org/a11y/atspi/accessible/root';

/** A node of a read with its parent. */
export interface Placed { node: RawNode; parent: RawNode | undefined }

/** Every node of a tree by handle, with its parent. */
export function indexTree(root: RawNode): Map<string, Placed> {
  const out = new Map<string, Placed>();
  const visit = (n: RawNode, parent: RawNode | undefined): void => {
    out.set(n.id, { node: n, parent });
    for (const c of n.children ?? []) visit(c, n);
  };
  visit(root, undefined);
  return out;
}

/**
 * Whether a read can be patched at all: complete, showing trusted, and every slice of a long list or table (the rows
 * on screen) beside a scroll bar: a scroll changes the slice, and only a scroll bar's value-changed says so (GTK's
 * scrolled windows); a list scrolled with no scroll bar in the tree (a web page's) sends nothing the driver hears.
 */
export function patchable(read: { root: RawNode; truncated: boolean; reliable: boolean }): boolean {
  if (read.truncated || !read.reliable) return false;
  let unheard = false;
  const visit = (n: RawNode, parent: RawNode | undefined): void => {
    if (n.childRange && !parent?.children?.some((c) => c.role === 'scrollbar')) unheard = true;
    for (const c of n.children ?? []) visit(c, n);
  };
  visit(read.root, undefined);
  return !unheard;
}

/** Plans the re-read of `kept` from the events its app sent since its mark (undefined: not all known). */
export async function planPatch(
  kept: KeptRead,
  events: readonly PlanEvent[] | undefined,
  locate: Locate,
): Promise<PatchPlan> {
  if (!events) return { whole: 'events not all known' };
  if (events.length === 0) return { whole: 'no event' };
  if (events.length > MAX_PATCH_EVENTS) return { whole: 'too many events' };
  const index = indexTree(kept.root);
  const subtrees = new Set<string>();
  const refresh = new Set<string>();
  const placed = new Map<string, string | 'outside' | undefined>();
  for (const ev of events) {
    if (ev.source.endsWith(APP_ROOT_PATH) && !index.has(ev.source)) continue;
    let at: string | 'outside' | undefined = index.has(ev.source) ? ev.source : placed.get(ev.source);
    if (at === undefined && !placed.has(ev.source)) {
      if (placed.size >= MAX_UNPLACED) return { whole: 'too many sources outside the read' };
      at = await locate(ev.source);
      placed.set(ev.source, at);
    }
    if (at === undefined) return { whole: 'a source that could not be placed' };
    if (at === 'outside') continue;
    const p = index.get(at);
    if (!p) return { whole: 'a source that could not be placed' };
    // Below a node whose children were not read (a hidden subtree): the read holds nothing of it to change.
    if (at !== ev.source) {
      if (p.node.children === undefined && kept.notShowing.has(at)) continue;
      subtrees.add(at);
      continue;
    }
    // A scroll bar that moved scrolled its pane: the rows on screen of a list in it are read again.
    if (SHOWING.test(ev.type) || p.node.role === 'scrollbar') subtrees.add(p.parent?.id ?? at);
    else if (STRUCTURAL.test(ev.type)) subtrees.add(at);
    else {
      // A container's own facts can come from its children (a combo box's choice from its list): the parent's too.
      refresh.add(at);
      // A layout box that carries nothing of its own takes nothing from its children.
      if (p.parent && !plainBox(p.parent)) refresh.add(p.parent.id);
    }
  }
  // A caret or a selection moves with no event the driver listens to: read again where a snapshot shows it.
  const carets = new Set<string>();
  for (const [id, p] of index) if (showsWhereInText(p.node)) carets.add(id);
  // A window's title changes with no event on it in Qt 5 (featherpad's "Untitled" turning "*Untitled" after a type
  // came with events on the document, the toolbar and the status bar only): the root's own facts are read again.
  refresh.add(kept.root.id);
  return finishPlan(kept, index, subtrees, refresh, carets);
}

/** A layout box (a filler, a nameless panel) with no name, description or value of its own. */
function plainBox(n: RawNode): boolean {
  return (n.role === 'generic' || n.role === 'group') && !n.name && !n.description && n.value === undefined;
}

/**
 * Whether a snapshot prints where the user is in a node's text: a selection, or a caret in a document, a terminal or
 * the focused field (engine/text.ts). An unfocused field's caret moves only with its text (text-changed) or its
 * focus (state-changed), both heard.
 */
function showsWhereInText(n: RawNode): boolean {
  if (n.selection !== undefined && n.selection[1] > n.selection[0]) return true;
  return n.caret !== undefined && (n.role === 'document' || n.role === 'terminal' || n.states.includes('focused'));
}

/** Drops what a larger re-read covers and checks what may not be re-read in part. */
function finishPlan(
  kept: KeptRead,
  index: Map<string, Placed>,
  subtrees: Set<string>,
  refresh: Set<string>,
  carets: Set<string> = new Set(),
): PatchPlan {
  if (subtrees.has(kept.root.id)) return { whole: "a change at the window's root" };
  const inside = (id: string, set: Set<string>): boolean => {
    for (let p = index.get(id)?.parent; p; p = index.get(p.id)?.parent) if (set.has(p.id)) return true;
    return false;
  };
  const roots = [...subtrees].filter((id) => !inside(id, subtrees));
  const fresh = [...refresh].filter((id) => !subtrees.has(id) && !inside(id, subtrees));
  const caretsOnly = [...carets].filter((id) => !refresh.has(id) && !subtrees.has(id) && !inside(id, subtrees));
  for (const id of [...roots, ...fresh])
    if (numberedByAncestor(index, id)) return { whole: 'a change inside a table or a set' };
  const covered = roots.reduce((sum, id) => sum + sizeOf(index.get(id)!.node), 0);
  if (covered * 2 > kept.nodes) return { whole: 'most of the window changed' };
  return { subtrees: roots, refresh: fresh, carets: caretsOnly };
}

/** Whether a node or one above it is a table or a set whose reading numbers its descendants. */
function numberedByAncestor(index: Map<string, Placed>, id: string): boolean {
  const self = index.get(id)?.node;
  if (self && ANNOTATED_BY_ANCESTOR.some((k) => self[k] !== undefined)) return true;
  for (let n = self; n; n = index.get(n.id)?.parent) if (n.table !== undefined || n.setSize !== undefined) return true;
  return false;
}

/** Nodes in a subtree. */
export function sizeOf(n: RawNode): number {
  let count = 1;
  for (const c of n.children ?? []) count += sizeOf(c);
  return count;
}
