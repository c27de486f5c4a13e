/**
 * `screen.capture` from the helper's `capture` op (helper/Capture.cs: PrintWindow, else BitBlt of the screen with
 * every other process's window over the target blacked out; scaled, marked and PNG-encoded in the helper). The
 * answer is checked here, never trusted to have the declared shape: the PNG must be one, of the size the geometry
 * says, and the digest is computed here from the bytes that are sent on.
 */
import { createHash } from 'node:crypto';
import { ComputerUseError } from '../../protocol/errors.js';
import { LIMITS, type CaptureResult, type Rect } from '../../protocol/methods.js';

/** What the helper's `capture` answers. */
export interface HelperCapture {
  png?: unknown;
  geometry?: { screen?: unknown; window?: unknown; width?: unknown; height?: unknown; scale?: unknown };
  marks?: unknown;
  covered?: unknown;
  outside?: unknown;
  method?: unknown;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const isRect = (v: unknown): v is Rect =>
  Array.isArray(v) && v.length === 4 && v.every((x) => Number.isInteger(x) && Math.abs(x as number) <= LIMITS.pixel);
const size = (v: unknown): number | undefined =>
  Number.isInteger(v) && (v as number) > 0 && (v as number) <= LIMITS.pixel ? (v as number) : undefined;
const bad = (what: string): ComputerUseError =>
  new ComputerUseError('internal', `the Windows helper's capture is malformed (${what}); nothing was captured`);

/** The protocol's capture result from the helper's answer, or `internal` when the answer is not a capture. */
export function toCapture(r: HelperCapture, ms: number): CaptureResult {
  if (typeof r.png !== 'string' || r.png.length > LIMITS.png || !/^[A-Za-z0-9+/]*={0,2}$/.test(r.png)) throw bad('png');
  const png = Buffer.from(r.png, 'base64');
  const g = r.geometry ?? {};
  const width = size(g.width);
  const height = size(g.height);
  if (!isRect(g.screen) || !isRect(g.window) || !width || !height) throw bad('geometry');
  if (typeof g.scale !== 'number' || !(g.scale > 0 && g.scale <= 16)) throw bad('scale');
  // The IHDR chunk right after the signature: its width and height are the image's.
  if (
    png.length < 33 ||
    !png.subarray(0, 8).equals(PNG_SIGNATURE) ||
    png.toString('latin1', 12, 16) !== 'IHDR' ||
    png.readUInt32BE(16) !== width ||
    png.readUInt32BE(20) !== height
  )
    throw bad('not a PNG of the size its geometry says');
  const marks: CaptureResult['marks'] = [];
  for (const m of Array.isArray(r.marks)
    ? (r.marks.slice(0, 1000) as { label?: unknown; box?: unknown; labelBox?: unknown }[])
    : []) {
    if (typeof m?.label === 'string' && m.label.length <= 16 && isRect(m.box) && isRect(m.labelBox))
      marks.push({ label: m.label, box: m.box, labelBox: m.labelBox });
  }
  const covered = Array.isArray(r.covered) ? r.covered.filter(isRect).slice(0, LIMITS.items) : [];
  return {
    png: r.png, geometry: { screen: g.screen, window: g.window, width, height, scale: g.scale }, marks,
    sha256: createHash('sha256').update(png).digest('hex'),
    ...(covered.length ? { covered } : {}), ...(r.outside === true ? { outside: true } : {}),
    ms,
  };
}
