/**
 * A row made the current item of its item view, as a person's click makes it. Qt's and GTK 3's item views keep a
 * current item (the cell that reads `focused`: where F2, Enter, Space and the arrow keys act) apart from the
 * selection, and selecting a row through the accessibility interfaces (GTK's Table.AddRowSelection, Qt's cell
 * Toggle) moves only the selection: after such a click PCManFM-Qt's F2 renamed another file. Qt's cells also refuse
 * Component.GrabFocus (they have no focus action). A pointer click at the cell (XTest, once the window on top there is
 * proven to be the cell's app) moves both, as it does for a person; a row off screen keeps the pattern path and the
 * receipt says the current item did not move.
 */
import type { ActResult } from '../../../protocol/methods.js';
import type { A11yBus, Target } from '../bus/bus.js';
import type { ElementInfo } from '../tree/reader.js';
import { readElement } from '../tree/reader.js';
import { ATSPI_ROLES } from '../bus/atspi-constants.generated.js';

const ACC = 'org.a11y.atspi.Accessible';
const TABLE = 'org.a11y.atspi.Table';
/** A table reporting more children is a sheet (Calc: 2³¹−1), whose cells the grid code handles: not an item view. */
const ITEM_VIEW_MAX_CHILDREN = 1_000_000;
/** How long a clicked row may take to read as the current item. */
const CURRENT_WAIT_MS = 400;

/** The item view around a table cell (its outermost cell's parent, with Table), or undefined. */
export async function itemViewOf(bus: A11yBus, info: ElementInfo): Promise<Target | undefined> {
  if (info.atspiRole !== 'table cell') return undefined;
  try {
    let cell = info.target;
    for (let i = 0; i < 3; i++) {
      const [dest, path] = await bus.getProp(cell, ACC, 'Parent') as [string, string];
      const parent = { dest, path };
      const [role] = await bus.call(parent, ACC, 'GetRole');
      if (ATSPI_ROLES[Number(role)] === 'table cell') { cell = parent; continue; }
      const [ifaces] = await bus.call(parent, ACC, 'GetInterfaces');
      if (!(ifaces as string[]).includes(TABLE)) return undefined;
      const count = Number(await bus.getProp(parent, ACC, 'ChildCount'));
      return count <= ITEM_VIEW_MAX_CHILDREN ? parent : undefined;
    }
  } catch { /* gone or not a cell of a table: no item view */ }
  return undefined;
}

/**
 * Clicks a cell of an item view with the pointer (`pointer`: undefined when it is not on screen or there is no
 * pointer), then reads whether it became the current item. Undefined when the cell is no item view's or was not
 * clicked: the caller's pattern path runs then.
 */
export async function clickToCurrent(bus: A11yBus, info: ElementInfo, op: string,
  pointer: (why: string) => Promise<ActResult | undefined>): Promise<ActResult | undefined> {
  if (!await itemViewOf(bus, info)) return undefined;
  const clicked = await pointer(`a ${op} on a row clicks it as a person does, to make it the current item`);
  if (!clicked) return undefined;
  const current = await becomesCurrent(bus, info.target);
  return {
    ...clicked,
    detail:
      `${clicked.detail}; ` +
      `${current ? 'it is the current item (keys like F2 act on it)' : 'it did not become the current item'}`,
  };
}

/**
 * The note a pattern path's receipt gets for a cell of an item view that is not the current item after it:
 * keys that act on the current item (F2, Enter, Space) would go to another row.
 */
export async function currentNote(bus: A11yBus, info: ElementInfo): Promise<string> {
  if (!await itemViewOf(bus, info)) return '';
  const now = await readElement(bus, info.target, { children: false }).catch(() => undefined);
  if (!now || now.states.has('focused')) return '';
  return '; the current item (where F2, Enter and the arrow keys act) stays on another row: the row was not on screen for a pointer ' +
    'click (scroll it into view, then click it)';
}

/** Whether the cell reads `focused` (its view's current item, in a focused view) within a short wait. */
async function becomesCurrent(bus: A11yBus, t: Target): Promise<boolean> {
  const start = performance.now();
  for (;;) {
    const now = await readElement(bus, t, { children: false }).catch(() => undefined);
    if (now?.states.has('focused')) return true;
    if (performance.now() - start > CURRENT_WAIT_MS) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
}
