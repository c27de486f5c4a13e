/**
 * Rows that find located off screen, by what they hold. A live list moves its rows between the find and the scroll
 * it suggests (a process list: find said "row 114 … scroll to 114", and the scroll answered "there is no row 114:
 * 111 rows"), so a scroll "to N" to a row find named is aimed by the row's text, searched again at the act.
 */
import type { ActionSpec } from './receipts.js';
import type { Session } from './session.js';
import { ComputerUseError } from '../protocol/errors.js';
import { parseScrollTo } from '../protocol/cells.js';
import { quoteText } from '../engine/escape.js';
import { walk, type RawNode, type WindowInfo } from '../engine/node.js';

/** Rows remembered per list at most (a find lists up to 100). */
const MAX_ROWS = 100;
/** How long the row's text is searched for again before the scroll goes to the number as asked. */
const REFIND_MS = 5000;
/**
 * Lists longer than this are not searched again before a scroll: a second search of Thunar's 3,000 files kept
 * the app busy past the scroll's own deadline. A list that changes under the model (a process table) is short.
 */
const MAX_REFIND_ROWS = 1000;

const found = new WeakMap<Session, Map<string, Map<number, string>>>();
/** The size each remembered list had when find searched it. */
const sizes = new WeakMap<Session, Map<string, number>>();

/** Remembers that row `row` (1-based) of the list `listId` held `text` when find looked. */
export function rememberFoundRow(session: Session, listId: string, row: number, text: string, total: number): void {
  if (!sizes.has(session)) sizes.set(session, new Map());
  sizes.get(session)!.set(listId, total);
  let lists = found.get(session);
  if (!lists) found.set(session, lists = new Map());
  const rows = lists.get(listId) ?? new Map<number, string>();
  rows.set(row, text);
  if (rows.size > MAX_ROWS) rows.delete(rows.keys().next().value!);
  lists.set(listId, rows);
}

/**
 * The action with its scroll "to N" aimed at the row that holds what row N held when find named it: the same
 * number when it still does or find never named it; the row's number now when it moved; a failure when no row
 * holds the text any more. A search that cannot run leaves the action as asked.
 */
export async function aimAtFoundRow(
  session: Session,
  spec: ActionSpec,
  listId: string,
  signal?: AbortSignal,
): Promise<ActionSpec | ComputerUseError> {
  // "to 114" or a grid's "to A114": the same row (a column changes nothing in a list's row order).
  const to = spec.op === 'scroll' ? parseScrollTo(spec.value ?? '') : undefined;
  const n = to === undefined ? undefined : String(to.row + 1);
  const text = n === undefined ? undefined : found.get(session)?.get(listId)?.get(Number(n));
  if (n === undefined || text === undefined || (sizes.get(session)?.get(listId) ?? Infinity) > MAX_REFIND_ROWS)
    return spec;
  const search = (from?: number) =>
    session.device.call(
      'list.find',
      {
        container: listId,
        text,
        limit: from === undefined ? 20 : 1,
        deadlineMs: REFIND_MS,
        ...(from !== undefined ? { from } : {}),
      },
      REFIND_MS + 5000,
      signal,
    );
  const holds = (m: { node: { name?: string } }): boolean => (m.node.name ?? '') === text;
  let r;
  try {
    // Row N first (a search from it reads one row when it still holds the text), the whole list only when not.
    const here = await search(Number(n) - 1);
    if (here.matches.some((m) => holds(m) && (m.row ?? m.index) + 1 === Number(n))) return spec;
    r = await search();
  } catch { return spec; }
  const rows = r.matches.filter(holds).map((m) => (m.row ?? m.index) + 1);
  if (rows.includes(Number(n))) return spec;
  if (rows.length > 0) {
    // The nearest row that holds it: a list that moved by a few rows keeps its order.
    const now = rows.reduce((a, b) => (Math.abs(b - Number(n)) < Math.abs(a - Number(n)) ? b : a));
    rememberFoundRow(session, listId, now, text, r.total);
    return { ...spec, value: `to ${now}` };
  }
  if (!r.complete) return spec;
  return new ComputerUseError(
    'stale_ref',
    `Row ${n} held ${quoteText(text.slice(0, 80))} when find looked; no row holds it now (the list changed). ` +
      'Nothing was sent. Find it again (computer_find), or observe the list.',
  );
}

