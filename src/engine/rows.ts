/**
 * Rows of a long list's slice: a GTK TreeView's cells are the table's own children, one element per cell and
 * often three (a nameless cell around an icon cell and a text cell), so a file chooser's 33 rows on screen were
 * ~260 element lines and ~1,900 tokens. Here the cells of one table row print as one line: the row's first
 * text cell as an ordinary element line (its ref selects the row), then the row number and the other columns'
 * text. Every cell keeps its ref in the snapshot's elements (diffs, receipts, find). Pure: no I/O.
 */
import type { DistilledNode } from './distill.js';
import { escapeText, quoteText } from './escape.js';
import { isGrid } from './grid.js';
import { controlsIn } from './controls.js';

/** One table row of a slice: its 1-based row number and its cells, in column order. */
export interface SliceRow {
  row: number;
  cells: DistilledNode[];
  /** The row element that holds the cells, when the table has one per row (a web page's `<tr>`). */
  node?: DistilledNode;
}

const HEADER_ROLES: ReadonlySet<string> = new Set(['columnheader', 'rowheader']);

/** A row element whose children are all header cells: its names are the columns line, it is no row of its own. */
const isHeaderRow = (r: DistilledNode): boolean =>
  r.children.length > 0 && r.children.every((c) => HEADER_ROLES.has(c.role));

/**
 * The rows of a slice whose children are row elements holding cells (Chromium's and Firefox's tables: 35 rows
 * on screen printed ~4 lines each, ~1,700 tokens): numbered from the slice's first child, as find numbers them.
 */
function wrappedRows(node: DistilledNode, start: number): SliceRow[] | undefined {
  const rows: SliceRow[] = [];
  for (const [i, r] of node.children.entries()) {
    if (r.role !== 'row' || r.children.length === 0) return undefined;
    if (isHeaderRow(r)) continue;
    if (!r.children.every((c) => c.role === 'cell' || HEADER_ROLES.has(c.role))) return undefined;
    rows.push({ row: start + i + 1, cells: r.children, node: r });
  }
  return rows.length >= 2 ? rows : undefined;
}

/**
 * The rows of a table slice whose children are cells (not a grid): the driver gives the first and the last
 * cell read their row and column, and the cells between them follow in row order, `cols` to a row. Undefined
 * when the cells do not add up to those two (a hidden column, cells of another shape): the slice then prints
 * one line per element as before.
 */
export function sliceRows(node: DistilledNode): SliceRow[] | undefined {
  if (node.shownRange === undefined || node.table === undefined || isGrid(node)) return undefined;
  const cols = node.table.cols;
  if (cols < 1) return undefined;
  if (node.children.length >= 2 && node.children.every((c) => c.role === 'row'))
    return wrappedRows(node, node.shownRange.start);
  const kids = node.children.filter((c) => !HEADER_ROLES.has(c.role));
  if (kids.length < 2 || kids.some((c) => c.role !== 'cell')) return undefined;
  const first = kids[0]?.cell;
  const last = kids[kids.length - 1]?.cell;
  if (!first || !last) return undefined;
  const at = (c: { row: number; col: number }): number => c.row * cols + c.col;
  if (at(last) - at(first) !== kids.length - 1) return undefined;
  const rows: SliceRow[] = [];
  kids.forEach((c, i) => {
    const row = Math.floor((at(first) + i) / cols) + 1;
    const top = rows[rows.length - 1];
    if (top && top.row === row) top.cells.push(c);
    else rows.push({ row, cells: [c] });
  });
  return rows;
}

/** The node whose text a cell shows: itself when it has a name or value, else its first descendant that has one. */
function textNode(c: DistilledNode): DistilledNode | undefined {
  if (c.name || c.value) return c;
  for (const k of c.children) {
    const t = textNode(k);
    if (t) return t;
  }
  return undefined;
}

