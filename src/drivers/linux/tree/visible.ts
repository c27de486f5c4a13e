/**
 * The on-screen slice of a long list, tree or table. Rows of GTK3 TreeViews and ListBoxes,
 * and Thunar's file list, are laid out top to bottom in index order, so the first and last child on screen
 * are found by binary search on `GetChildAtIndex` + `Component.GetExtents` against the viewport: about
 * 2·log₂(N) probes, flat in N, and never a child list the app has to build whole.
 */
import type { RawNode } from '../../../protocol/nodes.js';
import { ATSPI_ROLES } from '../bus/atspi-constants.generated.js';
import type { A11yBus, Target } from '../bus/bus.js';
import { isGone } from '../bus/bus.js';

const ACC = 'org.a11y.atspi.Accessible';
const COMP = 'org.a11y.atspi.Component';
const TABLE = 'org.a11y.atspi.Table';
/** AT-SPI's null reference (GetChildAtIndex past the end). */
const NULL_PATH = '/org/a11y/atspi/null';
/** Ancestors whose extents clip a list (the scrolled window's viewport around a ListBox). */
const CLIP_ROLES = new Set(['scroll pane', 'viewport']);
/** How many ancestors are looked at for a clipping viewport. */
const CLIP_DEPTH = 3;
/**
 * A web page's scrolling viewport: the document (Chromium reports a long table at its full height, 15,000 px,
 * while the document web's extents are the part of the page on screen). It may sit many sections up.
 */
const WEB_VIEW_ROLE = 'document web';
/** How many ancestors are looked at for the web document around an element. */
const WEB_DEPTH = 16;
/** Roles above which no viewport is looked for. */
const TOP_ROLES = new Set(['frame', 'window', 'dialog', 'application']);

type Rect = [number, number, number, number];
interface Probe { t: Target | undefined; r: Rect | undefined }

/** A slice of a container's children: [start, end) of `count`. */
export interface ChildSlice { children: Target[]; start: number; end: number; count: number }

/** The child at `index`, or undefined past the end or when it vanished. */
export async function childAt(bus: A11yBus, t: Target, index: number): Promise<Target | undefined> {
  try {
    const [ref] = await bus.call(t, ACC, 'GetChildAtIndex', 'i', [index]);
    const r = ref as [string, string] | undefined;
    return r && r[1] !== NULL_PATH ? { dest: r[0], path: r[1] } : undefined;
  } catch (e) {
    if (isGone(e)) return undefined;
    throw e;
  }
}

/** Screen extents of an element, undefined when it has none. */
export async function extentsOf(bus: A11yBus, t: Target): Promise<Rect | undefined> {
  try {
    const [ext] = await bus.call(t, COMP, 'GetExtents', 'u', [0]);
    const [x, y, w, h] = ext as number[];
    return [x ?? 0, y ?? 0, w ?? 0, h ?? 0];
  } catch { return undefined; }
}

/** The part two rectangles share (no size when none). */
export function intersect(a: Rect, b: Rect): Rect {
  const x = Math.max(a[0], b[0]);
  const y = Math.max(a[1], b[1]);
  return [
    x,
    y,
    Math.max(0, Math.min(a[0] + a[2], b[0] + b[2]) - x),
    Math.max(0, Math.min(a[1] + a[3], b[1] + b[3]) - y),
  ];
}

/** Clipping ancestors found per container handle: their roles and parents do not change while both live. */
const clipChains = new Map<string, Target[]>();
/** Containers whose clipping ancestors are remembered (oldest dropped first). */
const MAX_CLIP_CHAINS = 64;

/**
 * The scroll panes and viewports among the first CLIP_DEPTH ancestors of `t`, and the web page's document when
 * one is within WEB_DEPTH (it ends the chain: what lies above it clips nothing more). Remembered per container.
 */
async function clipAncestors(bus: A11yBus, t: Target): Promise<Target[]> {
  const key = t.dest + t.path;
  const known = clipChains.get(key);
  if (known) return known;
  const chain: Target[] = [];
  let cur = t;
  for (let i = 0; i < WEB_DEPTH; i++) {
    const parent = await bus.getProp(cur, ACC, 'Parent').catch(() => undefined) as [string, string] | undefined;
    if (!parent || parent[1] === NULL_PATH || parent[1] === '/org/a11y/atspi/accessible/root') break;
    cur = { dest: parent[0], path: parent[1] };
    const [code] = await bus.call(cur, ACC, 'GetRole').catch(() => [undefined]);
    const role = ATSPI_ROLES[Number(code)] ?? '';
    if (TOP_ROLES.has(role)) break;
    if (role === WEB_VIEW_ROLE) { chain.push(cur); break; }
    if (i < CLIP_DEPTH && CLIP_ROLES.has(role)) chain.push(cur);
  }
  clipChains.set(key, chain);
  if (clipChains.size > MAX_CLIP_CHAINS) clipChains.delete(clipChains.keys().next().value!);
  return chain;
}