/**
 * A row find named off screen by a ref of its own: the list it is in (its handle and ref), its number (1-based)
 * and what it held. A model acts on such a ref as on any row; the act scrolls it into view first (as a person
 * would, and as Playwright does before a click), then finds it on screen by what it held.
 */
export interface FoundRowRef { listId: string; listRef: string; row: number; text: string; role: string }

const rowRefs = new WeakMap<Session, Map<string, FoundRowRef>>();

/** Remembers that `ref` names a row find saw off screen; kept until an act brought it into view. */
export function rememberFoundRowRef(session: Session, ref: string, row: FoundRowRef): void {
  let refs = rowRefs.get(session);
  if (!refs) rowRefs.set(session, refs = new Map());
  refs.set(ref, row);
  if (refs.size > MAX_ROWS) refs.delete(refs.keys().next().value!);
}

/** The off-screen row `ref` names, while no act has brought it into view yet. */
export function foundRowOf(session: Session, ref: string): FoundRowRef | undefined {
  return rowRefs.get(session)?.get(ref);
}

/** How long a row scrolled to may take to show in the tree, and the pause between reads. */
const ROW_SHOW_MS = 1500;
const ROW_POLL_MS = 100;

/**
 * After the scroll to a found row: reads the window until the list holds one element of the row's role that holds
 * what the row held, and points the ref at it (a toolkit gives a row on screen another handle than the one its
 * search read). An error when none shows within the bound, or several do (a guess would act on the wrong one).
 */
export async function bindFoundRow(
  session: Session,
  ref: string,
  window: WindowInfo,
  signal?: AbortSignal,
): Promise<ComputerUseError | undefined> {
  const row = foundRowOf(session, ref);
  if (!row) return undefined;
  const deadline = Date.now() + ROW_SHOW_MS;
  let seen = 0;
  for (;;) {
    const raw = await session.readWindow(window);
    let list: RawNode | undefined;
    walk(raw.root, (n) => { if (list) return 'skip'; if (n.id === row.listId) list = n; return undefined; });
    const holders = list ? holdersIn(list, row) : [];
    seen = holders.length;
    if (seen === 1) {
      session.refs.rebind(ref, holders[0]!.id);
      rowRefs.get(session)?.delete(ref);
      return undefined;
    }
    if (seen > 1 || Date.now() >= deadline || signal?.aborted) break;
    await new Promise((r) => setTimeout(r, ROW_POLL_MS));
  }
  return new ComputerUseError(
    'stale_ref',
    `Row ${row.row} of ${row.listRef} held ${quoteText(row.text.slice(0, 80))} when find looked; after the scroll ` +
      (seen > 1 ? `${seen} rows hold it` : 'no row on screen holds it') + ' (the list changed). Nothing more was ' +
      'sent. Observe the list, then act on a ref it shows.',
  );
}

/**
 * The elements of the row's role on screen in `list` that hold what the row held: by their own name, else (a GTK
 * ListBox's nameless row around its label) by the name of an element inside them.
 */
function holdersIn(list: RawNode, row: FoundRowRef): RawNode[] {
  const ofRole: RawNode[] = [];
  walk(list, (n) => {
    if (n.states.includes('offscreen')) return 'skip';
    if (n !== list && n.role === row.role) ofRole.push(n);
    return undefined;
  });
  const named = ofRole.filter((n) => n.name === row.text);
  if (named.length) return named;
  const holds = (n: RawNode): boolean => {
    let found = false;
    walk(n, (k) => { if (k.name === row.text) found = true; return found ? 'skip' : undefined; });
    return found;
  };
  return ofRole.filter((n) => !n.name && holds(n));
}
