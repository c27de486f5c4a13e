/**
 * Lists that show a window onto a larger set: a virtualized web list or grid keeps only the rows in view in the
 * page and says how many there are (aria-rowcount or aria-setsize on the container, aria-rowindex or aria-posinset
 * on each row: AT-SPI object attributes `rowcount`, `setsize`, `rowindex`, `posinset`). A 5,000-message list read
 * as "31 rows" and "there is no row 4321" before this. Here: what the set says of itself (bounded, lies dropped),
 * the tree marked with it, and scrolling such a list to row N or by an amount through `Component.ScrollToPoint`
 * on a row it holds (the page scrolls by any distance in one call: measured on Chromium and Firefox), verified by
 * re-reading the positions of what shows.
 */
import type { RawNode } from '../../../protocol/nodes.js';
import type { ActResult } from '../../../protocol/methods.js';
import { ComputerUseError } from '../../../protocol/errors.js';
import type { A11yBus, Target } from '../bus/bus.js';
import { handleOf, MAX_CHILDREN, type ElementInfo } from './reader.js';
import { extentsOf, viewportOf } from './visible.js';

const ACC = 'org.a11y.atspi.Accessible';
const COMP = 'org.a11y.atspi.Component';
/** Native roles of containers whose items may be a window onto a larger set. */
const SET_ROLES = new Set(['table', 'tree table', 'list box', 'list', 'tree']);
/** The largest set size believed (a 32-bit row count): a bigger claim is no size at all. */
export const MAX_SET_SIZE = 2 ** 31 - 1;
/** Scroll rounds toward a row before giving up (each corrects by what the last one showed). */
const MAX_ROUNDS = 5;
/** How long the rows are watched for after a scroll (the page re-renders on its next frame). */
const SETTLE_MS = 800;
/** How many times rows without a place on screen are asked again (100 ms apart). */
const PLACE_TRIES = 10;
/** How long rows that say no position yet (replaced while read) are read again. */
const UNSETTLED_MS = 3000;
/** The largest single move in pixels (ScrollToPoint takes 32-bit coordinates). */
const MAX_MOVE = 2 ** 30;

type Rect = [number, number, number, number];

/** What a container and its rows say of the set: its size, and each row's 1-based position (undefined: none). */
export interface SetFacts {
  size: number;
  positions: (number | undefined)[];
  /** True when the positions were worked out from the rows' places in a full-height container (Chromium). */
  estimated?: boolean;
}

/** A whole number from an attribute, undefined when it is none (absent, a fraction, "-1" for unknown). */
function wholeOf(v: unknown): number | undefined {
  if (typeof v !== 'string' || !/^\s*\d{1,12}\s*$/.test(v)) return undefined;
  return Number(v);
}

async function attributes(bus: A11yBus, t: Target): Promise<Record<string, string>> {
  const [a] = await bus.call(t, ACC, 'GetAttributes').catch(() => [{}]);
  return (a ?? {}) as Record<string, string>;
}

/** Whether a native role may hold a window onto a larger set. */
export function maySetRole(atspiRole: string): boolean { return SET_ROLES.has(atspiRole); }

/**
 * What the set says, from the container and its `rows` (read at once); undefined when it says no size, a size
 * beyond MAX_SET_SIZE, or no more than the rows it holds (then it is an ordinary list).
 */
export async function setFacts(
  bus: A11yBus,
  container: Target,
  rows: readonly Target[],
): Promise<SetFacts | undefined> {
  if (rows.length === 0) return undefined;
  // The container and its first row first: an ordinary list (most of them) costs two calls, not one per row.
  const [own, head] = await Promise.all([attributes(bus, container), attributes(bus, rows[0] as Target)]);
  const size = wholeOf(own['rowcount']) ?? wholeOf(own['setsize']) ?? wholeOf(head['setsize']);
  if (size === undefined || size < 1 || size > MAX_SET_SIZE || size <= rows.length) return undefined;
  const each = [head, ...await Promise.all(rows.slice(1, MAX_CHILDREN).map((r) => attributes(bus, r)))];
  // A position outside 1..size is a lie and says nothing (a negative or absurd aria-posinset).
  const positions = each.map((a) => {
    // A row index that is no number is a lie, not an absence: Gecko's own posinset (the row's place among the rows
    // in the page) must not stand in for it.
    const p = 'rowindex' in a ? wholeOf(a['rowindex']) : wholeOf(a['posinset']);
    return p !== undefined && p >= 1 && p <= size ? p : undefined;
  });
  if (positions.some((p) => p !== undefined)) return { size, positions };
  const estimated = await positionsByPlace(bus, container, rows, size);
  return estimated ? { size, positions: estimated, estimated: true } : { size, positions };
}

