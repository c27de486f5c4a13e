/**
 * AT-SPI Table reading: a table's size, the range of cells on screen, and only those cells, by coordinate.
 *
 * Why not the child list: LibreOffice Calc's sheet reports ChildCount 2³¹−1 and one `GetChildren` wedges the
 * app for minutes (notes/real-apps.md). The table offers `NRows`/`NColumns`, `GetAccessibleAt(row, col)` and
 * `GetIndexAt`, and its Component answers `GetAccessibleAtPoint`: the cells under the viewport's corners give
 * the visible range (measured on Calc 7.4: A1 at the top-left and O46 at the bottom-right of a 1166×783 view).
 */
import type { RawNode } from '../../../protocol/nodes.js';
import { cellAddress, parseRange } from '../../../protocol/cells.js';
import { ComputerUseError } from '../../../protocol/errors.js';
import type { A11yBus, Target } from '../bus/bus.js';
import { isGone } from '../bus/bus.js';
import type { ElementInfo } from './reader.js';
import { decodeStates, handleOf, MAX_LIST_CHILDREN, readByCoordinate, targetOf, toRawNode } from './reader.js';

const ACC = 'org.a11y.atspi.Accessible';
const TABLE = 'org.a11y.atspi.Table';
const COMP = 'org.a11y.atspi.Component';
const TEXT = 'org.a11y.atspi.Text';
const NULL_PATH = '/org/a11y/atspi/null';
/** Cells read per huge table at most: a full-HD sheet view is ~50 rows × 20 columns. */
export const MAX_GRID_CELLS = 1500;
/** Characters of a cell's text read (a cell is a value, not a document). */
const CELL_TEXT_LIMIT = 200;
/** Range read when the viewport cannot be measured (no geometry): the top-left corner of the sheet. */
const FALLBACK_ROWS = 40;
const FALLBACK_COLS = 12;

/**
 * A cell read by coordinate gets the handle "<table handle>#<row>,<col>": Calc creates a new object (a new
 * path) for a cell on every read, so a path would give the same cell a new ref each snapshot; a coordinate
 * keeps it. Acts resolve it back with GetAccessibleAt (resolveCellHandle).
 */
export function cellHandle(table: Target, row: number, col: number): string {
  return `${handleOf(table)}#${row},${col}`;
}

/** The live cell behind a cell handle; undefined when `handle` is not one. */
export async function resolveCellHandle(bus: A11yBus, handle: string): Promise<Target | undefined> {
  const m = /^(.+)#(\d{1,9}),(\d{1,9})$/.exec(handle);
  if (!m?.[1] || !m[2] || !m[3]) return undefined;
  const i = m[1].indexOf('/');
  if (i <= 0) return undefined;
  const table = { dest: m[1].slice(0, i), path: m[1].slice(i) };
  const [ref] = await bus.call(table, TABLE, 'GetAccessibleAt', 'ii', [Number(m[2]), Number(m[3])]);
  const [dest, path] = ref as [string, string];
  if (!path || path === NULL_PATH)
    throw Object.assign(new Error('no cell there'), { type: 'org.freedesktop.DBus.Error.UnknownObject' });
  return { dest, path };
}

/** The last active descendant (the cursor cell) each table announced, by table handle; bounded. */
const cursors = new Map<string, string>();

/** Records a table's cursor cell from an object:active-descendant-changed event. */
export function noteActiveDescendant(ev: { type: string; source: string; object?: string }): void {
  if (!ev.type.startsWith('object:active-descendant-changed') || !ev.object) return;
  cursors.delete(ev.source);
  cursors.set(ev.source, ev.object);
  if (cursors.size > 64) cursors.delete(cursors.keys().next().value ?? '');
}

/**
 * Forgets a table's kept cell objects when its rows or columns move (inserted, deleted, model changed): a kept
 * object is tied to one address, and after an insert the coordinate must be asked anew.
 */
export function noteTableChange(ev: { type: string; source: string }): void {
  if (!TABLE_CHANGE.test(ev.type)) return;
  forgetCells(ev.source);
}

