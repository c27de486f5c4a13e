/**
 * The fallback ladder on real windows: OCR finds and clicks a drawn "OK" in an app with no
 * accessible children; a window moved between capture and act gets window_changed and nothing is sent;
 * screenshots as images are scaled and marked, and a visual click lands on the intended element; raw input
 * (clipboard, pointer at window pixels, displays) passes the policy and the audit.
 */
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Computer } from '../../src/index.js';
import { killApp, launch, lineOf, ok, openComputer, refOn } from './helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const APP = join(root, 'test', 'apps', 'drawn-buttons.py');
const dir = mkdtempSync(join(tmpdir(), 'cu-fallback-'));
const clicks = join(dir, 'clicks.txt');
const audit = join(dir, 'audit.jsonl');
let computer: Computer;
let app: ChildProcess;

const run = (cmd: string, args: string[]): Promise<string> => new Promise((resolve, reject) => {
  execFile(cmd, args, (e, out) => (e ? reject(e) : resolve(out)));
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const clicked = (): string => (existsSync(clicks) ? readFileSync(clicks, 'utf8') : '');

/** Waits until computer_apps lists a window of `name`. */
async function waitForApp(name: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if ((await computer.tools.apps()).text.includes(`${name} pid=`)) return;
    await sleep(100);
  }
  assert.fail(`${name} did not appear`);
}

before(async () => {
  writeFileSync(join(dir, 'settings.json'), '{}', { mode: 0o600 });
  // A Python app is allowed by interpreter + script, never by the name it gives itself.
  computer = await openComputer({
    allowApps: [`/usr/bin/python3 ${APP}`, 'gtk3-widget-factory', 'clipboard'],
    allowScreenshots: true,
    imageInput: true,
    auditPath: audit,
    settingsPath: join(dir, 'settings.json'),
  });
  app = spawn('/usr/bin/python3', [APP, clicks], { stdio: 'ignore' });
  await waitForApp('drawn-buttons');
  await sleep(300); // first draw
});
after(async () => {
  await computer?.close();
  if (app?.pid) await killApp(app.pid);
});

test('the drawn app has no accessible children: observe shows only a canvas', async () => {
  const text = ok(await computer.tools.observe({ full: true, app: 'drawn-buttons' }));
  assert.match(text, /\] canvas$/m);
  assert.doesNotMatch(text, /"OK"|"Cancel"/);
});

test('OCR finds the drawn "OK" and clicks it; the app reacts', async () => {
  const shot = ok(await computer.tools.screenshot({ app: 'drawn-buttons' }));
  assert.match(shot, /^channel: ocr \(degraded\)\n/);
  assert.match(shot, /\[o\d+\] text "Cancel" \(ocr\)/);
  const ref = /\[(o\d+)\] text "OK" \(ocr\)/.exec(shot)?.[1];
  assert.ok(ref, shot);
  const res = ok(await computer.tools.act({ actions: [{ ref, op: 'click' }] }));
  assert.match(res, /^channel: ocr \(degraded\)\n/);
  assert.match(res, new RegExp(`ok click ${ref} · unknown \\(left click at \\d+,\\d+; OCR text "OK"\\)`));
  assert.match(res, /window name "Drawn buttons" → "clicked OK"/);
  assert.equal(clicked(), 'OK\n');
  // The act went through the policy and the audit: decided before, done after.
  const log = readFileSync(audit, 'utf8');
  assert.match(log, new RegExp(`"tool":"computer_act".*"ref":"${ref}".*"op":"click".*"decision":"allowed"`));
  assert.match(log, /"phase":"done".*"receipt":"unknown"/);
});

