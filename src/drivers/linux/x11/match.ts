/**
 * Pure decisions on recorded X window facts: which X window an AT-SPI window is (by process first, then
 * bounds, then title; never by title alone), and which window is on top at a screen point.
 */
import type { Rect } from '../../../protocol/methods.js';

/** What the driver knows about one top-level X client window. */
export interface XWindowFacts {
  id: number;
  /** `_NET_WM_PID` (or the X-Resource client pid). */
  pid?: number;
  /** `_NET_WM_NAME` / `WM_NAME`. */
  title?: string;
  /** The client area in root coordinates. */
  rect: Rect;
  /** The frame with decorations (`_NET_FRAME_EXTENTS`), when the window manager reports it. */
  frame?: Rect;
}

/** An AT-SPI window as the driver reports it. */
export interface AtspiWindowRef { pid: number; title: string; bounds?: Rect }

/** Sum of the differences of two rectangles' edges. */
function distance(a: Rect, b: Rect): number {
  return Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]) + Math.abs(a[3] - b[3]);
}

/** Bounds within this many pixels in total count as the same window (toolkits round differently). */
const SAME_BOUNDS = 16;

/**
 * The X window of an AT-SPI window: among client windows of the same process, the one whose client area or
 * frame matches the bounds, then the one with the same title, then the closest. Undefined when no window of
 * that process exists: a window of another process is never taken for it, whatever its title.
 */
export function matchWindow(target: AtspiWindowRef, candidates: readonly XWindowFacts[]): XWindowFacts | undefined {
  const same = candidates.filter((c) => c.pid === target.pid);
  if (same.length <= 1) return same[0];
  const scored = same.map((c, order) => {
    const d = target.bounds
      ? Math.min(distance(c.rect, target.bounds), c.frame ? distance(c.frame, target.bounds) : Infinity)
      : Infinity;
    return { c, order, near: d <= SAME_BOUNDS ? 1 : 0, title: c.title === target.title ? 1 : 0, d };
  });
  // Last resort: the higher in the stacking order (the list is bottom to top).
  scored.sort((a, b) => b.near - a.near || b.title - a.title || a.d - b.d || b.order - a.order);
  return scored[0]?.c;
}

/**
 * The title a window is reported and checked by: its accessible name, else (empty or blank, as kcalc's Qt window
 * reports it: `window ""`) the title the window manager shows for its X window.
 */
export function titleOf(accessibleName: string, xTitle: string | undefined): string {
  return accessibleName.trim() === '' && xTitle ? xTitle : accessibleName;
}

/** One window of the root's stacking order, as far as hit testing needs it. */
export interface StackedWindow {
  id: number;
  /** Its rectangle on screen (a frame with its decorations). */
  rect: Rect;
  /** Mapped and viewable. */
  viewable: boolean;
  /** The process owning what is shown there (the client inside a frame), when known. */
  pid?: number;
}

/** True when the point lies inside the rectangle. */
export function contains(r: Rect, x: number, y: number): boolean {
  return x >= r[0] && y >= r[1] && x < r[0] + r[2] && y < r[1] + r[3];
}

/** The topmost viewable window containing the point; `stack` is ordered bottom to top (QueryTree order). */
export function topmostAt(stack: readonly StackedWindow[], x: number, y: number): StackedWindow | undefined {
  for (let i = stack.length - 1; i >= 0; i--) {
    const w = stack[i]!;
    if (w.viewable && contains(w.rect, x, y)) return w;
  }
  return undefined;
}
