/**
 * scroll into_view for an element a scroll pane holds out of view. AT-SPI's Component.ScrollTo does nothing in
 * GTK 3 (an entry in a scrolled grid stayed scrolled out, and the act had no way to tell), so when the element
 * still does not show, the pane's vertical bar is moved through its Value, a view at a time, nearest positions
 * first, until the element shows; bounded, and the bar goes back where it was when no position shows it. A table
 * cell in a column scrolled off to the side is brought in by the horizontal bar first (sideways.ts).
 */
import type { ActResult } from '../../../protocol/methods.js';
import type { A11yBus } from '../bus/bus.js';
import type { ElementInfo } from '../tree/reader.js';
import { readElement, showsOnScreen, toRawNode } from '../tree/reader.js';
import { showingReliableFor } from './actionable.js';
import { revealColumn } from './sideways.js';
import { barNumber } from './scrollbars.js';

const COMP = 'org.a11y.atspi.Component';
const VALUE = 'org.a11y.atspi.Value';
/** Ancestors looked through for the pane's bars (entry → grid → viewport → scroll pane). */
const BAR_LEVELS = 4;
/** Bar positions tried at most. */
const MAX_POSITIONS = 40;
/** How long the app gets to lay out after a move before the element is read again. */
const LAYOUT_MS = 60;

const ACC = 'org.a11y.atspi.Accessible';

/**
 * The bars of the nearest scroll pane above the element (a grid of many rows sits between them: the pane is
 * found by role, whatever the widths of the levels between).
 */
async function paneBarsOf(bus: A11yBus, info: ElementInfo): Promise<ElementInfo[]> {
  let t = info.target;
  for (let up = 0; up < BAR_LEVELS; up++) {
    const parent = await bus.getProp(t, ACC, 'Parent').catch(() => undefined) as [string, string] | undefined;
    if (!parent || parent[1] === '/org/a11y/atspi/null') return [];
    t = { dest: parent[0], path: parent[1] };
    const pane = await readElement(bus, t, { children: false }).catch(() => undefined);
    if (pane?.atspiRole !== 'scroll pane') continue;
    const [kids] = await bus.call(t, ACC, 'GetChildren');
    const read = await Promise.all(((kids ?? []) as [string, string][]).slice(0, 8)
      .map(([dest, path]) => readElement(bus, { dest, path }, { children: false }).catch(() => undefined)));
    return read.filter((c): c is ElementInfo => c?.atspiRole === 'scroll bar');
  }
  return [];
}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function shows(bus: A11yBus, info: ElementInfo): Promise<boolean> {
  return showsOnScreen(await readElement(bus, info.target, { children: false }));
}

/** Scrolls `info` into view: ScrollTo, then the pane's bar when it still does not show. */
export async function scrollIntoView(bus: A11yBus, info: ElementInfo, signal?: AbortSignal): Promise<ActResult> {
  await bus.call(info.target, COMP, 'ScrollTo', 'u', [6 /* ATSPI_SCROLL_ANYWHERE */]).catch(() => undefined);
  // A table cell in a column scrolled off to the side (GTK 3 keeps it showing, with no size): the horizontal bar
  // moves to it (sideways.ts), not a sweep up and down.
  const sideways = await revealColumn(bus, info, signal);
  if (sideways) return { method: 'pattern', detail: sideways };
  if (showsOnScreen(info) || await shows(bus, info)) return { method: 'pattern', detail: 'Component.ScrollTo' };
  // A toolkit that never sets "showing" below its window (GTK 4.8) cannot say when the element shows: no sweep.
  if (!(await showingReliableFor(bus, info.target.dest))) return { method: 'pattern', detail: 'Component.ScrollTo' };
  await pause(LAYOUT_MS);
  if (await shows(bus, info)) return { method: 'pattern', detail: 'Component.ScrollTo' };
  const bars = await paneBarsOf(bus, info);
  const bar = bars.find((b) => b.value && b.interfaces.has(VALUE) && !b.states.has('horizontal'));
  if (!bar?.value)
    return {
      method: 'pattern',
      detail: 'Component.ScrollTo; the element still reads as out of view and no scroll bar holds it',
    };
  const before = { ...toRawNode(info), children: bars.map((b) => toRawNode(b)) };
  const { min, max, current } = bar.value;
  const step = Math.max((max - min) / 10, bar.value.step || 1, (max - min) / MAX_POSITIONS);
  // Nearest positions first, both ways: the element is most often just above or below the view.
  const positions: number[] = [];
  for (let k = 1; positions.length < MAX_POSITIONS; k++) {
    const down = current + k * step;
    const up = current - k * step;
    if (down > max + step && up < min - step) break;
    if (down <= max + step) positions.push(Math.min(max, down));
    if (up >= min - step) positions.push(Math.max(min, up));
  }
  for (const at of positions) {
    if (signal?.aborted) break;
    await bus.setProp(bar.target, VALUE, 'CurrentValue', 'd', at);
    await pause(LAYOUT_MS);
    if (await shows(bus, info))
      return {
        method: 'pattern',
        detail: `scroll bar Value ${barNumber(current)} → ${barNumber(at)} (the element shows)`,
        before,
      };
  }
  await bus.setProp(bar.target, VALUE, 'CurrentValue', 'd', current);
  return {
    method: 'pattern',
    detail: 'Component.ScrollTo and the scroll bar: the element did not come into view',
    before,
  };
}
