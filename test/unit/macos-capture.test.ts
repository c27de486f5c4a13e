/**
 * screen.capture on macOS (src/drivers/macos/capture.ts) against the fake library's window list, window images
 * and ImageIO (test/macos-fake/screen.c): a window handle carries the CGWindowID of the one CG window of its
 * process with its frame and title; the capture images that window alone (kCGWindowListOptionIncludingWindow),
 * re-proven at capture, as a PNG scaled to maxEdge; without Screen Recording nothing is imaged. Every
 * Create/Copy is released once (assertBalanced after each test).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { pngScanlines } from '../fixtures/png.js';
import { windowNumbers } from '../../src/drivers/macos/capture.js';
import { macHandlers, macHello } from '../../src/drivers/macos/main.js';
import { CaptureResult } from '../../src/protocol/methods.js';
import { checkerOf } from '../../src/protocol/validate.js';
import { fakeDriverTests } from '../macos/fake-ax.js';

const { fake, start } = fakeDriverTests('textedit.json');
const ctx = { signal: new AbortController().signal } as never;
const code = (e: unknown): string | undefined => (e as { code?: string }).code;

/** Width, height and the first pixel (RGB) of an 8-bit RGB PNG. */
function decode(png: Buffer): { width: number; height: number; first: number[] } {
  const { width, height, raw } = pngScanlines(png);
  assert.equal(raw.length, height * (width * 3 + 1));
  return { width, height, first: [...raw.subarray(1, 4)] };
}
/** The colour the fake paints window `number` with. */
const colourOf = (number: number): number[] => [number & 255, (number >> 8) & 255, 0x80];

test('the TextEdit window is imaged alone by its CGWindowID, ' +
    'at the display\'s 2 pixels per point, within the schema', async () => {
  const d = start();
  const h = macHandlers(d);
  const hello = macHello(d, h);
  assert.ok(hello.capabilities.includes('capture') && hello.methods.includes('screen.capture'));
  assert.equal(hello.permissions['screen_recording'], true);
  const w = d.apps()[0]!.windows[0]!;
  fake.clearLog();
  const r = await h['screen.capture']!({ window: w.id }, ctx) as CaptureResult;
  assert.ok(checkerOf(CaptureResult).Check(r));
  assert.deepEqual(r.geometry, {
    screen: [200, 120, 640, 480],
    window: [200, 120, 640, 480],
    width: 1280,
    height: 960,
    scale: 2,
  });
  const png = Buffer.from(r.png, 'base64');
  assert.equal(r.sha256, createHash('sha256').update(png).digest('hex'));
  const img = decode(png);
  assert.deepEqual([img.width, img.height], [1280, 960]);
  assert.deepEqual(img.first, colourOf(4242 * 100 + 1), 'the pixels are the TextEdit window\'s (CG window 424201)');
  assert.match(fake.log(), /CGWindowListCreateImage window 424201 option 8 imageOption 3 null-rect 1/);
  assert.deepEqual(
    [r.marks, r.covered, r.outside],
    [[], undefined, undefined],
    'nothing of another window is in the image; no marks are drawn',
  );
  // The Login dialog is another CG window of another process.
  const login = d.apps()[1]!.windows[0]!;
  const l = d.capture({ window: login.id, maxEdge: 150 });
  assert.deepEqual(l.geometry, {
    screen: [500, 300, 300, 160],
    window: [500, 300, 300, 160],
    width: 150,
    height: 80,
    scale: 0.5,
  });
  assert.deepEqual(decode(Buffer.from(l.png, 'base64')).first, colourOf(4343 * 100 + 1));
});

test('without Screen Recording nothing is imaged and the error names the ' +
    'pane; window titles are hidden but frames still prove the window', () => {
  fake.setScreenRecording(false);
  const d = start();
  const hello = macHello(d, macHandlers(d));
  assert.equal(hello.permissions['screen_recording'], false);
  assert.match(hello.facts?.['screen_recording'] ?? '', /Privacy & Security › Screen Recording/);
  const w = d.apps()[0]!.windows[0]!;
  fake.clearLog();
  assert.throws(
    () => d.capture({ window: w.id }),
    (e) => code(e) === 'permission_denied' && /Privacy & Security › Screen Recording/.test((e as Error).message),
  );
  assert.doesNotMatch(fake.log(), /CGWindowListCreateImage/);
  fake.setScreenRecording(true);
  assert.equal(d.capture({ window: w.id }).geometry.width, 1280, 'the CGWindowID proven by frame alone');
});

test('a window the window list does not show with its frame gets no ' +
    'CGWindowID; one moved since it was listed is window_changed', () => {
  const d = start();
  fake.cgShift(4242, 10);
  const unproven = d.apps()[0]!.windows[0]!;
  fake.clearLog();
  assert.throws(() => d.capture({ window: unproven.id }), (e) => code(e) === 'unsupported');
  fake.cgShift(4242, 0);
  const w = d.apps()[0]!.windows[0]!;
  assert.equal(w.id, unproven.id, 'the same handle, now with its CGWindowID');
  fake.cgShift(4242, 25);
  assert.throws(() => d.capture({ window: w.id }), (e) => code(e) === 'window_changed');
  assert.doesNotMatch(fake.log(), /CGWindowListCreateImage/, 'nothing was imaged');
});

test('windowNumbers: exactly one CG window of the pid with the frame ' +
    '(and title, when shown), matched to one AX window only', () => {
  const cg = [
    { number: 1, pid: 7, layer: 0, bounds: [0, 0, 100, 100] as [number, number, number, number], name: 'Doc' },
    { number: 2, pid: 8, layer: 0, bounds: [0, 0, 100, 100] as [number, number, number, number], name: 'Doc' },
    { number: 3, pid: 7, layer: 0, bounds: [50, 50, 10, 10] as [number, number, number, number] },
    { number: 4, pid: 7, layer: 25, bounds: [200, 0, 10, 10] as [number, number, number, number] },
    { number: 5, pid: 7, layer: 0, bounds: [300, 0, 10, 10] as [number, number, number, number], name: 'A' },
    { number: 6, pid: 7, layer: 0, bounds: [300, 0, 10, 10] as [number, number, number, number], name: 'A' },
  ];
  assert.deepEqual(windowNumbers(cg, 7, [
    { bounds: [0, 0, 100, 100], title: 'Doc' }, // 1 (2 is another pid's)
    { bounds: [0, 0, 100, 100], title: 'Other' }, // the title differs
    { bounds: [50.4, 49.6, 10, 10], title: 'no title shown' }, // 3: CG shows no title, the frame proves it
    { bounds: [200, 0, 10, 10], title: '' }, // a panel layer, never an app window
    { bounds: [300, 0, 10, 10], title: 'A' }, // two CG windows alike: neither
    { title: 'no frame' },
  ]), [1, undefined, 3, undefined, undefined, undefined]);
  // Two AX windows alike claim one CG window: neither gets it.
  assert.deepEqual(
    windowNumbers(cg, 7, [
      { bounds: [50, 50, 10, 10], title: 'x' },
      { bounds: [50, 50, 10, 10], title: 'y' },
    ]),
    [undefined, undefined],
  );
});
