/**
 * What a capture may show, pure (docs/policy.md, "Denied means unseen"): the screen area of a window shows the
 * window only where nothing else lies on top. From the stacking order, every pixel of the capture that is not
 * the target's own (its frame, or a window proven to belong to its process above it) is blacked out before
 * the image reaches OCR or a model; a capture with nothing of the target left is refused by the caller.
 */
import type { Rect } from '../protocol/methods.js';
import { intersect } from './geometry.js';

/** One window of the screen's stacking order, as a capture needs it. */
export interface CaptureLayer {
  /** Its rectangle on screen, border and frame included. */
  rect: Rect;
  /** Mapped and viewable (an unmapped window shows nothing). */
  viewable: boolean;
  /** The target window itself (its top-level window, the frame around it). */
  target?: boolean;
  /** Proven to belong to the target's process (the server's client pid and its start time). */
  own: boolean;
}

/** Which pixels of a capture are blacked out, and why. */
export interface CoverPlan {
  /** The captured screen rectangle. */
  capture: Rect;
  /** One byte per pixel of the capture, row by row: 1 = blacked out. */
  mask: Uint8Array;
  /** Pixels blacked out. */
  black: number;
  /** The part of each other window over the target that the capture holds, in screen pixels (top first). */
  covered: Rect[];
  /** Pixels of the capture outside the target's own rectangle (what lies beside or under it), blacked out too. */
  outside: number;
}

/**
 * Plans the blackout of `capture` for a stack ordered bottom to top. Painted from the target up: the target's
 * rectangle is shown, then each viewable window above it is shown when it is the target's process and blacked
 * out when it is not. Undefined when the target is not in the stack or not viewable (minimized, closed).
 */
export function planCover(stack: readonly CaptureLayer[], capture: Rect): CoverPlan | undefined {
  const at = stack.findIndex((l) => l.target);
  const target = stack[at];
  if (!target?.viewable) return undefined;
  const [cx, cy, w, h] = capture;
  const mask = new Uint8Array(w * h).fill(1);
  const paint = (r: Rect, value: 0 | 1): void => {
    const part = intersect(r, capture);
    if (!part) return;
    for (let y = part[1] - cy; y < part[1] - cy + part[3]; y++)
      mask.fill(value, y * w + part[0] - cx, y * w + part[0] - cx + part[2]);
  };
  paint(target.rect, 0);
  let outside = 0;
  for (const v of mask) outside += v;
  const covered: Rect[] = [];
  for (const layer of stack.slice(at + 1)) {
    if (!layer.viewable) continue;
    paint(layer.rect, layer.own ? 0 : 1);
    const part = intersect(layer.rect, capture);
    if (!layer.own && part) covered.unshift(part);
  }
  let black = 0;
  for (const v of mask) black += v;
  return { capture, mask, black, covered, outside };
}

/** Blacks out the masked pixels of a tightly packed RGB image of the capture's size, in place. */
export function blackOut(rgb: Buffer, plan: CoverPlan): void {
  const { mask } = plan;
  for (let i = 0; i < mask.length; i++) if (mask[i]) rgb.fill(0, 3 * i, 3 * i + 3);
}

/** True when the plan leaves no pixel of the capture shown. */
export function fullyCovered(plan: CoverPlan): boolean {
  return plan.black >= plan.mask.length;
}

/** True when the screen point is blacked out in the plan (or lies outside the capture). */
export function blackAt(plan: CoverPlan, x: number, y: number): boolean {
  const [cx, cy, w, h] = plan.capture;
  const px = Math.floor(x) - cx;
  const py = Math.floor(y) - cy;
  return px < 0 || py < 0 || px >= w || py >= h || plan.mask[py * w + px] === 1;
}

/** The human-readable account of a blackout for a degraded result: "2 regions covered by other windows were blacked out". */
export function describeCover(covered: number, outside: boolean): string | undefined {
  const parts: string[] = [];
  if (covered)
    parts.push(
      `${covered} region${covered === 1 ? '' : 's'} covered by other windows ` +
        `${covered === 1 ? 'was' : 'were'} blacked out`,
    );
  if (outside) parts.push('the part outside the window was blacked out');
  return parts.length ? parts.join('; ') : undefined;
}

/**
 * Why a capture showed nothing of the window (fullyCovered), in words for its error: windows of other processes
 * over it, counted; or, with none over it, that its own rectangle on the display lies outside the one its app
 * reported (a window moved or resized meanwhile), never "0 windows cover it".
 */
export function nothingShownWhy(plan: CoverPlan): string {
  const n = plan.covered.length;
  if (n === 0) {
    return 'No other window covers it, but the display shows it outside the rectangle its app reports (it moved, or is ' +
      'being resized); nothing was captured. Observe the window again, then try again.';
  }
  return (
    `Other windows cover all of this window (` +
    `${n === 1 ? '1 window of another process lies' : `${n} windows of other processes lie`} ` +
    'over it); nothing was captured. Bring the window to the front (or ask the user to move what covers it), then try again.'
  );
}
