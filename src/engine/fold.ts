/**
 * Folding of long runs of alike controls in a whole-window print: a toolbar's 32 buttons, a palette, a button
 * grid or a dock's long list print as one line (their count, their names in order up to a small budget, and the
 * scope that lists them with refs) instead of one line each. LibreOffice Calc's first print spent about a third
 * of its ~1,800 tokens on toolbar buttons a model rarely needs by ref before it asks. Folding works on a copy of
 * the distilled tree: refs, the elements a find or a diff reads and the nodes themselves are untouched, so a
 * folded control is still found and acted on by name. Pure.
 */
import type { DistilledNode } from './distill.js';
export type { FoldRun } from './distill.js';
import { FIRST_PRINT_GRID_FOLD, gridCells, isGrid } from './grid.js';
import type { State } from './node.js';
import type { Role } from './role.js';
import { rowElements, sliceRows, type SliceRow } from './rows.js';

/**
 * Siblings that fold to one line: this many alike in a row, or more. From five on the fold line, which lists
 * every name when they fit (render.ts foldLine), is shorter than their lines: a menu bar's nine menus read ~81
 * tokens as lines, ~59 as one line.
 */
export const FOLD_MIN = 5;

/**
 * Roles a bar, a palette, a button grid or a dock's list repeats; a menu bar's closed menus too. Tabs (the
 * structure) and form fields never fold.
 */
const FOLDABLE_ROLES: ReadonlySet<Role> = new Set<Role>(['button', 'link', 'menu', 'menuitem', 'listitem', 'treeitem']);

/** States that make an element worth its own line: the model must see what is focused, selected or open. */
const SHOWN_STATES: ReadonlySet<string> = new Set(['focused', 'selected', 'mixed', 'expanded', 'busy', 'invalid']);

/**
 * States a member keeps inside a fold line, after its name (`e33 "Bold" checked`): a toolbar's toggle buttons
 * (abiword's alignment, LibreOffice's sidebar deck) are mostly off, and one on used to break the run in two
 * lines and a lone one. The fold line prints every member that carries one, whatever its budget (render.ts).
 */
export const FOLD_ENTRY_STATES: readonly State[] = ['checked', 'pressed'];

/**
 * Rows of a long list's slice a folded print shows: a file chooser's or a web table's 32 rows on screen read ~930
 * tokens, Thunar's 12 rows of a 3,000-file folder ~270 on each print, and a model looks for a row by find or reads
 * them by scope: the first rows show what the columns hold. Slices of FOLDED_ROWS_MIN rows or more print their first
 * rows and those down to the last one that is focused, selected or was just acted on, and a line saying how to
 * list the rest.
 */
export const FOLDED_ROWS = 3;
const FOLDED_ROWS_MIN = 6;

/** Options of `foldRuns`. */
export interface FoldOptions {
  /** Refs printed in full wherever they are (what the model just acted on). */
  whole?: ReadonlySet<string>;
}

/** The text a member shows in a fold line: its name, else the description a nameless control prints. */
export function foldLabel(n: DistilledNode): string | undefined {
  return n.name ?? n.description?.trim() ?? undefined;
}

/** True for an element a fold may hide: a leaf control with a label and nothing of its own the model must see. */
function foldable(n: DistilledNode, whole: ReadonlySet<string>): boolean {
  if (!FOLDABLE_ROLES.has(n.role) || n.children.length > 0 || n.totalChildren !== undefined) return false;
  if (!foldLabel(n) || (n.value !== undefined && n.value !== '' && n.value !== n.name)) return false;
  if (n.ref !== undefined && whole.has(n.ref)) return false;
  return !n.states.some((s) => SHOWN_STATES.has(s));
}

/** How many siblings from `i` on are foldable and of one role (1 when fewer than FOLD_MIN). */
function runLength(kids: readonly DistilledNode[], i: number, whole: ReadonlySet<string>): number {
  const a = kids[i];
  if (!a || !foldable(a, whole)) return 1;
  let j = i + 1;
  while (j < kids.length && (kids[j] as DistilledNode).role === a.role && foldable(kids[j] as DistilledNode, whole))
    j++;
  return j - i >= FOLD_MIN ? j - i : 1;
}

/** Controls a toolkit names by a label inside them rather than a name of their own (GTK's list box rows). */
const LABELLED_ROLES: ReadonlySet<Role> = new Set<Role>(['listitem', 'treeitem', 'menuitem', 'tab', 'button', 'link']);