/**
 * Events after which a table's kept cell objects may read wrong: rows or columns moved, its children changed, or
 * its editable state flipped (a cell object made while a cell was being edited reads "" once the edit ends).
 */
const TABLE_CHANGE = new RegExp('^object:(row-inserted|row-deleted|column-inserted|column-deleted|model-changed|' +
  'row-reordered|column-reordered|children-changed|state-changed:editable)');

/** Drops the kept cell objects of the table with this handle. */
function forgetCells(table: string): void {
  const prefix = `${table}#`;
  for (const k of [...cellObjects.keys()]) if (k.startsWith(prefix)) cellObjects.delete(k);
}

/** Each table's editable state at its last read, by handle. */
const tableEditable = new Map<string, boolean>();

/**
 * Records a table's states at a read and drops its kept cell objects when its editable state differs from the
 * last read: the event that says so may not have arrived (or been missed), and a stale object reads "" for a
 * cell that holds a number.
 */
export function noteTableStates(table: Target, states: ReadonlySet<string>): void {
  const h = handleOf(table);
  const editable = states.has('editable');
  const before = tableEditable.get(h);
  if (before !== undefined && before !== editable) forgetCells(h);
  tableEditable.delete(h);
  tableEditable.set(h, editable);
  if (tableEditable.size > 64) tableEditable.delete(tableEditable.keys().next().value ?? '');
}

/** (row, col) of the cursor cell a table last announced, if any. */
async function cursorOf(bus: A11yBus, table: Target): Promise<[number, number] | undefined> {
  const h = cursors.get(handleOf(table));
  const i = h ? h.indexOf('/') : -1;
  if (!h || i <= 0) return undefined;
  try {
    const [idx] = await bus.call({ dest: h.slice(0, i), path: h.slice(i) }, ACC, 'GetIndexInParent');
    return Number(idx) >= 0 ? await coordsOf(bus, table, Number(idx)) : undefined;
  } catch { return undefined; }
}

/** True for an element that offers the Table interface. */
export function isTable(info: ElementInfo): boolean {
  return info.interfaces.has(TABLE);
}

// Whether a table is read by coordinate is decided where child lists are read (reader.ts).
export { COORDINATE_MIN_CHILDREN, readByCoordinate } from './reader.js';

/** A cell's own spreadsheet address when its name is one ("B7", "AA10"), else undefined. */
export function addressOf(name: string, row: number, col: number): string | undefined {
  return name === cellAddress(row, col) ? name : undefined;
}

/** Reads a table's NRows/NColumns; undefined when the app does not answer them. */
async function tableSize(bus: A11yBus, t: Target): Promise<{ rows: number; cols: number } | undefined> {
  try {
    const all = await bus.getAll(t, TABLE);
    const rows = Number(all['NRows']);
    const cols = Number(all['NColumns']);
    return rows >= 0 && cols >= 0 ? { rows, cols } : undefined;
  } catch { return undefined; }
}

/** (row, column) of the child at a table index. */
async function coordsOf(bus: A11yBus, table: Target, index: number): Promise<[number, number]> {
  const [[r], [c]] = await Promise.all([
    bus.call(table, TABLE, 'GetRowAtIndex', 'i', [index]),
    bus.call(table, TABLE, 'GetColumnAtIndex', 'i', [index]),
  ]);
  return [Number(r), Number(c)];
}

/** The cell under a screen point, as (row, column); undefined when none is there. */
async function cellAtPoint(bus: A11yBus, table: Target, x: number, y: number): Promise<[number, number] | undefined> {
  const [ref] = await bus.call(table, COMP, 'GetAccessibleAtPoint', 'iiu', [x, y, 0]);
  const [dest, path] = ref as [string, string];
  if (!path || path === NULL_PATH) return undefined;
  const [idx] = await bus.call({ dest, path }, ACC, 'GetIndexInParent');
  const i = Number(idx);
  return i >= 0 ? coordsOf(bus, table, i) : undefined;
}