/**
 * The screen area where a container's children can be seen: its own extents clipped by the scroll panes and
 * viewports around it. A ListBox reports its whole height (20k rows: 500,000 px); its viewport does not.
 * `own` is the container's extents when the caller has read them already. All extents are read at once.
 */
export async function viewportOf(bus: A11yBus, t: Target, own?: Promise<Rect | undefined>): Promise<Rect | undefined> {
  const [self, clips] = await Promise.all([
    own ?? extentsOf(bus, t),
    clipAncestors(bus, t).then((c) => Promise.all(c.map((a) => extentsOf(bus, a)))),
  ]);
  let view = self;
  if (!view) return undefined;
  for (const ext of clips) {
    // GTK3 answers (INT_MIN, INT_MIN) for a viewport it considers not showing (after a scroll): no clip known.
    if (ext && ext[2] > 0 && ext[3] > 0 && ext[1] > -(2 ** 30)) view = intersect(unwrapped(view, ext), ext);
  }
  return view;
}

/**
 * `r` moved by the multiple of 65,536 px that makes it overlap `clip` vertically, when it is tall enough for X11's
 * 16-bit wrap to have moved it (a GTK ListBox of 20,000 rows scrolled 377,679 px reports y 15,557 under a view at
 * y 20); `r` itself otherwise. The rows keep their wrapped positions: sliceByOffset finds their shift.
 */
function unwrapped(r: Rect, clip: Rect): Rect {
  const overlaps = (y: number): boolean => y < clip[1] + clip[3] && y + r[3] > clip[1];
  if (r[3] < WRAP / 2 || overlaps(r[1])) return r;
  const k = Math.round((clip[1] - r[1]) / WRAP);
  for (const d of [k, k - 1, k + 1]) if (overlaps(r[1] + d * WRAP)) return [r[0], r[1] + d * WRAP, r[2], r[3]];
  return r;
}

/** The index in its parent of the child of `t` at a screen point, undefined when none is there. */
async function indexAtPoint(
  bus: A11yBus,
  t: Target,
  x: number,
  y: number,
): Promise<{ index: number; t: Target } | undefined> {
  try {
    const [ref] = await bus.call(t, COMP, 'GetAccessibleAtPoint', 'iiu', [Math.round(x), Math.round(y), 0]);
    const r = ref as [string, string] | undefined;
    if (!r || r[1] === NULL_PATH || (r[0] === t.dest && r[1] === t.path)) return undefined;
    const hit = { dest: r[0], path: r[1] };
    // A point over a grandchild names the grandchild in some toolkits: only direct children count.
    const [[index], parent] = await Promise.all([
      bus.call(hit, ACC, 'GetIndexInParent'),
      bus.getProp(hit, ACC, 'Parent') as Promise<[string, string] | undefined>,
    ]);
    if (!parent || parent[0] !== t.dest || parent[1] !== t.path) return undefined;
    return Number(index) >= 0 ? { index: Number(index), t: hit } : undefined;
  } catch { return undefined; }
}

/** How far down from the viewport's top the first row is looked for (column headers take the first pixels). */
const TOP_STEPS = [1, 12, 24, 36, 48, 64];

/**
 * The first and last child on screen by hit-testing the viewport's top and bottom edges at both sides (a
 * table's cells run left to right): a handful of calls whatever N is. Column headers answer no child at the
 * top of a GTK TreeView, so the top is probed a few steps lower until a row answers.
 */
