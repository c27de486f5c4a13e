import type { Op, RawNode, State } from './node.js';
import { CONTAINER_ROLES, type Role } from './role.js';
import { TEXT_ROLES } from '../protocol/vocabulary.js';

/**
 * A node after distilling: the raw node's meaningful fields, its surviving children, its position in the
 * distilled parent and a hash of its original ancestry (both go into the ref fingerprint).
 */
import type { GridFold } from './grid-fold.js';
import { plainMarkup } from './markup.js';

export interface DistilledNode {
  /** Native handle, copied from the raw node. */
  id: string;
  role: Role;
  name?: string;
  value?: string;
  /** Full value length when the driver cut the value. */
  valueLength?: number;
  /** Offset of `value` in the full text when the driver read a later range (a terminal's tail). */
  valueStart?: number;
  /** Text caret offset, and the selected range, where the node has them. */
  caret?: number;
  selection?: [number, number];
  description?: string;
  /** The text of the label beside a nameless field (RawNode `beside`). */
  beside?: string;
  stableId?: string;
  states: State[];
  actions: Op[];
  range?: { min: number; max: number; step?: number };
  /** How many children the platform reported before distilling (read children or `childCount`). */
  rawChildCount: number;
  /**
   * How many children the platform reports when the driver read only the first ones (a sheet of 2³¹−1
   * cells): the snapshot says which range it shows of how many.
   */
  totalChildren?: number;
  /** Table size (AT-SPI Table), copied from the raw node: the grid renderer shows it (grid.ts). */
  table?: { rows: number; cols: number };
  /** A cell's coordinates and spreadsheet address, copied from the raw node. */
  cell?: { row: number; col: number; address?: string };
  /**
   * The slice of a long list the driver read (the rows on screen): 0-based child indexes [start, end), and
   * in table rows (1-based, inclusive) when the cells say which rows they are in.
   */
  shownRange?: { start: number; end: number; cells?: boolean; rows?: { first: number; last: number; total: number } };
  /** How many items the whole set holds when the app keeps only some in the tree (RawNode `setSize`). */
  setSize?: number;
  /**
   * Items of this list the app keeps in the tree off screen (scrolled out of a GTK icon view or list box), dropped
   * by distilling: the print says how many of its items show (render.ts moreLine).
   */
  offscreenItems?: number;
  /** An item's 1-based position in its container's whole set (RawNode `posInSet`). */
  posInSet?: number;
  children: DistilledNode[];
  /** Position among the distilled parent's children (0 for the root). */
  index: number;
  /** Hash of the original (raw) ancestor chain, see `ancestryPath`. */
  path: string;
  /** Hash of the texts that tell this element's row or container apart (see `rowContext`); '' when none. */
  context?: string;
  /**
   * The real index of the row it stands in (a cell's table row, or the child index in the whole list of a
   * list child the driver read as a slice), inherited by everything inside that row; undefined outside lists.
   * Unlike `index` it does not change when the list scrolls: it names the row, not its place on screen.
   */
  slot?: number;
  /** Native ids of its nearest raw ancestors, nearest first (up to `RAW_PARENTS`): see `RefTable.assign`. */
  rawParents?: string[];
  /** `eN`, set by `RefTable.assign`. */
  ref?: string;
  /** Set on the one node that stands for a run of alike controls in a folded print (engine/fold.ts). */
  folded?: FoldRun;
  /**
   * Inside an editable document or text box: the text is that element's value, so a drawn area inside it (Qt's
   * editor viewport, a GTK 4 entry's scroller) hides nothing (engine/opaque.ts).
   */
  inText?: true;
  /** Rows on screen a folded print left out of a long list's slice (engine/fold.ts); `scope=` on it prints them. */
  rowsFolded?: number;
  /** A folded print's cut of this grid (engine/grid.ts GridFold): set by engine/fold.ts on a copy. */
  gridFold?: GridFold;
}

/** What a fold line stands for (engine/fold.ts): the run's elements (their refs stay valid) and the ref whose scope
* lists them. */
export interface FoldRun {
  members: DistilledNode[];
  /** The parent's ref: `scope=` on it prints the run with a line and a ref each. */
  scope: string;
  /** Parts around a page (engine/chrome.ts): of any role, each with what it holds; `scope=` on a part lists it. */
  around?: boolean;
}

/** How many raw ancestors a distilled node remembers (a row's entry sits 1–3 levels under its row). */
const RAW_PARENTS = 3;