/**
 * Rows' positions from their places, for a page that states the set's size but not the rows' indexes (Chromium
 * exposes aria-rowcount, not aria-rowindex): only when the container is as tall as the whole set at the rows'
 * even spacing (a full-height list that places each row at its offset), else none.
 */
async function positionsByPlace(
  bus: A11yBus,
  container: Target,
  rows: readonly Target[],
  size: number,
): Promise<number[] | undefined> {
  if (rows.length < 2) return undefined;
  const [box, ...rects] = await Promise.all([extentsOf(bus, container), ...rows.map((r) => extentsOf(bus, r))]);
  if (!box || rects.some((r) => !r)) return undefined;
  const tops = (rects as Rect[]).map((r) => r[1]);
  const gaps = tops.slice(1).map((t, i) => t - (tops[i] as number));
  const step = [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length / 2)] ?? 0;
  if (step <= 0 || gaps.some((g) => Math.abs(g - step) > 1)) return undefined;
  if (Math.abs(box[3] - size * step) > Math.max(step, box[3] * 0.02)) return undefined;
  const positions = tops.map((t) => Math.round((t - box[1]) / step) + 1);
  return positions.every((p) => p >= 1 && p <= size) ? positions : undefined;
}

/**
 * Marks a read container that is a window onto a larger set: `setSize` on it, `posInSet` on each row; a table's
 * size and its cells' rows count in the whole set; a list's read children become the slice [first, last] of it
 * when their positions follow each other (so the snapshot says "rows 4,289–4,319 of 5,000").
 */
export async function annotateSet(bus: A11yBus, info: ElementInfo, node: RawNode): Promise<void> {
  if (!maySetRole(info.atspiRole) || !node.children?.length) return;
  const kids = node.children;
  const byId = new Map(info.children.map((t) => [handleOf(t), t]));
  const targets = kids.map((k) => byId.get(k.id)).filter((t): t is Target => t !== undefined);
  if (targets.length !== kids.length) return;
  const facts = await setFacts(bus, info.target, targets);
  if (!facts) return;
  node.setSize = facts.size;
  // Rows that say no position keep their places as read: which rows of the set show is then unknown.
  if (facts.positions.every((p) => p === undefined)) return;
  kids.forEach((k, i) => {
    const p = facts.positions[i];
    if (p === undefined) return;
    k.posInSet = p;
    for (const c of k.children ?? []) if (c.cell) c.cell = { ...c.cell, row: p - 1 };
  });
  if (node.table) { node.table = { ...node.table, rows: facts.size }; return; }
  const first = facts.positions[0];
  const follow = first !== undefined && facts.positions.every((p, i) => p === first + i);
  if (follow) { node.childCount = facts.size; node.childRange = { start: first - 1, end: first - 1 + kids.length }; }
}

/** The container's rows now (its children, up to MAX_CHILDREN), with what the set says of them. */
async function rowsNow(bus: A11yBus, t: Target): Promise<{ rows: Target[]; facts: SetFacts | undefined }> {
  const [kids] = await bus.call(t, ACC, 'GetChildren').catch(() => [[]]);
  const rows = ((kids ?? []) as [string, string][]).slice(0, MAX_CHILDREN).map(([dest, path]) => ({ dest, path }));
  return { rows, facts: await setFacts(bus, t, rows) };
}

