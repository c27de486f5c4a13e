/**
 * docs/policy.md, "Denied means unseen": a capture of an allowed window shows only that window. A keep-above "password
 * manager" (the GTK overlay test app named keepassxc) over an allowed one never reaches OCR or the image: its
 * pixels are blacked out, the result says so, Set-of-Mark draws no label over it, and a window it covers
 * entirely is not captured at all.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import type { Computer } from '../../../src/index.js';
import { intersect } from '../../../src/fallback/geometry.js';
import type { Rect } from '../../../src/protocol/methods.js';
import { X11 } from '../../../src/drivers/linux/x11/connection.js';
import { XWindows } from '../../../src/drivers/linux/x11/windows.js';
import { E2E_APPS, ok, openComputer } from '../helpers.js';
import { APP, startOverlay, type Overlay } from './overlay.js';

/** What the vault shows (its button and its title): the marker that must never come back. */
const MARKER = 'QUOKKA';
const SECRET = `${MARKER} SECRET 4711`;

let computer: Computer;
let x: X11;
const running: Overlay[] = [];

before(async () => {
  computer = await openComputer({
    allowApps: [...E2E_APPS, `/usr/bin/python3 ${APP}`],
    allowScreenshots: true,
    imageInput: true,
  });
  x = await X11.open(process.env['DISPLAY']);
});
after(async () => {
  await computer?.close();
  x?.close();
  for (const o of running) o.kill();
});

async function overlay(args: string[]): Promise<Overlay> {
  const o = await startOverlay(args);
  running.push(o);
  return o;
}

/** The on-screen bounds of the app's window once computer_apps lists it (the registry sees it a little later). */
async function boundsOf(name: string): Promise<Rect> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const w = (await computer.session.apps()).find((a) => a.name === name)?.windows[0];
    if (w?.bounds && w.bounds[2] > 0) return w.bounds;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`${name} did not appear`);
}

/** The screen rectangle of a process's top-level window, its window manager frame included. */
async function frameOf(pid: number): Promise<Rect> {
  const w = (await new XWindows(x).clients()).find((c) => c.pid === pid);
  assert.ok(w, `no X window of pid ${pid}`);
  return w.frame ?? w.rect;
}

/** The RGB pixels of a PNG (ImageMagick decodes it). */
function rgbOf(pngBase64: string): Buffer {
  const r = spawnSync('convert', ['png:-', '-depth', '8', 'rgb:-'], {
    input: Buffer.from(pngBase64, 'base64'),
    maxBuffer: 64 << 20,
  });
  assert.equal(r.status, 0, r.stderr?.toString());
  return r.stdout;
}

async function notesUnderVault(): Promise<{ notes: Overlay; vault: Overlay; bounds: Rect; cover: Rect }> {
  const notes = await overlay([
    '--name',
    'notes',
    '--label',
    'NotesButton',
    '--position',
    '100,100',
    '--size',
    '500,400',
  ]);
  const vault = await overlay([
    '--name',
    'keepassxc',
    '--title',
    SECRET,
    '--label',
    SECRET,
    '--keep-above',
    '--position',
    '250,250',
    '--size',
    '300,180',
  ]);
  const bounds = await boundsOf('notes');
  const cover = intersect(await frameOf(vault.proc.pid!), bounds);
  assert.ok(cover, 'the vault does not overlap notes: the test would prove nothing');
  return { notes, vault, bounds, cover };
}

test('OCR of an allowed window under a denied keep-above window never returns the denied text', async () => {
  const { notes, vault } = await notesUnderVault();
  try {
    const text = ok(await computer.tools.screenshot({ app: 'notes' }));
    assert.ok(
      !text.toUpperCase().includes(MARKER) && !text.includes('4711'),
      `the covering window's text leaked:\n${text}`,
    );
    assert.match(text, /1 region covered by other windows was blacked out/, text);
    // The allowed window's own text (its title) is still read: the capture is not simply blank.
    assert.match(text, /"notes"/, text);
  } finally {
    notes.kill();
    vault.kill();
  }
});

test('the image of a covered window is black where the denied window lies, and no mark is drawn there', async () => {
  const { notes, vault, bounds, cover } = await notesUnderVault();
  try {
    const r = await computer.tools.screenshot({ app: 'notes', mode: 'image' });
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /1 region covered by other windows was blacked out/, r.text);
    const png = r.images?.[0]?.data;
    assert.ok(png, 'no image returned');
    const size = /image (\d+)x(\d+)/.exec(r.text);
    assert.deepEqual(
      [Number(size?.[1]), Number(size?.[2])],
      [bounds[2], bounds[3]],
      'the image is not at scale 1: pixel check would be off',
    );
    const rgb = rgbOf(png);
    let lit = 0;
    let outsideLit = 0;
    for (let y = 0; y < bounds[3]; y++) {
      for (let xx = 0; xx < bounds[2]; xx++) {
        const i = 3 * (y * bounds[2] + xx);
        const on = (rgb[i] ?? 0) + (rgb[i + 1] ?? 0) + (rgb[i + 2] ?? 0) > 0;
        const sx = bounds[0] + xx;
        const sy = bounds[1] + y;
        if (sx >= cover[0] && sy >= cover[1] && sx < cover[0] + cover[2] && sy < cover[1] + cover[3]) {
          if (on) lit++;
        } else if (on) outsideLit++;
      }
    }
    assert.equal(lit, 0, `${lit} pixels of the denied window's region are not black`);
    assert.ok(outsideLit > 1000, 'the uncovered part of the window is black too: the check proves nothing');
    // The button's center lies under the vault: its Set-of-Mark label would point at the vault's pixels.
    assert.ok(!r.text.split('\n').some((l) => /NotesButton/.test(l) && /mark at/.test(l)), r.text);
    assert.ok(!r.text.toUpperCase().includes(MARKER), r.text);
  } finally {
    notes.kill();
    vault.kill();
  }
});

test('a window entirely covered by a denied window is not captured', async () => {
  const notes = await overlay([
    '--name',
    'notes',
    '--label',
    'NotesButton',
    '--position',
    '300,300',
    '--size',
    '200,150',
  ]);
  const vault = await overlay([
    '--name',
    'keepassxc',
    '--title',
    SECRET,
    '--label',
    SECRET,
    '--keep-above',
    '--position',
    '200,200',
    '--size',
    '600,500',
  ]);
  try {
    const bounds = await boundsOf('notes');
    const frame = await frameOf(vault.proc.pid!);
    assert.deepEqual(intersect(frame, bounds), bounds, 'the vault does not cover all of notes');
    for (const mode of ['ocr', 'image'] as const) {
      const r = await computer.tools.screenshot({ app: 'notes', mode });
      assert.equal(r.code, 'not_visible', r.text);
      assert.match(r.text, /cover all of this window/, r.text);
      assert.equal(r.images, undefined);
      assert.ok(!r.text.toUpperCase().includes(MARKER), r.text);
    }
  } finally {
    notes.kill();
    vault.kill();
  }
});
