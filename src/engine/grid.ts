import { escapeText, quoteText } from './escape.js';
/**
 * Tables as grids: a table whose cells carry coordinates (`cell`) is printed as one header line and rows of
 * values, not one line per cell. A sheet view of 46 × 15 cells is ~700 elements; as lines that is ~7,000
 * tokens, as a grid of its filled part a few dozen. Cells stay addressable: `<table ref>:<address>` ("e34:B7")
 * names a cell for computer_act, and every shown cell still has its own ref in the snapshot's elements.
 * Pure: no I/O.
 */
import type { DistilledNode } from './distill.js';
import type { SnapshotLine } from './line.js';
import { cellAddress, columnName, parseAddress } from '../protocol/cells.js';
import { controlsIn } from './controls.js';
import { quote } from './measure.js';
import { GRID_FOLD_MIN, type GridFold } from './grid-fold.js';

export { FIRST_PRINT_GRID_FOLD, GRID_FOLD_MIN, RECEIPT_GRID_FOLD, type GridFold } from './grid-fold.js';

/** The cell address grammar lives in the protocol (drivers report and take addresses); re-exported for the engine's users. */
export { cellAddress, columnName, parseAddress };

/** Characters of a cell value shown in a wide grid (a narrow one gives each cell more: {@link cellRoom}). */
export const MAX_CELL_CHARS = 40;
/** Characters a grid row's values share before each is cut, and the most one cell shows. */
const ROW_CHARS = 240;
const MAX_ROOM = 120;
/** Characters of a value on a cell's own line (what find and the elements print): whole for a path or a sentence. */
const CELL_LINE_CHARS = 160;

/** Characters each cell of a grid with `cols` columns shows: a four-column result table shows a folder path whole. */
export function cellRoom(cols: number): number {
  return Math.min(MAX_ROOM, Math.max(MAX_CELL_CHARS, Math.floor(ROW_CHARS / Math.max(1, cols))));
}
/** Tables of at most this many columns name the ones out of view (a sheet's 16,384 are not named). */
const MAX_NAMED_COLUMNS = 64;
/** Grid rows printed at most (the visible range of a tall sheet view is ~50). */
export const MAX_GRID_ROWS = 60;

/** The rows (0-based) a fold shows of `box`'s rows, or undefined when all show. */
function foldedRows(fold: GridFold | undefined, box: readonly number[], cursorRow: number | undefined):
  Set<number> | undefined {
  const [r0, , r1] = box as [number, number, number, number];
  if (!fold || r1 - r0 + 1 <= GRID_FOLD_MIN) return undefined;
  const rows = new Set<number>();
  const add = (from: number, to: number): void => {
    for (let r = Math.max(r0, from); r <= Math.min(r1, to); r++) rows.add(r);
  };
  const cursor = cursorRow ?? fold.at;
  // A receipt's grid with no cursor and nothing naming one prints whole: the row the model looked for may be
  // anywhere in it.
  if (cursor === undefined && fold.head === 0 && !fold.keep?.length) return undefined;
  // A first print without a cursor shows the top of the view.
  add(r0, r0 + fold.head - 1);
  if (cursor !== undefined) add(cursor - fold.around, cursor + fold.around);
  for (const k of fold.keep ?? []) add(k, k);
  return rows.size < r1 - r0 + 1 ? rows : undefined;
}

/** The line standing for rows a fold left out, with the scope that lists them. */
function gapLine(from: number, to: number, ref: string | undefined): string {
  const rows = from === to ? `row ${from + 1}` : `rows ${from + 1}–${to + 1}`;
  return `… ${rows} not shown (scope=${ref ?? '?'} lists them)`;
}

/**
 * Walks a folded grid's rows for renderGrid: `skip(r)` is true for a row the fold leaves out, and pushes the
 * gap's line onto `out` when a shown row ends a gap; `end(last)` pushes the line of a gap that runs to the end.
 */