async function sliceAtPoints(
  bus: A11yBus,
  t: Target,
  view: Rect,
  count: number,
): Promise<[number, number] | undefined> {
  const [x, y, w, h] = view;
  // Both sides, and a quarter in: Qt's row headers and the empty space right of its last column answer no child,
  // so a Qt table's slice was never found (its first 200 cells were read, whatever was on screen).
  const xs = [x + 2, x + w - 3, x + Math.round(w / 4)];
  const across = (py: number): Promise<({ index: number } | undefined)[]> =>
    Promise.all(xs.map((px) => indexAtPoint(bus, t, px, py)));
  const bottomHits = across(y + h - 2);
  // Every step at once (one round trip, not one per step); the first step from the top that hits a row wins.
  const steps = TOP_STEPS.filter((dy) => dy < h);
  const tops = await Promise.all(steps.map((dy) => across(y + dy)));
  let top: [number, number] | undefined;
  for (const pair of tops) {
    const found = pair.filter((p) => p !== undefined).map((p) => p!.index);
    if (found.length) { top = [Math.min(...found), Math.max(...found)]; break; }
  }
  const bottoms = await bottomHits;
  if (!top) return undefined;
  const lastHits = bottoms.filter((p) => p !== undefined).map((p) => p!.index);
  // Nothing at the bottom edge: the list ends above it.
  const lastHit = lastHits.length ? Math.max(...lastHits) : count - 1;
  // A table's hits may fall mid-row (a cell a quarter in): whole rows are read, from their first cell.
  const rows = await wholeRows(bus, t, top[0], lastHit, count);
  // At the top of a table the children before the first row are its column headers: show them too.
  const perRow = rows ? rows.perRow : top[1] - top[0] + 1;
  const start = rows ? rows.first : top[0];
  const first = start <= perRow ? 0 : start;
  const last = rows ? rows.last : lastHit;
  return last >= first ? [first, last] : undefined;
}

/**
 * The child indices from the first cell of `from`'s row (its row header included, when one precedes it: Qt's) to
 * the last cell of `to`'s row, through the Table interface; undefined for a container without it.
 */
async function wholeRows(
  bus: A11yBus,
  t: Target,
  from: number,
  to: number,
  count: number,
): Promise<{ first: number; last: number; perRow: number } | undefined> {
  try {
    // Only children that are cells: a web table's children are its rows, which GetColumnAtIndex does not take.
    const hit = await childAt(bus, t, from);
    const [hitRole] = hit ? await bus.call(hit, ACC, 'GetRole') : [undefined];
    if (ATSPI_ROLES[Number(hitRole)] !== 'table cell') return undefined;
    const [[c0], [c1], cols] = await Promise.all([
      bus.call(t, TABLE, 'GetColumnAtIndex', 'i', [from]),
      bus.call(t, TABLE, 'GetColumnAtIndex', 'i', [to]),
      bus.getProp(t, TABLE, 'NColumns'),
    ]);
    const [a, b, n] = [Number(c0), Number(c1), Number(cols)];
    if (!(a >= 0 && b >= 0 && n > 0 && a < n && b < n)) return undefined;
    let first = from - a;
    const before = first > 0 ? await childAt(bus, t, first - 1) : undefined;
    const [role] = before ? await bus.call(before, ACC, 'GetRole').catch(() => [undefined]) : [undefined];
    const header = ATSPI_ROLES[Number(role)] === 'table row header';
    if (header) first--;
    return { first, last: Math.min(count - 1, to + (n - 1 - b)), perRow: n + (header ? 1 : 0) };
  } catch { return undefined; }
}

/** True for a rectangle a toolkit really placed (GTK3 puts undrawn rows at INT_MIN, INT_MIN). */
function placed(r: Rect | undefined): r is Rect {
  return r !== undefined && r[1] > -(2 ** 30) && r[3] > 0;
}

/** The span of X11's 16-bit window coordinates. */
const WRAP = 65536;
/** Offsets tried around the estimated first row until one on screen answers. */
const NEAR = [0, 1, -1, 2, -2, 4, -4, 8, -8, 16, -16, 32, -32];

/**
 * The rows of a list that reports its full height inside a smaller viewport: the first row is estimated from
 * how far the view is scrolled into the list (rows of about equal height), confirmed by reading that row's
 * extents, and the rows on screen are then read in one concurrent batch. Calls are flat in N.
 */