/** The controls of a cell as the row line prints them: `[e12] button "Archive row 403"` (escaped, quoted). */
function controlsText(controls: readonly DistilledNode[]): string {
  return controls
    .map(
      (k) =>
        `[${k.ref ?? '?'}] ${k.role}` +
        `${k.name ? ` ${quoteText(k.name.length > 60 ? `${k.name.slice(0, 60)}…` : k.name)}` : ''}`,
    )
    .join(' ');
}

/** A cell's part of a row line: its controls by ref, else its text. */
function cellPart(c: DistilledNode): string {
  const controls = controlsIn(c);
  return controls.length ? controlsText(controls) : rowText(cellWords(c));
}

/** A cell's text, once: a cell around an icon and a label reads the label; a time shown twice reads once. */
function cellWords(c: DistilledNode): string {
  if (c.actions.includes('toggle'))
    return c.states.includes('mixed') ? '[-]' : c.states.includes('checked') ? '[x]' : '[ ]';
  const texts: string[] = [];
  const visit = (n: DistilledNode): void => {
    const t = n.value || n.name;
    if (t) { if (!texts.includes(t)) texts.push(t); return; }
    for (const k of n.children) visit(k);
  };
  visit(c);
  return texts.join(' ');
}

/** Text for a row line: one line, `|` escaped (it separates columns). */
export function rowText(v: string): string {
  // No text that reads as a ref: the row line prints real ones for the controls in its cells.
  return escapeText(
    v
      .replace(/\\/g, '\\\\')
      .replace(/\|/g, '\\|')
      .replace(/\[(?=[a-z]?\d*[a-z]\d+\])/g, '\\['),
    { quoted: false, lineBreak: '⏎' },
  ).slice(0, 60);
}

/**
 * The element whose line leads a row: the first cell with text (or the deepest text node under it), so that
 * `[e593] cell "report-173.txt"` names the row as find and the model do; the first cell when none has text.
 */
export function rowLead(r: SliceRow): DistilledNode | undefined {
  for (const c of r.cells) {
    if (c.actions.includes('toggle')) continue;
    // A link in the first column leads its row: its ref is the one to act on.
    const control = controlsIn(c)[0];
    if (control) return control;
    const t = textNode(c);
    if (t) return t;
  }
  return r.cells[0];
}

/** States a row line shows: selected or focused when one of its cells is. */
export function rowStates(r: SliceRow): string[] {
  const any = (s: string): boolean =>
    r.cells.some((c) => {
      let hit = false;
      walk(c, (n) => {
        if (n.states.includes(s as never)) hit = true;
      });
      return hit;
    });
  return ['selected', 'focused'].filter(any);
}

function walk(n: DistilledNode, f: (n: DistilledNode) => void): void {
  f(n);
  for (const k of n.children) walk(k, f);
}

/**
 * The rest of a row line after its lead element's line: ` — row 173: 11 bytes | Text | 07∶10` (the other
 * cells' text in column order; an empty cell stays empty between its bars).
 */
export function rowTail(r: SliceRow, lead: DistilledNode | undefined, states: readonly string[]): string {
  const others = r.cells.filter((c) => {
    let has = false;
    if (lead)
      walk(c, (n) => {
        if (n === lead) has = true;
      });
    return !has;
  });
  const words = others.map(cellPart);
  while (words.length > 0 && words[words.length - 1] === '') words.pop();
  return (
    `${states.length ? ` ${states.join(' ')}` : ''} — row ${r.row.toLocaleString('en-US')}` +
    `${words.length ? `: ${words.join(' | ')}` : ''}`
  );
}

/** The header line of a sliced table's rows: its column names. */
export function columnsLine(node: DistilledNode): string | undefined {
  const header = node.children.find((c) => c.role === 'row' && isHeaderRow(c));
  const heads = (header ? header.children : node.children).filter((c) => c.role === 'columnheader' && c.name);
  return heads.length ? `columns: ${heads.map((h) => rowText(h.name ?? '')).join(' | ')}` : undefined;
}

/** Every element of a row (its cells and what is inside them). */
export function rowElements(r: SliceRow): DistilledNode[] {
  const out: DistilledNode[] = [];
  for (const c of r.node ? [r.node] : r.cells) walk(c, (n) => out.push(n));
  return out;
}