/** What a pass asks for: drop the node with its subtree, or replace it by its children. */
export type PassResult = 'remove' | 'unwrap' | undefined;

/** What a pass sees besides the node. */
export interface PassContext {
  /** The distilled parent (as it stands during this pass); undefined for the root. */
  parent: DistilledNode | undefined;
  /** True when the node is the focused node or one of its ancestors. */
  onFocusPath: boolean;
}

/**
 * One named distilling pass, in the style of Playwright's aria snapshot distiller. `enter` runs before the
 * children are visited, `exit` after (so it sees children already distilled by this pass). The root is never
 * removed nor unwrapped, whatever a pass answers.
 */
export interface DistillPass {
  name: string;
  enter?(node: DistilledNode, ctx: PassContext): PassResult;
  exit?(node: DistilledNode, ctx: PassContext): PassResult;
}

/** Result of `distill`: the tree plus how many nodes each pass removed or unwrapped. */
export interface Distilled {
  root: DistilledNode;
  /** Per pass name: number of nodes it removed (whole subtrees counted) or unwrapped. */
  counts: Record<string, number>;
  /** Nameless containers folded away (the `unwrapContainers` count), for the footer. */
  folded: number;
}

function isZeroSize(bounds: RawNode['bounds']): boolean {
  return bounds !== undefined && (bounds[2] === 0 || bounds[3] === 0);
}


/** Roles of live regions, whose text the driver may read as their value (a status line, an alert, a tooltip). */
const LIVE_ROLES: ReadonlySet<Role> = new Set<Role>(['statusbar', 'alert', 'tooltip']);

/** True for a node that carries nothing of its own: no name, no value, no actions. */
function isBare(n: DistilledNode): boolean {
  return !n.name && !n.value && n.actions.length === 0;
}

/** A label's text as it compares to a control's name: trimmed, a trailing colon (or a full-width one) left out. */
function echoKey(s: string | undefined): string | undefined {
  const k = s?.trim().replace(/[:\uff1a]\s*$/u, '').trim();
  return k ? k : undefined;
}

/**
 * The text of a plain label (no actions, not focused nor selected) whose children, if any, only repeat it
 * (Chromium's `<label>` holds its words as one text child); undefined for anything else.
 */
function echoText(n: DistilledNode): string | undefined {
  if (n.role !== 'label' && n.role !== 'text') return undefined;
  if (n.actions.length > 0 || n.states.includes('focused') || n.states.includes('selected')) return undefined;
  const own = (n.name ?? '').trim() || (n.value ?? '').trim();
  if (n.name && n.value && n.value.trim() !== own) return undefined;
  const kids = n.children.map((c) => (c.children.length === 0 ? echoText(c) : undefined));
  if (kids.some((k) => k === undefined || (own !== '' && k !== echoKey(own)))) return undefined;
  return echoKey(own) ?? (kids.length === 1 ? kids[0] : undefined);
}

/** Roles of controls that print the name of the label that names them. */
const LABELLED_ROLES: ReadonlySet<Role> = new Set<Role>([
  'textbox', 'combobox', 'spinbutton', 'slider', 'checkbox', 'radio', 'switch', 'button', 'link',
]);

/**
 * What a control prints for its name, as `echoKey` compares it: its name, else the label beside it when no
 * description stands in for a name (engine/render.ts `besideLabel`).
 */
function printedName(c: DistilledNode): string | undefined {
  if (!LABELLED_ROLES.has(c.role)) return undefined;
  if (c.name) return echoKey(c.name);
  return c.description?.trim() ? undefined : echoKey(c.beside);
}

/** Roles of a list's items whose parent counts those off screen (a table's rows say their range: shownRange). */
const ITEM_ROLES: ReadonlySet<string> = new Set(['listitem', 'treeitem']);

/** Raw bounds are not kept on distilled nodes; the hidden pass reads them through this side table. */
const boundsOf = new WeakMap<DistilledNode, RawNode['bounds']>();

/**
 * The passes, in the order they run. Each one is a separate walk over the result of the previous one.
 */