/** The visible cell range [r0, c0, r1, c1] (inclusive), measured at the table's on-screen corners. */
export async function visibleRange(
  bus: A11yBus,
  t: Target,
  size: { rows: number; cols: number },
): Promise<[number, number, number, number]> {
  const fallback: [number, number, number, number] = [
    0,
    0,
    Math.min(size.rows, FALLBACK_ROWS) - 1,
    Math.min(size.cols, FALLBACK_COLS) - 1,
  ];
  try {
    const [ext] = await bus.call(t, COMP, 'GetExtents', 'u', [0]);
    const [x, y, w, h] = (ext as number[]).map(Number) as [number, number, number, number];
    if (!(w > 4 && h > 4)) return fallback;
    const [tl, br] = await Promise.all([cellAtPoint(bus, t, x + 2, y + 2), cellAtPoint(bus, t, x + w - 3, y + h - 3)]);
    if (!tl) return fallback;
    const end = br ?? [tl[0] + FALLBACK_ROWS - 1, tl[1] + FALLBACK_COLS - 1];
    return [tl[0], tl[1], Math.min(end[0], size.rows - 1), Math.min(end[1], size.cols - 1)];
  } catch (e) {
    if (isGone(e)) throw e;
    return fallback;
  }
}

/** A cell's text: LibreOffice answers GetText(0, n) with "" when the text is shorter than n, so ask for all. */
async function cellText(bus: A11yBus, cell: Target): Promise<string | undefined> {
  try {
    const [t] = await bus.call(cell, TEXT, 'GetText', 'ii', [0, -1]);
    return String(t ?? '').slice(0, CELL_TEXT_LIMIT).replace(/\uFFFC/g, '');
  } catch { return undefined; }
}

/**
 * LibreOffice's "Formula" object attribute, as the bridge passes it: without the leading "=", and cut at the
 * first ":" with a trailing "\\" (its escaping is not undone: "=SUM(B1:B3)" arrives as "SUM(B1\\").
 * Returns the formula when it arrived whole, else undefined.
 */
export function formulaOf(attrs: unknown): { formula?: string; cut?: string } {
  const f = (attrs as Record<string, unknown> | undefined)?.['Formula'];
  if (typeof f !== 'string' || f === '') return {};
  const withEq = f.startsWith('=') ? f : `=${f}`;
  return f.includes('\\') ? { cut: withEq.slice(0, withEq.indexOf('\\')) } : { formula: withEq };
}

/**
 * Reads one cell by coordinate: its text (one call after GetAccessibleAt; the app serialises calls, ~0.4 ms
 * each on Calc), its states only when `states` is not given (the grid passes them from the cursor and the
 * table's Selection), its name only when `address` is not known to be its name. Null when there is no cell.
 */
export async function readCellAt(
  bus: A11yBus,
  table: Target,
  row: number,
  col: number,
  address?: string,
  states?: ReadonlySet<string>,
): Promise<RawNode | null> {
  const target = await locateCell(bus, table, row, col);
  return target ? describeKept(bus, table, target, row, col, address, states) : null;
}

/** describeCell on a possibly kept object: a kept object the app dropped is made anew once. */
async function describeKept(
  bus: A11yBus,
  table: Target,
  target: Target,
  row: number,
  col: number,
  address?: string,
  states?: ReadonlySet<string>,
): Promise<RawNode | null> {
  try {
    return await describeCell(bus, table, target, row, col, address, states);
  } catch (e) {
    if (!isGone(e)) throw e;
    cellObjects.delete(cellHandle(table, row, col));
    const again = await locateCell(bus, table, row, col, true);
    return again ? describeCell(bus, table, again, row, col, address, states) : null;
  }
}

/**
 * Cell objects already made, by "<table handle>#row,col". Calc makes a new object at each GetAccessibleAt and
 * keeps every one (measured, Calc 7.4: 10,000 GetAccessibleAt → +76 MB RSS, 9,976 distinct paths; 10,000
 * GetText on 400 kept objects → +0 MB), so re-asking grows the app by ~8 KB per cell per observe. A kept
 * object reads its cell live (by address); a sheet switch makes a new table object, hence new keys.
 */
const cellObjects = new Map<string, Target>();
/** Cell objects remembered at most (a few full sheet views). */
const MAX_CELL_OBJECTS = 6000;