test('a window moved or resized between capture and act gets window_changed, and nothing is sent', async () => {
  const shot = ok(await computer.tools.screenshot({ app: 'drawn-buttons' }));
  const ref = /\[(o\d+)\] text "Cancel" \(ocr\)/.exec(shot)?.[1];
  assert.ok(ref, shot);
  const xid = (await run('xdotool', ['search', '--name', '^(Drawn buttons|clicked OK)$'])).trim().split('\n')[0]!;
  await run('xdotool', ['windowmove', '--sync', xid, '40', '60']);
  await sleep(200);
  const res = await computer.tools.act({ actions: [{ ref, op: 'click' }] });
  assert.equal(res.isError, true, res.text);
  assert.equal(res.code, 'window_changed');
  assert.match(res.text, /moved or resized.*nothing was sent.*computer_screenshot/s);
  await sleep(300);
  assert.equal(clicked(), 'OK\n', 'Cancel was not clicked');
  // Resized after a fresh capture: window_changed again.
  const resized = ok(await computer.tools.screenshot({ app: 'drawn-buttons' }));
  const cancel2 = /\[(o\d+)\] text "Cancel" \(ocr\)/.exec(resized)?.[1];
  assert.ok(cancel2, resized);
  await run('xdotool', ['windowsize', '--sync', xid, '600', '320']);
  await sleep(300);
  const res2 = await computer.tools.act({ actions: [{ ref: cancel2, op: 'click' }] });
  assert.equal(res2.code, 'window_changed', res2.text);
  await sleep(200);
  assert.equal(clicked(), 'OK\n', 'Cancel was not clicked');
  // A fresh capture of the moved and resized window works again.
  const again = ok(await computer.tools.screenshot({ app: 'drawn-buttons' }));
  const fresh = /\[(o\d+)\] text "Cancel" \(ocr\)/.exec(again)?.[1];
  assert.ok(fresh && fresh !== ref, again);
  assert.equal(
    (await computer.tools.act({ actions: [{ ref, op: 'click' }] })).code,
    'stale_ref',
    'the old capture is retired',
  );
  ok(await computer.tools.act({ actions: [{ ref: fresh, op: 'click' }] }));
  assert.equal(clicked(), 'OK\nCancel\n');
});

test('raw input: a click at window pixels, displays, clipboard ' +
    'round trip — each through the policy and the audit', async () => {
  // The drawn "OK" button is at 60..220 x 120..190 of the drawing area; the window's frame adds its border and title
  // bar.
  const apps = ok(await computer.tools.apps({ displays: true }));
  assert.match(apps, /^display \S+ primary \d+x\d+ at 0,0$/m);
  const xid = (await run('xdotool', ['search', '--name', '^clicked'])).trim().split('\n')[0]!;
  const geo = await run('xwininfo', ['-id', xid]);
  const ax = Number(/Absolute upper-left X:\s+(-?\d+)/.exec(geo)?.[1]);
  const ay = Number(/Absolute upper-left Y:\s+(-?\d+)/.exec(geo)?.[1]);
  const win = /\[(w\d+)\] window "clicked Cancel" focused (\d+)x(\d+)/.exec(apps);
  assert.ok(win, apps);
  const listed = await computer.session.device.call('windows.list', {});
  const bounds = listed.windows.find((w) => w.title === 'clicked Cancel')!.bounds!;
  const res = ok(
    await computer.tools.input({ action: 'click', window: win[1]!, x: ax - bounds[0] + 140, y: ay - bounds[1] + 150 }),
  );
  assert.match(res, /^channel: raw input \(degraded\)\n/);
  assert.match(res, /ok click → \[w\d+\] screen \d+,\d+ · unknown/);
  assert.match(res, /"clicked Cancel" → "clicked OK"/);
  assert.equal(clicked(), 'OK\nCancel\nOK\n');
  // Outside the window: refused, nothing sent.
  const outside = await computer.tools.input({ action: 'click', window: win[1]!, x: 5000, y: 5 });
  assert.equal(outside.code, 'invalid_params');

  ok(await computer.tools.input({ action: 'clipboard_write', text: 'copied 中文 text' }));
  const read = ok(await computer.tools.input({ action: 'clipboard_read' }));
  assert.match(read, /"copied 中文 text"/);
  const log = readFileSync(audit, 'utf8');
  assert.match(log, /"tool":"computer_input".*"op":"click".*"point":"\d+,\d+"/);
  assert.match(log, /"tool":"computer_input".*"op":"clipboard_write"/);
  assert.doesNotMatch(log, /copied 中文 text/);
});

/** The color of one pixel of a PNG, as ImageMagick names it (srgb(r,g,b)). */
async function pixel(png: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const file = join(dir, `p-${Date.now()}.png`);
  writeFileSync(file, png);
  const out = await run('convert', [
    file,
    '-format',
    `%[fx:int(255*p{${x},${y}}.r)],%[fx:int(255*p{${x},${y}}.g)],%[fx:int(255*p{${x},${y}}.b)]`,
    'info:',
  ]);
  return out.trim().split(',').map(Number) as [number, number, number];
}

