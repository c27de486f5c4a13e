import { isOpaqueView, OPAQUE_MARK } from './opaque.js';
import { nameText, quoteText } from './escape.js';
import type { DistilledNode } from './distill.js';
import { estimateTokens, MAX_LIST_ITEMS, MAX_NAME_CHARS, MAX_SCOPED_CHARS, MAX_VALUE_CHARS, quote } from './measure.js';
import type { SnapshotLine } from './line.js';
import { isGrid, MAX_GRID_ROWS, renderGrid, virtualTail } from './grid.js';
import type { State, WindowInfo } from './node.js';
import type { Role } from './role.js';
import { caretPart, textPart } from './text.js';
import { columnsLine, rowElements, rowLead, rowStates, rowTail, sliceRows, type SliceRow } from './rows.js';
import { FOLD_ENTRY_STATES, foldLabel } from './fold.js';
import { insideCount } from './chrome.js';

/** States printed on a line, in this order (focusable/active/multiline/offscreen/invisible are never shown). */
export const RENDERED_STATES: readonly State[] = [
  'disabled', 'checked', 'mixed', 'selected', 'expanded', 'collapsed', 'editable', 'password', 'readonly',
  'modal', 'pressed', 'required', 'invalid', 'busy', 'focused',
];

/** Roles whose children are cut after `maxListItems`. */
export const LIST_ROLES: ReadonlySet<Role> = new Set<Role>(['list', 'tree', 'table', 'menu', 'tablist', 'combobox']);

/** The line of a sliced table's row (engine/rows.ts): its lead element as an element line, then the other columns. */
export function rowLine(r: SliceRow): string {
  const lead = rowLead(r);
  let s = `[${lead?.ref ?? '?'}] ${lead?.role ?? 'cell'}`;
  if (lead?.name) s += ` ${quote(lead.name, MAX_NAME_CHARS)}`;
  if (lead?.value && lead.value !== lead.name) s += ` value=${quote(lead.value, MAX_VALUE_CHARS, lead.valueLength)}`;
  return s + rowTail(r, lead, rowStates(r));
}

/** The SnapshotLines of a row's elements (each keeps its own line text for diffs), all marked with the row. */
export function rowSnapshotLines(table: DistilledNode, r: SliceRow, depth: number): SnapshotLine[] {
  const text = rowLine(r);
  const tableRef = table.ref ?? '?';
  const heads = r.node ? [r.node] : r.cells;
  const depthOf = new Map<DistilledNode, number>(heads.map((c) => [c, depth]));
  const parentOf = new Map<DistilledNode, string>(heads.map((c) => [c, tableRef]));
  const out: SnapshotLine[] = [];
  for (const n of rowElements(r)) {
    const d = depthOf.get(n) ?? depth;
    for (const k of n.children) { depthOf.set(k, d + 1); parentOf.set(k, n.ref ?? '?'); }
    const line: SnapshotLine = {
      ref: n.ref ?? '?',
      depth: d,
      role: n.role,
      states: renderedStates(n),
      text: renderLine(n),
      row: { table: tableRef, n: r.row, text },
    };
    const parent = parentOf.get(n);
    if (parent !== undefined) line.parent = parent;
    if (n.name !== undefined) line.name = n.name;
    if (n.value !== undefined) line.value = n.value;
    out.push(line);
  }
  return out;
}

/** Options of `render`. */
export interface RenderOptions {
  /** Only these nodes are printed (budget); all when absent. Ancestors of kept nodes must be kept too. */
  keep?: ReadonlySet<DistilledNode>;
  /** Children shown per list-like element; default 25. */
  maxListItems?: number;
  /** A node whose children are never cut by `maxListItems` (the scope root). */
  uncapped?: DistilledNode;
  /** Footer facts. */
  notes?: FooterNotes;
  /** Characters of a text body (document, terminal, page) shown on its line; see engine/text.ts. */
  bodyChars?: number;
  /** Tokens a table rendered as a grid may take (grid.ts); default GRID_TOKENS. */
  gridTokens?: number;
  /** The node whose text the caller prints below its line as a block (observe's scope): its line carries none. */
  textBelow?: DistilledNode;
}