/** The cell at (row, col): a kept object, or a new one from GetAccessibleAt; undefined when there is none. */
async function locateCell(
  bus: A11yBus,
  table: Target,
  row: number,
  col: number,
  fresh = false,
): Promise<Target | undefined> {
  const key = cellHandle(table, row, col);
  const kept = fresh ? undefined : cellObjects.get(key);
  if (kept) return kept;
  const [ref] = await bus.call(table, TABLE, 'GetAccessibleAt', 'ii', [row, col]);
  const [dest, path] = ref as [string, string];
  if (!path || path === NULL_PATH) return undefined;
  const t = { dest, path };
  cellObjects.delete(key);
  cellObjects.set(key, t);
  if (cellObjects.size > MAX_CELL_OBJECTS) cellObjects.delete(cellObjects.keys().next().value ?? '');
  return t;
}

/** Reads a located cell: text, and states/name unless given (see readCellAt). */
async function describeCell(
  bus: A11yBus,
  table: Target,
  target: Target,
  row: number,
  col: number,
  address?: string,
  states?: ReadonlySet<string>,
): Promise<RawNode> {
  const [name, stateSet, text] = await Promise.all([
    address ?? bus.getProp(target, ACC, 'Name').then((n) => String(n ?? '')),
    states ?? bus.call(target, ACC, 'GetState').then(([w]) => decodeStates(w as number[])),
    cellText(bus, target),
  ]);
  const info: ElementInfo = {
    target, atspiRole: 'table cell', name, description: '', accessibleId: '',
    states: new Set(stateSet), interfaces: new Set(CELL_INTERFACES), children: [], childCount: 0,
    ...(text !== undefined ? { text } : {}),
  };
  // A cursor found by reading states stands in for the announcement not seen yet (a fresh app): the next
  // grid read then takes states from the table, not from each cell.
  if (!states && info.states.has('focused') && !cursors.has(handleOf(table)))
    cursors.set(handleOf(table), handleOf(target));
  const node = toRawNode(info);
  node.id = cellHandle(table, row, col);
  const own = addressOf(name, row, col);
  node.cell = { row, col, ...(own ? { address: own } : {}) };
  // The cursor cell's formula (the value shown is its result); other cells' formulas cost a call each.
  if (info.states.has('focused') && text) {
    const f = formulaOf(await bus.getProp(target, ACC, 'Attributes').catch(() => undefined));
    // A formula the bridge cut is shown cut ("=SUM(B1…"): the formula bar shows it whole.
    if (f.formula && f.formula !== text) node.description = f.formula;
    else if (f.cut) node.description = `${f.cut}…`;
  }
  return node;
}

/**
 * States of the cells in a range without asking each cell: the cursor cell (the table's announced active
 * descendant, verified by its own state) and the selection (the table's Selection: first and last selected
 * cell, taken as a rectangle only when the count matches). Undefined when either is not known that way: the
 * caller then asks each cell (what a first observe before any cursor event does).
 */
async function gridStates(
  bus: A11yBus,
  table: Target,
): Promise<((row: number, col: number) => ReadonlySet<string>) | undefined> {
  const h = cursors.get(handleOf(table));
  const i = h ? h.indexOf('/') : -1;
  if (!h || i <= 0) return undefined;
  const cur = { dest: h.slice(0, i), path: h.slice(i) };
  try {
    const SEL = 'org.a11y.atspi.Selection';
    const [[idx], [w], n] = await Promise.all([
      bus.call(cur, ACC, 'GetIndexInParent'),
      bus.call(cur, ACC, 'GetState'),
      bus.getProp(table, SEL, 'NSelectedChildren').then(Number),
    ]);
    const curStates = decodeStates(w as number[]);
    if (Number(idx) < 0 || !curStates.has('focused')) return undefined;
    const [cr, cc] = await coordsOf(bus, table, Number(idx));
    let sel: [number, number, number, number] | undefined;
    if (n > 1) {
      const at = async (k: number): Promise<[number, number]> => {
        const [[d, p]] = await bus.call(table, SEL, 'GetSelectedChild', 'i', [k]) as [[string, string]];
        const [j] = await bus.call({ dest: d, path: p }, ACC, 'GetIndexInParent');
        return coordsOf(bus, table, Number(j));
      };
      const [a, b] = await Promise.all([at(0), at(n - 1)]);
      sel = [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[0], b[0]), Math.max(a[1], b[1])];
      // A selection of several ranges is not one rectangle: ask the cells.
      if ((sel[2] - sel[0] + 1) * (sel[3] - sel[1] + 1) !== n) return undefined;
    } else if (n < 0 || Number.isNaN(n)) return undefined;
    const cellStates = new Set(['visible', 'showing', 'enabled', 'sensitive', 'focusable', 'selectable']);
    const selected = new Set([...cellStates, 'selected']);
    const cursorSet = new Set([...curStates].filter((s) => s !== 'defunct'));
    return (r, c) => {
      if (r === cr && c === cc) return cursorSet;
      return sel && r >= sel[0] && r <= sel[2] && c >= sel[1] && c <= sel[3] ? selected : cellStates;
    };
  } catch (e) {
    if (isGone(e)) throw e;
    return undefined;
  }
}

