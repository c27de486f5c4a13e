/**
 * Whether a point of an element is on screen when its toolkit does not say (GTK 4.8 sets `showing` on windows
 * only): a row scrolled out of its list keeps bounds outside the list's viewport, inside the window, where a pointer
 * click would hit another element of the same app. The point must lie inside every ancestor that has a size.
 */
import type { A11yBus, Target } from '../bus/bus.js';

const ACC = 'org.a11y.atspi.Accessible';
const COMP = 'org.a11y.atspi.Component';
/** Ancestors read at most (a row sits a dozen levels below its window in GTK 4's nesting). */
const MAX_LEVELS = 24;

/** True when `[x, y]` lies inside the extents of each ancestor of `t` that has a size, up to its window. */
export async function insideAncestors(bus: A11yBus, t: Target, [x, y]: [number, number]): Promise<boolean> {
  let cur = t;
  for (let level = 0; level < MAX_LEVELS; level++) {
    const parent = await bus.getProp(cur, ACC, 'Parent').catch(() => undefined) as [string, string] | undefined;
    if (!parent || !parent[1] || parent[1] === '/org/a11y/atspi/null' || parent[1].endsWith('/accessible/root'))
      return true;
    cur = { dest: parent[0], path: parent[1] };
    const ext = await bus.call(cur, COMP, 'GetExtents', 'u', [0]).then((r) => r[0] as number[], () => undefined);
    const [ax = 0, ay = 0, w = 0, h = 0] = ext ?? [];
    if (w <= 0 || h <= 0) continue;
    if (x < ax || y < ay || x >= ax + w || y >= ay + h) return false;
  }
  return true;
}

/** What the offset needs of the keyboard side: the X window of an AT-SPI window. */
export interface XWindowLookup {
  xWindowOf(w: {
    pid: number;
    title: string;
    bounds?: [number, number, number, number];
  }): Promise<{ rect: [number, number, number, number] } | undefined>;
}

/**
 * What to add to an element's extents to get screen coordinates. GTK 4.8 reports every extent relative to its
 * window (each window reads at 0,0), so a pointer click at a row's reported centre hit another window; its X
 * window (same process, title and size) says where the window is, its margin (client-side shadows) split evenly.
 * [0, 0] when the window reports a place of its own, or no X window matches.
 */
export async function screenOffset(
  xw: XWindowLookup,
  top: { name: string; bounds?: [number, number, number, number] } | undefined,
  pid: number,
): Promise<[number, number]> {
  const b = top?.bounds;
  if (!top || !b || b[0] !== 0 || b[1] !== 0 || b[2] <= 0 || b[3] <= 0) return [0, 0];
  const x = await xw.xWindowOf({ pid, title: top.name, bounds: b }).catch(() => undefined);
  if (!x) return [0, 0];
  const [rx, ry, rw, rh] = x.rect;
  return [rx + Math.max(0, Math.round((rw - b[2]) / 2)), ry + Math.max(0, Math.round((rh - b[3]) / 2))];
}
