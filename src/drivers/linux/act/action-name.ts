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
  const pick = [name, description].find((s) => !bindingShaped(s))?.trim() ?? op;
  return pick.length > MAX_ACTION_NAME ? `${pick.slice(0, MAX_ACTION_NAME)}…` : pick;
}
