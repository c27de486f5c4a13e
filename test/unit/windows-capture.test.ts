/**
 * screen.capture on Windows, over the real helper under Mono with recorded pixels (helper/Capture.cs runs the same
 * blackout, scaling, marks and PNG writer on them as on a PrintWindow or BitBlt copy): the helper's own PNG writer
 * (hand-made zlib stream around DeflateStream, Adler-32, CRC-32) decodes byte-exact with node's zlib; a BitBlt copy
 * shows no pixel of another process's window; the driver passes the window's proven process and checks the answer;
 * and through the whole host a window the policy refuses is never captured.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import type { DriverConnection } from '../../src/devices/stdio.js';
import { ensureHelper, monoMcs } from '../../src/drivers/windows/build.js';
import { WindowsDriver } from '../../src/drivers/windows/driver.js';
import type { HelperClient } from '../../src/drivers/windows/helper-client.js';
import { HELPER_SOURCES } from '../../src/drivers/windows/helper-sources.generated.js';
import { createComputer } from '../../src/index.js';
import { isComputerUseError } from '../../src/protocol/errors.js';
import { connectWindows, notepadRecording, PID, replayHelper } from './windows-replay.js';

const TOKEN = '134091108001230000';
const REACHED = 'the capture reached the helper';
let dir = '';
let exe = '';
const helpers: HelperClient[] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cu-win-capture-'));
  process.env['COMPUTER_USE_HOME'] = dir;
  exe = (await ensureHelper({ sources: HELPER_SOURCES, driversDir: join(dir, 'drivers'), compiler: monoMcs() })).path;
});
after(() => { for (const h of helpers) h.close(0); rmSync(dir, { recursive: true, force: true }); });

/** A BGRA frame (GDI's byte order) whose pixel (x, y) is `px(x, y)` as [r, g, b]. */
function frame(w: number, h: number, px: (x: number, y: number) => [number, number, number]): Buffer {
  const b = Buffer.alloc(w * h * 4);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const [r, g, bl] = px(x, y);
    b.set([bl, g, r, 0xff], 4 * (y * w + x));
  }
  return b;
}

const recording = (name: string, first: unknown[], proc?: Record<string, unknown>): string =>
  notepadRecording(dir, name, first, proc);
const helperOn = (rec: string): HelperClient => replayHelper(exe, rec, helpers);
const connect = (rec: string): DriverConnection => connectWindows(helperOn(rec), exe);

let crcTable: number[] | undefined;
function crc32(b: Buffer): number {
  crcTable ??= Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let c = 0xffffffff;
  for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Decodes a PNG of 8-bit RGB, filter 0 rows, checking every chunk's CRC and the zlib stream (header, Adler-32). */
function decode(png: Buffer): { width: number; height: number; rgb: Buffer; chunks: string[] } {
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const chunks: string[] = [];
  const idat: Buffer[] = [];
  let width = 0;
  let height = 0;
  for (let at = 8; at < png.length;) {
    const len = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + len);
    assert.equal(png.readUInt32BE(at + 8 + len), crc32(png.subarray(at + 4, at + 8 + len)), `${type} CRC`);
    chunks.push(type);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      assert.deepEqual([...data.subarray(8)], [8, 2, 0, 0, 0], 'RGB, 8 bits, deflate, no interlace');
    }
    if (type === 'IDAT') idat.push(data);
    at += 12 + len;
  }
  const z = Buffer.concat(idat);
  assert.equal((z[0]! * 256 + z[1]!) % 31, 0, 'zlib header check bits');
  const raw = inflateSync(z); // throws on a wrong Adler-32
  assert.equal(raw.length, (width * 3 + 1) * height);
  const rgb = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    assert.equal(raw[y * (width * 3 + 1)], 0, `row ${y} filter`);
    raw.copy(rgb, y * width * 3, y * (width * 3 + 1) + 1, (y + 1) * (width * 3 + 1));
  }
  return { width, height, rgb, chunks };
}

const rgbOf = (w: number, h: number, px: (x: number, y: number) => [number, number, number]): Buffer => {
  const b = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) b.set(px(x, y), 3 * (y * w + x));
  return b;
};

interface Captured {
  png: string;
  geometry: { screen: number[]; window: number[]; width: number; height: number; scale: number };
  marks: { label: string; box: number[]; labelBox: number[] }[];
  covered?: number[][];
  method: string;
}

