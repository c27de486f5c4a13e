/**
 * Pointer input on macOS, the last resort (docs/platforms.md, "macOS"): mouse and scroll-wheel CGEvents posted to the
 * target
 * process (CGEventPostToPid), so the user's own pointer and foreground app are not taken. Used only where no AX
 * action does the job (AXPress, AXOpen, AXScrollToVisible, AXIncrement/AXDecrement on a scroll bar) and for
 * `input.pointer`. Before anything is posted, the point must show the target window: the system-wide hit test
 * (AXUIElementCopyElementAtPosition) must land in that window of that process, else `window_changed` (a covering
 * window, a moved one) and nothing is sent. Not yet run on a Mac: whether an app acts on a click posted to it
 * while another app is in front is not measured (AppKit may only activate the window on the first click).
 */
import { ComputerUseError } from '../../protocol/errors.js';
import type { PointerParams } from '../../protocol/methods.js';
import { AX_ERROR, type CfScope } from './cf.js';
import type { CFRef, MacApi } from './ffi.js';
import { copyAttribute } from './read.js';

/**
 * Said in every receipt of pointer input: whether the app takes the focus from the user on a click posted to it is
 * not measured, and AppKit activates an app on a click, so the user is told it may.
 */
export const POINTER_FOCUS_NOTE =
  'pointer events posted to the app, which may take the focus and come to the front (AX actions do not)';

/** CGEventType values (CGEventTypes.h). */
const MOUSE = {
  leftDown: 1,
  leftUp: 2,
  rightDown: 3,
  rightUp: 4,
  moved: 5,
  leftDragged: 6,
  otherDown: 25,
  otherUp: 26,
} as const;
/** CGMouseButton. */
const BUTTON = { left: 0, right: 1, center: 2 } as const;
/** kCGMouseEventClickState (CGEventField). */
const CLICK_STATE = 1;
/** kCGScrollEventUnitLine. */
const SCROLL_LINE = 1;

/** One pointer event to post. */
export type PointerEvent =
  | { kind: 'mouse'; type: number; x: number; y: number; button: number; clicks: number }
  | { kind: 'scroll'; vertical: number; horizontal: number };

const press = (x: number, y: number, down: number, up: number, button: number, clicks: number): PointerEvent[] =>
  [{ kind: 'mouse', type: down, x, y, button, clicks }, { kind: 'mouse', type: up, x, y, button, clicks }];

/** The events of an `input.pointer` action (or a fallback op), in order. */
export function pointerEvents(
  p: Pick<PointerParams, 'action' | 'x' | 'y' | 'to' | 'direction' | 'amount'>,
): PointerEvent[] {
  const { x, y } = p;
  switch (p.action) {
    case 'move': return [{ kind: 'mouse', type: MOUSE.moved, x, y, button: BUTTON.left, clicks: 0 }];
    case 'click': return press(x, y, MOUSE.leftDown, MOUSE.leftUp, BUTTON.left, 1);
    // The second press carries click state 2: that, not the timing, is what AppKit reads as a double click.
    case 'double_click':
      return [
        ...press(x, y, MOUSE.leftDown, MOUSE.leftUp, BUTTON.left, 1),
        ...press(x, y, MOUSE.leftDown, MOUSE.leftUp, BUTTON.left, 2),
      ];
    case 'right_click': return press(x, y, MOUSE.rightDown, MOUSE.rightUp, BUTTON.right, 1);
    case 'middle_click': return press(x, y, MOUSE.otherDown, MOUSE.otherUp, BUTTON.center, 1);
    case 'drag': {
      if (!p.to) throw new ComputerUseError('invalid_params', 'drag needs `to`; nothing was sent');
      const [tx, ty] = p.to;
      const steps = 8;
      const moves: PointerEvent[] = [];
      for (let i = 1; i <= steps; i++)
        moves.push({
          kind: 'mouse',
          type: MOUSE.leftDragged,
          x: x + ((tx - x) * i) / steps,
          y: y + ((ty - y) * i) / steps,
          button: BUTTON.left,
          clicks: 1,
        });
      return [
        { kind: 'mouse', type: MOUSE.leftDown, x, y, button: BUTTON.left, clicks: 1 },
        ...moves,
        { kind: 'mouse', type: MOUSE.leftUp, x: tx, y: ty, button: BUTTON.left, clicks: 1 },
      ];
    }
    case 'scroll': {
      const n = p.amount ?? 3;
      // Wheel 1 is vertical, wheel 2 horizontal; positive moves the content down / right (towards its start).
      const d = p.direction ?? 'down';
      return [
        { kind: 'mouse', type: MOUSE.moved, x, y, button: BUTTON.left, clicks: 0 },
        {
          kind: 'scroll',
          vertical: d === 'up' ? n : d === 'down' ? -n : 0,
          horizontal: d === 'left' ? n : d === 'right' ? -n : 0,
        },
      ];
    }
    default:
      throw new ComputerUseError('invalid_params', `unknown pointer action ${String(p.action)}; nothing was sent`);
  }
}

/** Posts pointer events to one process; returns how many were sent. */
export function postPointer(api: MacApi, pid: number, events: readonly PointerEvent[], signal?: AbortSignal): number {
  let sent = 0;
  for (const ev of events) {
    if (signal?.aborted) break;
    const ref = ev.kind === 'mouse'
      ? api.CGEventCreateMouseEvent(null, ev.type, { x: ev.x, y: ev.y }, ev.button)
      : api.CGEventCreateScrollWheelEvent2(null, SCROLL_LINE, 2, ev.vertical, ev.horizontal, 0);
    if (!ref)
      throw new ComputerUseError(
        'input_unavailable',
        `creating a ${ev.kind} event failed; ${sent} events were sent before`,
      );
    try {
      if (ev.kind === 'mouse' && ev.clicks > 0) api.CGEventSetIntegerValueField(ref, CLICK_STATE, BigInt(ev.clicks));
      api.CGEventPostToPid(pid, ref);
    } finally { api.CFRelease(ref); }
    sent++;
  }
  return sent;
}

/**
 * Throws window_changed unless (x, y) shows `window` of `pid`: the element there (system-wide hit test) belongs
 * to that process and its AXWindow is that window.
 */
export function requireShows(s: CfScope, pid: number, window: CFRef, x: number, y: number): void {
  const api = s.api;
  const sys = s.own(api.AXUIElementCreateSystemWide());
  const out: [CFRef] = [null];
  const err = api.AXUIElementCopyElementAtPosition(sys, x, y, out);
  const hit = err === AX_ERROR.success ? s.own(out[0]) : null;
  const owner = new Int32Array(1);
  const mine = !!hit && api.AXUIElementGetPid(hit, owner) === AX_ERROR.success && owner[0] === pid;
  const w = mine && api.CFEqual(hit, window) === 0 ? copyAttribute(api, s, hit, 'AXWindow') : undefined;
  const inWindow =
    mine &&
    (api.CFEqual(hit, window) !== 0 ||
      (!!w && typeof w === 'object' && 'kind' in w && w.kind === 'element' && api.CFEqual(w.ref, window) !== 0));
  if (!inWindow)
    throw new ComputerUseError(
      'window_changed',
      `the point ${Math.round(x)},${Math.round(y)} does not show the target window now (another window covers ` +
        `it, or it moved); observe again. Nothing was sent.`,
    );
}

/** The centre of a [x, y, w, h] rectangle. */
export function centre(b: readonly number[]): { x: number; y: number } {
  return { x: (b[0] ?? 0) + (b[2] ?? 0) / 2, y: (b[1] ?? 0) + (b[3] ?? 0) / 2 };
}