/** Default token allowance of one grid's rows. */
export const GRID_TOKENS = 1200;

/**
 * A table with cell coordinates as printed: its own line with the range summary, then the grid rows, each
 * indented under it; plus the SnapshotLines of its shown cells.
 */
export function gridBlock(
  node: DistilledNode,
  depth: number,
  gridTokens = GRID_TOKENS,
  maxRows = MAX_GRID_ROWS,
): { text: string[]; line: string; cells: SnapshotLine[] } {
  const g = renderGrid(node, estimateTokens, gridTokens, maxRows, node.gridFold);
  const line = `${renderLine(node)} ${g.summary}`;
  const pad = '  '.repeat(depth + 1);
  return {
    line,
    text: ['  '.repeat(depth) + line, ...g.rows.map((r) => pad + r)],
    cells: g.cells.map((c) => ({ ...c, depth: depth + 1 })),
  };
}

/** What the footer reports. */
export interface FooterNotes {
  /** Nameless containers folded by distilling. */
  folded?: number;
  /** Elements left out by the token budget. */
  omitted?: number;
  /** Refs whose `scope=` shows the omitted elements. */
  scopes?: readonly string[];
  /** Free-form notes (e.g. "no element matches query"). */
  extra?: readonly string[];
}

/** Result of `render`. */
export interface Rendered {
  text: string;
  lines: SnapshotLine[];
  /** Children not shown because of list cutting. */
  listCut: number;
}

/** States of a node in rendering order. */
export function renderedStates(node: Pick<DistilledNode, 'states'>): State[] {
  return RENDERED_STATES.filter((s) => node.states.includes(s));
}

/** Roles that are always on or off; any other element with the toggle op (a check menu item) is too, but a button reads `pressed`. */
const CHECKABLE_ROLES: ReadonlySet<Role> = new Set<Role>(['checkbox', 'radio', 'switch']);

/**
 * True for an element that is off: checkable and neither checked nor mixed. Its line says `unchecked`, so a
 * model tells an off box from one whose state was not read (the CLI trial: an unchecked switch printed no state).
 */
export function isUnchecked(node: Pick<DistilledNode, 'role' | 'states' | 'actions'>): boolean {
  const checkable = CHECKABLE_ROLES.has(node.role) || (node.role !== 'button' && node.actions.includes('toggle'));
  return checkable && !node.states.includes('checked') && !node.states.includes('mixed');
}

/** True when the line ends with `▸`: a collapsed element, or a menu item with a submenu that is not open. */
export function hasSubmenuMarker(node: DistilledNode): boolean {
  if (node.states.includes('expanded')) return false;
  if (node.states.includes('collapsed')) return true;
  return node.role === 'menuitem' && node.rawChildCount > 0;
}

/**
 * The description a nameless element prints in place of a name: meld's toolbar buttons have no name, only a
 * description ("Go to the next change"), and a model could neither tell them apart nor find them. A named
 * element's description is left out (tokens); a cell's description is its formula (grid.ts); a number or a
 * blank is no description.
 */
export function nameDescription(n: Pick<DistilledNode, 'name' | 'description' | 'role'>): string | undefined {
  const d = n.description?.trim();
  // GTK 3's sliders describe themselves by their number ("50.0") or a blank: no name, the value says it.
  return !n.name && d && !/^[\p{N}\s.,:%+-]*$/u.test(d) && n.role !== 'cell' ? d : undefined;
}

/**
 * The text of the label beside a nameless field, printed `beside="Search for:"` after its role: pluma's Find and
 * Replace entries have no name, only a label next to them that nothing links (drivers/common/labels.ts), and a
 * model could not tell the fields apart. Printed apart from a name, since the field does not carry it: the
 * neighbouring label says it. Left out when the field has a name or a description stands for one.
 */
export function besideLabel(n: Pick<DistilledNode, 'name' | 'description' | 'role' | 'beside'>): string | undefined {
  const b = n.beside?.trim();
  return b && !n.name && !nameDescription(n) ? b : undefined;
}

/** What a nameless element prints in place of a name (its description, the label beside it), onto its line: find matches them like a name. */
export function setStandIns(line: SnapshotLine, n: DistilledNode): void {
  const described = nameDescription(n);
  if (described !== undefined) line.description = described;
  const beside = besideLabel(n);
  if (beside !== undefined) line.beside = beside;
}

