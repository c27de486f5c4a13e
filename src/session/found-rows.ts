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