/** Interfaces a cell read by coordinate is taken to have (what Calc's cells offer); acts re-read them live. */
const CELL_INTERFACES: ReadonlySet<string> = new Set([ACC, COMP, TEXT, 'org.a11y.atspi.Value']);

/** Cells read per huge table in a window snapshot; a snapshot scoped to the table reads up to MAX_GRID_CELLS. */
export const DEFAULT_GRID_CELLS = 400;

/**
 * For a table whose child list must not be read (COORDINATE_MIN_CHILDREN children or more, e.g. a sheet):
 * sets `table`, `childCount` and `childRange` on `node` and returns the cells of the visible range, read by
 * coordinate. Returns undefined for anything else (the reader walks its children as usual).
 */
export async function readGrid(
  bus: A11yBus,
  info: ElementInfo,
  node: RawNode,
  full = false,
): Promise<RawNode[] | undefined> {
  if (!isTable(info)) return undefined;
  const size = await tableSize(bus, info.target);
  if (!size) return undefined;
  node.table = size;
  if (!readByCoordinate(info.interfaces, info.childCount)) return undefined;
  noteTableStates(info.target, info.states);
  let [r0, c0, r1, c1] = await visibleRange(bus, info.target, size);
  // Cap the cells read: keep the columns, cut rows (the model can scroll or scope further down).
  const cols = c1 - c0 + 1;
  if (cols <= 0 || r1 < r0) return [];
  const cap = full ? MAX_GRID_CELLS : DEFAULT_GRID_CELLS;
  if (cols * (r1 - r0 + 1) > cap) {
    const keep = Math.max(1, Math.floor(cap / cols));
    // The rows read start at the top of the view, unless the cursor is lower down: then they end at it (+2).
    const cursor = await cursorOf(bus, info.target);
    if (cursor && cursor[0] >= r0 + keep && cursor[0] <= r1 && cursor[1] >= c0 && cursor[1] <= c1)
      r0 = Math.min(r1, cursor[0] + 2) - keep + 1;
    r1 = r0 + keep - 1;
  }
  // Cursor and selection from the table (a few calls), not from each cell's state (one call per cell).
  const statesAt = await gridStates(bus, info.target);
  // Spreadsheets name each cell by its address: checked on the first cell, then not asked again per cell.
  const first = await readCellAt(bus, info.target, r0, c0, undefined, statesAt?.(r0, c0)).catch(() => null);
  const named = first?.cell?.address !== undefined;
  const coords: [number, number][] = [];
  for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) if (r !== r0 || c !== c0 || !first) coords.push([r, c]);
  const gone = (e: unknown): null => {
    if (isGone(e)) return null;
    throw e;
  };
  // Two phases, each one batch of pipelined calls: all cells located, then all read (measured on Calc 7.4,
  // 400 cells: 62 + 128 ms, against ~240 ms when each cell's read waits on its own GetAccessibleAt).
  const [targets, firstIndex, last] = await Promise.all([
    Promise.all(coords.map(([r, c]) => locateCell(bus, info.target, r, c).catch(gone))),
    bus.call(info.target, TABLE, 'GetIndexAt', 'ii', [r0, c0]).then((r) => Number(r[0]), () => -1),
    bus.call(info.target, TABLE, 'GetIndexAt', 'ii', [r1, c1]).then((r) => Number(r[0]), () => -1),
  ]);
  const rest = await Promise.all(coords.map(([r, c], k) => {
    const t = targets[k];
    return t
      ? describeKept(bus, info.target, t, r, c, named ? cellAddress(r, c) : undefined, statesAt?.(r, c)).catch(gone)
      : null;
  }));
  const cells = first ? [first, ...rest] : rest;
  node.childCount = info.childCount;
  // The read cells lie in this index span (row-major), though not every index in it was read.
  if (firstIndex >= 0 && last >= firstIndex) node.childRange = { start: firstIndex, end: last + 1 };
  return cells.filter((c): c is RawNode => c !== null);
}

