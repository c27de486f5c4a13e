/**
 * Find in what a scrolled area holds out of view. Toolkits clear "showing" on the parts of a scroll pane that are
 * scrolled away (GTK3 and Qt widgets in a scrolled viewport, a web page's elements off screen); the snapshot leaves
 * them out, and a driver may read such a part as one hidden node without its children. A find of an address in a
 * mail composer's header answered "0 matches" while the address sat in a row scrolled out of view. Here those parts
 * are searched (their subtrees read, bounded) and each match says where it is and the scroll that shows it; what
 * was not searched is counted and said, never a silent 0.
 */
import { quoteText } from '../engine/escape.js';
import { walk, type RawNode } from '../engine/node.js';
import { redactTree } from '../engine/redact.js';
import type { SnapshotLine } from '../engine/snapshot.js';
import type { SnapshotResult } from '../protocol/methods.js';
import type { Session } from '../session/session.js';

/** Scrolled-out parts whose subtree one find reads at most (each one read is a call to the app). */
const MAX_READS = 8;
/** Nodes one such read takes at most. */
const MAX_NODES_PER_READ = 300;
/** Scrolled-out parts one find looks at at most (their own name and value, read already). */
const MAX_PARTS = 200;
/** Roles that scroll what they hold: a scroll pane or viewport, a web page. */
const SCROLLING = new Set<RawNode['role']>(['scrollarea', 'document']);

/** What a find over the scrolled-out parts of a window gives: lines to print and how many matches they hold. */
export interface OutOfView { lines: string[]; found: number }

/** A match: the node, its part, the tree read for the part, its ancestors' ids (nearest first), its index. */
interface Hit { n: RawNode; p: Part; tree: RawNode; parents: string[]; index: number }

/** A part of a scrolled area that is out of view, with the area and the nearest element the model can name. */
interface Part {
  node: RawNode;
  area: RawNode;
  anchor: SnapshotLine | undefined;
  parents: string[];
  /** The menu, not open, that holds the part (a menu bar's menu in a scrolled tool area): opened, not scrolled to. */
  menu?: RawNode;
}

/** Matches of `text` in the parts of scrolled areas that are out of view, with the scroll that brings each in. */
export async function outOfViewMatches(
  session: Session,
  raw: SnapshotResult,
  elements: readonly SnapshotLine[],
  text: string,
  limit: number,
  signal?: AbortSignal,
): Promise<OutOfView> {
  const byId = linesById(session, elements);
  const parts = scrolledOutParts(raw.root, byId);
  if (parts.length === 0) return { lines: [], found: 0 };
  const unread = parts.filter((p) => (p.node.childCount ?? 0) > (p.node.children?.length ?? 0));
  // What a scroll shows is read before the items of closed menus (Calc's menu bar sits in a scrolled tool area).
  const toRead = [...unread.filter((p) => !p.menu), ...unread.filter((p) => p.menu)].slice(0, MAX_READS);
  const read = new Map<RawNode, RawNode>();
  await Promise.all(toRead.map(async (p) => {
    if (signal?.aborted) return;
    const r = await session
      .readPart(raw, { scope: p.node.id, maxNodes: MAX_NODES_PER_READ, bounds: true }, signal)
      .catch(() => undefined);
    if (r) read.set(p.node, r.root);
  }));
  const needle = text.toLowerCase();
  const hits: Hit[] = [];
  for (const p of parts) {
    // Matched as the snapshot would print it: a secret-looking value is masked, never an oracle for a guess.
    const tree = redactTree(read.get(p.node) ?? p.node);
    walk(tree, (n, anc) => {
      if (!holds(n, needle)) return undefined;
      const index = anc.length ? (anc[anc.length - 1]!.children ?? []).indexOf(n) : 0;
      hits.push({ n, p, tree, parents: [...anc.map((a) => a.id).reverse(), ...p.parents], index });
      return undefined;
    });
  }
  // Items of menus that are not open come after what a scroll shows: a find of Save listed a closed File menu's items.
  hits.sort((a, b) => Number(a.p.menu !== undefined) - Number(b.p.menu !== undefined));
  // Where each shown match lies against its area's view, when the subtree read gave its rectangle (GTK gives
  // none for a widget scrolled out): the area's rectangle, read once per area.
  const views = new Map<RawNode, Rect | undefined>();
  for (const h of hits.slice(0, limit)) if (h.n.bounds && !views.has(h.p.area)) views.set(h.p.area, h.p.area.bounds);
  await Promise.all([...views].filter(([, r]) => r === undefined).slice(0, MAX_READS).map(async ([area]) => {
    const r = await session.readPart(raw, { scope: area.id, depth: 0, bounds: true }, signal).catch(() => undefined);
    views.set(area, r?.root.bounds);
  }));
  const lines = hits.slice(0, limit).map((h) =>
    matchLine(session.refs.adopt(raw.window, h.n, h.parents, h.index), h, views.get(h.p.area), byId));
  const left = unread.filter((p) => !read.has(p.node));
  const skipped = left.filter((p) => !p.menu).length;
  if (skipped > 0) {
    lines.push(
      `(${skipped} more part${skipped === 1 ? '' : 's'} of scrolled areas out of view ` +
      `${skipped === 1 ? 'was' : 'were'} not searched: ` +
        'scroll the area (computer_act op=scroll value="down" on an element in it) and find again)',
    );
  }
  // A closed menu's items are not a scroll away: opening the menu shows them.
  const menus = new Set(left.flatMap((p) => (p.menu ? [p.menu.id] : []))).size;
  if (menus > 0)
    lines.push(
      `(the items of ${menus} closed menu${menus === 1 ? '' : 's'} ${menus === 1 ? 'was' : 'were'} not searched: ` +
        'open one (computer_act op=click) and find again)',
    );
  return { lines, found: hits.length };
}

