/**
 * `screen.capture` on a phone: `screencap -p` of the screen while the target app is in front (checked before and
 * after, so an image of another app is never returned), the status bar blacked out (it is SystemUI's window over
 * the app, and its notification icons belong to other apps), scaled so its long edge fits. The PNG is decoded and
 * encoded here, on the computer, so nothing but adb is needed on either side. No Set-of-Mark labels are drawn.
 */
import { createHash } from 'node:crypto';
import { scaleToEdge } from '../../fallback/geometry.js';
import { decodePngRgb, encodePngRgb, scaleRgbDown } from '../../fallback/png.js';
import { ComputerUseError } from '../../protocol/errors.js';
import type { CaptureResult } from '../../protocol/methods.js';

/** Rows [0, top) of the image are the status bar: 24 dp. */
export function statusBarRows(density: number): number {
  return Math.round(24 * (density || 160) / 160);
}

/** An image of the screen, the status bar blacked out and scaled down to `maxEdge`. */
export function screenImage(png: Buffer, density: number, maxEdge: number): Omit<CaptureResult, 'ms'> {
  let img;
  try { img = decodePngRgb(png); } catch (e) {
    throw new ComputerUseError(
      'action_failed',
      `screencap gave no image this driver can read (${(e as Error).message}); nothing was captured`,
    );
  }
  const { width: w, height: h } = img;
  const top = Math.min(h, statusBarRows(density));
  img.rgb.fill(0, 0, top * w * 3);
  const s = scaleToEdge(w, h, maxEdge);
  const out = encodePngRgb(scaleRgbDown(img, s.width, s.height).rgb, s.width, s.height);
  return {
    png: out.toString('base64'), sha256: createHash('sha256').update(out).digest('hex'), marks: [],
    geometry: { screen: [0, 0, w, h], window: [0, 0, w, h], width: s.width, height: s.height, scale: s.scale },
    ...(top > 0 ? { covered: [[0, 0, w, top] as [number, number, number, number]] } : {}),
  };
}
