/**
 * A cell of a table wider than its view (a process list of nine columns in a narrow window) lies in a column
 * scrolled off to the left or right. GTK 3 reports such a cell with no size and not showing, so the act was refused
 * as not visible; GTK 2 reports it showing at its place outside the view, where a pointer click lands outside the
 * window or on another widget. Nothing scrolled a table sideways. As a person scrolls right, the table's horizontal
 * scroll bar is moved through its Value until the cell's column shows: straight by the distance when the cell
 * reports where it is, else a view at a time towards its column (read from the columns of its row that show);
 * bounded, and the bar goes back where it was when the cell did not come into view.
 */
import type { A11yBus, Target } from '../bus/bus.js';
import { readElement, type ElementInfo } from '../tree/reader.js';
import { readByCoordinate } from '../tree/table.js';
import { extentsOf, intersect, viewportOf } from '../tree/visible.js';
import { scrollBarsOf } from './scrollbars.js';

const ACC = 'org.a11y.atspi.Accessible';
const TABLE = 'org.a11y.atspi.Table';
const VALUE = 'org.a11y.atspi.Value';
/** Bar moves at most (a view at a time: twenty views of columns is wider than any table a person scrolls). */
const MAX_MOVES = 20;
/** Columns of the cell's row read to tell which show (and so which way its column lies). */
const MAX_ROW_COLUMNS = 24;
/** How long a move gets to show in the cell's place, and the pause between reads (GTK lays out on its next frame). */
const LAYOUT_MS = 400;
const POLL_MS = 30;

type Rect = [number, number, number, number];

const placed = (r: Rect | undefined): r is Rect => r !== undefined && r[2] > 0 && r[3] > 0 && r[1] > -(2 ** 30);

/**
 * How far the view must move right (negative: left) for `r` to lie wholly inside it across (its left edge at the
 * view's when it is wider than the view); 0 when it does, or a cell wider than half the view fills half of it.
 */
export function sidewaysDelta(r: Rect, view: Rect): number {
  const [left, right] = [r[0], r[0] + r[2]];
  const [vl, vr] = [view[0], view[0] + view[2]];
  // A cell wider than half the view shows enough once half the view shows it: it is clicked in its part in view.
  if (overlap(r, view) >= Math.min(r[2], view[2] / 2) - 1) return 0;
  if (left < vl || r[2] > view[2]) return left - vl;
  return right - vr;
}

/** How many pixels across `r` and the view share. */
function overlap(r: Rect, view: Rect): number {
  return Math.max(0, Math.min(r[0] + r[2], view[0] + view[2]) - Math.max(r[0], view[0]));
}

const shownBy = (from: number, at: number): string =>
  `scrolled sideways to its column: horizontal scroll bar Value ${Math.round(from)} → ${Math.round(at)}`;

/**
 * The table a cell is in and the cell its table holds (a GTK tree view's cell of several renderers sits in an outer
 * cell): its parent, or the parent's parent.
 */
async function tableOf(bus: A11yBus, t: Target): Promise<{ table: ElementInfo; cell: Target } | undefined> {
  let cur = t;
  for (let up = 0; up < 2; up++) {
    const parent = (await bus.getProp(cur, ACC, 'Parent').catch(() => undefined)) as [string, string] | undefined;
    if (!parent || parent[1] === '/org/a11y/atspi/null') return undefined;
    const next = { dest: parent[0], path: parent[1] };
    const info = await readElement(bus, next, { children: false }).catch(() => undefined);
    if (info?.interfaces.has(TABLE)) return { table: info, cell: cur };
    if (info?.atspiRole !== 'table cell') return undefined;
    cur = next;
  }
  return undefined;
}

/**
 * Which way the cell's column lies from the columns of its row that show: +1 right, -1 left; undefined when no
 * cell of its row shows (the row itself is scrolled out up or down: not this step's to bring).
 */
async function columnSide(bus: A11yBus, table: Target, cell: Target, view: Rect): Promise<1 | -1 | undefined> {
  try {
    const [idx] = await bus.call(cell, ACC, 'GetIndexInParent');
    const [[r], [c], all] = await Promise.all([
      bus.call(table, TABLE, 'GetRowAtIndex', 'i', [Number(idx)]),
      bus.call(table, TABLE, 'GetColumnAtIndex', 'i', [Number(idx)]),
      bus.getAll(table, TABLE),
    ]);
    const [row, col] = [Number(r), Number(c)];
    const cols = Math.min(Number(all['NColumns'] ?? 0), MAX_ROW_COLUMNS);
    if (!(row >= 0 && col >= 0 && cols > 0)) return undefined;
    const shown = await Promise.all(
      Array.from({ length: cols }, async (_, k) => {
        const [ref] = await bus.call(table, TABLE, 'GetAccessibleAt', 'ii', [row, k]).catch(() => [undefined]);
        const [dest, path] = (ref ?? []) as string[];
        if (!dest || !path) return false;
        const e = await extentsOf(bus, { dest, path });
        // Some of it across (a command line's cell is wider than the view), its middle down.
        const cy = placed(e) ? e[1] + e[3] / 2 : NaN;
        return placed(e) && overlap(e, view) > 0 && cy >= view[1] && cy < view[1] + view[3];
      }),
    );
    const on = shown.flatMap((s, k) => (s ? [k] : []));
    if (on.length === 0) return undefined;
    return col < Math.min(...on) ? -1 : 1;
  } catch { return undefined; }
}