/**
 * For a table whose children were read as usual (GTK TreeView): sets `table` (when readGrid did not) and each
 * child's `cell` coordinates from the table's own index → row/column mapping. Header children answer -1.
 */
export async function annotateCells(bus: A11yBus, info: ElementInfo, node: RawNode): Promise<void> {
  if (!isTable(info) || !node.children?.length || info.childCount > MAX_LIST_CHILDREN) return;
  if (!node.table) {
    const size = await tableSize(bus, info.target);
    if (!size) return;
    node.table = size;
  }
  // The children read may be the rows on screen of a longer list: a child's index in the table counts from the
  // slice's start, or row 257 on screen after a scroll would be numbered by its place on screen (A2).
  const start = info.childStart ?? 0;
  const indexOf = new Map(info.children.map((c, i) => [handleOf(c), start + i]));
  await Promise.all(node.children.map(async (child) => {
    // Web tables (Chromium) hold their cells in row children: each cell says its place (TableCell.Position).
    if (child.role === 'row') {
      await Promise.all((child.children ?? []).map(async (cell) => {
        const pos = (await bus
          .getProp(targetOf(cell.id), 'org.a11y.atspi.TableCell', 'Position')
          .catch(() => undefined)) as [number, number] | undefined;
        if (Array.isArray(pos) && Number(pos[0]) >= 0 && Number(pos[1]) >= 0)
          cell.cell = { row: Number(pos[0]), col: Number(pos[1]) };
      }));
      return;
    }
    const i = indexOf.get(child.id);
    if (i === undefined) return;
    const [row, col] = await coordsOf(bus, info.target, i).catch(() => [-1, -1] as [number, number]);
    if (row >= 0 && col >= 0) {
      const address = child.name ? addressOf(child.name, row, col) : undefined;
      child.cell = { row, col, ...(address ? { address } : {}) };
    }
  }));
}

/** Whom keys go to, and how: the driver's keyboard (proven focus), as actions.ts uses it. */
export interface CellKeyboard {
  available: boolean;
  keysTo(
    expect: { pid: number; startToken?: string },
    chords: readonly { mods: string[]; key: string }[] | string,
    signal?: AbortSignal,
  ): Promise<number>;
}

/** Parent table and index of a cell. */
async function tableOf(bus: A11yBus, cell: Target): Promise<{ table: Target; index: number }> {
  const [[dest, path], [idx]] = await Promise.all([
    bus.getProp(cell, ACC, 'Parent') as Promise<[string, string]>,
    bus.call(cell, ACC, 'GetIndexInParent'),
  ]);
  return { table: { dest, path }, index: Number(idx) };
}

/**
 * Puts the app's cell cursor on a cell: the table's Selection, then GrabFocus on the cell (Calc moves its
 * cursor inside that call, measured); verified by the cell's "focused" state.
 * Never call it while typed keys may still be queued for the app: a cursor move that lands while a formula is
 * being typed inserts a cell reference into it ("=S" + "A1" + "UM(…").
 */