export const PASSES: readonly DistillPass[] = [
  {
    /**
     * Elements the user cannot see are noise to the model and cannot be acted on reliably: toolkits keep
     * closed menus, inactive notebook pages and scrolled-out rows in the tree with `showing` off, and lay out
     * zero-sized placeholders. We drop them with their subtrees — except the root (the window itself is
     * what was asked for) and anything on the focus path, because the focused element is what the model
     * must always see even when a toolkit misreports its visibility.
     */
    name: 'dropHidden',
    enter(node, ctx) {
      if (ctx.onFocusPath) return undefined;
      if (node.states.includes('invisible') || node.states.includes('offscreen')) {
        if (ctx.parent && ITEM_ROLES.has(node.role) && !node.states.includes('invisible'))
          ctx.parent.offscreenItems = (ctx.parent.offscreenItems ?? 0) + 1;
        return 'remove';
      }
      if (isZeroSize(boundsOf.get(node))) return 'remove';
      return undefined;
    },
  },
  {
    /**
     * Pure decoration costs tokens and carries no meaning: separators, images without a name (icons next
     * to labelled buttons), empty labels, and empty containers left over after hidden children were dropped. Running at
     * `exit` lets an emptied container disappear in the same walk. A named image or anything with an action
     * stays: it can be referred to.
     */
    name: 'dropDecoration',
    exit(node, ctx) {
      if (ctx.onFocusPath) return undefined;
      if (node.role === 'separator') return 'remove';
      if (node.role === 'image' && !node.name && node.actions.length === 0) return 'remove';
      if (TEXT_ROLES.has(node.role) && node.children.length === 0 && isBare(node)) return 'remove';
      if (CONTAINER_ROLES.has(node.role) && node.children.length === 0 && isBare(node)) return 'remove';
      return undefined;
    },
  },
  {
    /**
     * GTK, Qt and UIA wrap everything in nameless fillers, panels, viewports and scroll panes. They add
     * depth and tokens but nothing the model can act on or read, so their children take their place. This
     * also flattens the long single-child chains toolkits produce. A container that is focused, has a name,
     * a value or an action is kept: it then means something.
     */
    name: 'unwrapContainers',
    enter(node) {
      if (!CONTAINER_ROLES.has(node.role)) return undefined;
      if (!isBare(node) || node.states.includes('focused')) return undefined;
      return 'unwrap';
    },
  },
  {
    /**
     * A button "Save" whose only content is a label "Save" says the same thing twice. Toolkits expose the
     * label as a child; we drop that child when its text equals the parent's name, so each visible string
     * appears once.
     */
    name: 'collapseRedundantLabel',
    enter(node, ctx) {
      if (node.role !== 'label' && node.role !== 'text') return undefined;
      if (node.children.length > 0 || node.actions.length > 0 || node.states.includes('focused')) return undefined;
      // A live region's text read as its value (a status line) and again as its one text child (Chromium) is one text.
      const parentName =
        ctx.parent?.name?.trim() ||
        (ctx.parent && LIVE_ROLES.has(ctx.parent.role) ? ctx.parent.value?.trim() : undefined);
      if (!parentName) return undefined;
      const text = (node.name ?? node.value ?? '').trim();
      return text === parentName && (!node.value || node.value.trim() === parentName) ? 'remove' : undefined;
    },
  },
  {
    /**
     * A form's label next to the field it names says it twice: `label "Name:"` then `textbox "Name:"` (or
     * `combobox beside="Name:"`). A label whose text, a trailing colon aside, is what its neighbouring control
     * prints as its name goes: the control's line says it, and acting on a label does nothing. A label that
     * names its control differently, or stands apart from it, stays.
     */
    name: 'dropEchoLabel',
    enter(node, ctx) {
      if (ctx.onFocusPath || !ctx.parent) return undefined;
      const text = echoText(node);
      if (text === undefined) return undefined;
      const kids = ctx.parent.children;
      const i = kids.indexOf(node);
      return [kids[i - 1], kids[i + 1]].some((c) => c !== undefined && printedName(c) === text) ? 'remove' : undefined;
    },
  },
];

