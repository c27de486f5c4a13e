/**
 * Views that draw their content but expose none of it to accessibility: Thunar's icon view is an empty focusable
 * group next to its scroll bars, gnumeric's sheet an empty focused panel beside a drawing area, abiword's page a
 * focused drawing area (all measured on Debian's builds). Their items are not in the tree, so a snapshot or a
 * find that stays silent about them reads as "there is nothing here": the snapshot and find say so instead,
 * and what works (docs/tools.md, "When the tree is not enough").
 */
import type { DistilledNode } from './distill.js';
import { walkDistilled } from './distill.js';
import { parseAddress } from '../protocol/cells.js';

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

/**
 * What an opaque view is, by what reaches its content: a drawn page (a canvas: abiword's) takes typing and gives
 * its text back through the clipboard; a sheet (a view in a window with a cell-address box: gnumeric's) is written
 * through that box and its edit line; an item view (Thunar's icons) has a list view or a Find of its app.
 */
export type OpaqueKind = 'page' | 'sheet' | 'items';

/** The opaque views under `root` (document order), each with its kind. */
export interface OpaqueViews {
  refs: string[];
  kinds: OpaqueKind[];
  /** A sheet's way in: its cell-address box and the edit line after it, by ref (both print without a name). */
  fields?: SheetFields;
}

/** The refs of a sheet's cell-address box and of its edit line (the next editable text box, when one is near). */
export interface SheetFields { address: string; edit?: string }

/** How many nodes after the cell-address box its edit line may come (gnumeric: four buttons between). */
const EDIT_LINE_WITHIN = 8;

/** True for a text field whose value is one cell's address ("A1"): a spreadsheet's cell-address box. */
const isAddressBox = (n: DistilledNode): boolean =>
  n.role === 'textbox' && n.value !== undefined && parseAddress(n.value.trim()) !== undefined;

/** The opaque views under `root` (document order) and the kinds among them. */
export function opaqueViews(root: DistilledNode): OpaqueViews {
  const views: DistilledNode[] = [];
  let fields: SheetFields | undefined;
  let since = 0;
  walkDistilled(root, (n) => {
    if (n.ref !== undefined && isOpaqueView(n)) views.push(n);
    since++;
    if (!fields && n.ref !== undefined && isAddressBox(n)) {
      fields = { address: n.ref };
      since = 0;
    } else if (fields && !fields.edit && since <= EDIT_LINE_WITHIN && n.ref !== undefined && n.role === 'textbox' &&
      n.states.includes('editable') && !isAddressBox(n)) fields.edit = n.ref;
  });
  const kinds = new Set<OpaqueKind>(
    views.map((n) => (n.role === 'canvas' ? 'page' : fields ? 'sheet' : 'items')),
  );
  return { refs: views.map((n) => n.ref ?? '?'), kinds: [...kinds], ...(fields ? { fields } : {}) };
}

/** The words after an opaque view's element line. */
export const OPAQUE_MARK = '(exposes no items)';

/**
 * What reaches each kind's content. Every piece was a trial's lost call (gnumeric's edit line needs Enter; the
 * clipboard asks the user); one note said them all to every view in ~130 tokens on each first print.
 */
const ADVICE: Record<OpaqueKind, string> = {
  page: 'type while it has the focus; read back by ctrl+a, ctrl+c, then the clipboard (asks the user) or ' +
    'computer_screenshot (OCR)',
  sheet: 'type while it has the focus, or set_value the cell-address box then the edit line, each then Enter; ' +
    'read by computer_screenshot (OCR)',
  items: "if loading, observe again; else the app's list view, its Find, or computer_screenshot (OCR)",
};

/**
 * One note naming the opaque views and what reaches their content instead: the advice of their kinds (an item
 * view's when not known). Views the model has been told about (`told`: in this conversation) get a short form, so
 * a view printed again does not repeat the advice; any view not told yet brings the whole note.
 */
export function opaqueNote(refs: readonly string[], told: (ref: string) => boolean = () => false,
  kinds: readonly OpaqueKind[] = ['items'], fields?: SheetFields): string {
  const shown = refs.slice(0, 3).join(', ') + (refs.length > 3 ? ` and ${refs.length - 3} more` : '');
  const draws = `${shown} ${refs.length === 1 ? 'draws its content' : 'draw their content'} without exposing items`;
  if (refs.every(told))
    return `${draws} (as said before: the app's own Find, a list view, or computer_screenshot (OCR))`;
  // The sheet's two text boxes print without names: the advice names them by ref.
  const advice = (k: OpaqueKind): string => k === 'sheet' && fields
    ? ADVICE.sheet.replace('the cell-address box', `the cell-address box (${fields.address})`)
      .replace('the edit line', fields.edit ? `the edit line (${fields.edit})` : 'the edit line')
    : ADVICE[k];
  return `${draws}: ${kinds.map(advice).join('; ')}`;
}
