/**
 * `screen.capture` on macOS: an image of one window by its CGWindowID, encoded as PNG by ImageIO
 * (CGImageDestination, scaled down to maxEdge by kCGImageDestinationImageMaxPixelSize). The pixels come from
 * `screencapture -l <id>` first, the system's own tool, which reads them through ScreenCaptureKit on the macOS
 * versions that have it (a ScreenCaptureKit call of our own needs Objective-C blocks and a dispatch queue, which
 * koffi cannot serve on the JS thread); CGWindowListCreateImage, obsoleted in the macOS 15 SDK but still exported,
 * is the fallback when the tool is missing or fails. The result's `detail` says which ran. The image is composed of
 * that window alone, so no other app's pixels are
 * in it whatever lies on top (nothing to black out). AX knows no CGWindowID: a window handle carries the CG window
 * of its process with the same frame and, where CG shows titles (Screen Recording granted), the same title, only
 * when exactly one matches; at capture the window number must still belong to that process with that frame.
 * Set-of-Mark labels are not drawn by this driver (marks come back empty).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ComputerUseError } from '../../protocol/errors.js';
import type { CaptureResult, Rect } from '../../protocol/methods.js';
import { arrayItems, readValue, withScope, type CfScope } from './cf.js';
import type { CFRef, MacApi } from './ffi.js';

/** kCGWindowListOptionIncludingWindow. */
const INCLUDING_WINDOW = 8;
/** kCGWindowImageBoundsIgnoreFraming | kCGWindowImageShouldBeOpaque: the window without its shadow. */
const IMAGE_OPTIONS = 1 | 2;
/** CGRectNull: the window's own bounds. */
const RECT_NULL = { x: Infinity, y: Infinity, w: 0, h: 0 };
/** The system's window capture tool (ScreenCaptureKit inside, where macOS has it). */
export const SCREENCAPTURE = '/usr/sbin/screencapture';
/** Longest a capture by the tool may take. */
const TOOL_TIMEOUT_MS = 10_000;
/** Largest PNG the tool may hand back (a 6K window at 2x is well under it). */
const TOOL_MAX_BYTES = 200 * 1024 * 1024;

/** Where macOS asks for Screen Recording. */
export const SCREEN_RECORDING_FIX = 'System Settings › Privacy & Security › Screen Recording';

/** One CG window as the window list shows it. */
export interface CgWindow { number: number; pid: number; layer: number; bounds?: Rect; name?: string }

