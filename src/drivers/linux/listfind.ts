/**
 * `list.find`: search a long list, tree or table beyond the rows on screen (issue 9 item 4). Strategies, in
 * order: AT-SPI `Collection.GetMatches` (the app walks its own objects and returns the candidates in one call)
 * where the app implements it and it yields the container's rows; else a scan by index with a deadline, rows
 * read concurrently in batches. Each candidate is tested by the matchers beside each other (name and role
 * here; a text-content matcher can be added to MATCHERS), so the strategies share one notion of a match.
 */
import type { RawNode } from '../../engine/node.js';
import type { ListFindParams, ListFindResult } from '../../protocol/methods.js';
import type { A11yBus, Target } from './bus.js';
import { readElement, toRawNode } from './reader.js';
import { childAt } from './visible.js';

const ACC = 'org.a11y.atspi.Accessible';
const TABLE = 'org.a11y.atspi.Table';
const COLLECTION = 'org.a11y.atspi.Collection';
/** Rows read at once by the scan. */
const BATCH = 128;
/** Default time a scan may take before it answers with what it has (and says where it stopped). */
export const FIND_DEADLINE_MS = 4000;
/** Labels under a row (a ListBox row is nameless; its label child holds the text) read per row. */
const MAX_ROW_LABELS = 4;
/** Columns of a table searched: the text sought may sit in any of them (a row's button in the last one). */
const MAX_ROW_CELLS = 8;

/**
 * A candidate row: the texts it shows and the element to report. A table row's texts are its cells' names, with
 * each cell beside (`cells[k]` shows `texts[k]`), so the cell that matched is the one reported.
 */
export interface Candidate { index: number; target: Target; texts: string[]; cells?: Target[] }

/** What a matcher is asked: does this candidate match the query? */
export type Matcher = (c: Candidate, q: { text?: string }) => boolean;

/** Case-insensitive substring of one of the row's texts (its name or its labels' names). */
const nameMatcher: Matcher = (c, q) => !q.text || c.texts.some((t) => t.toLowerCase().includes(q.text!.toLowerCase()));

/** The matchers a candidate must pass; a text-content matcher (Text interface) can sit beside the name one. */
export const MATCHERS: Matcher[] = [nameMatcher];

/** Searches the container `t`; the result says which strategy ran and whether it covered every row. */
export async function findInList(bus: A11yBus, t: Target, p: Omit<ListFindParams, 'container'>): Promise<ListFindResult> {
  const t0 = performance.now();
  const deadline = t0 + (p.deadlineMs ?? FIND_DEADLINE_MS);
  const limit = p.limit ?? 20;
  const [countRaw, ifaces] = await Promise.all([bus.getProp(t, ACC, 'ChildCount'), bus.call(t, ACC, 'GetInterfaces')]);
  const total = Math.max(0, Number(countRaw ?? 0));
  const interfaces = new Set(ifaces[0] as string[]);
  const table = interfaces.has(TABLE) ? await tableSize(bus, t) : undefined;
  const q = p.text !== undefined ? { text: p.text } : {};
  const hits: Candidate[] = [];
  let method: ListFindResult['method'] = 'scan';
  let scanned = 0;
  let complete = false;
  let stop = 0;

  const viaCollection = interfaces.has(COLLECTION) && !p.from ? await collectionCandidates(bus, t, total) : undefined;
  if (viaCollection) {
    method = 'collection';
    for (let i = 0; i < viaCollection.length && hits.length < limit && performance.now() < deadline; i += BATCH) {
      const batch = await Promise.all(viaCollection.slice(i, i + BATCH).map((c) => textsOf(bus, c.target).then((texts) => ({ ...c, texts }))));
      scanned += batch.length;
      hits.push(...batch.filter((c) => MATCHERS.every((m) => m(c, q))));
    }
    complete = scanned >= viaCollection.length || hits.length >= limit;
    stop = scanned;
  } else {
    // A table is scanned row by row (GetAccessibleAt), a list child by child. A table's first column (the row's
    // name in most lists) is scanned first; its other cells (a web page's row actions) only when no first cell
    // matched: reading every cell of every row makes a file manager's search of thousands of rows miss its deadline.
    const rows = table && table.cols > 0 ? table.rows : total;
    const passes = table && table.cols > 1 ? [[0], Array.from({ length: Math.min(table.cols, MAX_ROW_CELLS) - 1 }, (_, c) => c + 1)] : [[0]];
    const first = Math.min(p.from ?? 0, rows);
    let next = first;
    for (const cols of passes) {
      if (hits.length) break;
      next = first;
      while (next < rows && hits.length < limit && performance.now() < deadline) {
        const n = Math.min(BATCH, rows - next);
        const batch = await Promise.all(Array.from({ length: n }, (_, k) => rowCandidate(bus, t, next + k, table, cols)));
        for (const c of batch) if (c && MATCHERS.every((m) => m(c, q))) hits.push(c);
        next += n;
        scanned = next - first;
      }
      // Out of time: the answer says where this pass stopped (a search from there covers every column again).
      if (next < rows && hits.length < limit) break;
    }
    stop = next;
    complete = next >= rows || hits.length >= limit;
  }
  const matches = await Promise.all(hits.slice(0, limit).map(async (c) => {
    // A table row is reported by the cell holding the text, else its first cell.
    const k = q.text === undefined ? -1 : c.texts.findIndex((t) => t.toLowerCase().includes(q.text!.toLowerCase()));
    const at = (k >= 0 ? c.cells?.[k] : undefined) ?? c.target;
    if (k > 0 && c.cells?.[k]) c.texts.unshift(...c.texts.splice(k, 1));
    const node: RawNode = await readElement(bus, at, { children: false }).then((info) => toRawNode(info), () => ({ id: at.dest + at.path, role: 'generic', states: [], actions: [] } as RawNode));
    const m: ListFindResult['matches'][number] = { node, index: c.index };
    if (table) m.row = c.index;
    if (!node.name && c.texts[0]) node.name = c.texts[0];
    return m;
  }));
  return { matches, total: table ? table.rows : total, scanned, next: stop, complete, method, ms: Math.round(performance.now() - t0), ...(table ? { rows: true } : {}) };
}