/** 32-bit FNV-1a as 8 hex digits; pure and stable across processes. */
export function fnv1a(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/**
 * Hash of an ancestor chain (outermost first, the window root excluded) for fingerprints. Nameless containers
 * are skipped so that toolkit wrappers coming and going do not change the path; the window root is skipped
 * because its title changes with the document ("*Untitled" after an edit).
 */
export function ancestryPath(ancestors: readonly Pick<RawNode, 'role' | 'name'>[]): string {
  const parts: string[] = [];
  for (let i = 1; i < ancestors.length; i++) {
    const a = ancestors[i];
    if (!a) continue;
    if (CONTAINER_ROLES.has(a.role) && !a.name) continue;
    parts.push(`${a.role}:${a.name ?? ''}`);
  }
  return fnv1a(parts.join('/'));
}

/** Ids of the focused node (the deepest one when several claim focus) and all its ancestors. */
export function focusPath(root: RawNode): Set<string> {
  let best: RawNode[] | undefined;
  const visit = (n: RawNode, chain: RawNode[]): void => {
    chain.push(n);
    if (n.states.includes('focused') && (!best || chain.length > best.length)) best = [...chain];
    for (const c of n.children ?? []) visit(c, chain);
    chain.pop();
  };
  visit(root, []);
  return new Set((best ?? []).map((n) => n.id));
}

/** True for an element that exposes its text as its value: an editable document or text box. */
function holdsText(raw: RawNode): boolean {
  return (raw.role === 'document' || raw.role === 'textbox') && raw.states.includes('editable');
}

function convert(raw: RawNode, ancestors: RawNode[], slot?: number): DistilledNode {
  const n: DistilledNode = {
    id: raw.id,
    role: raw.role,
    states: [...raw.states],
    actions: [...raw.actions],
    rawChildCount: raw.children?.length ?? raw.childCount ?? 0,
    children: [],
    index: 0,
    path: ancestryPath(ancestors),
    context: '',
  };
  // Rich text (Qt's tool tips and labels are HTML) prints as its words: engine/markup.ts.
  const name = plainMarkup(raw.name ?? '');
  if (name !== '') n.name = name;
  if (raw.value !== undefined) n.value = raw.value;
  if (raw.valueLength !== undefined) n.valueLength = raw.valueLength;
  if (raw.valueStart !== undefined) n.valueStart = raw.valueStart;
  if (raw.caret !== undefined) n.caret = raw.caret;
  if (raw.selection !== undefined) n.selection = [raw.selection[0], raw.selection[1]];
  const description = plainMarkup(raw.description ?? '');
  if (description !== '') n.description = description;
  if (raw.beside !== undefined && raw.beside !== '') n.beside = raw.beside;
  if (raw.stableId !== undefined && raw.stableId !== '') n.stableId = raw.stableId;
  if (raw.range !== undefined) n.range = { ...raw.range };
  if (raw.table !== undefined) n.table = { ...raw.table };
  if (raw.cell !== undefined) n.cell = { ...raw.cell };
  if (raw.setSize !== undefined) n.setSize = raw.setSize;
  if (raw.posInSet !== undefined) n.posInSet = raw.posInSet;
  if (raw.children !== undefined && raw.childCount !== undefined && raw.childCount > raw.children.length)
    n.totalChildren = raw.childCount;
  if (raw.childRange !== undefined && n.totalChildren !== undefined) n.shownRange = shownRange(raw);
  if (raw.bounds !== undefined) boundsOf.set(n, raw.bounds);
  const row = raw.cell?.row ?? slot;
  if (row !== undefined) n.slot = row;
  if (ancestors.length) n.rawParents = ancestors.slice(-RAW_PARENTS).reverse().map((a) => a.id);
  if (ancestors.some(holdsText)) n.inText = true;
  ancestors.push(raw);
  // Children of a slice of a long list are numbered from the slice's start: their index in the whole list.
  const start = raw.childRange?.start;
  n.children = (raw.children ?? []).map((c, i) => convert(c, ancestors, start !== undefined ? start + i : row));
  ancestors.pop();
  return n;
}

/** The read slice of a long list, in rows where the table and its first and last cells tell them. */
function shownRange(raw: RawNode): NonNullable<DistilledNode['shownRange']> {
  const range = { start: raw.childRange?.start ?? 0, end: raw.childRange?.end ?? 0 };
  const kids = raw.children ?? [];
  const first = kids.find((k) => k.cell !== undefined)?.cell;
  const last = [...kids].reverse().find((k) => k.cell !== undefined)?.cell;
  if (raw.table && first && last)
    return { ...range, rows: { first: first.row + 1, last: last.row + 1, total: raw.table.rows } };
  // Children that are cells are not rows (a spreadsheet's 2³¹−1 cells): say cells.
  return kids.some((k) => k.role === 'cell') ? { ...range, cells: true } : range;
}

function subtreeSize(n: DistilledNode): number {
  let k = 1;
  for (const c of n.children) k += subtreeSize(c);
  return k;
}

function runPass(node: DistilledNode, pass: DistillPass, parent: DistilledNode | undefined, focus: ReadonlySet<string>,
  count: { n: number }): DistilledNode[] {
  const ctx: PassContext = { parent, onFocusPath: focus.has(node.id) };
  const isRoot = parent === undefined;
  let verdict = isRoot ? undefined : pass.enter?.(node, ctx);
  if (verdict === 'remove') {
    count.n += subtreeSize(node);
    return [];
  }
  const kids: DistilledNode[] = [];
  // Children see this node as parent unless it is being unwrapped, then they see its own parent.
  const childParent = verdict === 'unwrap' ? parent : node;
  for (const c of node.children) kids.push(...runPass(c, pass, childParent, focus, count));
  node.children = kids;
  if (verdict === 'unwrap') {
    count.n += 1;
    return kids;
  }
  verdict = isRoot ? undefined : pass.exit?.(node, ctx);
  if (verdict === 'remove') {
    count.n += subtreeSize(node);
    return [];
  }
  if (verdict === 'unwrap') {
    count.n += 1;
    return kids;
  }
  return [node];
}

function setIndexes(n: DistilledNode): void {
  n.children.forEach((c, i) => {
    c.index = i;
    setIndexes(c);
  });
}

/** Roles whose name is the text a row or container shows about itself. */
const CONTEXT_TEXT_ROLES: ReadonlySet<Role> = new Set<Role>([
  'label',
  'text',
  'paragraph',
  'heading',
  'cell',
  'rowheader',
  'columnheader',
  'image',
]);
/** How many sibling texts a context takes, and how many levels up it looks for them. */
const CONTEXT_TEXTS = 4;
const CONTEXT_LEVELS = 2;

/**
 * The row context of a distilled node: the names of the text siblings that say which row or container it is in
 * ("alice" next to an "Archive" button). Two look-alike buttons in two rows have the same role, name and
 * ancestry path; only this tells them apart, so a ref never moves from one row to the other. When the node
 * has no text sibling, the siblings of its parent count (a button inside a table cell next to the name cell).
 * Values are left out: they change when the user types.
 */
export function rowContext(node: DistilledNode, ancestors: readonly DistilledNode[]): string {
  let self = node;
  for (let up = 0; up < CONTEXT_LEVELS; up++) {
    const parent = ancestors[ancestors.length - 1 - up];
    if (!parent) break;
    const texts: string[] = [];
    for (const c of parent.children) {
      if (c !== self && c.name && CONTEXT_TEXT_ROLES.has(c.role)) texts.push(c.name);
      if (texts.length >= CONTEXT_TEXTS) break;
    }
    if (texts.length > 0) return fnv1a(texts.join('\u0001'));
    self = parent;
  }
  return '';
}

function setContexts(n: DistilledNode, ancestors: DistilledNode[]): void {
  n.context = rowContext(n, ancestors);
  ancestors.push(n);
  for (const c of n.children) setContexts(c, ancestors);
  ancestors.pop();
}

/**
 * Distills a raw tree: copies it (the input is not modified), runs `passes` in order and numbers children.
 * The root always survives.
 */
export function distill(root: RawNode, passes: readonly DistillPass[] = PASSES): Distilled {
  const focus = focusPath(root);
  const tree = convert(root, []);
  const counts: Record<string, number> = {};
  for (const pass of passes) {
    const count = { n: 0 };
    runPass(tree, pass, undefined, focus, count);
    counts[pass.name] = (counts[pass.name] ?? 0) + count.n;
  }
  setIndexes(tree);
  setContexts(tree, []);
  return { root: tree, counts, folded: counts['unwrapContainers'] ?? 0 };
}

/** Depth-first visit of a distilled tree. */
export function walkDistilled(node: DistilledNode, visit: (node: DistilledNode, depth: number,
  parent: DistilledNode | undefined) => void, depth = 0, parent?: DistilledNode): void {
  visit(node, depth, parent);
  for (const c of node.children) walkDistilled(c, visit, depth + 1, node);
}

/** Finds the node carrying `ref` in a distilled tree. */
export function findByRef(root: DistilledNode, ref: string): DistilledNode | undefined {
  if (root.ref === ref) return root;
  for (const c of root.children) {
    const hit = findByRef(c, ref);
    if (hit) return hit;
  }
  return undefined;
}
