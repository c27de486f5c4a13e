/**
 * `scroll` "to N" (a row) or "to C2500" (a cell) on a spreadsheet: a table read by coordinate, Calc's sheet of
 * 1,048,576 rows. Calc's vertical bar counts the used area's rows (0..94 on an empty sheet), its cells answer
 * Component.ScrollTo with false, and a CurrentValue set on a bar is read back unchanged (Calc 7.4, measured). What
 * moves the view is the bars' page and line actions (scrollbars.ts). So a bar is stepped, and the cells on screen
 * are read again after each batch the way observe reads them (table.ts visibleRange, and the rows its cell cap
 * keeps): the result says the row is on screen only when that read shows it.
 */
import type { ActResult } from '../../../protocol/methods.js';
import { cellAddress } from '../../../protocol/cells.js';
import { ComputerUseError } from '../../../protocol/errors.js';
import type { A11yBus, Target } from '../bus/bus.js';
import type { ElementInfo } from '../tree/reader.js';
import { barSteps, scrollBarsOf, stepBar, type BarSteps } from './scrollbars.js';
import { DEFAULT_GRID_CELLS, visibleRange } from '../tree/table.js';

const TABLE = 'org.a11y.atspi.Table';
/** Rows left above row N once scrolled, so it shows with what precedes it. */
const CONTEXT_ROWS = 2;
/**
 * Pages one act scrolls at most: 18,400 rows of a 1280×1024 window, 2–5 s of bar actions (5–12 ms a page,
 * measured on 2 busy cores). Farther rows are reached through the Name Box (the error says so: details.goToCell).
 */
export const MAX_PAGES = 400;
/** Rounds of stepping and reading the view again (pages, then lines, then a correction). */
const MAX_ROUNDS = 6;

/** One direction of the sheet: its bar, and the first and last row (or column) of it a snapshot reads. */
interface Axis { name: 'row' | 'column'; bar: Target; steps: BarSteps; span: () => Promise<[number, number]> }

/**
 * Row `row` (1-based), and column `col` (0-based) when given, of the sheet `info` scrolled on screen by its scroll
 * bars' actions, proven by the cells read again.
 */
export async function scrollSheetTo(
  bus: A11yBus,
  info: ElementInfo,
  row: number,
  col?: number,
  signal?: AbortSignal,
): Promise<ActResult> {
  const t = info.target;
  const all = await bus.getAll(t, TABLE);
  const size = { rows: Number(all['NRows'] ?? 0), cols: Number(all['NColumns'] ?? 0) };
  if (!(row >= 1 && row <= size.rows) || (col !== undefined && !(col >= 0 && col < size.cols))) {
    throw new ComputerUseError(
      'invalid_params',
      `There is no ${col === undefined ? `row ${row}` : `cell ${cellAddress(row - 1, col)}`}: the sheet has ` +
        `${fmt(size.rows)} rows and ${fmt(size.cols)} columns.`,
    );
  }
  // The cells a window snapshot reads: the visible range, its rows cut from the top by readGrid's cell cap.
  const read = async (): Promise<[number, number, number, number]> => {
    const [r0, c0, r1, c1] = await visibleRange(bus, t, size);
    return [r0, c0, Math.min(r1, r0 + Math.max(1, Math.floor(DEFAULT_GRID_CELLS / (c1 - c0 + 1))) - 1), c1];
  };
  const goal = col === undefined ? `row ${fmt(row)}` : cellAddress(row - 1, col);
  const shown = (r: number[]): string =>
    col === undefined
      ? `rows ${fmt(r[0]! + 1)}–${fmt(r[2]! + 1)}`
      : `${cellAddress(r[0]!, r[1]!)}:${cellAddress(r[2]!, r[3]!)}`;
  const on = (r: number[]): boolean =>
    row - 1 >= r[0]! && row - 1 <= r[2]! && (col === undefined || (col >= r[1]! && col <= r[3]!));
  const before = await read();
  if (on(before)) return { method: 'pattern', detail: `${goal} already on screen (${shown(before)})` };
  const goTo = { goToCell: cellAddress(row - 1, col ?? 0) };
  const bars = await scrollBarsOf(bus, info, 3);
  const axes: { axis: Axis; want: number }[] = [];
  for (const [name, want, horizontal] of [['row', row - 1 - CONTEXT_ROWS, false], ['column', col, true]] as const) {
    if (want === undefined) continue;
    const bar = bars.find((b) => b.states.has(horizontal ? 'horizontal' : 'vertical'));
    const steps = bar && await barSteps(bus, bar.target);
    if (!bar || !steps)
      throw new ComputerUseError(
        'unsupported',
        `${goal} is off screen (${shown(before)}) and the sheet has no ` +
          `${horizontal ? 'horizontal' : 'vertical'} scroll bar that steps.`,
        goTo,
      );
    const span = async (): Promise<[number, number]> => {
      const r = await read();
      return horizontal ? [r[1], r[3]] : [r[0], r[2]];
    };
    axes.push({ axis: { name, bar: bar.target, steps, span }, want: Math.max(0, want) });
  }
  const sent: string[] = [];
  for (const { axis, want } of axes)
    sent.push(...(await seek(bus, axis, want, { goal, goTo, moved: sent.length > 0 }, signal)));
  const now = await read();
  const how = `scroll bar ${sent.join(' + ') || 'unmoved'}`;
  if (on(now)) return { method: 'pattern', detail: `${how}: ${goal} on screen (${shown(now)})` };
  throw new ComputerUseError('action_failed', `Moved the ${how}, but ${goal} is not on screen (${shown(now)}).`, goTo);
}

