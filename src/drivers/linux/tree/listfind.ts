/**
 * `list.find`: search a long list, tree or table beyond the rows on screen. Strategies, in
 * order: a name index of the container kept from an earlier search (valid while no event says a row changed,
 * and its row count holds); AT-SPI `Collection.GetMatches` (the app walks its own objects and returns the
 * candidates in one call) where the app implements it and it yields the container's rows; else a scan by
 * index with a deadline, rows read by a pool of concurrent readers (many D-Bus calls in flight: the app
 * answers them in order, so the round trip is paid once per window, not once per row). The rows a scan read
 * go into the index, so the next search of that container reads only what changed or was not read yet.
 * Each candidate is tested by the matchers beside each other (name and role here; a text-content matcher
 * can be added to MATCHERS), so the strategies share one notion of a match.
 */
import type { RawNode } from '../../../protocol/nodes.js';
import type { ListFindParams, ListFindResult } from '../../../protocol/methods.js';
import type { A11yBus, Target } from '../bus/bus.js';
import { readElement, toRawNode } from './reader.js';
import { childAt } from './visible.js';

const ACC = 'org.a11y.atspi.Accessible';
const TABLE = 'org.a11y.atspi.Table';
const COLLECTION = 'org.a11y.atspi.Collection';
/** Rows a scan keeps in flight: enough to hide the round trip (5k rows, A/B: 16, 48 and 128 in flight within noise of
* each other and of the old batches of 128; the scan is CPU-bound on both sides). */
const IN_FLIGHT = 32;
/** Default time a scan may take before it answers with what it has (and says where it stopped). */
export const FIND_DEADLINE_MS = 4000;
/** Labels under a row (a ListBox row is nameless; its label child holds the text) read per row. */
const MAX_ROW_LABELS = 4;
/** Containers whose name index is kept (least recently used dropped first). */
const MAX_INDEXES = 8;
/** Columns of a table searched: the text sought may sit in any of them (a row's button in the last one). */
const MAX_ROW_CELLS = 8;

/**
 * A candidate row: the texts it shows and the element to report. A table row searched past its first column
 * has its cells beside its texts (`cells[k]` shows `texts[k]`), so the cell that matched is the one reported.
 */
export interface Candidate { index: number; target: Target; texts: string[]; labels?: Target[]; cells?: Target[] }

/** What a matcher is asked: does this candidate match the query? */
export type Matcher = (c: Candidate, q: { text?: string }) => boolean;

/** Case-insensitive substring of one of the row's texts (its name or its labels' names). */
const nameMatcher: Matcher = (c, q) => !q.text || c.texts.some((t) => t.toLowerCase().includes(q.text!.toLowerCase()));

/** The matchers a candidate must pass; a text-content matcher (Text interface) can sit beside the name one. */
export const MATCHERS: Matcher[] = [nameMatcher];

type TableSize = { rows: number; cols: number };

/**
 * What a scan learnt about one container: per row, its candidate (null: no element there), and the handles of
 * the rows and labels read, so an event from any of them drops the index.
 */
interface ListIndex { rows: number; count: number; entries: (Candidate | null | undefined)[]; members: Set<string> }

/** Name indexes by container handle, most recently used last. Kept only while events can invalidate them. */
const indexes = new Map<string, ListIndex>();
/** True once the driver feeds events to noteListChange: without them no index could be trusted. */
let watching = false;

const handle = (t: Target): string => t.dest + t.path;

/**
 * Drops the name indexes an event may have made stale: rows added, removed or reordered in the container,
 * or a name or text change on a row or label it read. The driver subscribes this to its event watcher.
 */
export function noteListChange(ev: { type: string; source: string }): void {
  watching = true;
  if (!indexes.size) return;
  const structural = /^object:(children-changed|row-inserted|row-deleted|row-reordered|model-changed)/.test(ev.type);
  const content = /^object:(property-change:accessible-name|text-changed)/.test(ev.type);
  if (!structural && !content) return;
  for (const [key, idx] of indexes) {
    if ((structural && key === ev.source) || idx.members.has(ev.source)) indexes.delete(key);
  }
}

/** Lets the driver say that it feeds events to noteListChange (before the first one arrives). */
export function watchListChanges(): void { watching = true; }

