/**
 * Screen rectangles `[x, y, width, height]` compared the way a user sees them: what shares area, what sits in
 * one row, what lies inside what. Used where the tree's order or nesting does not say what the screen shows
 * (pane order, a label beside its field, a button filling the control around it).
 */

/** A screen rectangle [x, y, width, height]. */
export type Rect = readonly [number, number, number, number];

/** True when the spans [a, a+al) and [b, b+bl) share a part. */
export function spansMeet(a: number, al: number, b: number, bl: number): boolean {
  return a < b + bl && b < a + al;
}

/** True when two rectangles share area. */
export function overlap(a: Rect, b: Rect): boolean {
  return spansMeet(a[0], a[2], b[0], b[2]) && spansMeet(a[1], a[3], b[1], b[3]);
}

/** True when a rectangle has no area (GTK reports hidden widgets as 0x0 or -1x-1). */
export function empty(r: Rect): boolean {
  return r[2] <= 0 || r[3] <= 0;
}

/** Pixels a toolkit's rounding may put an inner rectangle past its outer one. */
const SLACK = 2;
/** A padding any control may have around what fills it, whatever its size (a 34 px icon button pads its 24 px button by 5). */
const PADDING_PX = 10;

/**
 * True when `inner` is the whole of `outer` but for its padding: it lies inside, and no side leaves more than
 * PADDING_PX or a quarter of the control's size on that axis. GNOME Calculator 43 (GTK 4.8) pads its mode button's
 * 94x24 button by 9 and 5 px in 112x34, its 24x24 menu button by 5 px in 34x34; one of two buttons side by side
 * leaves the other's width free.
 */
export function fills(outer: Rect, inner: Rect): boolean {
  if (empty(outer) || empty(inner)) return false;
  const gaps = [
    inner[0] - outer[0],
    outer[0] + outer[2] - inner[0] - inner[2],
    inner[1] - outer[1],
    outer[1] + outer[3] - inner[1] - inner[3],
  ];
  return gaps.every((g, i) => g >= -SLACK && g <= Math.max(PADDING_PX, (i < 2 ? outer[2] : outer[3]) / 4));
}