async function sliceByOffset(
  bus: A11yBus,
  t: Target,
  own: Rect,
  view: Rect,
  count: number,
  max: number,
): Promise<ChildSlice | undefined> {
  const top = view[1];
  const bottom = view[1] + view[3];
  const rowH = own[3] / count;
  const probe = async (i: number): Promise<Probe> => {
    const c = await childAt(bus, t, i);
    return c ? { t: c, r: await extentsOf(bus, c) } : { t: undefined, r: undefined };
  };
  // X11 window positions are 16-bit: past 32,767 px of scrolling GTK reports the list (and its rows) shifted
  // by a multiple of 65,536 px. Each candidate shift is tried; the right one puts a drawn row where it says.
  const base = top - own[1];
  let shift: number | undefined;
  let anchor: number | undefined;
  // Every shift that puts the view inside the list is a candidate (one per 65,536 px of list height).
  const ks: number[] = [];
  for (let k = Math.ceil((-view[3] - base) / WRAP); base + k * WRAP <= own[3]; k++) ks.push(k);
  ks.sort((a, b) => Math.abs(a) - Math.abs(b));
  // First a few rows around each estimate (rows of equal height land there), then wider.
  for (const near of [NEAR.slice(0, 5), NEAR.slice(5)]) {
    for (const k of ks) {
      const offset = base + k * WRAP;
      const est = Math.min(count - 1, Math.max(0, Math.floor(offset / rowH)));
      for (const d of near) {
        const i = est + d;
        if (i < 0 || i >= count) continue;
        const { r } = await probe(i);
        if (placed(r) && r[1] - k * WRAP + r[3] > top && r[1] - k * WRAP < bottom) {
          anchor = i;
          shift = k * WRAP;
          break;
        }
      }
      if (anchor !== undefined) break;
    }
    if (anchor !== undefined) break;
  }
  if (anchor === undefined || shift === undefined) return undefined;
  const dy = shift;
  const onScreen = (r: Rect | undefined): boolean => placed(r) && r[1] - dy + r[3] > top && r[1] - dy < bottom;
  let start = anchor;
  while (start > 0 && anchor - start < max && onScreen((await probe(start - 1)).r)) start--;
  const perView = Math.ceil(view[3] / Math.max(1, rowH)) + 2;
  const rows: Probe[] = [];
  let next = start;
  // Batches of a screenful, until a row lies below the view (or the list or `max` ends).
  while (next < count && rows.length < max) {
    const n = Math.min(perView, count - next, max - rows.length);
    const batch = await Promise.all(Array.from({ length: n }, (_, k) => probe(next + k)));
    const cut = batch.findIndex((p) => !onScreen(p.r));
    rows.push(...(cut < 0 ? batch : batch.slice(0, cut)));
    if (cut >= 0) break;
    next += n;
  }
  const children = rows.map((p) => p.t).filter((c): c is Target => c !== undefined);
  return children.length ? { children, start, end: start + children.length, count } : undefined;
}

/**
 * The children of `t` (which reports` `count` of them) that lie in its viewport, at most `max`; undefined when
 * the geometry says nothing (no Component, nothing on screen, an unordered layout): the caller reads the
 * first ones instead.
 */
export async function visibleSlice(
  bus: A11yBus,
  t: Target,
  count: number,
  max: number,
): Promise<ChildSlice | undefined> {
  if (count <= 0) return undefined;
  const ownRead = extentsOf(bus, t);
  const [view, own] = await Promise.all([viewportOf(bus, t, ownRead), ownRead]);
  if (!view || view[3] <= 0) return undefined;
  // A list taller than its viewport (a ListBox in a scrolled window) reports its full height: where the view
  // sits in it tells the rows. Hit-testing such a list costs the app O(N) (GTK3 ListBox: 1.5 s at 5k rows).
  if (own && own[3] > view[3] * 1.5) return sliceByOffset(bus, t, own, view, count, max);
  const byPoint = await sliceAtPoints(bus, t, view, count);
  if (byPoint) {
    const [start, last] = byPoint;
    // More children on screen than can be read (a spreadsheet's cells run row by row across 16,384
    // columns): no slice of children is "what is on screen"; the caller reads the first ones.
    if (last + 1 - start > max) return undefined;
    const end = Math.min(last + 1, count);
    const kids = await Promise.all(Array.from({ length: end - start }, (_, k) => childAt(bus, t, start + k)));
    const children = kids.filter((c): c is Target => c !== undefined);
    return { children, start, end: start + children.length, count };
  }
  const top = view[1];
  const bottom = view[1] + view[3];
  const probes = new Map<number, Promise<Probe>>();
  const probe = (i: number): Promise<Probe> => {
    let p = probes.get(i);
    if (!p) {
      p = childAt(bus, t, i).then(async (c) =>
        c ? { t: c, r: await extentsOf(bus, c) } : { t: undefined, r: undefined },
      );
      probes.set(i, p);
    }
    return p;
  };
  // Smallest index whose row satisfies `pred`, assuming rows are ordered top to bottom.
  const lowest = async (pred: (r: Rect) => boolean): Promise<number | undefined> => {
    let lo = 0;
    let hi = count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const { r } = await probe(mid);
      // GTK3 places rows that are not drawn at (INT_MIN, INT_MIN): no order to search by.
      if (!r || r[1] <= -(2 ** 30)) return undefined;
      if (pred(r)) hi = mid; else lo = mid + 1;
    }
    return lo;
  };
  // Zero-height children (a hidden row) never count as on screen but do not break the order.
  const start = await lowest((r) => r[1] + r[3] > top);
  if (start === undefined || start >= count) return undefined;
  const endAll = await lowest((r) => r[1] >= bottom);
  if (endAll === undefined || endAll <= start) return undefined;
  const end = Math.min(endAll, start + max);
  const kids = await Promise.all(
    Array.from(
      { length: end - start },
      (_, k) => probes.get(start + k)?.then((p) => p.t) ?? childAt(bus, t, start + k),
    ),
  );
  const children = kids.filter((c): c is Target => c !== undefined);
  return { children, start, end: start + children.length, count };
}