/**
 * The text of one element line, without indentation. `textBelow`: the caller prints the node's text under the
 * line, so the line says nothing of it (a scope read printed "(text of 39 characters not read here …)" right
 * above the 39 characters it read). `whole`: the scope's own element, its name and value printed whole (bounded).
 */
export function renderLine(node: DistilledNode, bodyChars?: number, textBelow = false, whole = false): string {
  if (node.folded) return foldLine(node.folded);
  const nameChars = whole ? MAX_SCOPED_CHARS : MAX_NAME_CHARS;
  let s = `[${node.ref ?? '?'}] ${node.role}`;
  if (node.name) s += ` ${quote(node.name, nameChars)}`;
  const described = nameDescription(node);
  if (described) s += ` description=${quote(described, nameChars)}`;
  const beside = besideLabel(node);
  if (beside) s += ` beside=${quote(beside, MAX_NAME_CHARS)}`;
  // Text content (documents, terminals, pages, paragraphs) and caret/selection: engine/text.ts.
  const text = textBelow ? '' : textPart(node, bodyChars);
  if (text !== undefined) s += text;
  else if (node.value !== undefined && node.value !== '' && node.value !== node.name) {
    s += ` value=${quote(node.value, whole ? MAX_SCOPED_CHARS : MAX_VALUE_CHARS, node.valueLength)}`;
  }
  if (node.range && (node.role === 'slider' || node.role === 'spinbutton' || node.role === 'scrollbar'
    || node.role === 'progressbar')) {
    s += ` range=${node.range.min}..${node.range.max}`;
  }
  const marker = hasSubmenuMarker(node);
  const words: string[] = renderedStates(node).filter((st) => !(marker && st === 'collapsed'));
  // `unchecked` stands where `checked` would: after `disabled`, the one state printed before it.
  if (isUnchecked(node)) words.splice(words[0] === 'disabled' ? 1 : 0, 0, 'unchecked');
  for (const w of words) s += ` ${w}`;
  if (marker) s += ' ▸';
  // A drawn view (a canvas, an icon view) that holds items the tree does not show: engine/opaque.ts.
  if (isOpaqueView(node)) s += ` ${OPAQUE_MARK}`;
  return s + caretPart(node);
}

/** Tokens of a fold line's entries when it shows them all; a longer run shows FOLD_PART_TOKENS of them. */
const FOLD_ALL_TOKENS = 150;
const FOLD_PART_TOKENS = 40;
/** Characters of one name in a fold line. */
const FOLD_NAME_MAX = 40;

/** A fold line's entry: ref, name, and the states a member keeps there (disabled, on: engine/fold.ts). */
function foldEntry(m: DistilledNode): { text: string; marked: boolean } {
  const on = FOLD_ENTRY_STATES.filter((st) => m.states.includes(st));
  // A control that cannot be used says so: "Back" disabled reads apart from "Reload".
  const states = [...(m.states.includes('disabled') ? ['disabled'] : []), ...on];
  return {
    text: `${m.ref ?? '?'} ${quote(foldLabel(m) ?? '', FOLD_NAME_MAX)}${states.map((st) => ` ${st}`).join('')}`,
    marked: on.length > 0,
  };
}

/**
 * The one line of a folded run (engine/fold.ts): its first and last refs, its count, then each member as its ref
 * and name, in order: all of them when they fit FOLD_ALL_TOKENS (a calculator's keypad: every key stays one ref
 * away), else the first ones, every one that is on (checked, pressed), and the scope that lists the rest:
 * `[e468] … [e499] 32 buttons: e468 "New", e469 "Open", …, +25 more (refs: scope=e467)`.
 */
