/**
 * double_click on a row's cell in a table that takes selection (GTK 3 TreeView, Qt item views) activates that
 * row. GTK 3's cell "activate" action emits row-activated for the cell's path but leaves the cursor and the
 * selection where they were, and an app that acts on its selection then acts on another row: mousepad's Open
 * dialog (GTK's file chooser) opened the file selected before, not the one double-clicked (test
 * e2e/act/row-activate.test.ts). A pointer double click selects before it activates; so does this: the cursor
 * is moved to the cell, the row alone is selected and read back as selected, then it is activated. A row that
 * does not read as selected is refused with nothing activated.
 */
import { ComputerUseError } from '../../../protocol/errors.js';
import type { ActResult } from '../../../protocol/methods.js';
import type { A11yBus, Target } from '../bus/bus.js';
import { actionName } from './action-name.js';
import type { ElementInfo } from '../tree/reader.js';

const ACTION = 'org.a11y.atspi.Action';
const COMP = 'org.a11y.atspi.Component';

/** Action names that activate a row, as a double click does. */
const ACTIVATE_NAMES = ['activate', 'open'];

/** What activating a row needs from the rest of the driver (actions.ts). */
export interface RowDeps {
  /** Selects the cell's row alone and reads it back as selected. */
  selectRow(t: Target): Promise<boolean>;
  /** A pointer double click at the cell, proven to land on its app; undefined when it has no place on screen. */
  pointerDoubleClick(): Promise<ActResult | undefined>;
}

/** Selects the cell's row (cursor and selection), proves it, then activates it; throws when it cannot be proven. */
export async function activateRow(bus: A11yBus, info: ElementInfo, deps: RowDeps): Promise<ActResult> {
  const actions = info.interfaces.has(ACTION)
    ? ((await bus.call(info.target, ACTION, 'GetActions'))[0] as [string, string, string][])
    : [];
  const index = actions.findIndex(([n]) => ACTIVATE_NAMES.includes(n.toLowerCase()));
  if (index < 0) {
    // Qt's cells offer only select and toggle: a real double click (its first click selects) is the activation.
    const clicked = await deps.pointerDoubleClick();
    if (clicked) return clicked;
    throw new ComputerUseError(
      'unsupported',
      'This row has no activate action and no place on screen to double-click; nothing was sent. Select it ' +
        'and press Enter (keys).',
    );
  }
  // The cursor: GTK 3 moves the tree's cursor to a cell that grabs focus (keyboard activation follows the cursor).
  if (info.interfaces.has(COMP)) await bus.call(info.target, COMP, 'GrabFocus').catch(() => undefined);
  if (!(await deps.selectRow(info.target))) {
    throw new ComputerUseError(
      'action_failed',
      'The row could not be selected first (it did not read as selected), so it was not activated: ' +
        'the table would have activated the row selected before. Nothing was activated.',
    );
  }
  const [ok] = await bus.call(info.target, ACTION, 'DoAction', 'i', [index]);
  const name = actionName(actions[index], 'double_click');
  if (ok === false)
    throw new ComputerUseError('action_failed', `The toolkit refused action "${name}" (the row is selected now).`);
  return { method: 'pattern', detail: `row selected (read back), then Action.DoAction(${index}) "${name}"` };
}
