/**
 * Capture geometry, pure: how much an image is scaled, and how an image pixel maps back to the screen. A
 * visual act uses only the geometry recorded with its capture (seed 003): the model names a pixel of the image
 * it saw, never a scale or a screen coordinate.
 */
import type { CaptureGeometry, Rect } from '../protocol/methods.js';

/** The long edge of an image sent to a model. */
export const MAX_IMAGE_EDGE = 1280;

/** Scale (≤ 1) that brings the long edge of w×h down to `maxEdge`, and the resulting size. */
export function scaleToEdge(
  w: number,
  h: number,
  maxEdge: number = MAX_IMAGE_EDGE,
): { scale: number; width: number; height: number } {
  const long = Math.max(w, h);
  const scale = long > maxEdge ? maxEdge / long : 1;
  return { scale, width: Math.max(1, Math.round(w * scale)), height: Math.max(1, Math.round(h * scale)) };
}

/** Maps a screen rectangle into image pixels. */
export function screenToImage(g: CaptureGeometry, r: Rect): Rect {
  return [
    Math.round((r[0] - g.screen[0]) * g.scale),
    Math.round((r[1] - g.screen[1]) * g.scale),
    Math.round(r[2] * g.scale),
    Math.round(r[3] * g.scale),
  ];
}

/** Maps an image pixel to the screen pixel it shows; undefined when the point lies outside the image. */
export function imageToScreen(g: CaptureGeometry, x: number, y: number): [number, number] | undefined {
  if (!Number.isFinite(x) || !Number.isFinite(y) || x < 0 || y < 0 || x >= g.width || y >= g.height) return undefined;
  return [Math.round(g.screen[0] + (x + 0.5) / g.scale - 0.5), Math.round(g.screen[1] + (y + 0.5) / g.scale - 0.5)];
}

/** True when a point lies inside a rectangle. */
export function inside(r: Rect, x: number, y: number): boolean {
  return x >= r[0] && y >= r[1] && x < r[0] + r[2] && y < r[1] + r[3];
}

/** True when two rectangles are the same. */
export function sameRect(a: Rect | undefined, b: Rect | undefined): boolean {
  return a !== undefined && b !== undefined && a.every((v, i) => v === b[i]);
}

/** The part of `r` inside `clip`, or undefined when they do not overlap. */
export function intersect(r: Rect, clip: Rect): Rect | undefined {
  const x = Math.max(r[0], clip[0]);
  const y = Math.max(r[1], clip[1]);
  const x2 = Math.min(r[0] + r[2], clip[0] + clip[2]);
  const y2 = Math.min(r[1] + r[3], clip[1] + clip[3]);
  return x2 > x && y2 > y ? [x, y, x2 - x, y2 - y] : undefined;
}