export function foldLine(run: NonNullable<DistilledNode['folded']>): string {
  if (run.around) return aroundLine(run);
  const first = run.members[0] as DistilledNode;
  const last = run.members[run.members.length - 1] as DistilledNode;
  const entries = run.members.map(foldEntry);
  const costs = entries.map((e) => estimateTokens(`${e.text}, `));
  let shown = entries;
  if (costs.reduce((a, c) => a + c, 0) > FOLD_ALL_TOKENS) {
    let used = 0;
    let k = 0;
    while (k < entries.length && used + (costs[k] ?? 0) <= FOLD_PART_TOKENS) used += costs[k++] ?? 0;
    k = Math.max(k, 1);
    shown = entries.filter((e, i) => i < k || e.marked);
  }
  const more = entries.length - shown.length;
  const list = shown.map((e) => e.text).join(', ');
  return (
    `[${first.ref ?? '?'}] … [${last.ref ?? '?'}] ${run.members.length} ${pluralRole(first.role)}: ${list}` +
    (more > 0 ? `, +${more} more (refs: scope=${run.scope})` : '')
  );
}

/**
 * The one line of the parts around a page (engine/chrome.ts): each part by ref, role and name, with how many
 * elements it holds: `[e2] … [e5] around the page: e2 button "Close", e5 toolbar (35 inside)`.
 */
function aroundLine(run: NonNullable<DistilledNode['folded']>): string {
  const first = run.members[0] as DistilledNode;
  const last = run.members[run.members.length - 1] as DistilledNode;
  const entries = run.members.map((m) => {
    const label = foldLabel(m);
    const inside = insideCount(m);
    return `${m.ref ?? '?'} ${m.role}${label ? ` ${quote(label, FOLD_NAME_MAX)}` : ''}`
      + (inside > 0 ? ` (${inside} inside)` : '') + (m.states.includes('disabled') ? ' disabled' : '');
  });
  let used = 0;
  let shown = 0;
  while (shown < entries.length && used + estimateTokens(`${entries[shown] ?? ''}, `) <= FOLD_ALL_TOKENS)
    used += estimateTokens(`${entries[shown++] ?? ''}, `);
  shown = Math.max(shown, 1);
  const more = entries.length - shown;
  const range = first === last ? `[${first.ref ?? '?'}]` : `[${first.ref ?? '?'}] … [${last.ref ?? '?'}]`;
  return `${range} around the page: ${entries.slice(0, shown).join(', ')}${more > 0 ? `, +${more} more` : ''}`;
}

/** Siblings in a row that print as one line: this many alike with nothing to tell them apart. */
const NAMELESS_RUN = 4;

/** A role's plural as a line says it ("4 canvases", "5 checkboxes"; meld's drawing areas read "4 canvass"). */
export function pluralRole(role: Role): string {
  return /(?:s|x)$/.test(role) ? `${role}es` : `${role}s`;
}

/** True for an element with nothing of its own to print but its role and states: no name, value, text or children. */
function isBlank(n: DistilledNode): boolean {
  return (
    !n.folded &&
    !n.name &&
    !nameDescription(n) &&
    !besideLabel(n) &&
    !n.value &&
    n.children.length === 0 &&
    !hasSubmenuMarker(n) &&
    n.totalChildren === undefined &&
    !n.states.includes('focused') &&
    textPart(n) === undefined &&
    !isOpaqueView(n) &&
    !isUnchecked(n)
  );
}

/**
 * How many siblings from `i` on are blank and alike (one role, the same states) when at least NAMELESS_RUN
 * are; 1 otherwise. Such a run prints as `[e5] … [e32] 28 buttons without a name`: every ref stays valid.
 */
export function namelessRun(kids: readonly DistilledNode[], i: number): number {
  const a = kids[i];
  if (!a || !isBlank(a)) return 1;
  const states = a.states.join(' ');
  let j = i + 1;
  while (j < kids.length) {
    const b = kids[j] as DistilledNode;
    if (b.role !== a.role || !isBlank(b) || b.states.join(' ') !== states) break;
    j++;
  }
  return j - i >= NAMELESS_RUN ? j - i : 1;
}

/** The header line: app, pid, window title and whether it has focus. */
export function renderHeader(window: WindowInfo): string {
  return `app ${nameText(window.app)} pid=${window.pid} · ${window.role} ${quote(window.title, MAX_NAME_CHARS)}`
    + (window.focused ? ' [focused]' : '');
}