async function tableSize(bus: A11yBus, t: Target): Promise<{ rows: number; cols: number } | undefined> {
  try {
    const all = await bus.getAll(t, TABLE);
    return { rows: Math.max(0, Number(all['NRows'] ?? 0)), cols: Math.max(0, Number(all['NColumns'] ?? 0)) };
  } catch { return undefined; }
}

/**
 * The container's rows from `Collection.GetMatches` (one call, walked in the app), or undefined when the
 * app has no working Collection for it: GTK3's answers nothing for lists and tables (their rows are
 * "managed descendants"), which must not read as "no match".
 */
async function collectionCandidates(bus: A11yBus, t: Target, total: number): Promise<Candidate[] | undefined> {
  if (total === 0) return undefined;
  try {
    // Match rule: any states, any attributes, any role, any interface; not inverted. Direct children only.
    const rule = [[], 0, {}, 0, [], 0, [], 0, false];
    const [refs] = await bus.call(t, COLLECTION, 'GetMatches', '(aiia{ss}iaiiasib)uib', [rule, 0 /* canonical */, 0 /* all */, false], 2000);
    const list = (refs ?? []) as [string, string][];
    if (list.length < Math.min(total, 2)) return undefined;
    return list.map(([dest, path], index) => ({ index, target: { dest, path }, texts: [] }));
  } catch { return undefined; }
}

/** Row `i` of a table (the cells of columns `cols`, the first of them as the row) or child `i` of a list, with its texts. */
async function rowCandidate(bus: A11yBus, t: Target, i: number, table: { rows: number; cols: number } | undefined, cols: readonly number[]): Promise<Candidate | undefined> {
  try {
    if (table && table.cols > 0) {
      const cells = (await Promise.all(cols.map((c) => cellAt(bus, t, i, c)))).filter((c): c is Target => c !== undefined);
      const first = cells[0];
      if (!first) return undefined;
      const texts = await Promise.all(cells.map((c) => textsOf(bus, c).then((ts) => ts.join(' '))));
      return { index: i, target: first, texts, cells };
    }
    const target = await childAt(bus, t, i);
    if (!target) return undefined;
    return { index: i, target, texts: await textsOf(bus, target) };
  } catch { return undefined; }
}

/** The cell at row `i`, column `c` of a table, or undefined (a spanned or missing cell). */
async function cellAt(bus: A11yBus, t: Target, i: number, c: number): Promise<Target | undefined> {
  const [ref] = await bus.call(t, TABLE, 'GetAccessibleAt', 'ii', [i, c]).catch(() => [undefined]);
  const r = ref as [string, string] | undefined;
  return r && !r[1].endsWith('/null') ? { dest: r[0], path: r[1] } : undefined;
}

/** A row's own name, or where it has none, the names of its first children (a ListBox row's label). */
async function textsOf(bus: A11yBus, t: Target): Promise<string[]> {
  const name = String(await bus.getProp(t, ACC, 'Name').catch(() => '') ?? '');
  if (name) return [name];
  const kids = await bus.call(t, ACC, 'GetChildren').then((r) => (r[0] ?? []) as [string, string][], () => []);
  const names = await Promise.all(kids.slice(0, MAX_ROW_LABELS).map(([dest, path]) => bus.getProp({ dest, path }, ACC, 'Name').then((n) => String(n ?? ''), () => '')));
  return names.filter(Boolean);
}