function foldGaps(only: ReadonlySet<number> | undefined, ref: string | undefined, out: string[]):
  { skip(r: number): boolean; end(last: number): void } {
  let from: number | undefined;
  const close = (to: number): void => {
    if (from !== undefined) out.push(gapLine(from, to, ref));
    from = undefined;
  };
  return {
    skip(r) {
      if (only && !only.has(r)) { from ??= r; return true; }
      close(r - 1);
      return false;
    },
    end: close,
  };
}

/** A cell of a grid, with its coordinates. */
type Cell = DistilledNode & { cell: { row: number; col: number; address?: string } };

/** The cells of a grid node (children with coordinates); empty when the node is not a grid. */
export function gridCells(node: DistilledNode): Cell[] {
  if (!node.table) return [];
  // Cells are the table's children (Calc, GTK), or its rows' children (web tables).
  return node.children
    .flatMap((c) => (c.role === 'row' ? c.children : [c]))
    .filter((c): c is Cell => c.cell !== undefined);
}

/** True when a node is rendered as a grid: a table with size and at least one cell with coordinates. */
export function isGrid(node: DistilledNode): boolean {
  if (node.table === undefined) return false;
  const cells = gridCells(node);
  if (cells.length === 0) return false;
  // A long list's slice (the rows on screen) marks only its first and last cell with coordinates: it prints as
  // rows with its range line, not as a grid.
  if (node.shownRange === undefined) return true;
  return (
    cells.length ===
    node.children.flatMap((c) => (c.role === 'row' ? c.children : [c])).filter((c) => c.role === 'cell').length
  );
}

/** A cell's address: the app's own, else computed from its coordinates. */
export function addressOfCell(c: Cell): string {
  return c.cell.address ?? cellAddress(c.cell.row, c.cell.col);
}

/** A cell's text cut to the length its own line shows. */
const cutCell = (v: string): string => (v.length > CELL_LINE_CHARS ? `${v.slice(0, CELL_LINE_CHARS)}…` : v);

/** A value made safe for a grid row: one line, no pipe ambiguity, no text that reads as a ref (`[e12]`), cut. */
function cellText(v: string, room = MAX_CELL_CHARS): string {
  let s = escapeText(
    v
      .replace(/\\/g, '\\\\')
      .replace(/\|/g, '\\|')
      .replace(/\[(?=[a-z]?\d*[a-z]\d+\])/g, '\\['),
    { quoted: false, lineBreak: '⏎' },
  );
  if (s.length > room) s = `${s.slice(0, room)}…`;
  return s;
}

function range(cells: readonly Cell[]): [number, number, number, number] | undefined {
  if (cells.length === 0) return undefined;
  let r0 = Infinity; let c0 = Infinity; let r1 = -1; let c1 = -1;
  for (const c of cells) {
    r0 = Math.min(r0, c.cell.row); c0 = Math.min(c0, c.cell.col);
    r1 = Math.max(r1, c.cell.row); c1 = Math.max(c1, c.cell.col);
  }
  return [r0, c0, r1, c1];
}

function rangeText(r: [number, number, number, number]): string {
  const a = cellAddress(r[0], r[1]);
  const b = cellAddress(r[2], r[3]);
  return a === b ? a : `${a}:${b}`;
}

/**
 * What a cell shows: its value, else its name when that is not just its address (GTK TreeView cells carry
 * their text as the name; Calc names every cell by its address and holds the text as the value).
 */
export function cellShown(c: Cell): string {
  // A check column's cell (a toggle renderer) shows its box: which rows are checked is what the list holds.
  if (c.actions.includes('toggle'))
    return c.states.includes('mixed') ? '[-]' : c.states.includes('checked') ? '[x]' : '[ ]';
  if (c.value) return undoubled(c.value);
  if (c.name && c.name !== c.cell.address && c.name !== cellAddress(c.cell.row, c.cell.col)) return undoubled(c.name);
  // Web cells hold their text in child text nodes; a text shown twice (an icon's name and its label) reads once.
  const texts: string[] = [];
  const visit = (n: DistilledNode): void => {
    for (const k of n.children) {
      const t = k.value || k.name;
      if (t) {
        if (!texts.includes(t)) texts.push(t);
      } else visit(k);
    }
  };
  visit(c);
  return texts.join(' ');
}