/** Children shown for a node after list cutting, and how many were cut. */
export function visibleChildren(node: DistilledNode, maxListItems: number, uncapped?: DistilledNode):
  { shown: DistilledNode[]; cut: number } {
  // The rows a driver read of a long list are the ones on screen: all of them are shown.
  if (
    !LIST_ROLES.has(node.role) ||
    node === uncapped ||
    node.shownRange !== undefined ||
    node.children.length <= maxListItems
  ) {
    return { shown: node.children, cut: 0 };
  }
  return { shown: node.children.slice(0, maxListItems), cut: node.children.length - maxListItems };
}

/**
 * The line below a node's shown children when some were left out: "… K more items (scope=eN)" for a list cut
 * here, "… children 1–K of N" when the driver read only the first K of N (scope would read the same range), and
 * "… N of M items shown; scroll or find for the rest" for a list whose app keeps items off screen (distill.ts
 * `offscreenItems`: an icon view printed the 8 icons on screen of 40 and said nothing of the others).
 */
export function moreLine(node: DistilledNode, shown: number, cut: number, depth: number): string | undefined {
  const indent = '  '.repeat(depth + 1);
  if (node.shownRange !== undefined && node.totalChildren !== undefined)
    return `${indent}… ${rangeText(node.shownRange, node.totalChildren, node.ref, node.setSize !== undefined)}`;
  if (node.totalChildren !== undefined && node.totalChildren > shown) {
    return (
      `${indent}… children ${shown ? `1–${shown.toLocaleString('en-US')}` : 'none'} of ` +
      `${node.totalChildren.toLocaleString('en-US')}`
    );
  }
  const cutLine = cut > 0 ? `… ${cut} more items (scope=${node.ref ?? ''})` : undefined;
  const off = node.offscreenItems ?? 0;
  if (off === 0) return cutLine === undefined ? undefined : indent + cutLine;
  const all = Math.max(node.rawChildCount, node.totalChildren ?? 0);
  const items = `${(all - off).toLocaleString('en-US')} of ${all.toLocaleString('en-US')} items shown; ` +
    'scroll or find for the rest';
  return `${indent}${cutLine === undefined ? `… ${items}` : `${cutLine}; ${items}`}`;
}

/** The line under the rows a folded print shows of a long slice (engine/fold.ts): how many more and how to list them.
* */
export function foldedRowsLine(node: DistilledNode, depth: number): string | undefined {
  if (!node.rowsFolded) return undefined;
  return `${'  '.repeat(depth + 1)}… ${node.rowsFolded} more rows on screen (scope=${node.ref ?? '?'} lists them)`;
}

/**
 * "rows 1,492–1,520 of 5,000 on screen" (list rows, or table rows from the cells' row numbers), with what
 * reaches the others: a find searches the whole list, a scroll moves the view.
 */
export function rangeText(
  r: NonNullable<DistilledNode['shownRange']>,
  total: number,
  ref?: string,
  virtual = false,
): string {
  const n = (k: number): string => k.toLocaleString('en-US');
  const span = r.rows
    ? `rows ${n(r.rows.first)}–${n(r.rows.last)} of ${n(r.rows.total)}`
    : r.end > r.start
      ? `${r.cells ? 'cells' : 'rows'} ${n(r.start + 1)}–${n(r.end)} of ${n(total)}`
      : `none of ${n(total)} ${r.cells ? 'cells' : 'rows'}`;
  if (virtual) return `${span} on screen; ${virtualTail(ref)}`;
  return `${span} on screen (computer_find searches them all; scroll${ref ? ` ${ref}` : ''} value="to N" shows row N)`;
}

/** The footer line, or undefined when nothing was folded or cut. */
export function renderFooter(notes: FooterNotes, listCut: number): string | undefined {
  const parts: string[] = [];
  if (notes.folded) parts.push(`folded ${notes.folded} nameless container${notes.folded === 1 ? '' : 's'}`);
  if (listCut > 0) parts.push(`${listCut} list item${listCut === 1 ? '' : 's'} cut`);
  if (notes.omitted) {
    let s = `${notes.omitted} element${notes.omitted === 1 ? '' : 's'} over budget`;
    if (notes.scopes && notes.scopes.length > 0)
      s += `, expand with ${notes.scopes.map((r) => `scope=${r}`).join(', ')}`;
    parts.push(s);
  }
  for (const e of notes.extra ?? []) parts.push(e);
  return parts.length > 0 ? `(${parts.join(' · ')})` : undefined;
}

