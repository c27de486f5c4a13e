/**
 * A collection re-sorted or re-filled in place: a web table sorted by a column head keeps its cell objects and
 * renames them all (Firefox: ~35 `~ [e12] cell name "Mixer" → "Fryer"` lines for one click), a list re-filled by
 * a search renames its items, a sheet's cells re-valued by a sort. Many such changes in one table, list or tree
 * read as one block: what changed in a count, then the rows as they read now, bounded. Pure: no I/O.
 */
import type { SnapshotLine } from './line.js';
import { MAX_NAME_CHARS, quote } from './measure.js';
import { rowText } from './rows.js';

/** Roles whose items a re-sort or a refill renames at once. */
const COLLECTION_ROLES: ReadonlySet<string> = new Set(['table', 'list', 'tree']);
/** Roles of one item of a collection: the unit a block prints one line for. */
const ITEM_ROLES: ReadonlySet<string> = new Set(['row', 'listitem', 'treeitem']);
/**
 * Renamed or re-valued elements of one collection from which it prints as a block (as many as a kept grid's cells
 * that came into view before it prints as a grid block); fewer read better one line each.
 */
export const REFILL_LIKE = 10;
/** Item lines a block prints; the rest are counted, with the read that lists them. */
const REFILL_ROWS = 12;
/** Tokens of grid rows a re-filled grid shows (as a grid that shows other cells does). */
const REFILL_GRID_TOKENS = 400;
/** Levels a changed element may sit below its collection (a web cell's text leaf: table › row › cell › text). */
const MAX_UP = 6;

/** One element whose name or value changed. */
export interface Renamed { a: SnapshotLine; b: SnapshotLine }

/** What `refillBlocks` answers: the block lines, the refs of the changes they stand for, the collections' refs. */
export interface Refill { lines: Map<string, string[]>; folded: Set<string>; collections: Set<string> }

/** The collection an element sits in, within MAX_UP levels. */
function collectionOf(l: SnapshotLine, within: ReadonlyMap<string, SnapshotLine>): SnapshotLine | undefined {
  let p = l.parent !== undefined ? within.get(l.parent) : undefined;
  for (let up = 0; p && up < MAX_UP; p = p.parent !== undefined ? within.get(p.parent) : undefined, up++) {
    if (COLLECTION_ROLES.has(p.role)) return p;
  }
  return undefined;
}

/** The item (row, list item) an element of `collection` belongs to: itself or an ancestor below the collection. */
function itemOf(l: SnapshotLine, collection: string, within: ReadonlyMap<string, SnapshotLine>): SnapshotLine {
  let item = l;
  for (
    let p: SnapshotLine | undefined = l, up = 0;
    p && p.ref !== collection && up < MAX_UP;
    p = p.parent !== undefined ? within.get(p.parent) : undefined, up++
  ) {
    if (ITEM_ROLES.has(p.role)) item = p;
  }
  return item;
}

/** The texts an item shows, in document order, each once: its own and its descendants' names and values. */
function itemWords(item: SnapshotLine, snap: readonly SnapshotLine[]): string {
  const inside = new Set([item.ref]);
  const words: string[] = [];
  const add = (l: SnapshotLine): void => {
    const t = l.shown ?? l.value ?? l.name;
    if (t && !words.includes(t)) words.push(t);
  };
  add(item);
  // Lines come in document order, parents first.
  for (const l of snap)
    if (l.parent !== undefined && inside.has(l.parent)) {
      inside.add(l.ref);
      if (l.role !== 'row') add(l);
    }
  return words.map(rowText).join(' | ');
}

/** The item elements of a collection in document order, header rows left out (their names are the columns). */
function itemsOf(
  collection: string,
  after: readonly SnapshotLine[],
  now: ReadonlyMap<string, SnapshotLine>,
): SnapshotLine[] {
  const heads = new Set(after.filter((l) => l.role === 'columnheader' && l.parent !== undefined).map((l) => l.parent));
  return after.filter((l) => ITEM_ROLES.has(l.role) && !heads.has(l.ref) && collectionOf(l, now)?.ref === collection);
}