/**
 * A text that is one text twice over ("Places Places", "File System File System": the cells of Thunar's side
 * pane read their icon's name and their label as one text, measured): read once.
 */
export function undoubled(s: string): string {
  const half = (s.length - 1) / 2;
  return Number.isInteger(half) && half > 0 && s[half] === ' ' && s.slice(0, half) === s.slice(half + 1)
    ? s.slice(0, half)
    : s;
}

/** A cell in a grid row: its text, or the refs and names of the controls in it (`[e2235] Refund`) to act on. */
function gridCellText(c: Cell, room = MAX_CELL_CHARS): string {
  const controls = controlsIn(c);
  if (controls.length === 0) return cellText(cellShown(c), room);
  return controls.map((k) => `[${k.ref ?? '?'}] ${cellText(k.name || k.value || k.role)}`).join(' ');
}

/** The SnapshotLine text of one cell (what diffs and receipts compare). */
export function cellLine(c: Cell): string {
  // Quoted as every element line is (a value's `"` escaped): a cell's text must not forge attributes or refs.
  let s = `[${c.ref ?? '?'}] cell ${quoteText(addressOfCell(c))}`;
  const shown = cellShown(c);
  if (shown) s += ` value=${quoteText(cutCell(shown))}`;
  if (c.description) s += ` formula=${quoteText(cutCell(c.description))}`;
  for (const st of ['selected', 'focused'] as const) if (c.states.includes(st)) s += ` ${st}`;
  return s;
}

/**
 * What reaches the rest of a list that holds only the rows in view (a virtualized web list): the others are not
 * in the tree, so find cannot see them; a scroll to row N or by an amount brings them.
 */
export function virtualTail(ref?: string): string {
  const scroll = `scroll${ref ? ` ${ref}` : ''}`;
  return (
    `the list holds only these, the others exist once scrolled to (computer_find sees only these): ${scroll} ` +
    `value="to N" shows row N, ` +
    `${scroll} value="down 10 pages" moves by an amount`
  );
}

/** What `renderGrid` prints and records. */
export interface GridRender {
  /** Lines below the table's own line (without indentation). */
  rows: string[];
  /** Suffix for the table's own line: "cells A1:O46 of 1,048,576 × 16,384 · …". */
  summary: string;
  /** One SnapshotLine per shown cell, so refs, diffs and receipts work per cell. */
  cells: SnapshotLine[];
}

/** "columns F–I out of view: …" for a table of a few columns whose right ones are past the view's edge. */
function hiddenColumns(visible: [number, number, number, number] | undefined, cols: number,
  ref?: string): string | undefined {
  if (!visible || visible[3] + 1 >= cols || cols > MAX_NAMED_COLUMNS) return undefined;
  const span = `${columnName(visible[3] + 1)}${cols - 1 > visible[3] + 1 ? `–${columnName(cols - 1)}` : ''}`;
  // A scroll moves a step (a tenth of the bar's range): a far column may take several (lxtask's Prio took two).
  return `columns ${span} out of view: scroll ${ref ?? ''} value="right" (a step each, repeat) shows them`;
}

/**
 * Renders a grid node: the visible range and the table's full size, the cursor and selection, then the
 * filled part of the visible range (plus the cursor cell) as a header of column names and rows of values,
 * `|`-separated, empty cells left empty. `maxTokens` bounds the rows (cost estimated by `tokens`), and so does
 * `maxRows` (none for a scoped grid).
 */
