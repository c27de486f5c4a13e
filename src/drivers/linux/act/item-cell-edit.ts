/**
 * A value set into a cell of an editable item view (Qt's table and tree views: DB Browser for SQLite's Browse Data
 * grid). Such a cell has no EditableText and its view no Selection; the cell refuses GrabFocus, so the spreadsheet
 * way (cursor through Selection, then typing) failed with "did not take the cursor". A person clicks the cell, opens
 * its editor (F2, else a double click), replaces the text and commits with Return: the same here, each step
 * checked (the cell became the current item; the editor took the focus from its view), then the cell is read back.
 */
import type { ActResult } from '../../../protocol/methods.js';
import { ComputerUseError } from '../../../protocol/errors.js';
import type { A11yBus, Target } from '../bus/bus.js';
import type { Chord } from '../../../protocol/keys.js';
import { readElement, type ElementInfo } from '../tree/reader.js';
import { itemViewOf } from './current-item.js';

const ACC = 'org.a11y.atspi.Accessible';
const SEL = 'org.a11y.atspi.Selection';
const COMP = 'org.a11y.atspi.Component';
/** How long each step may take to show (the current item, the editor's focus, the committed text). */
const STEP_MS = 1500;

/** What the edit needs of the driver: keys to the cell's process and a checked pointer click at the cell. */
export interface CellEditDeps {
  keys(strokes: string | Chord[]): Promise<void>;
  /** A pointer click or double click at the cell's centre; undefined when it has no place on screen. */
  pointer(op: 'click' | 'double_click'): Promise<ActResult | undefined>;
}

/** Polls `probe` until it is true, for at most `ms`. */
async function until(probe: () => Promise<boolean>, ms = STEP_MS): Promise<boolean> {
  const start = performance.now();
  for (;;) {
    if (await probe().catch(() => false)) return true;
    if (performance.now() - start > ms) return false;
    await new Promise((r) => setTimeout(r, 30));
  }
}

const stateOf = async (bus: A11yBus, t: Target): Promise<Set<string>> =>
  (await readElement(bus, t, { children: false })).states;

/**
 * Sets `text` into an item view's cell as a person does; undefined when the cell is no such view's (a
 * spreadsheet's cells and views that select through Selection keep their own way).
 */
export async function editItemCell(
  bus: A11yBus,
  info: ElementInfo,
  text: string,
  deps: CellEditDeps,
): Promise<ActResult | undefined> {
  const view = await itemViewOf(bus, info);
  if (!view) return undefined;
  const [ifaces] = await bus.call(view, ACC, 'GetInterfaces').catch(() => [[]]);
  if ((ifaces as string[]).includes(SEL)) return undefined;
  // A line break or tab would commit the cell and move on to another one.
  if (/[\n\r\t]/.test(text))
    throw new ComputerUseError(
      'invalid_params',
      'A cell entry cannot contain a newline or tab; set one cell per action.',
    );
  const t = info.target;
  let clicked = await deps.pointer('click');
  if (!clicked) {
    // Off screen: brought into view first, then clicked.
    await bus.call(t, COMP, 'ScrollTo', 'u', [6 /* ATSPI_SCROLL_ANYWHERE */]).catch(() => undefined);
    clicked = await deps.pointer('click');
  }
  if (!clicked)
    throw new ComputerUseError(
      'action_failed',
      'The cell is not on screen and could not be scrolled into view; nothing was typed. Scroll to its row, then set it again.',
    );
  if (!await until(async () => (await stateOf(bus, t)).has('focused'))) {
    throw new ComputerUseError(
      'action_failed',
      'The clicked cell did not become the current item of its view; nothing was typed. Observe again.',
    );
  }
  // The editor takes the focus from the view (Qt's cell still reads focused, its editor is in no tree): F2 (the
  // edit key), else a double click. A view that never read focused is watched through its cell.
  const viewFocused = (await stateOf(bus, view).catch(() => new Set<string>())).has('focused');
  const editorOpen = (): Promise<boolean> =>
    until(async () => !(await stateOf(bus, viewFocused ? view : t)).has('focused'), 600);
  let how = 'F2 opened its editor';
  await deps.keys([{ mods: [], key: 'F2' }]);
  if (!await editorOpen()) {
    if (!(await deps.pointer('double_click')))
      throw new ComputerUseError(
        'action_failed',
        'The cell left the screen before its editor opened; nothing was typed.',
      );
    how = 'a double click opened its editor';
    if (!await editorOpen()) {
      // A view that reads focused lost no focus: no editor opened, and keys would go to the view itself.
      if (viewFocused) {
        throw new ComputerUseError(
          'action_failed',
          'The view opened no editor for this cell (F2, then a double click): it may be read-only. Nothing was typed; ' +
            'the app may edit it in a form or pane of its own.',
        );
      }
      // Qt 5's views report no focus at all and keep the cell focused under its editor: the read-back decides.
      how = 'F2 and a double click sent (the view reports no focus, so its editor could not be seen opening)';
    }
  }
  await deps.keys([{ mods: ['Primary'], key: 'a' }]);
  if (text === '') await deps.keys([{ mods: [], key: 'Delete' }]); else await deps.keys(text);
  await deps.keys([{ mods: [], key: 'Enter' }]);
  let shown = '';
  const took = await until(async () => {
    shown = (await readElement(bus, t, { children: false })).name;
    return shown === text || (text.trim() !== '' && Number(shown) === Number(text));
  });
  const quoted = JSON.stringify(shown.slice(0, 60));
  return {
    method: 'synthetic',
    detail:
      `${(clicked.detail ?? 'pointer click').replace(/; the window on top.*$/, '')}; ${how}; typed + Return; ` +
      'read back: the cell shows ' +
      `${quoted}${took ? '' : ' (not the entry: the view may have refused it)'}`,
  };
}