/** "[e3] table "Stock"": how a collection is named on a line. */
const label = (c: SnapshotLine): string => `[${c.ref}] ${c.role}${c.name ? ` ${quote(c.name, MAX_NAME_CHARS)}` : ''}`;

/**
 * Blocks for the collections in which REFILL_LIKE or more elements were renamed or re-valued: keyed by the ref of
 * the first such change (the block prints where it stood), and the refs of every change a block stands for.
 * "re-sorted" when the items hold what they held before in another order, else "re-filled".
 */
export function refillBlocks(
  renamed: readonly Renamed[],
  before: readonly SnapshotLine[],
  after: readonly SnapshotLine[],
  now: ReadonlyMap<string, SnapshotLine>,
): Refill {
  const byCollection = new Map<string, { collection: SnapshotLine; changes: Renamed[] }>();
  for (const r of renamed) {
    const c = collectionOf(r.b, now);
    if (!c) continue;
    const g = byCollection.get(c.ref) ?? { collection: c, changes: [] };
    g.changes.push(r);
    byCollection.set(c.ref, g);
  }
  const out: Refill = { lines: new Map(), folded: new Set(), collections: new Set() };
  for (const { collection, changes } of byCollection.values()) {
    if (changes.length < REFILL_LIKE) continue;
    for (const r of changes) out.folded.add(r.b.ref);
    out.collections.add(collection.ref);
    out.lines.set(changes[0]!.b.ref, block(collection, changes, before, after, now));
  }
  return out;
}

/** One collection's block: its head line, then its changed items as they read now (or its grid's rows). */
function block(
  collection: SnapshotLine,
  changes: readonly Renamed[],
  before: readonly SnapshotLine[],
  after: readonly SnapshotLine[],
  now: ReadonlyMap<string, SnapshotLine>,
): string[] {
  const old = new Map(before.map((l) => [l.ref, l]));
  // Items in the order they show now; each once.
  // A sliced table's cells share their row's line: one item per row.
  const items = [
    ...new Map(
      changes.map((r) => itemOf(r.b, collection.ref, now)).map((i) => [i.row ? `\u0000${i.row.n}` : i.ref, i]),
    ).values(),
  ];
  const order = new Map(after.map((l, i) => [l.ref, i]));
  items.sort((x, y) => (order.get(x.ref) ?? 0) - (order.get(y.ref) ?? 0));
  const wordsNow = items.map((i) => itemWords(i, after));
  const wordsThen = items.map((i) => (old.has(i.ref) ? itemWords(old.get(i.ref)!, before) : ''));
  const sorted = (w: string[]): string => [...w].sort().join('\u0000');
  const how = items.length > 1 && sorted(wordsNow) === sorted(wordsThen) ? 're-sorted' : 're-filled';
  const count = `${changes.length} ${changes.every((r) => r.b.role === 'cell') ? 'cells' : 'elements'} changed`;
  const grid = now.get(collection.ref)?.grid?.(REFILL_GRID_TOKENS);
  if (grid) return [`~ ${label(collection)} ${how}: ${count}: ${grid.summary}`, ...grid.rows.map((r) => `~   ${r}`)];
  // Every item in its order when the collection has item elements (a row that kept its place is part of the
  // order: the top row after a sort may be one that did not change); else the changed ones.
  const all = itemsOf(collection.ref, after, now);
  const shown = all.length >= items.length ? all : items;
  const which = shown === all ? `its ${all.length} items` : 'the changed items';
  const head = `~ ${label(collection)} ${how}: ${count}; ${which} now read:`;
  const lines = shown
    .slice(0, REFILL_ROWS)
    .map((item) => `~   ${item.row?.text ?? `[${item.ref}] ${item.role}: ${itemWords(item, after)}`}`);
  const more = shown.length - REFILL_ROWS;
  if (more > 0) lines.push(`~   … ${more} more (computer_observe scope=${collection.ref} lists them)`);
  return [head, ...lines];
}