test('the helper\'s PNG writer decodes byte-exact: a small odd-sized frame ' +
    'and a large noisy one (many deflate blocks, Adler-32 past 5552 bytes)', { timeout: 60_000 }, async () => {
  const small = (x: number, y: number): [number, number, number] => [(x * 37 + y) & 0xff, (y * 51) & 0xff, 255 - x * 9];
  let seed = 12345;
  const noise = Array.from({ length: 701 * 301 }, () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed >>> 8;
  });
  const noisy = (x: number, y: number): [number, number, number] => {
    const v = noise[y * 701 + x]!;
    return [v & 0xff, (v >> 8) & 0xff, y % 7 === 0 ? 0 : (v >> 16) & 0xff];
  };
  const h = helperOn(
    recording('png', [
      {
        op: 'capture',
        match: { hwnd: '1' },
        result: {
          frame: { rect: [10, 20, 7, 5], bgra: frame(7, 5, small).toString('base64') },
          window: [10, 20, 7, 5],
        },
      },
      {
        op: 'capture',
        match: { hwnd: '2' },
        result: {
          frame: { rect: [0, 0, 701, 301], bgra: frame(701, 301, noisy).toString('base64') },
          window: [0, 0, 701, 301],
        },
      },
    ]),
  );
  const a = await h.request<Captured>('capture', { hwnd: '1' });
  const d = decode(Buffer.from(a.png, 'base64'));
  assert.deepEqual(d.chunks, ['IHDR', 'IDAT', 'IEND']);
  assert.deepEqual([d.width, d.height], [7, 5]);
  assert.ok(d.rgb.equals(rgbOf(7, 5, small)), 'every pixel as recorded, BGRA turned RGB');
  assert.deepEqual(a.geometry, { screen: [10, 20, 7, 5], window: [10, 20, 7, 5], width: 7, height: 5, scale: 1 });
  const b = await h.request<Captured>('capture', { hwnd: '2', maxEdge: 8192 });
  const e = decode(Buffer.from(b.png, 'base64'));
  assert.ok(e.rgb.equals(rgbOf(701, 301, noisy)), 'the noisy frame decodes to the same bytes');
});

test('a BitBlt copy shows no pixel of another process\'s window over the ' +
    'target; its own window over it stays; marks skip covered elements', { timeout: 60_000 }, async () => {
  const red = (): [number, number, number] => [200, 10, 10];
  const h = helperOn(recording('blt', [{ op: 'capture', result: {
    frame: { rect: [0, 0, 40, 20], bgra: frame(40, 20, red).toString('base64') },
    window: [0, 0, 40, 20],
    method: 'BitBlt',
    // Nearest first: the app's own dialog, then another app's window partly over both.
    above: [
      { rect: [2, 2, 6, 6], own: true },
      { rect: [20, 0, 100, 10], own: false },
      { rect: [4, 4, 2, 2], own: false },
    ],
  }, }]));
  const r = await h.request<Captured>('capture', {
    hwnd: '1',
    marks: [
      { label: 'e1', bounds: [0, 12, 18, 8] },
      { label: 'e2', bounds: [22, 2, 10, 6] },
    ],
  });
  assert.equal(r.method, 'BitBlt');
  assert.deepEqual(r.covered, [[4, 4, 2, 2], [20, 0, 20, 10]], 'top first, clipped to the capture');
  const { rgb } = decode(Buffer.from(r.png, 'base64'));
  const at = (x: number, y: number): number[] => [...rgb.subarray(3 * (y * 40 + x), 3 * (y * 40 + x) + 3)];
  assert.deepEqual(at(30, 5), [0, 0, 0], 'another app\'s window is black');
  assert.deepEqual(at(4, 4), [0, 0, 0], 'another app\'s window over the own dialog is black');
  assert.deepEqual(at(3, 3), [200, 10, 10], 'the app\'s own dialog shows');
  assert.deepEqual(at(30, 15), [200, 10, 10], 'the uncovered target shows');
  assert.deepEqual(r.marks.map((m) => m.label), ['e1'], 'e2 lies under another app\'s window: not drawn');
  assert.deepEqual(r.marks[0], { label: 'e1', box: [0, 12, 18, 8], labelBox: [0, 7, 18, 13] });
  assert.deepEqual(at(0, 19), [255, 0, 255], 'the box outline is drawn');
});

test('scaled to maxEdge by area average, with the ' +
    'geometry that maps image pixels back to the screen', { timeout: 60_000 }, async () => {
  const h = helperOn(
    recording('scale', [
      {
        op: 'capture',
        result: {
          frame: { rect: [100, 50, 8, 4], bgra: frame(8, 4, () => [1, 2, 3]).toString('base64') },
          window: [90, 40, 30, 30],
        },
      },
    ]),
  );
  const r = await h.request<Captured>('capture', { hwnd: '1', maxEdge: 16 });
  assert.deepEqual(
    r.geometry,
    { screen: [100, 50, 8, 4], window: [90, 40, 30, 30], width: 8, height: 4, scale: 1 },
    'within maxEdge: not scaled',
  );
  const helper2 = helperOn(recording('scale2', [{ op: 'capture', result: {
    frame: {
      rect: [0, 0, 64, 32],
      bgra: frame(64, 32, (x, y) => {
        const v = 10 * (Math.floor(x / 2) % 8) + (x % 2);
        return [v, v, v];
      }).toString('base64'),
    },
    window: [0, 0, 64, 32],
  }, }]));
  const half = await helper2.request<Captured>('capture', { hwnd: '1', maxEdge: 32 });
  assert.deepEqual(half.geometry, {
    screen: [0, 0, 64, 32],
    window: [0, 0, 64, 32],
    width: 32,
    height: 16,
    scale: 0.5,
  });
  const { rgb } = decode(Buffer.from(half.png, 'base64'));
  // Each output pixel averages a 2x2 block of v and v+1: v + 0.5 rounds up to v + 1.
  assert.deepEqual([rgb[0], rgb[3], rgb[3 * 7]], [1, 11, 71]);
});