/**
 * The root as its line prints it: a window whose name is the title the header just printed leaves it out (every
 * print said the title twice, ~8 tokens each). A dialog titled otherwise, or a root without a title, keeps its name.
 */
function untitled(node: DistilledNode, window: WindowInfo): DistilledNode {
  if (!node.name || node.name !== window.title || node.folded) return node;
  const { name: _title, ...rest } = node;
  // The description stood in for a missing name only; with the title in the header it stays unprinted.
  const { description: _d, ...bare } = rest;
  return bare;
}

/** Elements under a subtree from which a second, identical copy prints as one line (`same as [eN]`). */
const REPEAT_MIN_INSIDE = 4;

/**
 * What a subtree shows, refs aside: LibreOffice lists its menu bar twice (a second, zero-height copy under the
 * document pane: 12 lines and ~110 tokens in every Calc snapshot). Computed once per node, bottom up.
 */
function subtreeKeys(root: DistilledNode): Map<DistilledNode, { key: string; inside: number }> {
  const out = new Map<DistilledNode, { key: string; inside: number }>();
  // Each distinct subtree gets a short id, so a parent's key names its children's ids, not their whole text:
  // a sheet's 400 cells would otherwise be copied into the key of every ancestor, on every render.
  const ids = new Map<string, string>();
  const visit = (n: DistilledNode): { key: string; inside: number } => {
    const kids = n.children.map(visit);
    const text = JSON.stringify([
      n.role,
      n.name ?? '',
      n.value ?? '',
      renderedStates(n).join(' '),
      kids.map((k) => k.key),
      // A member's name and the states its entry prints: a run alike but for one button on is not the same.
      n.folded ? n.folded.members.map((m) => foldEntry(m).text.replace(/^\S+ /, '')) : 0,
    ]);
    let key = ids.get(text);
    if (key === undefined) { key = String(ids.size); ids.set(text, key); }
    // A fold line stands for its members: a second menu bar folded like the first still prints as `same as`.
    const got = { key, inside: n.folded ? n.folded.members.length - 1 : kids.reduce((a, k) => a + 1 + k.inside, 0) };
    out.set(n, got);
    return got;
  };
  visit(root);
  return out;
}

/** The SnapshotLine of one element as printed: its ref, depth, role, states, text, parent and name. */
function elementLine(node: DistilledNode, depth: number, parent: string | undefined, text: string): SnapshotLine {
  const line: SnapshotLine = { ref: node.ref ?? '?', depth, role: node.role, states: renderedStates(node), text };
  if (parent !== undefined) line.parent = parent;
  if (node.name !== undefined) line.name = node.name;
  return line;
}

/** A sliced table printed as its column line, one line per row, and the lines for what is not printed. */
function sliceBlock(node: DistilledNode, rows: readonly SliceRow[], depth: number, keep: RenderOptions['keep'],
  out: string[], lines: SnapshotLine[]): void {
  const pad = '  '.repeat(depth + 1);
  const cols = columnsLine(node);
  if (cols !== undefined && (!keep || node.children.some((c) => c.role === 'columnheader' && keep.has(c))))
    out.push(pad + cols);
  for (const r of rows) {
    if (keep && !r.cells.some((c) => keep.has(c))) continue;
    out.push(pad + rowLine(r));
    // `lines` holds the elements that start a printed line: the row's lead.
    const lead = rowLead(r);
    lines.push(...rowSnapshotLines(node, r, depth + 1).filter((l) => l.ref === lead?.ref));
  }
  const rest = foldedRowsLine(node, depth);
  if (rest !== undefined) out.push(rest);
  const more = moreLine(node, node.children.length, 0, depth);
  if (more !== undefined) out.push(more);
}