/**
 * Steps one bar until the first row (column) read is `want`: one page first, which tells the rows a page holds,
 * then the pages and the lines left in one batch each. Refuses, moving this bar back, when more than MAX_PAGES
 * pages are left (`said.moved`: another bar moved before). Returns what was sent ("44 pages", "16 rows").
 */
async function seek(
  bus: A11yBus,
  axis: Axis,
  want: number,
  said: { goal: string; goTo: { goToCell: string }; moved: boolean },
  signal?: AbortSignal,
): Promise<string[]> {
  let now = await axis.span();
  let perPage: number | undefined;
  const sent = { pages: 0, lines: 0 };
  for (let round = 0; round < MAX_ROUNDS && !signal?.aborted; round++) {
    const diff = want - now[0];
    if (diff === 0) break;
    const forward = diff > 0;
    const pages = perPage === undefined ? 1 : Math.floor(Math.abs(diff) / perPage);
    const n = pages > 0 ? pages : Math.abs(diff);
    await stepBar(
      bus,
      axis.bar,
      pages > 0
        ? forward
          ? axis.steps.pageDown
          : axis.steps.pageUp
        : forward
          ? axis.steps.lineDown
          : axis.steps.lineUp,
      n,
      signal,
    );
    if (pages > 0) sent.pages += n; else sent.lines += n;
    const next = await axis.span();
    // The end of the sheet: the bar moves no further.
    if (next[0] === now[0]) break;
    if (perPage === undefined) {
      perPage = Math.abs(next[0] - now[0]);
      const left = Math.floor(Math.abs(want - next[0]) / perPage);
      if (left > MAX_PAGES) {
        // Too far for one act: the view goes back where it was, and the error says what works.
        await stepBar(bus, axis.bar, forward ? axis.steps.pageUp : axis.steps.pageDown, 1);
        const where = axis.name === 'row' ? (forward ? 'below' : 'above') : (forward ? 'right of' : 'left of');
        throw new ComputerUseError(
          'unsupported',
          `${said.goal} is about ${fmt(left)} pages ${where} the view: too far to scroll ` +
            `(${MAX_PAGES} pages at most); ${said.moved ? 'only the rows moved' : 'nothing moved'}.`,
          said.goTo,
        );
      }
    }
    now = next;
  }
  const unit = axis.name === 'row' ? 'row' : 'column';
  return [
    sent.pages ? `${fmt(sent.pages)} page${sent.pages > 1 ? 's' : ''}` : '',
    sent.lines ? `${sent.lines} ${unit}${sent.lines > 1 ? 's' : ''}` : '',
  ].filter(Boolean);
}

/** 2500 → "2,500". */
function fmt(n: number): string {
  return n.toLocaleString('en-US');
}