test('the driver asks for the window\'s proven process, ' +
    'checks the answer, and digests the PNG it passes on', { timeout: 60_000 }, async () => {
  const px = frame(800, 600, (x, y) => [x & 0xff, y & 0xff, 128]).toString('base64');
  const good = recording('driver', [
    {
      op: 'capture',
      match: { hwnd: '264462', pid: PID, startToken: TOKEN, maxEdge: 400 },
      result: { frame: { rect: [0, 0, 800, 600], bgra: px }, window: [0, 0, 800, 600] },
    },
  ]);
  const d = new WindowsDriver(helperOn(good));
  const r = await d.capture({
    window: 'hwnd:264462',
    maxEdge: 400,
    marks: [{ label: 'e12', bounds: [100, 100, 80, 30] }],
  });
  assert.deepEqual(r.geometry, {
    screen: [0, 0, 800, 600],
    window: [0, 0, 800, 600],
    width: 400,
    height: 300,
    scale: 0.5,
  });
  assert.equal(r.sha256, createHash('sha256').update(Buffer.from(r.png, 'base64')).digest('hex'));
  assert.deepEqual(r.marks, [{ label: 'e12', box: [50, 50, 40, 15], labelBox: [50, 50, 25, 13] }]);
  assert.equal(decode(Buffer.from(r.png, 'base64')).width, 400);
  // A helper whose PNG is not the size its geometry says, or not a PNG, is not believed.
  const liar = new WindowsDriver(
    helperOn(
      recording('liar', [
        {
          op: 'capture',
          result: {
            png: Buffer.from('not a png').toString('base64'),
            geometry: { screen: [0, 0, 8, 8], window: [0, 0, 8, 8], width: 8, height: 8, scale: 1 },
            marks: [],
          },
        },
      ]),
    ),
  );
  await assert.rejects(
    liar.capture({ window: 'hwnd:264462' }),
    (e: unknown) => isComputerUseError(e, 'internal') && /malformed/.test(e.message),
  );
});

async function screenshot(
  rec: string,
  allowApps: string[],
  target: { app?: string; window?: string } = { window: 'w1' },
): Promise<{ text: string; code?: string; images: number }> {
  const c = await createComputer({
    desktop: 'current',
    mode: 'unattended',
    allowApps,
    allowScreenshots: true,
    imageInput: true,
    settingsPath: join(dir, 'settings.json'),
    auditPath: join(dir, 'audit.jsonl'),
    connect: () => connect(rec),
    showActivity: false,
  });
  try {
    const r = await c.call('computer_screenshot', { ...target, mode: 'image' });
    return { text: r.text, ...(r.code ? { code: r.code } : {}), images: r.images?.length ?? 0 };
  } finally { await c.close(); }
}

const NOTEPAD = {
  pid: PID,
  image: 'C:\\Windows\\System32\\notepad.exe',
  startToken: TOKEN,
  user: 'S-1-5-21-1004336348-1177238915-682003330-1001',
  integrity: 0x2000,
  elevated: false,
};
const KEEPASS = { ...NOTEPAD, image: 'C:\\Program Files\\KeePass Password Safe 2\\KeePass.exe' };

test('through the host: an allowed window\'s image comes ' +
    'back; a window the policy refuses is never captured', { timeout: 120_000 }, async () => {
  const px = frame(800, 600, () => [240, 240, 240]).toString('base64');
  const ok = await screenshot(recording('host-ok', [
    { op: 'identify', match: { pid: PID }, result: NOTEPAD },
    { op: 'capture', result: { frame: { rect: [0, 0, 800, 600], bgra: px }, window: [0, 0, 800, 600] } },
  ]), ['notepad']);
  assert.equal(ok.code, undefined, ok.text);
  assert.equal(ok.images, 1, ok.text);
  assert.match(ok.text, /image 800x600/, ok.text);
  const never = { op: 'capture', error: { code: 'internal', message: REACHED } };
  // The window list (ProcessFacts, as identify reads them) proves a password manager: unseen, never captured.
  const listed = await screenshot(
    recording('host-keepass', [{ op: 'identify', match: { pid: PID }, result: KEEPASS }, never], KEEPASS),
    ['notepad', 'keepass'],
    { app: 'KeePass' },
  );
  assert.equal(listed.code, 'denied_by_policy', listed.text);
  assert.equal(listed.images, 0);
  assert.doesNotMatch(listed.text, new RegExp(REACHED));
});
