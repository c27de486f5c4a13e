/**
 * A PNG writer for 8-bit RGB pixels, so a capture read over the X protocol (GetImage) is blacked out and
 * encoded in the driver's own memory: no pixel of a covered region ever reaches another program.
 */
import { deflateSync, inflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let crcTable: Uint32Array | undefined;
function crc32(parts: readonly Buffer[]): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (const p of parts) for (const b of p) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32([head.subarray(4), data]), 0);
  return Buffer.concat([head, data, crc]);
}

/** Encodes tightly packed RGB rows (3 bytes per pixel) as a PNG. */
export function encodePngRgb(rgb: Buffer, width: number, height: number): Buffer {
  if (rgb.length !== width * height * 3)
    throw new RangeError(`encodePngRgb: ${rgb.length} bytes for ${width}x${height}`);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  // Every row with filter 0 (none): UI pixels compress well enough as they are.
  const stride = width * 3;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) rgb.copy(raw, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 6 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Decoded pixels: tightly packed RGB rows (3 bytes per pixel). */
export interface RgbImage { rgb: Buffer; width: number; height: number }

/** The largest image decoded (pixels): a 4K phone screen is 8.3 M; anything beyond is not a screen. */
const MAX_DECODE_PIXELS = 40_000_000;

/** Paeth's predictor (PNG filter type 4). */
function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a); const pb = Math.abs(p - b); const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/**
 * Decodes an 8-bit RGB or RGBA, non-interlaced PNG (what a phone's `screencap -p` writes) into RGB, alpha
 * dropped. Anything else (palette, 16-bit, interlaced, a cut or oversized file) throws a RangeError saying what.
 */
export function decodePngRgb(png: Buffer): RgbImage {
  if (png.length < 33 || !png.subarray(0, 8).equals(SIGNATURE)) throw new RangeError('not a PNG file');
  let offset = 8;
  let width = 0; let height = 0; let channels = 0;
  const idat: Buffer[] = [];
  while (offset + 8 <= png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    if (data.length !== length) throw new RangeError(`PNG chunk ${type} is cut short`);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0); height = data.readUInt32BE(4);
      const [depth, colour, , , interlace] = [data[8], data[9], data[10], data[11], data[12]];
      if (depth !== 8 || (colour !== 2 && colour !== 6) || interlace !== 0) {
        throw new RangeError(
          `PNG of bit depth ${depth}, colour type ${colour}, interlace ${interlace}: only 8-bit RGB or RGBA, ` +
            `not interlaced`,
        );
      }
      channels = colour === 6 ? 4 : 3;
      if (width === 0 || height === 0 || width * height > MAX_DECODE_PIXELS)
        throw new RangeError(`PNG of ${width}×${height} pixels is not a screen`);
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    offset += 12 + length;
  }
  if (!channels) throw new RangeError('PNG without a header');
  const stride = width * channels;
  const raw = inflateSync(Buffer.concat(idat), { maxOutputLength: (stride + 1) * height });
  if (raw.length < (stride + 1) * height) throw new RangeError('PNG image data is cut short');
  const rgb = Buffer.alloc(width * height * 3);
  let prev = Buffer.alloc(stride);
  let line = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    if (filter > 4) throw new RangeError(`PNG row ${y} has filter type ${filter}`);
    const src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? line[i - channels]! : 0;
      const b = prev[i]!;
      const c = i >= channels ? prev[i - channels]! : 0;
      const x = src[i]!;
      line[i] =
        (filter === 0
          ? x
          : filter === 1
            ? x + a
            : filter === 2
              ? x + b
              : filter === 3
                ? x + ((a + b) >> 1)
                : x + paeth(a, b, c)) & 0xff;
    }
    for (let px = 0; px < width; px++) line.copy(rgb, (y * width + px) * 3, px * channels, px * channels + 3);
    [prev, line] = [line, prev];
  }
  return { rgb, width, height };
}

/** Scales an image down by averaging the source pixels each target pixel covers (a box filter). */
export function scaleRgbDown(img: RgbImage, width: number, height: number): RgbImage {
  if (width >= img.width && height >= img.height) return img;
  const out = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor((y * img.height) / height);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * img.height) / height));
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor((x * img.width) / width);
      const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * img.width) / width));
      let r = 0;
      let g = 0;
      let b = 0;
      for (let sy = y0; sy < y1; sy++) {
        for (let sx = x0; sx < x1; sx++) {
          const i = (sy * img.width + sx) * 3;
          r += img.rgb[i]!;
          g += img.rgb[i + 1]!;
          b += img.rgb[i + 2]!;
        }
      }
      const n = (y1 - y0) * (x1 - x0);
      const o = (y * width + x) * 3;
      out[o] = Math.round(r / n);
      out[o + 1] = Math.round(g / n);
      out[o + 2] = Math.round(b / n);
    }
  }
  return { rgb: out, width, height };
}
