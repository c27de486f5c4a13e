/**
 * Views that draw their content but expose none of it to accessibility: Thunar's icon view is an empty focusable
 * group next to its scroll bars, gnumeric's sheet an empty focused panel beside a drawing area, abiword's page a
 * focused drawing area (all measured on Debian's builds). Their items are not in the tree, so a snapshot or a
 * find that stays silent about them reads as "there is nothing here": the snapshot and find say so instead,
 * and what works (docs/tools.md, "When the tree is not enough").
 */
import type { DistilledNode } from './distill.js';
import { walkDistilled } from './distill.js';

/** Roles a drawn view takes: a canvas, or the toolkit's generic widget around a custom-drawn area. */
const VIEW_ROLES: ReadonlySet<string> = new Set(['canvas', 'group', 'generic', 'pane', 'unknown']);

/**
 * True for a view that exposes no items: no children (read or reported), no name, value or text, and it takes
 * the keyboard focus (an empty decorative panel does not).
 */
export function isOpaqueView(n: DistilledNode): boolean {
  // A view still loading (busy: a page Firefox has not laid out yet) has not exposed its items yet; it may.
  // One inside an editable document or text box is its viewport: the text is the document's value.
  return (
    VIEW_ROLES.has(n.role) &&
    !n.inText &&
    !n.states.includes('busy') &&
    n.children.length === 0 &&
    n.rawChildCount === 0 &&
    n.totalChildren === undefined &&
    !n.name &&
    !n.value &&
    (n.actions.includes('focus') || n.states.includes('focused'))
  );
}

/** The refs of the opaque views under `root` (document order). */
export function opaqueViews(root: DistilledNode): string[] {
  const out: string[] = [];
  walkDistilled(root, (n) => { if (n.ref !== undefined && isOpaqueView(n)) out.push(n.ref); });
  return out;
}

/** The words after an opaque view's element line. */
export const OPAQUE_MARK = '(exposes no items)';

/**
 * One note naming the opaque views and what reaches their content instead. Views the model has been told about
 * (`told`: in this conversation) get a short form, so a view printed again does not repeat the whole paragraph;
 * any view not told yet brings the whole note.
 */
export function opaqueNote(refs: readonly string[], told: (ref: string) => boolean = () => false): string {
  const shown = refs.slice(0, 3).join(', ') + (refs.length > 3 ? ` and ${refs.length - 3} more` : '');
  const draws = `${shown} ${refs.length === 1 ? 'draws its content' : 'draw their content'} without exposing items`;
  if (refs.every(told))
    return `${draws} (as said before: the app's own Find, a list view, or computer_screenshot (OCR))`;
  // Every piece of advice here was a trial's lost call (gnumeric's edit line needs Enter; the clipboard asks the
  // user), in as few words as keep it: the note stood at ~150 tokens in every first print of such a window.
  return `${draws}, so neither observe nor find sees them: if still loading, observe again; else a list view of ` +
    'the app (Thunar: ctrl+2), its own Find dialog, or computer_screenshot (OCR). To write into it: its own fields ' +
    '(a spreadsheet\'s cell-address box and edit line: set_value, then Enter commits), or type while it has the ' +
    'focus; read back by ctrl+a, ctrl+c, then the clipboard, whose reading asks the user (where no one can be ' +
    'asked: computer_screenshot)';
}