/**
 * A nameless control whose children are one label and icons prints as one line named by that label: a file
 * chooser's Places read `[e57] listitem description="Open your personal folder"` over `[e58] label "Home"`
 * (~18 tokens a place, four to six places in every chooser), now `[e57] listitem "Home"`. Acting on the item is
 * what the label meant; the label keeps its ref, and full=true prints it.
 */
function namedByLabel(n: DistilledNode): DistilledNode {
  if (!LABELLED_ROLES.has(n.role) || n.name || n.value || n.children.length === 0 || n.totalChildren !== undefined)
    return n;
  const labels = n.children.filter((c) => c.role === 'label');
  const label = labels[0];
  if (labels.length !== 1 || !label?.name || label.children.length > 0 || label.value) return n;
  if (!n.children.every((c) => c === label || (c.role === 'image' && c.children.length === 0))) return n;
  const { description: _d, ...rest } = n;
  return { ...rest, name: label.name, children: [] };
}

/**
 * A named toolbar that holds one nameless button and nothing else prints as that button named by its toolbar:
 * LibreOffice's sidebar deck is five toolbars ("Properties", "Styles", "Gallery", …) of one unnamed button each,
 * ten lines that said which deck is which only on the toolbar's line (~75 tokens in every Calc and Writer print).
 * Acting on the button is what the toolbar's name meant; the toolbar keeps its ref, and full=true prints it.
 */
function namedByToolbar(n: DistilledNode): DistilledNode {
  const only = n.children[0];
  if (n.role !== 'toolbar' || !n.name || n.children.length !== 1 || n.totalChildren !== undefined || !only) return n;
  if (only.role !== 'button' || only.name || only.description?.trim() || only.value || only.children.length > 0
    || only.totalChildren !== undefined) return n;
  return { ...only, name: n.name };
}

/**
 * A group of one text box and one nameless drop-down button is a combo box as LibreOffice's toolbars draw it
 * ("Font Name", "Font Size", the Name Box): it prints as its text box, named by the group when the box has no name
 * of its own, `[e502] textbox "Font Name" value="DejaVu Sans" editable` for three lines. The box is what a model
 * writes to; the button (a list of the same values) and the group keep their refs, and full=true prints them.
 */
function comboAsField(n: DistilledNode, whole: ReadonlySet<string>): DistilledNode {
  const [box, button] = n.children;
  if (n.role !== 'group' || n.children.length !== 2 || !box || !button || n.totalChildren !== undefined) return n;
  if (box.role !== 'textbox' || box.children.length > 0 || button.role !== 'button' || button.name
    || button.description?.trim() || button.children.length > 0) return n;
  if ([n, button].some((e) => e.ref !== undefined && whole.has(e.ref))) return n;
  if (button.states.some((st) => SHOWN_STATES.has(st) || FOLD_ENTRY_STATES.includes(st))) return n;
  return box.name || !n.name ? box : { ...box, name: n.name };
}

/** Roles of the list a combo box holds its choices in. */
export const COMBO_LIST_ROLES: ReadonlySet<Role> = new Set<Role>(['list', 'menu', 'tree', 'table']);

/**
 * A closed combo box whose list holds one choice, the one it shows, prints without the list: Qt's file dialog read
 * `[e44] combobox "/root"` over a 1 × 1 grid of "/root" (~25 tokens a combo box), a web page's `<select>` its value
 * over a menu of that one item. The combo box's `select` picks items from the app's own list, not from this print;
 * the list and its item keep their refs, and full=true prints them.
 */
function comboWithoutEcho(n: DistilledNode, whole: ReadonlySet<string>): DistilledNode {
  const [list] = n.children;
  if (n.role !== 'combobox' || n.states.includes('expanded') || n.children.length !== 1 || !list) return n;
  if (!COMBO_LIST_ROLES.has(list.role) || list.name || list.children.length !== 1
    || (list.totalChildren ?? 1) > 1) return n;
  const [item] = list.children;
  const shown = item?.name ?? item?.value;
  if (!item || item.children.length > 0 || shown === undefined || (shown !== n.name && shown !== n.value)) return n;
  if ([list, item].some((e) => e.states.includes('focused') || (e.ref !== undefined && whole.has(e.ref)))) return n;
  return { ...n, children: [] };
}

/** The result of `foldRuns`. */
export interface Folded {
  /** The tree to print: a copy where each run is one node carrying `folded`; the input when nothing folds. */
  root: DistilledNode;
  /** Runs folded, and the elements inside them. */
  runs: number;
  elements: number;
}