export function renderGrid(node: DistilledNode, tokens: (s: string) => number, maxTokens = Infinity,
  maxRows = MAX_GRID_ROWS, fold?: GridFold): GridRender {
  const cells = gridCells(node);
  const size = node.table ?? { rows: 0, cols: 0 };
  const visible = range(cells);
  const focused = cells.find((c) => c.states.includes('focused'));
  const filled = cells.filter((c) => cellShown(c) !== '' || c.description);
  const parts = summaryHead(node, cells, size, visible, focused);
  const shownCells = focused && !filled.includes(focused) ? [...filled, focused] : filled;
  const box = range(shownCells);
  const rows: string[] = [];
  const lines: SnapshotLine[] = [];
  const heads = node.children.filter((c) => c.role === 'columnheader' && !c.cell);
  if (!box || filled.length === 0) {
    parts.push(cells.length ? 'all empty' : 'no cells read');
  } else if (listForm(node, cells, size, heads)) {
    // A few rows of one column read as a list on the table's line: `A1–A4: "Places", "root", …`.
    parts[0] = `${cellAddress(0, 0)}${size.rows > 1 ? `–${cellAddress(size.rows - 1, 0)}` : ''}: ` +
      [...cells].sort((a, b) => a.cell.row - b.cell.row).map((c) => quote(cellShown(c), cellRoom(1))).join(', ');
    lines.push(...heads.map((h) => headerLine(h, node)));
    for (const c of cells) lines.push(cellSnapshotLine(c, node));
  } else {
    if (visible && rangeText(box) !== rangeText(visible)) parts.push(`filled part ${rangeText(box)} shown`);
    const cols: number[] = [];
    for (let c = box[1]; c <= box[3]; c++) cols.push(c);
    lines.push(...heads.map((h) => headerLine(h, node)));
    const header = headerRow(heads, size.cols, cols, String(box[2] + 1).length);
    fillRows(node, { cells, cols, box, focused, fold, maxRows, maxTokens, tokens }, header, rows, lines);
  }
  // The focused cell is always addressable, even in an empty sheet.
  if (focused && !lines.some((l) => l.ref === focused.ref)) {
    const line: SnapshotLine = {
      ref: focused.ref ?? '?',
      depth: 0,
      role: focused.role,
      name: addressOfCell(focused),
      states: ['focused'],
      text: cellLine(focused),
    };
    if (node.ref !== undefined) line.parent = node.ref;
    if (focused.value !== undefined) line.value = focused.value;
    lines.push(line);
  }
  // The example names a cell the table has: a one-column tree has no B7, so it names a cell shown.
  const example =
    size.cols >= 2 && size.rows >= 7
      ? 'B7'
      : (lines.find((l) => l.role === 'cell')?.name ?? (visible ? cellAddress(visible[0], visible[1]) : 'A1'));
  parts.push(`act on a cell: ref=${node.ref ?? '?'}:${example}`);
  return { rows, summary: parts.join(' · '), cells: lines };
}

/** Rows a one-column table prints on its own line at most (Thunar's side pane, Geany's Symbols and Status). */
const LIST_FORM_ROWS = 12;

/**
 * True for a table that prints as a list on its own line: one column without a header's name, every row read and
 * filled with text (no control to act on inside), at most LIST_FORM_ROWS rows. As a grid it read a header `| A`
 * and one `N | text` line a row; each cell keeps its ref and its address.
 */
function listForm(node: DistilledNode, cells: readonly Cell[], size: { rows: number; cols: number },
  heads: readonly DistilledNode[]): boolean {
  return size.cols === 1 && size.rows >= 1 && size.rows <= LIST_FORM_ROWS && cells.length === size.rows
    && node.setSize === undefined && heads.every((h) => !h.name?.trim())
    && new Set(cells.map((c) => c.cell.row)).size === size.rows && cells.every((c) => c.cell.row < size.rows)
    && cells.every((c) => c.cell.col === 0 && cellShown(c) !== '' && !c.description && controlsIn(c).length === 0);
}