/** A run of alike nameless siblings as one line (`[e3] … [e9] 7 buttons without a name`), and its first's line. */
function namelessRunLine(
  run: readonly DistilledNode[],
  depth: number,
  parent: string,
): { printed: string; line: SnapshotLine } {
  const first = run[0] as DistilledNode;
  const last = run[run.length - 1] as DistilledNode;
  const states = renderedStates(first).map((st) => ` ${st}`).join('');
  const printed =
    `[${first.ref ?? '?'}] … [${last.ref ?? '?'}] ${run.length} ${pluralRole(first.role)} without a name` + `${states}`;
  const line: SnapshotLine = {
    ref: first.ref ?? '?',
    depth,
    parent,
    role: first.role,
    states: renderedStates(first),
    text: renderLine(first),
  };
  return { printed, line };
}

/**
 * Renders a distilled tree (refs assigned) under a header, two spaces per level, cutting long lists and
 * printing only `keep` nodes when given. A subtree identical to one printed before it (REPEAT_MIN_INSIDE
 * elements or more) prints as its own line and `(same as [eN], K inside)`: its refs stay in the elements.
 * Pure: the same input gives the same text.
 */
export function render(root: DistilledNode, window: WindowInfo, opts: RenderOptions = {}): Rendered {
  const max = opts.maxListItems ?? MAX_LIST_ITEMS;
  const out: string[] = [renderHeader(window)];
  const lines: SnapshotLine[] = [];
  let listCut = 0;
  const keys = subtreeKeys(root);
  const printedKeys = new Map<string, string>();
  const visit = (node: DistilledNode, depth: number, parent: string | undefined): void => {
    if (opts.keep && !opts.keep.has(node)) return;
    const sub = keys.get(node);
    const first = sub && sub.inside >= REPEAT_MIN_INSIDE ? printedKeys.get(sub.key) : undefined;
    if (sub && first !== undefined) {
      const text =
        `${renderLine(node, opts.bodyChars, node === opts.textBelow, node === opts.uncapped)} (same as [${first}], ` +
        `${sub.inside} inside)`;
      out.push('  '.repeat(depth) + text);
      lines.push(elementLine(node, depth, parent, text));
      return;
    }
    if (sub && sub.inside >= REPEAT_MIN_INSIDE) printedKeys.set(sub.key, node.ref ?? '?');
    if (isGrid(node)) {
      // Grid hook (grid.ts): the table's cells print as rows of values, not as element lines.
      const g = gridBlock(node, depth, opts.gridTokens, node === opts.uncapped ? Infinity : MAX_GRID_ROWS);
      out.push(...g.text);
      lines.push(elementLine(node, depth, parent, g.line), ...g.cells);
      return;
    }
    const text = renderLine(depth === 0 ? untitled(node, window) : node, opts.bodyChars, node === opts.textBelow,
      node === opts.uncapped);
    out.push('  '.repeat(depth) + text);
    const line = elementLine(node, depth, parent, text);
    setStandIns(line, node);
    if (node.value !== undefined) line.value = node.value;
    lines.push(line);
    const rows = sliceRows(node);
    if (rows) {
      // Rows hook (rows.ts): a sliced table's cells print as one line per row.
      sliceBlock(node, rows, depth, opts.keep, out, lines);
      return;
    }
    const { shown, cut } = visibleChildren(node, max, opts.uncapped);
    const kept = opts.keep ? shown.filter((c) => opts.keep?.has(c)) : shown;
    for (let i = 0; i < kept.length;) {
      const run = namelessRun(kept, i);
      if (run > 1) {
        // Chromium's toolbar held 28 nameless buttons (two snapshots per task in every Chromium eval task): one line.
        const { printed, line: lead } = namelessRunLine(kept.slice(i, i + run), depth + 1, line.ref);
        out.push('  '.repeat(depth + 1) + printed);
        // `lines` holds the elements that start a printed line: the run's first (the snapshot's elements hold all).
        lines.push(lead);
        i += run;
        continue;
      }
      visit(kept[i] as DistilledNode, depth + 1, line.ref);
      i++;
    }
    listCut += cut;
    const more = moreLine(node, shown.length, cut, depth);
    if (more !== undefined) out.push(more);
  };
  visit(root, 0, undefined);
  const footer = renderFooter(opts.notes ?? {}, listCut);
  if (footer !== undefined) out.push(footer);
  return { text: out.join('\n'), lines, listCut };
}