async function moveCursorTo(bus: A11yBus, cell: Target): Promise<void> {
  const { table, index } = await tableOf(bus, cell);
  const SEL = 'org.a11y.atspi.Selection';
  await bus.call(table, SEL, 'ClearSelection').catch(() => undefined);
  await bus.call(table, SEL, 'SelectChild', 'i', [index]).catch(() => undefined);
  await bus.call(cell, COMP, 'GrabFocus').catch(() => undefined);
  for (let i = 0; i < 40; i++) {
    const [w] = await bus.call(cell, ACC, 'GetState');
    if (decodeStates(w as number[]).has('focused')) return;
    await new Promise((r) => setTimeout(r, 15));
  }
  throw new ComputerUseError(
    'action_failed',
    'The cell did not take the cursor (its window may be inactive); nothing was typed.',
  );
}

/** A cell's computed text and formula as the app reports them now. */
export async function readCellBack(
  bus: A11yBus,
  cell: Target,
): Promise<{ text: string; formula?: string; cut?: string }> {
  const [attrs, text] = await Promise.all([
    bus.getProp(cell, ACC, 'Attributes').catch(() => undefined),
    cellText(bus, cell),
  ]);
  return { text: text ?? '', ...formulaOf(attrs) };
}

/**
 * Enters `text` into a spreadsheet cell that has no EditableText (LibreOffice Calc): the cursor is put on
 * the cell through the table's Selection, then the text is typed to the app's proven focus and committed
 * with Enter, as a user does; a formula is entered as such. Read back: the detail names what the cell now
 * shows and its formula. Returns undefined when the element is not such a cell.
 */
export async function enterCell(
  bus: A11yBus,
  keyboard: CellKeyboard,
  info: ElementInfo,
  text: string,
  owner: { pid: number; startToken?: string },
  signal?: AbortSignal,
): Promise<{ method: 'synthetic'; detail: string } | undefined> {
  if (info.atspiRole !== 'table cell' || info.interfaces.has('org.a11y.atspi.EditableText') || !keyboard.available)
    return undefined;
  // Typed text must stay one cell entry: a newline or tab would commit it and move on to another cell.
  if (/[\n\r\t]/.test(text))
    throw new ComputerUseError(
      'invalid_params',
      'A cell entry cannot contain a newline or tab; set one cell per action.',
    );
  await moveCursorTo(bus, info.target);
  if (text === '') await keyboard.keysTo(owner, [{ mods: [], key: 'Delete' }], signal);
  else {
    await keyboard.keysTo(owner, text, signal);
    await keyboard.keysTo(owner, [{ mods: [], key: 'Enter' }], signal);
  }
  // The keys reach the app after keysTo returns: read until the entry shows (bounded, ~2 s), then report.
  let back = await readCellBack(bus, info.target);
  for (let i = 0; i < 60 && !entered(back, text); i++) {
    await new Promise((r) => setTimeout(r, 30));
    back = await readCellBack(bus, info.target);
  }
  // Enter moved the cursor on: put it back, so the formula bar and the snapshot show the entered cell. Only
  // once the entry is in (no typed key is still queued), see moveCursorTo.
  if (text !== '' && entered(back, text)) await moveCursorTo(bus, info.target).catch(() => undefined);
  const name = info.name || 'the cell';
  const formula = back.formula ?? (back.cut ? `${back.cut}…` : '');
  const ok = entered(back, text);
  return {
    method: 'synthetic',
    detail:
      `cursor to ${name} (Selection) + typed + Enter; read back: ${name} shows ` +
      `${JSON.stringify(back.text.slice(0, 60))}${formula ? `, formula ${formula.slice(0, 60)}` : ''}` +
      `${ok ? '' : ' (not the entry)'}`,
  };
}

/**
 * Whether the read-back shows the entry: the same formula (case and spaces aside), or for a formula the
 * bridge cut at ":", the same beginning; else the same text or number.
 */
export function entered(back: { text: string; formula?: string; cut?: string }, text: string): boolean {
  const norm = (s: string): string => s.replace(/\s+/g, '').toUpperCase();
  if (text.startsWith('=')) {
    if (back.formula !== undefined) return norm(back.formula) === norm(text);
    return (
      back.cut !== undefined &&
      back.cut.length > 1 &&
      norm(text).startsWith(norm(back.cut)) &&
      norm(text)[norm(back.cut).length] === ':'
    );
  }
  return back.text === text || (text.trim() !== '' && Number(back.text) === Number(text));
}

