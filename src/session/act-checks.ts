/**
 * The checks an element act passes before it is planned: what each op waits for at the driver (actionability),
 * a line break that would press Return, the paths a chooser's submit would name, and the window facts the
 * policy's rules read. Each is a small function the precheck stage of the act flow (act.ts) calls.
 */
import type { Op, WindowInfo } from '../engine/node.js';
import type { Snapshot } from '../engine/snapshot.js';
import { ComputerUseError } from '../protocol/errors.js';
import type { ActionabilityCheck, SnapshotResult } from '../protocol/methods.js';
import { normalizeLabel } from '../policy/irreversible.js';
import { chooserFacts, submitPaths } from './chooser.js';
import type { Session } from './session.js';

/**
 * What each op waits for before it is sent (act only when the element can take it). Edits need a field that
 * takes text; a drag is positional, so it needs the element on screen and still. focus and scroll act on hidden
 * or scrolled-away elements by design (scroll into_view), so they do not wait.
 */
export const ACTIONABILITY: Partial<Record<Op, ActionabilityCheck[]>> = {
  click: ['visible', 'enabled', 'stable'],
  double_click: ['visible', 'enabled', 'stable'],
  right_click: ['visible', 'enabled', 'stable'],
  toggle: ['visible', 'enabled', 'stable'],
  select: ['visible', 'enabled', 'stable'],
  expand: ['visible', 'enabled', 'stable'],
  collapse: ['visible', 'enabled', 'stable'],
  set_value: ['visible', 'enabled', 'editable', 'stable'],
  type: ['visible', 'enabled', 'editable', 'stable'],
  clear: ['visible', 'enabled', 'editable', 'stable'],
  drag_to: ['visible', 'stable'],
};

/** A file chooser's default buttons: a click on one opens or saves what the chooser names. */
const CHOOSER_SUBMIT = /^(save|save as|open|select|ok|replace|export|import|保存|另存为|打开|确定|替换)$/;
const ROWS = new Set(['row', 'listitem', 'treeitem', 'cell', 'gridcell']);

/**
 * The paths a click submits in a file chooser (self-protection by result): a click on its default button
 * (Save, Open) or a double click on a row of its list opens or saves the name field's text, relative to the
 * chooser's folder, or a file of that folder. Read live; none outside a chooser.
 */
export async function chooserSubmit(
  session: Session,
  target: WindowInfo,
  op: Op,
  role: string,
  name: string | undefined,
  live?: SnapshotResult,
): Promise<string[]> {
  const button =
    (op === 'click' || op === 'double_click') && role === 'button' && CHOOSER_SUBMIT.test(normalizeLabel(name ?? ''));
  const row = op === 'double_click' && ROWS.has(role);
  if (!button && !row) return [];
  const facts = chooserFacts((live ?? await session.readWindow(target)).root);
  return facts.chooser ? submitPaths(facts, facts.fields, session.gate.ownRoots?.() ?? []) : [];
}

/**
 * A line break typed as text presses Return (drivers type "\n" and "\r" as the Enter key): in a terminal that runs
 * the command line, in a one-line field it submits the form. Both are judged on the keys path (a terminal's line is
 * quoted to the user, a field's submit is checked for what it names), so typing one here is refused, nothing sent.
 */
export function lineBreakSubmit(
  op: Op,
  value: string | undefined,
  role: string,
  multiline: boolean,
): ComputerUseError | undefined {
  if (value === undefined || !/[\r\n]/.test(value)) return undefined;
  if (role === 'terminal' && (op === 'type' || op === 'set_value')) {
    return new ComputerUseError(
      'invalid_params',
      'A line break typed into a terminal presses Return and runs the command line, which the user is asked ' +
        'about with the line quoted. Nothing was sent. Type the command without the line break, then send Return with computer_keys.',
    );
  }
  if (op === 'type' && (role === 'textbox' || role === 'combobox') && !multiline) {
    return new ComputerUseError(
      'invalid_params',
      'A line break typed into a one-line field presses Return and submits it. Nothing was sent. ' +
        'Type the text without the line break, then send Return with computer_keys, which judges what the submit does.',
    );
  }
  return undefined;
}

/** The single-line editable text fields of a window's last snapshot (the policy's Replace rule reads it). */
export function textFieldsOf(snap: Snapshot | undefined): number {
  return (
    snap?.elements.filter((l) => l.role === 'textbox' && l.states.includes('editable') && !l.multiline).length ?? 0
  );
}