/** The first and last position shown, for messages. */
function span(f: SetFacts): string {
  const known = f.positions.filter((p): p is number => p !== undefined);
  if (!known.length) return 'rows of unknown position';
  return `rows ${Math.min(...known).toLocaleString('en-US')}–${Math.max(...known).toLocaleString('en-US')}`;
}

/** A row with a known position and its extents, plus the spacing of the rows (their height with gaps). */
async function anchorOf(
  bus: A11yBus,
  rows: readonly Target[],
  f: SetFacts,
): Promise<{ t: Target; pos: number; rect: Rect; step: number } | undefined> {
  const known = rows
    .map((t, i) => ({ t, pos: f.positions[i] }))
    .filter((r): r is { t: Target; pos: number } => r.pos !== undefined);
  const first = known[0];
  const last = known[known.length - 1];
  if (!first || !last) return undefined;
  const [a, b] = await placedPair(bus, first.t, last.t);
  if (!a || !b) return undefined;
  const step = last.pos > first.pos ? (b[1] - a[1]) / (last.pos - first.pos) : a[3];
  return step > 0 ? { t: first.t, pos: first.pos, rect: a, step } : undefined;
}

/**
 * The extents of two rows, asked again for a while when they come back as Gecko's "no place" (−1, −1, −1, −1):
 * Firefox's content process answers so until it has sent the parent its bounds (measured: the first asks after
 * a page opened in a test, whatever the wait before them).
 */