/** Cells one range selection may name. */
export const MAX_SELECT_CELLS = 10_000;

/**
 * Selects a cell range ("B1:B3") of a table through its Selection interface (cell by cell, by index, so no
 * child list is read), then counts what the app reports selected. Undefined when `value` is not a range.
 */
export async function selectRange(
  bus: A11yBus,
  info: ElementInfo,
  value: string,
): Promise<{ method: 'pattern'; detail: string } | undefined> {
  if (!isTable(info) || !info.interfaces.has('org.a11y.atspi.Selection')) return undefined;
  const r = parseRange(value);
  if (!r) return undefined;
  const size = await tableSize(bus, info.target);
  if (!size || r[2] >= size.rows || r[3] >= size.cols)
    throw new ComputerUseError(
      'invalid_params',
      `${value} is outside the table (${size?.rows ?? 0} × ${size?.cols ?? 0}).`,
    );
  const n = (r[2] - r[0] + 1) * (r[3] - r[1] + 1);
  if (n > MAX_SELECT_CELLS)
    throw new ComputerUseError(
      'invalid_params',
      `${value} has ${n} cells; select at most ${MAX_SELECT_CELLS} at once.`,
    );
  const SEL = 'org.a11y.atspi.Selection';
  await bus.call(info.target, SEL, 'ClearSelection').catch(() => undefined);
  const coords: [number, number][] = [];
  for (let row = r[0]; row <= r[2]; row++) for (let col = r[1]; col <= r[3]; col++) coords.push([row, col]);
  const indexes = await Promise.all(
    coords.map(([row, col]) => bus.call(info.target, TABLE, 'GetIndexAt', 'ii', [row, col]).then((x) => Number(x[0]))),
  );
  for (const idx of indexes) await bus.call(info.target, SEL, 'SelectChild', 'i', [idx]);
  const [count] = await bus.getProp(info.target, SEL, 'NSelectedChildren').then((c) => [Number(c)], () => [-1]);
  return {
    method: 'pattern',
    detail:
      `Selection.SelectChild × ${n}` +
      `${count !== undefined && count >= 0 ? `; the table reports ${count} selected` : ''}`,
  };
}

/**
 * Selects one cell of a table: the table's Selection.SelectChild when the app then reports the cell
 * selected (Calc), else its row through Table.AddRowSelection (GTK TreeView selects rows, and answers
 * SelectChild on a cell with false). Undefined when the element is not a table cell.
 */
export async function selectCell(
  bus: A11yBus,
  info: ElementInfo,
): Promise<{ method: 'pattern'; detail: string } | undefined> {
  if (info.atspiRole !== 'table cell') return undefined;
  const { table, index } = await tableOf(bus, info.target).catch(() => ({ table: undefined, index: -1 }));
  if (!table || index < 0) return undefined;
  const [ifaces] = await bus.call(table, ACC, 'GetInterfaces');
  const has = (i: string): boolean => (ifaces as string[]).includes(i);
  if (!has(TABLE)) return undefined;
  const SEL = 'org.a11y.atspi.Selection';
  if (has(SEL)) {
    const [ok] = await bus.call(table, SEL, 'SelectChild', 'i', [index]).catch(() => [false]);
    const [now] = ok ? await bus.call(table, SEL, 'IsChildSelected', 'i', [index]).catch(() => [false]) : [false];
    if (now === true) return { method: 'pattern', detail: `Selection.SelectChild(${index}) on the table` };
  }
  const [row] = await bus.call(table, TABLE, 'GetRowAtIndex', 'i', [index]);
  // This row alone: a table that takes several rows (Thunar) would add it to the rows already selected.
  if (has(SEL)) await bus.call(table, SEL, 'ClearSelection').catch(() => undefined);
  const [ok] = await bus.call(table, TABLE, 'AddRowSelection', 'i', [Number(row)]);
  const [sel] = await bus.call(table, TABLE, 'IsRowSelected', 'i', [Number(row)]).catch(() => [ok]);
  if (sel !== true) throw new ComputerUseError('action_failed', `The table refused to select row ${Number(row) + 1}.`);
  return { method: 'pattern', detail: `Table.AddRowSelection(${Number(row)})` };
}