test('screenshots as images: scaled to the long edge, marked with ' +
    'refs, and a visual click lands on the intended element', async () => {
  const wf = await launch(computer, 'gtk3-widget-factory');
  try {
    const snap = ok(await computer.tools.observe({ full: true, app: 'gtk3-widget-factory', maxTokens: 20000 }));
    const ref = refOn(snap, /\] checkbox "checkbutton" unchecked$/);
    const shot = await computer.tools.screenshot({ app: 'gtk3-widget-factory', mode: 'image', maxEdge: 640 });
    assert.equal(shot.isError, false, shot.text);
    assert.match(shot.text, /^channel: screenshot \(degraded\)\n/);
    const head =
      /screenshot (c\d+) of \[w\d+\] .* image (\d+)x(\d+) \(window (\d+)x(\d+) scaled ×([\d.]+)\) · (\d+) marks/.exec(
        shot.text,
      );
    assert.ok(head, shot.text);
    const [, capture, w, h, ww, wh] = head.map(Number) as number[];
    assert.equal(Math.max(w!, h!), 640);
    assert.ok(Math.abs(w! / h! - ww! / wh!) < 0.01, 'aspect kept');
    assert.ok(Number(head[7]) > 10, 'many elements marked');
    const png = Buffer.from(shot.images![0]!.data, 'base64');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [w, h], 'the PNG has the stated size');
    // The checkbutton's mark: its label box (magenta) sits at the element's top-left corner.
    const line = lineOf(shot.text, ref) ?? '';
    const m = /mark at (\d+),(\d+) (\d+)x(\d+)/.exec(line);
    assert.ok(m, shot.text);
    const [, mx, my, mw, mh] = m.map(Number) as number[];
    assert.deepEqual(await pixel(png, mx! + 1, my! + 1), [255, 0, 255], 'label background at the element corner');
    void capture;
    // A visual click at the center of the marked box, in image pixels.
    const cid = head[1]!;
    const res = ok(
      await computer.tools.input({
        action: 'click',
        capture: cid,
        x: mx! + Math.floor(mw! / 2),
        y: my! + Math.floor(mh! / 2),
      }),
    );
    assert.match(res, /· unknown \(left click at/);
    assert.match(
      lineOf(ok(await computer.tools.observe({ full: true, app: 'gtk3-widget-factory', maxTokens: 20000 })), ref) ?? '',
      /checkbox "checkbutton" checked/,
    );

    // Moved between capture and act: window_changed, nothing sent (the check button stays checked).
    const shot2 = ok(await computer.tools.screenshot({ app: 'gtk3-widget-factory', mode: 'image', maxEdge: 640 }));
    const c2 = /screenshot (c\d+)/.exec(shot2)![1]!;
    const m2 = /mark at (\d+),(\d+) (\d+)x(\d+)/.exec(lineOf(shot2, ref) ?? '')!.slice(1).map(Number) as number[];
    // (The widget factory is wider than the screen and cannot be resized; it is moved. The drawn app is resized above.)
    const xid = (await run('xdotool', ['search', '--onlyvisible', '--pid', String(wf.pid)])).trim().split('\n')[0]!;
    await run('xdotool', ['windowmove', '--sync', xid, '30', '20']);
    await sleep(300);
    const changed = await computer.tools.input({
      action: 'click',
      capture: c2,
      x: m2[0]! + Math.floor(m2[2]! / 2),
      y: m2[1]! + Math.floor(m2[3]! / 2),
    });
    assert.equal(changed.code, 'window_changed', changed.text);
    await sleep(300);
    assert.match(
      lineOf(ok(await computer.tools.observe({ full: true, app: 'gtk3-widget-factory', maxTokens: 20000 })), ref) ?? '',
      /checkbox "checkbutton" checked/,
    );
    assert.match(readFileSync(audit, 'utf8'), /"phase":"done".*"receipt":"failed","detail":"window_changed"/);
  } finally {
    await killApp(wf.pid);
  }
});
