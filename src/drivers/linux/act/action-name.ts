/**
 * The name a receipt gives an AT-SPI action. Gecko fills an action's name with its key binding (`"<alt><shift>n;"`,
 * `";;"`: a receipt read `Action.DoAction(0) ";;"`, which told the model nothing), so a name shaped like a key
 * binding gives way to the action's description, then to the op that was asked for.
 */

/** Characters of an action's name or description a receipt keeps. */
const MAX_ACTION_NAME = 40;

/** True for text that names no action: blank, or a key binding (`<alt>`, `;` separators, `a;<Alt>f:a;<Control>o`). */
function bindingShaped(s: string): boolean {
  const t = s.trim();
  return t === '' || t.includes(';') || /^<[A-Za-z]+>/.test(t);
}

/**
 * The receipt's name of one `Action.GetActions` entry `[name, description, keyBinding]`: the name, else the
 * description, else `op` when both are blank or key-binding shaped; cut to 40 characters.
 */
export function actionName(action: readonly [string, string, string] | undefined, op: string): string {
  const [name = '', description = ''] = action ?? [];
  const found = [name, description].find((s) => !bindingShaped(s))?.trim() ?? op;
  // A description standing in for a name reads as the short name it stands for.
  const pick = lookupName(found) === found.toLowerCase() ? found : lookupName(found);
  return pick.length > MAX_ACTION_NAME ? `${pick.slice(0, MAX_ACTION_NAME)}…` : pick;
}

/** Words of an action's name that mean a press of the element itself: what a click may run. */
// A word's start only: Chromium's `clickAncestor` (text inside a link) is a click.
const ACTIVATION_WORDS = /(?:^|[^a-z])(?:click|press|activate|toggle|jump)/;

/**
 * Whether a click may run this action when no name asked for matched: its name means a press (click, press,
 * activate, toggle, jump), or it names nothing (Gecko names its one default action by a key binding). Any other
 * named action is not a click: GTK 4 gives a label its context menu's actions (`clipboard.copy`), and a click on
 * the label copied it.
 */
export function meansActivation(action: readonly [string, string, string] | undefined): boolean {
  const name = (action?.[0] ?? '').toLowerCase();
  return bindingShaped(name) || ACTIVATION_WORDS.test(name);
}

/**
 * GTK 3's check box and other cells of a tree view name their inherited actions by their descriptions
 * ("Expands or contracts the row in the tree view containing this cell" where "expand or contract" belongs): the
 * short name each such description stands for, so that an expand finds the cell's expand action and never falls
 * back to its first one, "Toggle", which flips the check box.
 */
const DESCRIBED_NAMES: ReadonlyArray<[RegExp, string]> = [
  [/^expands or contracts\b/, 'expand or contract'],
  [/^creates a widget in which the contents of the cell can be edited/, 'edit'],
  [/^activates the cell\b/, 'activate'],
];

/** The lower-case name an action is looked up by: its own, or the short name its description-as-name stands for. */
export function lookupName(name: string): string {
  const low = name.toLowerCase().trim();
  return DESCRIBED_NAMES.find(([re]) => re.test(low))?.[1] ?? low;
}