/** Searches the container `t`; the result says which strategy ran and whether it covered every row. */
export async function findInList(
  bus: A11yBus,
  t: Target,
  p: Omit<ListFindParams, 'container'>,
): Promise<ListFindResult> {
  const t0 = performance.now();
  const deadline = t0 + (p.deadlineMs ?? FIND_DEADLINE_MS);
  const limit = p.limit ?? 20;
  const [countRaw, ifaces] = await Promise.all([bus.getProp(t, ACC, 'ChildCount'), bus.call(t, ACC, 'GetInterfaces')]);
  const total = Math.max(0, Number(countRaw ?? 0));
  const interfaces = new Set(ifaces[0] as string[]);
  const table = interfaces.has(TABLE) ? await tableSize(bus, t) : undefined;
  const q = p.text !== undefined ? { text: p.text } : {};
  const matches = (c: Candidate | null | undefined): c is Candidate => !!c && MATCHERS.every((m) => m(c, q));
  let hits: Candidate[] = [];
  let method: ListFindResult['method'] = 'scan';
  let scanned = 0;
  let complete = false;
  let stop = 0;

  const viaCollection = interfaces.has(COLLECTION) && !p.from ? await collectionCandidates(bus, t, total) : undefined;
  if (viaCollection) {
    method = 'native';
    const found = await readPool(viaCollection.length, 0, deadline, async (i) => {
      const c = viaCollection[i]!;
      return { ...c, ...await textsOf(bus, c.target) };
    }, (c) => matches(c), limit);
    scanned = found.next;
    hits = found.entries.filter(matches).slice(0, limit);
    complete = scanned >= viaCollection.length || hits.length >= limit;
    stop = scanned;
  } else {
    // A table is scanned row by row (its first column: GetAccessibleAt), a list child by child; the rows read
    // go into the name index. A table's other cells (a web page's row actions) are searched after, see below.
    const rows = table && table.cols > 0 ? table.rows : total;
    const key = handle(t);
    let idx = indexes.get(key);
    if (!watching || !idx || idx.rows !== rows || idx.count !== total)
      idx = { rows, count: total, entries: [], members: new Set() };
    indexes.delete(key);
    let next = Math.min(p.from ?? 0, rows);
    const first = next;
    let fromIndex = 0;
    while (next < rows && hits.length < limit && performance.now() < deadline) {
      // Rows the index holds are tested at once; the first gap is read by the pool up to the next known row.
      const known = idx.entries[next];
      if (known !== undefined) {
        if (matches(known)) hits.push(known);
        next++;
        fromIndex++;
        continue;
      }
      let gapEnd = next + 1;
      while (gapEnd < rows && idx.entries[gapEnd] === undefined) gapEnd++;
      const start = next;
      const found = await readPool(
        gapEnd - start,
        start,
        deadline,
        (i) => rowCandidate(bus, t, i, table),
        (c) => matches(c),
        limit - hits.length,
      );
      remember(idx, start, found.entries);
      for (const c of found.entries) {
        if (hits.length >= limit) break;
        next++;
        if (matches(c)) hits.push(c);
      }
      // The pool stopped early (deadline, or enough matches): the search answers from here.
      if (found.next < gapEnd - start) break;
    }
    scanned = next - first;
    stop = next;
    complete = next >= rows || hits.length >= limit;
    if (fromIndex > 0 && fromIndex === scanned) method = 'index';
    if (watching) {
      indexes.set(key, idx);
      while (indexes.size > MAX_INDEXES) indexes.delete(indexes.keys().next().value!);
      // Cut by the deadline: the rest of the rows are read after the answer, a few at a time.
      if (next < rows && hits.length < limit) fillInBackground(bus, t, key, idx, table);
    }
    // A match from the index is read again: a row that no longer shows the text, or moved, drops the index.
    if (fromIndex > 0 && !(await stillThere(bus, t, hits.slice(0, limit), table, q))) {
      indexes.delete(key);
      return findInList(bus, t, { ...p, deadlineMs: Math.max(1, Math.round(deadline - performance.now())) });
    }
    // No first cell matched in the whole table: its other columns are searched (not indexed). Reading every cell
    // of every row up front made a file manager's search of thousands of rows miss its deadline.
    if (table && table.cols > 1 && complete && hits.length === 0 && q.text !== undefined) {
      const cols = Array.from({ length: Math.min(table.cols, MAX_ROW_CELLS) - 1 }, (_, c) => c + 1);
      const found = await readPool(
        rows - first,
        first,
        deadline,
        (i) => rowCandidate(bus, t, i, table, cols),
        (c) => matches(c),
        limit,
      );
      hits = found.entries.filter(matches).slice(0, limit);
      stop = first + found.next;
      scanned = found.next;
      complete = stop >= rows || hits.length >= limit;
    }
  }
  const out = await Promise.all(hits.slice(0, limit).map(async (c) => {
    // A table row is reported by the cell holding the text, else its first cell.
    const k = q.text === undefined ? -1 : c.texts.findIndex((x) => x.toLowerCase().includes(q.text!.toLowerCase()));
    const at = (k >= 0 ? c.cells?.[k] : undefined) ?? c.target;
    if (k > 0 && c.cells?.[k]) c.texts.unshift(...c.texts.splice(k, 1));
    const node: RawNode = await readElement(bus, at, { children: false }).then(
      (info) => toRawNode(info),
      () => ({ id: at.dest + at.path, role: 'generic', states: [], actions: [] }) as RawNode,
    );
    const m: ListFindResult['matches'][number] = { node, index: c.index };
    if (table) m.row = c.index;
    if (!node.name && c.texts[0]) node.name = c.texts[0];
    return m;
  }));
  return {
    matches: out,
    total: table ? table.rows : total,
    scanned,
    next: stop,
    complete,
    method,
    ms: Math.round(performance.now() - t0),
    ...(table ? { rows: true } : {}),
  };
}