function linesById(session: Session, elements: readonly SnapshotLine[]): Map<string, SnapshotLine> {
  const byId = new Map<string, SnapshotLine>();
  for (const l of elements) {
    const id = session.refs.lookup(l.ref)?.id;
    if (id !== undefined) byId.set(id, l);
  }
  return byId;
}

/** The hidden nodes of a raw tree that sit in a scrolling area (outermost ones: a hidden node's subtree is its own). */
function scrolledOutParts(root: RawNode, byId: Map<string, SnapshotLine>): Part[] {
  const parts: Part[] = [];
  walk(root, (n, anc) => {
    if (parts.length >= MAX_PARTS) return 'skip';
    if (!n.states.includes('offscreen') || byId.has(n.id)) return undefined;
    const at = findLastIndex(anc, (a) => SCROLLING.has(a.role));
    if (at < 0) return 'skip'; // hidden for another reason (a closed page or menu): not something a scroll shows
    const area = anc[at]!;
    const menu = [...anc.slice(at + 1), n].find((a) => a.role === 'menu' && !a.states.includes('expanded'));
    parts.push({
      node: n,
      area,
      anchor: anchorIn(area, byId) ?? nearestNamed(anc, byId),
      parents: anc.map((a) => a.id).reverse(),
      ...(menu ? { menu } : {}),
    });
    return 'skip';
  });
  return parts;
}

function findLastIndex<T>(xs: readonly T[], f: (x: T) => boolean): number {
  for (let i = xs.length - 1; i >= 0; i--) if (f(xs[i]!)) return i;
  return -1;
}

/** The area's own line, else the first element in view inside it (a scroll there moves the area). */
function anchorIn(area: RawNode, byId: Map<string, SnapshotLine>): SnapshotLine | undefined {
  let found: SnapshotLine | undefined;
  walk(area, (n) => {
    if (found) return 'skip';
    if (n.states.includes('offscreen') || n.states.includes('invisible')) return 'skip';
    found = byId.get(n.id);
    return undefined;
  });
  return found;
}

/** The nearest ancestor the snapshot has a line for. */
function nearestNamed(anc: readonly RawNode[], byId: Map<string, SnapshotLine>): SnapshotLine | undefined {
  for (let i = anc.length - 1; i >= 0; i--) {
    const l = byId.get(anc[i]!.id);
    if (l) return l;
  }
  return undefined;
}

/** Whether a node's own text (name, value, description) holds the needle; a password field's value never counts. */
function holds(n: RawNode, needle: string): boolean {
  const own = [n.name, n.description, n.states.includes('password') ? undefined : n.value];
  return own.some((t) => t !== undefined && t.toLowerCase().includes(needle));
}

/**
 * `[e7] textbox value="alice@…" — out of view in a scrolled area (above the part shown); bring it into view: …`.
 * An act on the ref scrolls it in (scroll into_view); the area's scroll is the way when it cannot.
 */
function matchLine(ref: string, h: Hit, view: Rect | undefined, byId: Map<string, SnapshotLine>): string {
  const { n, p } = h;
  const name = n.name ? ` ${quoteText(n.name.slice(0, 80))}` : '';
  const value = n.value && !n.states.includes('password') ? ` value=${quoteText(n.value.slice(0, 80))}` : '';
  if (p.menu) {
    // A scroll does not show an item of a closed menu: opening its menu does.
    const m = byId.get(p.menu.id);
    const menu = m ? `menu [${m.ref}]${m.name ? ` ${quoteText(m.name.slice(0, 80))}` : ''}` : 'a menu';
    const open = m ? `open it first (computer_act ref=${m.ref} op=click)` : 'open that menu first';
    return `[${ref}] ${n.role}${name}${value} — in ${menu}, which is not open; ${open}, then act on it`;
  }
  const where = direction(n.bounds, view);
  const own = byId.get(p.area.id);
  const area = own ? `${own.role} [${own.ref}]` : 'a scrolled area';
  const scroll = where && p.anchor ? ` (or computer_act ref=${p.anchor.ref} op=scroll value="${where.scroll}")` : '';
  return (
    `[${ref}] ${n.role}${name}${value} — out of view in ${area}${where ? ` (${where.side} the part shown)` : ''}; ` +
    `bring it into view: computer_act ref=${ref} op=scroll value="into_view"${scroll}, then act on it`
  );
}

type Rect = [number, number, number, number];

/** Which side of the area's view a part lies on, and the scroll that brings it in; undefined when unknown. */
function direction(r: Rect | undefined, view: Rect | undefined): { side: string; scroll: string } | undefined {
  if (!r || !view || view[2] <= 0 || view[3] <= 0) return undefined;
  const [x, y, w, h] = r;
  if (y + h <= view[1]) return { side: 'above', scroll: 'up' };
  if (y >= view[1] + view[3]) return { side: 'below', scroll: 'down' };
  if (x + w <= view[0]) return { side: 'left of', scroll: 'left' };
  if (x >= view[0] + view[2]) return { side: 'right of', scroll: 'right' };
  return undefined;
}
