/** The capture blackout, pure (src/fallback/cover.ts) and the PNG writer it feeds (src/fallback/png.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inflateSync } from 'node:zlib';
import {
  blackAt,
  blackOut,
  describeCover,
  fullyCovered,
  nothingShownWhy,
  planCover,
  type CaptureLayer,
} from '../../src/fallback/cover.js';
import { encodePngRgb } from '../../src/fallback/png.js';
import type { Rect } from '../../src/protocol/methods.js';

const CAPTURE: Rect = [100, 100, 40, 30];
const target: CaptureLayer = { rect: [98, 90, 44, 42], viewable: true, target: true, own: true };

test('nothing over the target: nothing is blacked out', () => {
  const plan = planCover([{ rect: [0, 0, 800, 600], viewable: true, own: false }, target], CAPTURE)!;
  assert.equal(plan.black, 0);
  assert.deepEqual(plan.covered, []);
  assert.equal(plan.outside, 0);
  assert.equal(describeCover(plan.covered.length, plan.outside > 0), undefined);
});

test('another process\'s window above is blacked out where it overlaps; one below is not', () => {
  const below: CaptureLayer = { rect: [0, 0, 800, 600], viewable: true, own: false };
  const above: CaptureLayer = { rect: [120, 110, 100, 100], viewable: true, own: false };
  const plan = planCover([below, target, above], CAPTURE)!;
  assert.deepEqual(plan.covered, [[120, 110, 20, 20]]);
  assert.equal(plan.black, 20 * 20);
  assert.ok(blackAt(plan, 125, 115) && !blackAt(plan, 105, 105));
  assert.equal(fullyCovered(plan), false);
  assert.equal(describeCover(1, false), '1 region covered by other windows was blacked out');
});

test('a window of the target\'s own process above a foreign one shows again (a menu over a keep-above window)', () => {
  const foreign: CaptureLayer = { rect: [100, 100, 40, 30], viewable: true, own: false };
  const menu: CaptureLayer = { rect: [100, 100, 10, 10], viewable: true, own: true };
  const plan = planCover([target, foreign, menu], CAPTURE)!;
  assert.equal(plan.black, 40 * 30 - 100);
  assert.equal(blackAt(plan, 105, 105), false);
  // Unmapped windows show nothing and hide nothing.
  const hidden = planCover([target, { ...foreign, viewable: false }], CAPTURE)!;
  assert.equal(hidden.black, 0);
});

test('a capture covered entirely is fully covered; a target ' +
    'that is not viewable or not in the stack has no plan', () => {
  const plan = planCover([target, { rect: [0, 0, 800, 600], viewable: true, own: false }], CAPTURE)!;
  assert.equal(fullyCovered(plan), true);
  assert.equal(plan.covered.length, 1);
  assert.equal(planCover([{ ...target, viewable: false }], CAPTURE), undefined);
  assert.equal(planCover([{ rect: [0, 0, 800, 600], viewable: true, own: false }], CAPTURE), undefined);
});

test('what lies outside the target\'s rectangle (the target moved, a smaller frame) is blacked out too', () => {
  const plan = planCover(
    [
      { rect: [0, 0, 800, 600], viewable: true, own: false },
      { ...target, rect: [100, 100, 20, 30] },
    ],
    CAPTURE,
  )!;
  assert.equal(plan.outside, 20 * 30);
  assert.equal(plan.black, 20 * 30);
  assert.ok(blackAt(plan, 130, 110));
  assert.equal(describeCover(0, true), 'the part outside the window was blacked out');
  assert.equal(
    describeCover(2, true),
    '2 regions covered by other windows were blacked out; the part outside the window was blacked out',
  );
});

test('blackOut zeroes exactly the masked RGB pixels', () => {
  const plan = planCover([target, { rect: [130, 120, 10, 10], viewable: true, own: false }], CAPTURE)!;
  const rgb = Buffer.alloc(40 * 30 * 3, 0xcc);
  blackOut(rgb, plan);
  let zero = 0;
  for (let i = 0; i < 40 * 30; i++) if (rgb[3 * i] === 0 && rgb[3 * i + 1] === 0 && rgb[3 * i + 2] === 0) zero++;
  assert.equal(zero, 100);
  assert.equal(rgb[3 * (25 * 40 + 35)], 0);
  assert.equal(rgb[3 * (5 * 40 + 5)], 0xcc);
});

test('encodePngRgb writes a PNG whose pixels inflate back to the input', () => {
  const w = 5;
  const h = 3;
  const rgb = Buffer.from(Array.from({ length: w * h * 3 }, (_, i) => (i * 37) & 255));
  const png = encodePngRgb(rgb, w, h);
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.equal(png.readUInt32BE(16), w);
  assert.equal(png.readUInt32BE(20), h);
  const idatAt = png.indexOf('IDAT');
  const idat = png.subarray(idatAt + 4, idatAt + 4 + png.readUInt32BE(idatAt - 4));
  const raw = inflateSync(idat);
  for (let y = 0; y < h; y++) {
    assert.equal(raw[y * (w * 3 + 1)], 0);
    assert.deepEqual(
      raw.subarray(y * (w * 3 + 1) + 1, (y + 1) * (w * 3 + 1)),
      rgb.subarray(y * w * 3, (y + 1) * w * 3),
    );
  }
  assert.throws(() => encodePngRgb(rgb, w, h + 1), RangeError);
});

test('a capture with nothing of the target shown says why without counting "0 windows" over it', () => {
  // The window's rectangle as the display has it lies beside the one its app reported (nothing over it at all).
  const plan = planCover([{ ...target, rect: [300, 300, 40, 30] }], CAPTURE)!;
  assert.equal(fullyCovered(plan), true);
  assert.deepEqual(plan.covered, []);
  const why = nothingShownWhy(plan);
  assert.doesNotMatch(why, /\b0\b/);
  assert.match(why, /No other window covers it/);
  const one = nothingShownWhy(planCover([target, { rect: [0, 0, 800, 600], viewable: true, own: false }], CAPTURE)!);
  assert.match(one, /1 window of another process lies over it/);
  const two = nothingShownWhy(
    planCover(
      [
        target,
        { rect: [0, 0, 800, 600], viewable: true, own: false },
        { rect: [0, 0, 9, 9], viewable: true, own: false },
      ],
      [0, 0, 800, 600],
    )!,
  );
  assert.match(two, /2 windows of other processes lie over it/);
});
