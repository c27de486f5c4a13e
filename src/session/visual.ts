/**
 * The visual rungs of the ladder: captures (`cN`) with the geometry recorded when they were taken (visual-table.ts),
 * OCR pseudo-elements (`oN`) bound to the capture they were read from, and pointer input bound to a window. A pixel
 * maps to the screen only through the recorded geometry; before anything is sent the driver re-checks that the window
 * has not moved or resized (window_changed), and every dispatch passes the policy
 * and returns receipt `unknown`: pixels cannot prove an effect.
 */
import type { WindowInfo } from '../engine/node.js';
import { centerOf } from '../fallback/ocr.js';
import { imageToScreen } from '../fallback/geometry.js';
import { ComputerUseError } from '../protocol/errors.js';
import type { PointerParams, Rect } from '../protocol/methods.js';
import type { CaptureRecord, OcrElement } from './visual-table.js';
import { pointerStep } from './steps.js';
import { collectEffects, openWindows, type Effects } from './effects.js';
import { perform, type PipelineContext } from './pipeline.js';
import type { Session, SettleOptions } from './session.js';

/** True for an OCR ref (`o12`). */
export const isOcrRef = (ref: string): boolean => /^(d\d+)?o\d+$/.test(ref);

/** The OCR element and its capture, or a stale_ref error that says what to do. */
export function resolveOcrRef(session: Session, ref: string): { element: OcrElement; capture: CaptureRecord } {
  const element = session.visual.ocr(ref);
  const capture = element ? session.visual.capture(element.capture) : undefined;
  if (!element || !capture) {
    throw new ComputerUseError(
      'stale_ref',
      `Ref ${ref} is not an element of the latest OCR capture of its window. Call computer_screenshot (mode ` +
        `"ocr") again.`,
    );
  }
  return { element, capture };
}

/** The capture a visual act names, or a stale_ref error. */
export function resolveCapture(session: Session, id: string): CaptureRecord {
  const rec = session.visual.capture(id);
  if (!rec)
    throw new ComputerUseError(
      'stale_ref',
      `Capture ${id} is unknown or was replaced by a newer capture of its window. Call computer_screenshot ` + `again.`,
    );
  return rec;
}

/** Maps a pixel of a capture's image to the screen, through the geometry recorded with it. */
export function capturePoint(rec: CaptureRecord, x: number, y: number): [number, number] {
  const p = imageToScreen(rec.geometry, x, y);
  if (!p)
    throw new ComputerUseError(
      'invalid_params',
      `The point ${x},${y} lies outside capture ${rec.id} (${rec.geometry.width}x${rec.geometry.height} ` +
        `pixels). Nothing was sent.`,
    );
  return p;
}

/** Screen point of an OCR element: its center. */
export const ocrPoint = (e: OcrElement): [number, number] => centerOf(e.bounds);

/** What a pointer dispatch needs. */
export interface PointerRequest {
  tool: 'computer_act' | 'computer_input';
  window: WindowInfo;
  action: PointerParams['action'];
  /** Screen pixels. */
  point: [number, number];
  to?: [number, number];
  direction?: PointerParams['direction'];
  amount?: number;
  /** The window bounds recorded with the capture the point came from: re-checked before dispatch. */
  expectBounds?: Rect;
  /** The OCR ref or capture the point came from, and the text there (untrusted; only adds caution). */
  ref?: string;
  name?: string;
}

/** The outcome of a pointer dispatch: always `unknown` once sent. */
export interface PointerOutcome { receipt: 'unknown'; detail: string; effects: Effects }

/**
 * Pointer input through the acting pipeline: decided before dispatch, completed after settling. The driver
 * re-checks the window (moved/resized → window_changed, point outside → invalid_params) before sending.
 */
export async function runPointer(
  session: Session,
  req: PointerRequest,
  settle?: Partial<SettleOptions>,
  ctx: PipelineContext = {},
): Promise<PointerOutcome> {
  // The window's title now, for the policy: a capture's window may show another tab (the panel) by now.
  const w = { ...req.window, title: (await session.current(req.window)).title };
  const params: PointerParams = {
    action: req.action,
    x: req.point[0],
    y: req.point[1],
    window: w.id,
    ...(req.to ? { to: req.to } : {}),
    ...(req.direction ? { direction: req.direction } : {}),
    ...(req.amount !== undefined ? { amount: req.amount } : {}),
    ...(req.expectBounds ? { expectBounds: req.expectBounds } : {}),
  };
  const action = pointerStep(w, {
    tool: req.tool,
    op: req.action,
    point: req.point,
    to: req.to,
    ocr: req.ref !== undefined && isOcrRef(req.ref),
    ref: req.ref,
    name: req.name,
  });
  const { result, settled } = await perform(session, ctx, {
    request: action,
    dispatch: async (d) => {
      const before = await openWindows(session);
      return { detail: (await d.call('input.pointer', params)).detail, before };
    },
    settle: async ({ before }) => collectEffects(session, w, before, { ...session.settleDefaults, ...(settle ?? {}) }),
    // Pixels cannot prove an effect.
    receipt: ({ detail }) => ({ status: 'unknown', detail }),
  });
  return { receipt: 'unknown', detail: result.detail, effects: settled };
}