/**
 * Whether each child of a slice read is still at the index it was read at. The rows of a slice are told by
 * counting cells from its first one, so one cell out of its slot mixes rows: lxtask re-sorts its process list
 * every few seconds, and a read that spans a re-sort (or a child gone between the index read and its facts) printed
 * one process's name beside another's PID. A child that cannot say its index (-1, no answer) is taken as placed.
 */
async function inTheirSlots(bus: A11yBus, kids: readonly RawNode[], start: number): Promise<boolean> {
  const at = await Promise.all(kids.map(async (k) => {
    const slash = k.id.indexOf('/');
    if (slash <= 0) return -1;
    const [i] = await bus.call({ dest: k.id.slice(0, slash), path: k.id.slice(slash) }, ACC, 'GetIndexInParent')
      .catch(() => [-1]);
    return Number(i);
  }));
  return at.every((i, k) => !(i >= 0) || i === start + k);
}

/**
 * Table facts for the slice read of a long table (a TreeView's cells are its children): its size, and the
 * row and column of the first and last cell read, so the snapshot can say "rows 1,492–1,520 of 5,000".
 * Facts already set (by the table reader) are kept.
 */
export async function sliceRows(bus: A11yBus, t: Target, node: RawNode): Promise<void> {
  const kids = node.children ?? [];
  // The first and last cell, not a column header (those sit in no row). A web table's children are rows, not
  // cells: GetRowAtIndex takes a cell's index, so a row's index in the table would read as some cell's place.
  const ends = [kids.find((k) => k.role !== 'columnheader' && k.role !== 'rowheader'), kids[kids.length - 1]]
    .filter((k): k is RawNode => k !== undefined && k.cell === undefined && k.role !== 'row');
  const rc = (i: number): Promise<[number, number]> => Promise.all([
    bus.call(t, TABLE, 'GetRowAtIndex', 'i', [i]).then((r) => Number(r[0])),
    bus.call(t, TABLE, 'GetColumnAtIndex', 'i', [i]).then((r) => Number(r[0])),
  ]);
  try {
    const start = node.childRange?.start ?? 0;
    const [size, placed, ...cells] = await Promise.all([
      node.table ? Promise.resolve(undefined) : bus.getAll(t, TABLE),
      ends.length ? inTheirSlots(bus, kids, start) : Promise.resolve(true),
      ...ends.map((k) => rc(start + kids.indexOf(k))),
    ]);
    if (size)
      node.table = { rows: Math.max(0, Number(size['NRows'] ?? 0)), cols: Math.max(0, Number(size['NColumns'] ?? 0)) };
    // A cell out of its slot would put its row's text beside another row's: no row and column said, the slice
    // prints one line per cell, each with its own text.
    if (!placed) return;
    ends.forEach((k, i) => {
      const c = cells[i] as [number, number] | undefined;
      // Column headers answer -1: they are in no row.
      if (c && c[0] >= 0 && c[1] >= 0) k.cell = { row: c[0], col: c[1] };
    });
  } catch { /* no Table facts: the range is said in children */ }
}