function numberIn(api: MacApi, d: CFRef, key: CFRef): number | undefined {
  const v = readValue(api, api.CFDictionaryGetValue(d, key));
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** The CG windows (all on screen, or only `number`), read from CGWindowListCopyWindowInfo. */
export function cgWindows(s: CfScope, number?: number): CgWindow[] {
  const api = s.api;
  const list = s.own(api.CGWindowListCopyWindowInfo(number === undefined ? 1 | 16 : INCLUDING_WINDOW, number ?? 0));
  if (!list) return [];
  const k = {
    pid: s.string('kCGWindowOwnerPID'),
    layer: s.string('kCGWindowLayer'),
    number: s.string('kCGWindowNumber'),
    bounds: s.string('kCGWindowBounds'),
    name: s.string('kCGWindowName'),
    x: s.string('X'),
    y: s.string('Y'),
    w: s.string('Width'),
    h: s.string('Height'),
  };
  const out: CgWindow[] = [];
  for (const d of arrayItems(api, list)) {
    const [n, pid, layer] = [numberIn(api, d, k.number), numberIn(api, d, k.pid), numberIn(api, d, k.layer)];
    if (n === undefined || pid === undefined) continue;
    const w: CgWindow = { number: n, pid, layer: layer ?? 0 };
    const b = api.CFDictionaryGetValue(d, k.bounds);
    if (b) {
      const r = [numberIn(api, b, k.x), numberIn(api, b, k.y), numberIn(api, b, k.w), numberIn(api, b, k.h)];
      if (r.every((v) => v !== undefined)) w.bounds = r as Rect;
    }
    const name = readValue(api, api.CFDictionaryGetValue(d, k.name), 1000);
    if (typeof name === 'string') w.name = name;
    out.push(w);
  }
  return out;
}

const sameFrame = (a: Rect | undefined, b: Rect | undefined): boolean =>
  !!a && !!b && a.every((v, i) => Math.round(v) === Math.round(b[i] ?? NaN));

/**
 * The CGWindowID of each AX window of one process (same index), where exactly one layer-0 CG window of that
 * pid has its frame (and its title, when CG shows one) and no other AX window of the process matches it too.
 */
export function windowNumbers(
  cg: readonly CgWindow[],
  pid: number,
  ax: readonly { bounds?: Rect; title: string }[],
): (number | undefined)[] {
  const mine = cg.filter((w) => w.pid === pid && w.layer === 0);
  const candidates = ax.map((a) =>
    mine.filter((w) => sameFrame(w.bounds, a.bounds) && (w.name === undefined || w.name === a.title)),
  );
  return candidates.map((c) => {
    const only = c.length === 1 ? c[0] : undefined;
    if (!only) return undefined;
    return candidates.filter((other) => other.includes(only)).length === 1 ? only.number : undefined;
  });
}

/** Width and height from a PNG's IHDR. */
function pngSize(png: Buffer): [number, number] | undefined {
  if (png.length < 24 || png.readUInt32BE(0) !== 0x89504e47 || png.toString('latin1', 12, 16) !== 'IHDR')
    return undefined;
  return [png.readUInt32BE(16), png.readUInt32BE(20)];
}

/**
 * The PNG `screencapture -l number -o -x` writes (no shadow, no sound), read from a private folder and removed,
 * or why not. The window number is the only argument that varies, and it is a number.
 */
export function toolCapture(tool: string, number: number): { png?: Buffer; why?: string } {
  if (!Number.isInteger(number) || number <= 0) return { why: 'no window number' };
  const dir = mkdtempSync(join(tmpdir(), 'cu-capture-'));
  try {
    const file = join(dir, 'window.png');
    const argv = ['-l', String(number), '-o', '-x', '-t', 'png', file];
    execFileSync(tool, argv, { stdio: 'pipe', timeout: TOOL_TIMEOUT_MS, maxBuffer: 65_536 });
    const png = readFileSync(file);
    if (png.length > TOOL_MAX_BYTES || !pngSize(png)) return { why: 'it wrote no readable PNG' };
    return { png };
  } catch (e) {
    const err = e as { code?: string; status?: number };
    if (err.code === 'ENOENT') return { why: 'it is not there' };
    return { why: `it failed (${err.status !== undefined ? `exit ${err.status}` : err.code ?? 'error'})` };
  } finally { rmSync(dir, { recursive: true, force: true }); }
}

/**
 * The window `number` of `pid` as a PNG, its frame re-proven against `frame` (the AX frame read now); the pixels
 * from `tool` (screencapture) when given and it works, else from CGWindowListCreateImage.
 */
export function captureWindow(api: MacApi, pid: number, number: number, frame: Rect, maxEdge: number,
  tool?: string): Omit<CaptureResult, 'ms'> {
  if (!(frame[2] > 0 && frame[3] > 0))
    throw new ComputerUseError(
      'window_changed',
      'the window has no area to capture; list the windows again. Nothing was captured.',
    );
  if (!api.CGPreflightScreenCaptureAccess()) {
    throw new ComputerUseError(
      'permission_denied',
      `macOS does not allow this process to record the screen: turn it on in ${SCREEN_RECORDING_FIX}, then ` +
        `restart it. Nothing was captured.`,
      { pane: SCREEN_RECORDING_FIX },
    );
  }
  return withScope(api, (s) => {
    const now = cgWindows(s, number).find((w) => w.number === number);
    if (!now || now.pid !== pid || !sameFrame(now.bounds, frame)) {
      throw new ComputerUseError(
        'window_changed',
        'the window is not where it was listed (moved, resized or closed); list the windows again. Nothing ' +
          'was captured.',
      );
    }
    const shot = tool ? toolCapture(tool, number) : { why: 'not used' };
    let image: CFRef = null;
    let how = '';
    if (shot.png) {
      const bytes = s.own(api.CFDataCreate(null, new Uint8Array(shot.png), shot.png.length));
      const source = bytes ? s.own(api.CGImageSourceCreateWithData(bytes, null)) : null;
      image = source ? s.own(api.CGImageSourceCreateImageAtIndex(source, 0, null)) : null;
      how = image ? 'screencapture -l (ScreenCaptureKit where macOS has it)' : '';
      if (!image) shot.why = 'ImageIO could not read its PNG';
    }
    if (!image) {
      image = s.own(api.CGWindowListCreateImage(RECT_NULL, INCLUDING_WINDOW, number, IMAGE_OPTIONS));
      how = `CGWindowListCreateImage (screencapture: ${shot.why ?? 'unused'})`;
    }
    if (!image)
      throw new ComputerUseError(
        'action_failed',
        'macOS returned no image of the window (minimized, on another Space, or not shown); raise it and try ' +
          'again',
      );
    const data = s.own(api.CFDataCreateMutable(null, 0));
    const dest = s.own(api.CGImageDestinationCreateWithData(data, s.string('public.png'), 1, null));
    if (!dest) throw new ComputerUseError('action_failed', 'ImageIO could not make a PNG destination');
    const edge = Math.max(api.CGImageGetWidth(image), api.CGImageGetHeight(image));
    let props: CFRef = null;
    if (edge > maxEdge) {
      props = s.own(
        api.CFDictionaryCreate(
          null,
          [api.kCGImageDestinationImageMaxPixelSize],
          [s.number(maxEdge)],
          1,
          api.kCFTypeDictionaryKeyCallBacks,
          api.kCFTypeDictionaryValueCallBacks,
        ),
      );
    }
    api.CGImageDestinationAddImage(dest, image, props);
    if (!api.CGImageDestinationFinalize(dest))
      throw new ComputerUseError('action_failed', 'ImageIO could not encode the window image as PNG');
    const len = api.CFDataGetLength(data);
    const bytes = new Uint8Array(len);
    if (len > 0) api.CFDataGetBytes(data, { location: 0, length: len }, bytes);
    const png = Buffer.from(bytes);
    const size = pngSize(png);
    if (!size || !size[0] || !size[1]) throw new ComputerUseError('action_failed', 'ImageIO wrote no readable PNG');
    const [width, height] = size;
    return {
      png: png.toString('base64'), sha256: createHash('sha256').update(png).digest('hex'), marks: [], detail: how,
      geometry: { screen: frame, window: frame, width, height, scale: Math.min(16, width / frame[2]) },
    };
  });
}