/** The summary's first parts: the range read and the table's size, the rows a virtual list holds, the columns out of view, the cursor and the selection. */
function summaryHead(node: DistilledNode, cells: Cell[], size: { rows: number; cols: number },
  visible: [number, number, number, number] | undefined, focused: Cell | undefined): string[] {
  const selected = cells.filter((c) => c.states.includes('selected'));
  const parts = [
    `cells ${visible ? rangeText(visible) : 'none'} of ${size.rows.toLocaleString('en-US')} × ` +
      `${size.cols.toLocaleString('en-US')}`,
  ];
  // A virtualized grid (aria-rowcount) holds only the rows in view: say which, and what brings the others.
  if (node.setSize !== undefined && !node.children.some((c) => c.posInSet !== undefined)) {
    parts.push(
      `the list says it has ${node.setSize.toLocaleString('en-US')} rows but not which of them these are; ` +
        `${virtualTail(node.ref)}`,
    );
  } else if (node.setSize !== undefined && visible) {
    // The column to name is one whose cells hold controls (a row's Delete button), else the first.
    const col = cells.find((c) => controlsIn(c).length > 0)?.cell.col ?? visible[1];
    parts.push(
      `rows ${(visible[0] + 1).toLocaleString('en-US')}–${(visible[2] + 1).toLocaleString('en-US')} on ` +
        `screen; ${virtualTail(node.ref)}; ` +
        (`a cell of row N is ref=${node.ref ?? '?'}:${columnName(col)}<N>, to act on in the same ` +
          `computer_act call as the scroll`),
    );
  }
  // Columns past the view's right edge in a table of a few (a process list's PID): say which, and the scroll.
  const hidden = hiddenColumns(visible, size.cols, node.ref);
  if (hidden) parts.push(hidden);
  if (focused)
    parts.push(
      `cursor ${addressOfCell(focused)}` +
        `${focused.description ? ` ${JSON.stringify(cellText(focused.description))}` : ''}`,
    );
  if (selected.length > 1) { const s = range(selected); if (s) parts.push(`selected ${rangeText(s)}`); }
  return parts;
}

/** The SnapshotLine of a column header (GTK TreeView, web tables: the table's header children, in column order). */
function headerLine(h: DistilledNode, node: DistilledNode): SnapshotLine {
  const line: SnapshotLine = {
    ref: h.ref ?? '?',
    depth: 0,
    role: h.role,
    states: [],
    text: `[${h.ref ?? '?'}] columnheader${h.name ? ` "${cellText(h.name)}"` : ''}`,
  };
  if (h.name !== undefined) line.name = h.name;
  if (node.ref !== undefined) line.parent = node.ref;
  return line;
}

/** The grid's header row: the column names, with a header's ref and name when the table has one per column. */
function headerRow(heads: DistilledNode[], allCols: number, cols: number[], width: number): string {
  const headOf = (c: number): string => {
    const h = heads.length === allCols ? heads[c] : undefined;
    return h ? `${columnName(c)} [${h.ref ?? '?'}] ${cellText(h.name ?? '')}` : columnName(c);
  };
  return `${' '.repeat(width)} | ${cols.map(headOf).join(' | ')}`;
}

/** What `fillRows` prints: the cells read, the filled box and its columns, the fold and the bounds on rows. */
interface GridBody {
  cells: Cell[];
  cols: number[];
  box: [number, number, number, number];
  focused: Cell | undefined;
  fold: GridFold | undefined;
  maxRows: number;
  maxTokens: number;
  tokens: (s: string) => number;
}