/**
 * A copy of `root` where every run of FOLD_MIN or more alike foldable siblings is one node: it keeps the first
 * member's ref and role and carries the run in `folded`. Tables printed as grids or rows keep their cells.
 */
export function foldRuns(root: DistilledNode, opts: FoldOptions = {}): Folded {
  const whole = opts.whole ?? new Set<string>();
  let runs = 0;
  let elements = 0;
  const visit = (node: DistilledNode): DistilledNode => {
    if (isGrid(node)) return foldGrid(node, whole);
    const rows = sliceRows(node);
    if (rows) return foldRows(node, rows, whole);
    const kids: DistilledNode[] = [];
    const children = node.children.map((c) => {
      const field = comboAsField(c, whole);
      const combo = comboWithoutEcho(c, whole);
      if (field !== c || combo !== c) elements++;
      return field !== c ? field : combo !== c ? combo : namedByToolbar(namedByLabel(c));
    });
    let changed = children.some((c, i) => c !== node.children[i]);
    for (let i = 0; i < children.length;) {
      const run = runLength(children, i, whole);
      if (run > 1) {
        const members = children.slice(i, i + run);
        const first = members[0] as DistilledNode;
        const { name: _n, description: _d, value: _v, ...rest } = first;
        kids.push({ ...rest, states: [], actions: [], children: [], folded: { members, scope: node.ref ?? '?' } });
        runs++;
        elements += run;
        changed = true;
        i += run;
        continue;
      }
      const child = children[i] as DistilledNode;
      const next = visit(child);
      if (next !== child) changed = true;
      kids.push(next);
      i++;
    }
    return changed ? { ...node, children: kids } : node;
  };
  const out = visit(root);
  return { root: out, runs, elements };
}

/** True for a row the model must see: focused or selected, or holding what it just acted on. */
function rowShown(r: SliceRow, whole: ReadonlySet<string>): boolean {
  return rowElements(r).some((n) => n.states.includes('focused') || n.states.includes('selected')
    || (n.ref !== undefined && whole.has(n.ref)));
}

/**
 * A long slice's copy with its first FOLDED_ROWS rows and the rows the model must see, carrying how many rows it
 * left out (`rowsFolded`); the slice itself when it is short or was just acted on (a scroll shows its rows).
 */
function foldRows(node: DistilledNode, rows: readonly SliceRow[], whole: ReadonlySet<string>): DistilledNode {
  if (rows.length < FOLDED_ROWS_MIN || (node.ref !== undefined && whole.has(node.ref))) return node;
  const keep = new Set<SliceRow>(rows.slice(0, FOLDED_ROWS));
  const wrapped = rows.every((r) => r.node !== undefined);
  // One unbroken run of rows from the first: a row's number is read from its place in the slice (rows.ts).
  rows.forEach((r, i) => {
    if (rowShown(r, whole)) for (let j = FOLDED_ROWS; j <= i; j++) keep.add(rows[j] as SliceRow);
  });
  const cut = rows.length - keep.size;
  if (cut < FOLDED_ROWS_MIN - FOLDED_ROWS) return node;
  const dropped = new Set<DistilledNode>();
  for (const r of rows) if (!keep.has(r)) for (const c of r.node ? [r.node] : r.cells) dropped.add(c);
  let children = node.children.filter((c) => !dropped.has(c));
  if (!wrapped) {
    // A driver gives coordinates to the first and the last cell it read only (rows.ts): the last cell kept
    // takes the coordinates of its place, so the shorter slice still adds up.
    const last = [...rows].reverse().find((r) => keep.has(r));
    const cell = last?.cells[last.cells.length - 1];
    const cols = node.table?.cols ?? 1;
    if (last && cell) {
      const at = { row: last.row - 1, col: cols - 1 };
      children = children.map((c) => (c === cell ? { ...c, cell: { ...c.cell, ...at } } : c));
    }
  }
  return { ...node, children, rowsFolded: cut };
}

/**
 * A tall grid's copy that prints its first rows and its cursor's (grid.ts GridFold), with the rows of the cells
 * just acted on; the grid itself when it was just acted on (a scroll shows its rows).
 */
function foldGrid(node: DistilledNode, whole: ReadonlySet<string>): DistilledNode {
  if (node.ref !== undefined && whole.has(node.ref)) return node;
  const keep = gridCells(node).filter((c) => c.ref !== undefined && whole.has(c.ref)).map((c) => c.cell.row);
  return { ...node, gridFold: keep.length ? { ...FIRST_PRINT_GRID_FOLD, keep } : FIRST_PRINT_GRID_FOLD };
}
