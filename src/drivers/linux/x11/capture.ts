/**
 * A window capture that shows only the window (docs/policy.md, "Denied means unseen"): with the X server grabbed, so
 * nothing moves, maps or restacks meanwhile, the driver reads the real stacking order (the root's children,
 * menus and other override-redirect windows included, as pointer input's hit test does), proves which windows
 * over the target belong to the target's process (the server's client pid, never `_NET_WM_PID`, which a
 * client sets itself), reads the pixels with GetImage on its own connection, and ungrabs. The pixels of every
 * other window (and of whatever lies outside the target) are blacked out in memory before the PNG is made.
 */
import {
  blackOut,
  fullyCovered,
  nothingShownWhy,
  planCover,
  type CaptureLayer,
  type CoverPlan,
} from '../../../fallback/cover.js';
import { intersect } from '../../../fallback/geometry.js';
import { encodePngRgb } from '../../../fallback/png.js';
import { ComputerUseError } from '../../../protocol/errors.js';
import type { Rect } from '../../../protocol/methods.js';
import type { X11 } from './connection.js';
import type { XWindows } from './windows.js';

/** `map_state` of a window that is mapped and all of whose ancestors are mapped. */
const VIEWABLE = 2;
/** GetImage format: one pixel after another. */
const Z_PIXMAP = 2;

/** The window a capture is of: its X client window, and the proof of its process. */
export interface CaptureTarget {
  /** The X client window of the target (the window carrying WM_STATE). */
  window: number;
  /** True when a process id (the X server's client pid) is the target's process (pid and start time). */
  owns(pid: number | undefined): boolean;
}

/** A capture: the PNG of what the target shows, the rectangle captured, and what was blacked out. */
export interface WindowCapture { png: Buffer; rect: Rect; plan: CoverPlan }

interface DisplayFacts {
  screen: { pixel_width?: number; pixel_height?: number }[];
  image_byte_order?: number;
  format?: Record<number, { bits_per_pixel: number; scanline_pad: number }>;
}

/**
 * Captures the screen rectangle `rect` of the target window, with every pixel that is not the target's
 * blacked out. Fails with window_changed when the target is not on screen, and not_visible when other windows
 * cover all of it (nothing of the target would be shown).
 */
export async function captureWindow(windows: XWindows, target: CaptureTarget, rect: Rect): Promise<WindowCapture> {
  const x = windows.x;
  const facts = x.display as unknown as DisplayFacts;
  const r = intersect(rect, [0, 0, facts.screen[0]?.pixel_width ?? 0, facts.screen[0]?.pixel_height ?? 0]);
  if (!r)
    throw new ComputerUseError(
      'window_changed',
      'The window is off the screen (or minimized); nothing to capture. Bring it on screen and try again.',
    );
  const top = await windows.topLevelOf(target.window);
  x.send(x.client, 'GrabServer');
  let stack: CaptureLayer[];
  let image: { depth: number; data: Buffer };
  try {
    stack = await readStack(windows, top, target);
    image = await x.request<{ depth: number; data: Buffer }>(
      'GetImage',
      Z_PIXMAP,
      x.root,
      r[0],
      r[1],
      r[2],
      r[3],
      0xffffffff,
    );
  } finally {
    x.send(x.client, 'UngrabServer');
    await x.sync().catch(() => undefined);
  }
  const plan = planCover(stack, r);
  if (!plan) {
    throw new ComputerUseError(
      'window_changed',
      'The window is not on screen (minimized, closed, or not the window of its process any more); nothing ' +
        'was captured.',
      { remedy: ['list_windows', 'raise_window'] },
    );
  }
  if (fullyCovered(plan)) {
    throw new ComputerUseError('not_visible', nothingShownWhy(plan));
  }
  const rgb = toRgb(image, r[2], r[3], facts);
  blackOut(rgb, plan);
  return { png: encodePngRgb(rgb, r[2], r[3]), rect: r, plan };
}

/** The root's children bottom to top, each with its rectangle and whether it is the target's (inside the grab). */
async function readStack(windows: XWindows, top: number, target: CaptureTarget): Promise<CaptureLayer[]> {
  const x = windows.x;
  const tree = await x.request<{ children: number[] }>('QueryTree', x.root);
  const at = tree.children.indexOf(top);
  return Promise.all(tree.children.map(async (id, i): Promise<CaptureLayer> => {
    try {
      const [a, g] = await Promise.all([
        x.request<{ mapState: number }>('GetWindowAttributes', id),
        x.request<{ xPos: number; yPos: number; width: number; height: number; borderWidth: number }>(
          'GetGeometry',
          id,
        ),
      ]);
      const layer: CaptureLayer = {
        rect: [g.xPos, g.yPos, g.width + 2 * g.borderWidth, g.height + 2 * g.borderWidth],
        viewable: a.mapState === VIEWABLE,
        own: false,
      };
      // Below the target nothing shows through it; only the target and what lies above need a proof.
      if (at >= 0 && i >= at && layer.viewable)
        layer.own = target.owns(await windows.serverPidOf(await windows.clientOf(id)));
      if (i === at) layer.target = true;
      // The target's top-level window must still be its process's: else it shows nothing of the target.
      if (i === at && !layer.own) layer.viewable = false;
      return layer;
    } catch { return { rect: [0, 0, 0, 0], viewable: false, own: false }; /* gone meanwhile */ }
  }));
}

/** The GetImage pixels (ZPixmap, 24 or 32 bits per pixel, TrueColor) as tightly packed RGB. */
function toRgb(image: { depth: number; data: Buffer }, width: number, height: number, facts: DisplayFacts): Buffer {
  const fmt = facts.format?.[image.depth];
  const bpp = fmt?.bits_per_pixel ?? 32;
  if (bpp !== 32 && bpp !== 24)
    throw new ComputerUseError(
      'unsupported',
      `The screen has ${bpp} bits per pixel; captures need a 24-bit colour screen.`,
    );
  const bytes = bpp / 8;
  const pad = (fmt?.scanline_pad ?? 32) / 8;
  const stride = Math.ceil((width * bytes) / pad) * pad;
  if (image.data.length < stride * height)
    throw new ComputerUseError('action_failed', 'The X server returned a short image; try again.');
  // Byte order of the server's pixels: LSBFirst (0) stores blue first.
  const msb = facts.image_byte_order === 1;
  const out = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    let src = y * stride;
    let dst = y * width * 3;
    for (let i = 0; i < width; i++, src += bytes, dst += 3) {
      const d = image.data;
      if (msb) {
        out[dst] = d[src + bytes - 3]!;
        out[dst + 1] = d[src + bytes - 2]!;
        out[dst + 2] = d[src + bytes - 1]!;
      } else {
        out[dst] = d[src + 2]!;
        out[dst + 1] = d[src + 1]!;
        out[dst + 2] = d[src]!;
      }
    }
  }
  return out;
}

/** What a capture result says about its blackout (protocol `covered`, `outside`): facts, no words. */
export function coverFacts(plan: CoverPlan): { covered?: Rect[]; outside?: true } {
  return {
    ...(plan.covered.length ? { covered: plan.covered } : {}),
    ...(plan.outside > 0 ? { outside: true as const } : {}),
  };
}