/** Stores rows read from `start` in the index; rows that failed to read (undefined) stay unknown, null is a row with no element. */
function remember(idx: ListIndex, start: number, entries: (Candidate | null | undefined)[]): void {
  entries.forEach((c, k) => {
    if (c === undefined) return;
    idx.entries[start + k] = c;
    if (c) { idx.members.add(handle(c.target)); for (const l of c.labels ?? []) idx.members.add(handle(l)); }
  });
}

/** Containers whose index is being completed after a search that its deadline cut. */
const filling = new Set<string>();
/** Rows read at once by a background fill: few, so the app answers other clients between them. */
const BACKGROUND_IN_FLIGHT = 4;
/** Rows per background step (the index is checked between steps). */
const BACKGROUND_STEP = 256;

/**
 * Reads the rows a search did not reach into the index after the search answered (a GTK3 ListBox costs the
 * app O(N) per row: 20,000 rows take the app ~50 s, more than one search may wait). It stops when the index
 * is dropped (an event, or a newer index), a read fails, or the app is marked busy.
 */
function fillInBackground(bus: A11yBus, t: Target, key: string, idx: ListIndex, table: TableSize | undefined): void {
  if (filling.has(key)) return;
  filling.add(key);
  void (async () => {
    let i = 0;
    while (i < idx.rows && indexes.get(key) === idx && !bus.isBusy(t.dest)) {
      if (idx.entries[i] !== undefined) { i++; continue; }
      let end = i + 1;
      while (end < idx.rows && end - i < BACKGROUND_STEP && idx.entries[end] === undefined) end++;
      const found = await readPool(
        end - i,
        i,
        Infinity,
        (k) => rowCandidate(bus, t, k, table),
        () => false,
        Infinity,
        BACKGROUND_IN_FLIGHT,
      );
      if (indexes.get(key) !== idx || found.entries.some((c) => c === undefined)) break;
      remember(idx, i, found.entries);
      i = end;
    }
  })().finally(() => filling.delete(key));
}

/**
 * Reads items [base, base+n) with `inFlight` readers at once, each taking the next index as it finishes one,
 * until all are read, the deadline passes, or `enough` matches were seen. The entries come back in index
 * order as a prefix of the range (every item handed out is awaited; one whose read failed is undefined);
 * `next` is that prefix's length.
 */
async function readPool<T>(
  n: number,
  base: number,
  deadline: number,
  read: (i: number) => Promise<T>,
  isMatch: (v: T | undefined) => boolean,
  enough: number,
  inFlight = IN_FLIGHT,
): Promise<{ entries: (T | undefined)[]; next: number }> {
  const entries: (T | undefined)[] = [];
  let handed = 0;
  let seen = 0;
  const worker = async (): Promise<void> => {
    while (handed < n && seen < enough && performance.now() < deadline) {
      const k = handed++;
      const v = await read(base + k).catch(() => undefined);
      entries[k] = v;
      if (isMatch(v)) seen++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, n) }, worker));
  // Every index below `handed` was awaited; undefined entries are rows with no element.
  entries.length = handed;
  return { entries, next: handed };
}

