/**
 * Scrolls row N of a long list or table into view (`scroll` with value "to N"): the row's
 * own `Component.ScrollTo` where the toolkit implements it, else the list's vertical scroll bar set where
 * the row sits (rows of about equal height), verified by the row's extents lying in the viewport.
 */
import type { ActResult } from '../../../protocol/methods.js';
import { ComputerUseError } from '../../../protocol/errors.js';
import type { A11yBus, Target } from '../bus/bus.js';
import { decodeStates, type ElementInfo } from '../tree/reader.js';
import { verticalBarOf } from './scrollbars.js';
import { scrollSheetTo } from './scrollsheet.js';
import { readByCoordinate } from '../tree/table.js';
import { childAt, extentsOf, viewportOf } from '../tree/visible.js';
import { scrollSetTo } from '../tree/virtualset.js';

const ACC = 'org.a11y.atspi.Accessible';
const TABLE = 'org.a11y.atspi.Table';
const COMP = 'org.a11y.atspi.Component';
const VALUE = 'org.a11y.atspi.Value';
/** How long the row is watched for after a scroll (GTK lays out on its next frame). */
const SETTLE_MS = 600;

type Rect = [number, number, number, number];

/**
 * Row `row` (1-based) of the list or table `info`, scrolled on screen; on a spreadsheet also column `col` (0-based)
 * when given (another table's column is brought into view across after the row: sideways.ts, revealCellAt).
 */
export async function scrollToRow(
  bus: A11yBus,
  info: ElementInfo,
  row: number,
  col?: number,
  signal?: AbortSignal,
): Promise<ActResult> {
  // A spreadsheet (2³¹−1 children) is read by coordinate, and scrolled by its cells on screen (scrollsheet.ts).
  if (readByCoordinate(info.interfaces, info.childCount)) return scrollSheetTo(bus, info, row, col, signal);
  // A virtualized list holds only the rows in view: its row N is reached by its rows' spacing (virtualset.ts).
  const virtual = await scrollSetTo(bus, info, row, signal);
  if (virtual) return virtual;
  const t = info.target;
  const table = info.interfaces.has(TABLE)
    ? await bus.getAll(t, TABLE).then(
        (a) => ({ rows: Number(a['NRows'] ?? 0) }),
        () => undefined,
      )
    : undefined;
  const total = table ? table.rows : info.childCount;
  if (!(row >= 1 && row <= total))
    throw new ComputerUseError(
      'invalid_params',
      `There is no row ${row}: the ${info.atspiRole} has ${total.toLocaleString('en-US')} rows.`,
    );
  const target = table
    ? await bus.call(t, TABLE, 'GetAccessibleAt', 'ii', [row - 1, 0]).then(
        ([r]) => ({ dest: (r as string[])[0]!, path: (r as string[])[1]! }),
        () => undefined,
      )
    : await childAt(bus, t, row - 1);
  if (!target) throw new ComputerUseError('action_failed', `Row ${row} could not be read.`);
  const view = await viewportOf(bus, t);
  if (!view)
    throw new ComputerUseError(
      'unsupported',
      `The ${info.atspiRole} reports no position on screen, so no row can be scrolled to.`,
    );
  // The view is read again after a scroll: a table in a web page moves with the page, and so does its clip.
  const viewNow = async (): Promise<Rect> => (await viewportOf(bus, t)) ?? view;
  if (await onScreen(bus, target, viewNow, 0)) return { method: 'pattern', detail: `row ${row} already on screen` };
  const [scrolled] = await bus
    .call(target, COMP, 'ScrollTo', 'u', [6 /* ATSPI_SCROLL_ANYWHERE */])
    .catch(() => [false]);
  if (scrolled !== false && (await onScreen(bus, target, viewNow, SETTLE_MS)))
    return { method: 'pattern', detail: `Component.ScrollTo: row ${row} on screen` };
  const found = await verticalBarOf(bus, info);
  const bar = found && { target: found.target, ...found.value };
  if (!bar)
    throw new ComputerUseError(
      'unsupported',
      `The ${info.atspiRole} has no scroll bar to move and its rows cannot scroll themselves into view.`,
    );
  // The bar's range is the list's height less one page; a row sits at about (row-1)/total of the whole height.
  const whole = bar.max - bar.min + view[3];
  const want = Math.min(bar.max, Math.max(bar.min, bar.min + ((row - 1) / total) * whole - view[3] / 2));
  await bus.setProp(bar.target, VALUE, 'CurrentValue', 'd', want);
  if (await onScreen(bus, target, viewNow, SETTLE_MS))
    return { method: 'pattern', detail: `scroll bar Value ${bar.current} → ${Math.round(want)}: row ${row} on screen` };
  throw new ComputerUseError(
    'action_failed',
    `Moved the scroll bar to ${Math.round(want)}, but row ${row} did not come on screen.`,
  );
}

/** Whether the element lies (at least half) inside the viewport, watched for up to `waitMs`. */
async function onScreen(bus: A11yBus, t: Target, viewOf: () => Promise<Rect>, waitMs: number): Promise<boolean> {
  const until = performance.now() + waitMs;
  for (;;) {
    const [r, states, view] = await Promise.all([
      extentsOf(bus, t),
      bus.call(t, ACC, 'GetState').then(
        (w) => decodeStates(w[0] as number[]),
        () => new Set<string>(),
      ),
      viewOf(),
    ]);
    // A drawn row (not at INT_MIN) inside the view; a ListBox row far down reports a position shifted by
    // 65,536 px (16-bit X11 windows), so its "showing" state is taken there.
    const drawn = r !== undefined && r[1] > -(2 ** 30);
    if (drawn && (states.has('showing') || (r[1] + r[3] / 2 >= view[1] && r[1] + r[3] / 2 <= view[1] + view[3])))
      return true;
    if (performance.now() >= until) return false;
    await new Promise((res) => setTimeout(res, 30));
  }
}