async function placedPair(bus: A11yBus, a: Target, b: Target): Promise<[Rect | undefined, Rect | undefined]> {
  const placed = (r: Rect | undefined): boolean => r !== undefined && r[2] > 0 && r[3] > 0;
  for (let i = 0; ; i++) {
    const pair = await Promise.all([extentsOf(bus, a), extentsOf(bus, b)]);
    if ((placed(pair[0]) && placed(pair[1])) || i >= PLACE_TRIES)
      return placed(pair[0]) && placed(pair[1]) ? pair : [undefined, undefined];
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Moves the list's content up by `dy` pixels (down the list when positive), by placing a row it holds. */
async function moveBy(bus: A11yBus, anchor: { t: Target; rect: Rect }, dy: number): Promise<void> {
  const d = Math.max(-MAX_MOVE, Math.min(MAX_MOVE, Math.round(dy)));
  await bus.call(anchor.t, COMP, 'ScrollToPoint', 'uii', [
    0 /* screen coordinates */,
    anchor.rect[0],
    anchor.rect[1] - d,
  ]);
}

/** Waits until the rows shown differ from `before` (their positions), up to SETTLE_MS. */
async function afterMove(
  bus: A11yBus,
  t: Target,
  before: SetFacts,
): Promise<{ rows: Target[]; facts: SetFacts | undefined }> {
  const start = performance.now();
  let last = '';
  for (;;) {
    const now = await rowsNow(bus, t);
    // Rows replaced while they were read say nothing yet (their attributes come back empty), or mix old and new:
    // a read counts once the next one reads the same.
    const key = now.facts?.positions.join() ?? '';
    const settled = now.facts !== undefined && now.facts.positions.some((p) => p !== undefined) && key === last;
    last = key;
    const waited = performance.now() - start;
    if ((settled && key !== before.positions.join()) || (settled && waited >= SETTLE_MS) || waited >= UNSETTLED_MS)
      return now;
    await new Promise((r) => setTimeout(r, 40));
  }
}

/**
 * Scrolls a virtualized list to its row `n` (1-based): undefined when the container says no set size (the caller
 * scrolls it as an ordinary list). Each round places a row it holds so that row `n` comes into view by the rows'
 * spacing, then reads back which rows show; done when row `n` is among them and on screen.
 */
export async function scrollSetTo(
  bus: A11yBus,
  info: ElementInfo,
  n: number,
  signal?: AbortSignal,
): Promise<ActResult | undefined> {
  if (!maySetRole(info.atspiRole)) return undefined;
  let { rows, facts } = await rowsNow(bus, info.target);
  if (!facts) return undefined;
  if (!(n >= 1 && n <= facts.size)) {
    throw new ComputerUseError(
      'invalid_params',
      `There is no row ${n}: the ${info.atspiRole} says it has ${facts.size.toLocaleString('en-US')} rows.`,
    );
  }
  for (let round = 0; round <= MAX_ROUNDS && !signal?.aborted; round++) {
    const i = facts.positions.indexOf(n);
    const row = i >= 0 ? rows[i] : undefined;
    if (row) {
      await bus.call(row, COMP, 'ScrollTo', 'u', [6 /* ATSPI_SCROLL_ANYWHERE */]).catch(() => undefined);
      return {
        method: 'pattern',
        detail:
          `Component.ScrollToPoint: row ${n.toLocaleString('en-US')} of ${facts.size.toLocaleString('en-US')} ` +
          `shows (${span(facts)})`,
      };
    }
    if (round === MAX_ROUNDS) break;
    const anchor = await anchorOf(bus, rows, facts);
    // Rows read while the page replaced them may have no extents any more: read them again.
    if (!anchor && round > 0) {
      await new Promise((r) => setTimeout(r, 100));
      ({ rows, facts } = await rowsNow(bus, info.target));
      if (!facts) break;
      continue;
    }
    if (!anchor) {
      throw new ComputerUseError(
        'action_failed',
        `The ${info.atspiRole} says it has ${facts.size.toLocaleString('en-US')} rows but not which ones it ` +
          `shows ` +
          '(no row position), so row N cannot be found by its number: scroll it by an amount (value "down 10 pages") and read the rows.',
      );
    }
    // Row n lands a few rows below the view's top, so the rows around it show too.
    await moveBy(bus, anchor, (n - anchor.pos - 3) * anchor.step);
    const before = facts;
    ({ rows, facts } = await afterMove(bus, info.target, before));
    if (!facts) break;
    if (facts.positions.join() === before.positions.join()) {
      throw new ComputerUseError(
        'action_failed',
        `The ${info.atspiRole} did not scroll past ${span(facts)}, so row ${n.toLocaleString('en-US')} did ` +
          `not come ` +
          `into view: it says it has ${facts.size.toLocaleString('en-US')} rows, but may hold fewer.`,
      );
    }
  }
  throw new ComputerUseError(
    'action_failed',
    `Row ${n.toLocaleString('en-US')} did not come into view after ${MAX_ROUNDS} scrolls` +
      `${facts ? `; the ${info.atspiRole} shows ${span(facts)} of ${facts.size.toLocaleString('en-US')}` : ''}.`,
  );
}

/**
 * Scrolls a virtualized list by `count` pages (the view's height less a row) or rows, up or down: undefined when
 * it says no set size. Says which rows show before and after.
 */
export async function scrollSetBy(
  bus: A11yBus,
  info: ElementInfo,
  down: boolean,
  count: number,
  unit: 'page' | 'row',
): Promise<ActResult | undefined> {
  if (!maySetRole(info.atspiRole)) return undefined;
  const { rows, facts } = await rowsNow(bus, info.target);
  if (!facts) return undefined;
  const anchor = await anchorOf(bus, rows, facts);
  if (!anchor) return undefined;
  // A page is what shows: the view's height, or the rows held when fewer (a list inside a taller page).
  const view = await viewportOf(bus, info.target);
  const page = Math.max(anchor.step, Math.min(view?.[3] ?? Infinity, rows.length * anchor.step) - anchor.step);
  await moveBy(bus, anchor, (down ? 1 : -1) * count * (unit === 'page' ? page : anchor.step));
  const now = await afterMove(bus, info.target, facts);
  const after = now.facts ? span(now.facts) : 'rows of unknown position';
  return {
    method: 'pattern',
    detail:
      `Component.ScrollToPoint ${down ? 'down' : 'up'} ${count} ${unit}${count === 1 ? '' : 's'}: ` +
      `${span(facts)} → ${after} of ${facts.size.toLocaleString('en-US')}`,
  };
}
