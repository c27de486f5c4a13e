/**
 * Scrolling a view by a page through its elements' own Component.ScrollTo, for views that show no scroll bar in the
 * tree (a web page: Chromium and Gecko expose none). The first element wholly past the view's edge in the
 * direction asked is scrolled to the opposite edge: "down" brings the element just below the view to its top. No key
 * is sent and no focus taken, so it works while another app holds the keyboard (a credential prompt's grab turned
 * Page Down into a window_not_focused refusal in a trial: e2e/security/keys-grab-denied.test.ts).
 */
import type { A11yBus, Target } from '../bus/bus.js';

const ACC = 'org.a11y.atspi.Accessible';
const COMP = 'org.a11y.atspi.Component';
/** AtspiScrollType: where ScrollTo puts the element in its view. */
const EDGE = { top: 2, bottom: 3, left: 4, right: 5 } as const;
/** Levels descended through an element that spans the view's edge (a page's wrapping divs). */
const MAX_DEPTH = 8;
/** Children read per level: a view with more is a long list, which has its own ways (scrollto.ts). */
const MAX_CHILDREN = 1000;

type Rect = [number, number, number, number];
/** A child and its place on screen. */
interface Placed { target: Target; rect: Rect }
type Direction = 'up' | 'down' | 'left' | 'right';

/**
 * Scrolls `view` one page `direction` by ScrollTo of the nearest element past that edge; the detail said, or
 * undefined when no element lies past the edge (nothing more that way, or a view whose children report no place).
 */
export async function scrollByElements(bus: A11yBus, view: Target, direction: Direction): Promise<string | undefined> {
  const box = await extents(bus, view);
  if (!box) return undefined;
  const vertical = direction === 'up' || direction === 'down';
  const forward = direction === 'down' || direction === 'right';
  // The view's edge the next page starts past, and where the element found goes.
  const edge = vertical ? (forward ? box[1] + box[3] : box[1]) : (forward ? box[0] + box[2] : box[0]);
  const start = (r: Rect): number => (vertical ? r[1] : r[0]);
  const end = (r: Rect): number => (vertical ? r[1] + r[3] : r[0] + r[2]);
  let node = view;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const kids = await placedChildren(bus, node);
    const past = kids.filter((k) => (forward ? start(k.rect) >= edge - 1 : end(k.rect) <= edge + 1));
    if (past.length > 0) {
      // The nearest one past the edge: the smallest start going forward, the largest end going back.
      const nearer = (a: Placed, b: Placed): Placed => (forward ? (start(b.rect) < start(a.rect) ? b : a)
        : (end(b.rect) > end(a.rect) ? b : a));
      const next = past.reduce(nearer);
      const to = vertical ? (forward ? EDGE.top : EDGE.bottom) : (forward ? EDGE.left : EDGE.right);
      await bus.call(next.target, COMP, 'ScrollTo', 'u', [to]);
      const side = vertical ? (forward ? 'bottom' : 'top') : (forward ? 'right' : 'left');
      return `Component.ScrollTo of the first element past the view's ${side} edge`;
    }
    // Nothing wholly past the edge here: go into the element that spans it (a wrapper around the page's content).
    const across = kids.find((k) => start(k.rect) < edge && end(k.rect) > edge);
    if (!across) return undefined;
    node = across.target;
  }
  return undefined;
}

/** The node's screen extents, undefined when it has none. */
async function extents(bus: A11yBus, t: Target): Promise<Rect | undefined> {
  const r = await bus.call(t, COMP, 'GetExtents', 'u', [0]).catch(() => undefined);
  const [x, y, w, h] = (r?.[0] ?? []) as number[];
  return x !== undefined && y !== undefined && w !== undefined && h !== undefined && w > 0 && h > 0
    ? [x, y, w, h]
    : undefined;
}

/** The children of a node that report a place on screen, with it (read together). */
async function placedChildren(bus: A11yBus, t: Target): Promise<Placed[]> {
  const [kids] = await bus.call(t, ACC, 'GetChildren').catch(() => [[]]);
  const targets = ((kids ?? []) as [string, string][]).slice(0, MAX_CHILDREN).map(([dest, path]) => ({ dest, path }));
  const placed = await Promise.all(targets.map(async (target) => ({ target, rect: await extents(bus, target) })));
  return placed.filter((p): p is Placed => p.rect !== undefined);
}