/** The cell's extents once they differ from `was`, or as they are after LAYOUT_MS. */
async function extentsAfter(bus: A11yBus, t: Target, was: Rect | undefined): Promise<Rect | undefined> {
  const until = performance.now() + LAYOUT_MS;
  for (;;) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    const now = await extentsOf(bus, t);
    if (String(now) !== String(was) || performance.now() >= until) return now;
  }
}

/** Whether a cell that reports its place lies beside its view (not above or below it) and not enough in it. */
function offSidewaysIn(cell: Rect, view: Rect): boolean {
  const cy = cell[1] + cell[3] / 2;
  return sidewaysDelta(cell, view) !== 0 && cy >= view[1] && cy < view[1] + view[3];
}

/** offSidewaysIn the view of the cell's parent; true when that cannot be read (the caller looks further). */
async function offSideways(bus: A11yBus, t: Target, cell: Rect): Promise<boolean> {
  const parent = (await bus.getProp(t, ACC, 'Parent').catch(() => undefined)) as [string, string] | undefined;
  if (!parent || parent[1] === '/org/a11y/atspi/null') return true;
  const view = await viewportOf(bus, { dest: parent[0], path: parent[1] });
  return !view || view[2] <= 0 || offSidewaysIn(cell, view);
}

/**
 * Brings a table cell's column into its view by the view's horizontal scroll bar. Returns what it did, or
 * undefined when nothing was moved: the cell is no table's, already shows across, its row does not show, the
 * table has no horizontal bar taking a value, or no position showed it (the bar is put back then).
 */
export async function revealColumn(bus: A11yBus, info: ElementInfo, signal?: AbortSignal): Promise<string | undefined> {
  if (info.atspiRole !== 'table cell') return undefined;
  const t = info.target;
  let cell = placed(info.bounds) ? info.bounds : await extentsOf(bus, t);
  // The common case first, in a few calls: a cell that shows across in its parent's view.
  if (placed(cell) && !(await offSideways(bus, t, cell))) return undefined;
  const held = await tableOf(bus, t);
  const table = held?.table;
  // A spreadsheet is scrolled by its cells on screen (scrollsheet.ts); its bars do not take a value.
  if (!held || !table || readByCoordinate(table.interfaces, table.childCount)) return undefined;
  const view = await viewportOf(bus, table.target);
  if (!view || view[2] <= 0) return undefined;
  if (placed(cell) && !offSidewaysIn(cell, view)) return undefined;
  const bar = (await scrollBarsOf(bus, { ...table, children: [] }, 3)).find(
    (b) => b.value !== undefined && b.states.has('horizontal') && b.interfaces.has(VALUE),
  );
  if (!bar?.value) return undefined;
  const { min, max, current: from } = bar.value;
  const side = placed(cell) ? undefined : await columnSide(bus, table.target, held.cell, view);
  if (!placed(cell) && side === undefined) return undefined;
  const page = Math.max(1, Math.round(view[2] * 0.8));
  let at = from;
  for (let move = 0; move < MAX_MOVES && !signal?.aborted; move++) {
    const want = Math.min(max, Math.max(min, at + (placed(cell) ? sidewaysDelta(cell, view) : side! * page)));
    if (Math.abs(want - at) < 0.5) break;
    await bus.setProp(bar.target, VALUE, 'CurrentValue', 'd', want);
    at = want;
    cell = await extentsAfter(bus, t, cell);
    if (placed(cell) && Math.abs(sidewaysDelta(cell, view)) < 1)
      return shownBy(from, at);
  }
  // Shown, though not wholly (the end of the range): enough to act on its part in view.
  if (at !== from && placed(cell) && overlap(cell, view) > 0) return shownBy(from, at);
  if (at !== from) await bus.setProp(bar.target, VALUE, 'CurrentValue', 'd', from);
  return undefined;
}

/**
 * The part of a table cell's extents that lies in its table's view: a cell wider than the view (a process list's
 * command line) reaches past it, and its centre past the window (a pointer click there was refused). The extents
 * as given when the cell has no table or no part in view.
 */
export async function partInView(bus: A11yBus, t: Target, bounds: Rect): Promise<Rect> {
  const parent = (await bus.getProp(t, ACC, 'Parent').catch(() => undefined)) as [string, string] | undefined;
  if (!parent || parent[1] === '/org/a11y/atspi/null') return bounds;
  const view = await viewportOf(bus, { dest: parent[0], path: parent[1] });
  const part = view && intersect(bounds, view);
  return part && part[2] > 0 && part[3] > 0 ? part : bounds;
}

/**
 * After a scroll "to H200" on a list or table that is no sheet: the cell at that row and column brought into view
 * across (a list scrolls its rows only up and down). Undefined when the table has no such cell or nothing moved.
 */
export async function revealCellAt(
  bus: A11yBus,
  table: ElementInfo,
  row: number,
  col: number,
  signal?: AbortSignal,
): Promise<string | undefined> {
  if (!table.interfaces.has(TABLE) || readByCoordinate(table.interfaces, table.childCount)) return undefined;
  const [ref] = await bus.call(table.target, TABLE, 'GetAccessibleAt', 'ii', [row, col]).catch(() => [undefined]);
  const [dest, path] = (ref ?? []) as string[];
  if (!dest || !path || path === '/org/a11y/atspi/null') return undefined;
  const cell = await readElement(bus, { dest, path }, { children: false, bounds: true }).catch(() => undefined);
  return cell && revealColumn(bus, cell, signal);
}
