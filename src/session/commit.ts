/**
 * Text set into a field that applies it only on Return. set_value writes the text (EditableText) without the
 * Return a user types after it, and a toolbar's single-line field holds such text until Return: Calc's Name Box
 * (the cursor stays where it was), Font Name and Font Size, gnumeric's edit line (the cell stays empty) and Zoom
 * (measured, Calc 7.4 and gnumeric 1.12), a browser's address bar. A receipt that only said `confirmed (…value now
 * reads as set)` there was taken as the job done by a model in the eval, so it says what is left and how.
 */
import type { Snapshot } from '../engine/snapshot.js';

/** Ancestors looked at for the toolbar: toolkits wrap a field in nameless groups that the snapshot folds. */
const TOOLBAR_DEPTH = 8;

/**
 * The note for a set_value receipt on `ref` when the field in `snap` is a single-line text field inside a toolbar:
 * not applied yet, and the acts that apply it (the focus first: keys go to the focused element, and set_value
 * leaves the focus where it was). Undefined for any other element.
 */
export function pendingReturnNote(snap: Snapshot, ref: string): string | undefined {
  const byRef = new Map(snap.elements.map((l) => [l.ref, l]));
  const field = byRef.get(ref);
  if (!field || field.role !== 'textbox' || field.multiline || !field.states.includes('editable')) return undefined;
  let up = field.parent ? byRef.get(field.parent) : undefined;
  for (let i = 0; up && i < TOOLBAR_DEPTH && up.role !== 'toolbar'; i++)
    up = up.parent ? byRef.get(up.parent) : undefined;
  if (up?.role !== 'toolbar') return undefined;
  // Worded as the CLI rewrites it (submit=true → --submit). The Return is judged like any Enter: a toolbar field of
  // a main window commits itself (session/field-kind.ts), so the step recommended here is not then refused.
  // A model pressed Return with keys instead: it went to the focused cell, as set_value leaves the focus where it was.
  return 'not applied yet: a toolbar field takes its text on Return: repeat the set_value with submit=true (it focuses the field ' +
    'and presses Return there; a Return sent with keys goes to the focused element, not to this field)';
}