/** The header and the filled box's rows, within `maxRows` and `maxTokens`, with a line per shown cell and the tail's note. */
function fillRows(node: DistilledNode, b: GridBody, header: string, rows: string[], lines: SnapshotLine[]): void {
  const { box, cols } = b;
  const at = new Map(b.cells.map((c) => [`${c.cell.row},${c.cell.col}`, c]));
  const width = String(box[2] + 1).length;
  const room = cellRoom(cols.length);
  rows.push(header);
  let used = b.tokens(header);
  let lastRow = box[0] - 1;
  const gaps = foldGaps(foldedRows(b.fold, box, b.focused?.cell.row), node.ref, rows);
  for (let r = box[0]; r <= box[2]; r++) {
    if (gaps.skip(r)) { lastRow = r; continue; }
    const rowCells = cols.map((c) => at.get(`${r},${c}`));
    const text = (
      `${String(r + 1).padStart(width)} | ` + `${rowCells.map((c) => (c ? gridCellText(c, room) : '')).join(' | ')}`
    ).trimEnd();
    const cost = b.tokens(text);
    if (rows.length > b.maxRows || used + cost > b.maxTokens) break;
    rows.push(text);
    used += cost;
    lastRow = r;
    for (const c of rowCells) if (c) lines.push(cellSnapshotLine(c, node));
  }
  if (lastRow === box[2]) gaps.end(box[2]);
  // A scope read of the grid is cut by its own budget too: maxTokens is what shows more (a trial ran the same scope
  // twice).
  if (lastRow < box[2])
    rows.push(
      `… rows ${lastRow + 2}–${box[2] + 1} not shown (budget): scroll, or observe with scope=${node.ref ?? ''} ` +
        `and a larger maxTokens`,
    );
}

/** The SnapshotLine of a shown cell, so refs, diffs and receipts work per cell. */
function cellSnapshotLine(c: Cell, node: DistilledNode): SnapshotLine {
  const line: SnapshotLine = {
    ref: c.ref ?? '?',
    depth: 0,
    role: c.role,
    name: addressOfCell(c),
    states: c.states.filter((s) => s === 'selected' || s === 'focused'),
    text: cellLine(c),
  };
  if (node.ref !== undefined) line.parent = node.ref;
  if (c.value !== undefined) line.value = c.value;
  if (c.description) line.formula = c.description;
  return line;
}

/**
 * The row (0-based) a window's cell-address box names in grid `grid`: a text field whose value is the address of
 * one of the grid's cells (Calc's Name Box, gnumeric's). Where the cursor is when no cell of the grid reads as
 * focused (its window lost the focus to the Find dialog that moved the sheet).
 */
export function rowOfAddressBox(grid: string, lines: readonly SnapshotLine[]): number | undefined {
  const cells = new Set(lines.filter((l) => l.role === 'cell' && l.parent === grid).map((l) => l.name));
  for (const l of lines) {
    if (l.role !== 'textbox' || l.value === undefined) continue;
    const at = parseAddress(l.value.trim());
    if (at && cells.has(cellAddress(at.row, at.col))) return at.row;
  }
  return undefined;
}

/**
 * Finds a cell of the grid by address ("B7") among the cells read. Undefined when it is not in the range
 * the driver read (off screen).
 */
export function cellAt(node: DistilledNode, address: string): DistilledNode | undefined {
  const want = parseAddress(address);
  if (!want) return undefined;
  return gridCells(node).find((c) => c.cell.row === want.row && c.cell.col === want.col);
}

/**
 * True when a cell's line shows that `want` was entered: the same formula (apps normalise case and spaces:
 * "=sum(b1:b3)" reads back "=SUM(B1:B3)"), or the same text or number.
 */
export function cellShowsEntry(line: Pick<SnapshotLine, 'role' | 'value' | 'formula'>, want: string): boolean {
  if (line.role !== 'cell') return false;
  const norm = (s: string): string => s.replace(/\s+/g, '').toUpperCase();
  if (want.startsWith('=')) {
    if (line.formula === undefined) return false;
    if (!line.formula.endsWith('…')) return norm(line.formula) === norm(want);
    // Calc's bridge cuts a formula at its first ":" (see drivers/linux/tree/table.ts formulaOf): match that much.
    const head = norm(line.formula.slice(0, -1));
    return head.length > 1 && norm(want).startsWith(head) && norm(want)[head.length] === ':';
  }
  const got = line.value ?? '';
  return got === want || (want.trim() !== '' && Number.isFinite(Number(want)) && Number(got) === Number(want));
}
