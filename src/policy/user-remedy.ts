/**
 * What a refusal tells the model the *user* can do. The model reads these words and acts on them: a refusal that
 * named a flag or a settings field that lowers a question (a mode, an allow list) taught a model in the loop to add
 * that flag to its next call. So the advice names only where a person decides (the panel, a question computer-use
 * asks them, their own terminal), never a way for the caller to widen its own permissions; a unit test scans
 * every message template for such flags (test/unit/remedy-no-widening.test.ts, docs/policy-threat-model.md).
 */

/** The sentence for an app the user could allow: `shownKey` is the app's allow key, already escaped for one line. */
export function userCanAllowApp(shownKey: string): string {
  return `The user can allow ${shownKey} themselves: in the computer-use panel (Apps), or by answering "always" when ` +
    'computer-use asks them (an MCP client that asks, or their own terminal).';
}

/** The sentence for a step only a person's answer can let through. */
export const ASK_THE_USER = 'Run it where the user can be asked (their own terminal, or an MCP client that asks), ' +
  'or the user does this step themselves';

/** The sentence for a permission only the user sets, outside any call of this tool. */
export const ONLY_THE_USER = 'Only the user can change that, in their own settings; no flag or option of a call does.';