/** True when each match from the index still sits at its index and still matches (one read per match). */
async function stillThere(
  bus: A11yBus,
  t: Target,
  hits: Candidate[],
  table: TableSize | undefined,
  q: { text?: string },
): Promise<boolean> {
  const checks = await Promise.all(hits.map(async (c) => {
    try {
      const now = await rowCandidate(bus, t, c.index, table);
      return !!now && handle(now.target) === handle(c.target) && MATCHERS.every((m) => m(now, q));
    } catch { return false; }
  }));
  return checks.every(Boolean);
}

async function tableSize(bus: A11yBus, t: Target): Promise<TableSize | undefined> {
  try {
    const all = await bus.getAll(t, TABLE);
    return { rows: Math.max(0, Number(all['NRows'] ?? 0)), cols: Math.max(0, Number(all['NColumns'] ?? 0)) };
  } catch { return undefined; }
}

/**
 * The container's rows from `Collection.GetMatches` (one call, walked in the app), or undefined when the
 * app has no working Collection for it. The rule's match types and sort order are 0 ("invalid"), which
 * GTK3's bridge answers with an empty list at once: on purpose, since its real walk of a GTK3 list blocks
 * the app for seconds (measured at 5k rows: 1.8 s TreeView, 2.9 s ListBox; a ListBox costs O(N²)).
 * An empty answer must not read as "no match".
 */
async function collectionCandidates(bus: A11yBus, t: Target, total: number): Promise<Candidate[] | undefined> {
  if (total === 0) return undefined;
  try {
    // Match rule: any states, any attributes, any role, any interface; not inverted. Direct children only.
    const rule = [[], 0, {}, 0, [], 0, [], 0, false];
    const [refs] = await bus.call(
      t,
      COLLECTION,
      'GetMatches',
      '(aiia{ss}iaiiasib)uib',
      [rule, 0 /* canonical */, 0 /* all */, false],
      2000,
    );
    const list = (refs ?? []) as [string, string][];
    if (list.length < Math.min(total, 2)) return undefined;
    return list.map(([dest, path], index) => ({ index, target: { dest, path }, texts: [] }));
  } catch { return undefined; }
}

/**
 * Row `i` of a table (the cells of columns `cols`, default its first; the first of them stands for the row) or
 * child `i` of a list, with its texts; null where there is no element. Rejects when a call fails.
 */
async function rowCandidate(
  bus: A11yBus,
  t: Target,
  i: number,
  table: TableSize | undefined,
  cols: readonly number[] = [0],
): Promise<Candidate | null> {
  if (table && table.cols > 0) {
    const cells = (await Promise.all(cols.map((c) => cellAt(bus, t, i, c)))).filter(
      (c): c is Target => c !== undefined,
    );
    const first = cells[0];
    if (!first) return null;
    if (cells.length === 1) return { index: i, target: first, ...await textsOf(bus, first) };
    const each = await Promise.all(cells.map((c) => textsOf(bus, c)));
    return {
      index: i,
      target: first,
      texts: each.map((e) => e.texts.join(' ')),
      cells,
      labels: each.flatMap((e) => e.labels ?? []),
    };
  }
  const target = await childAt(bus, t, i);
  if (!target) return null;
  return { index: i, target, ...await textsOf(bus, target) };
}

/** The cell at row `i`, column `c` of a table, or undefined (a spanned or missing cell). Rejects when the call fails. */
async function cellAt(bus: A11yBus, t: Target, i: number, c: number): Promise<Target | undefined> {
  const [ref] = await bus.call(t, TABLE, 'GetAccessibleAt', 'ii', [i, c]);
  const r = ref as [string, string] | undefined;
  return r && !r[1].endsWith('/null') ? { dest: r[0], path: r[1] } : undefined;
}

/** A row's own name, or where it has none, the names of its first children (a ListBox row's label). */
async function textsOf(bus: A11yBus, t: Target): Promise<{ texts: string[]; labels?: Target[] }> {
  const name = String(await bus.getProp(t, ACC, 'Name').catch(() => '') ?? '');
  if (name) return { texts: [name] };
  const kids = await bus.call(t, ACC, 'GetChildren').then((r) => (r[0] ?? []) as [string, string][], () => []);
  const labels = kids.slice(0, MAX_ROW_LABELS).map(([dest, path]) => ({ dest, path }));
  const names = await Promise.all(
    labels.map((l) =>
      bus.getProp(l, ACC, 'Name').then(
        (n) => String(n ?? ''),
        () => '',
      ),
    ),
  );
  return { texts: names.filter(Boolean), labels };
}
