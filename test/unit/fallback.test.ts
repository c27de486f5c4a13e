/** The fallback ladder's pure parts and its refusals, on any OS: OCR grouping, capture geometry, screenshot gating, policy on pointer input. */
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import { imageToScreen, scaleToEdge, screenToImage } from '../../src/fallback/geometry.js';
import { centerOf, groupLines, parseTesseractTsv } from '../../src/fallback/ocr.js';
import { Policy } from '../../src/policy/policy.js';
import { loadSettings, updateSettings } from '../../src/policy/settings.js';
import type { CaptureGeometry } from '../../src/protocol/methods.js';
import { Session } from '../../src/session/session.js';
import { VisualTable } from '../../src/session/visual-table.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/tool.js';
import { widgetFactory } from '../fixtures/engine/widget-factory.js';

// tesseract 5.3 --psm 11 on test/apps/drawn-buttons.py (window frame included), trimmed.
const TSV = [
  'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
  '5\t1\t1\t1\t1\t1\t235\t10\t40\t12\t39.44\tDrawn',
  '5\t1\t2\t1\t1\t1\t119\t169\t42\t22\t96.78\tOK',
  '5\t1\t2\t1\t1\t2\t352\t169\t97\t23\t96.32\tCancel',
  '5\t1\t3\t1\t1\t1\t60\t250\t60\t14\t91.0\tSave',
  '5\t1\t3\t1\t1\t2\t125\t250\t30\t14\t90.0\tas',
  '5\t1\t3\t1\t1\t3\t160\t250\t5\t14\t95.0\t|',
  '5\t1\t4\t1\t1\t1\t0\t0\t561\t25\t95.0\t ',
].join('\n');

test('OCR words become lines: split at wide gaps, junk and low confidence dropped, screen coordinates', () => {
  const words = parseTesseractTsv(TSV);
  assert.equal(words.length, 6);
  const lines = groupLines(words, { origin: [359, 344] });
  assert.deepEqual(lines.map((l) => l.text), ['OK', 'Cancel', 'Save as']);
  assert.deepEqual(lines[0]!.bounds, [359 + 119, 344 + 169, 42, 22]);
  assert.deepEqual(centerOf(lines[0]!.bounds), [499, 524]);
  // Read from an image at twice the size: coordinates are divided back.
  assert.deepEqual(groupLines(words, { scale: 2 })[0]!.bounds, [60, 85, 21, 11]);
});

test('capture geometry: long edge to 1280, image pixels map back to the screen, outside is refused', () => {
  assert.deepEqual(scaleToEdge(1600, 1200), { scale: 0.8, width: 1280, height: 960 });
  assert.deepEqual(scaleToEdge(800, 600), { scale: 1, width: 800, height: 600 });
  const g: CaptureGeometry = {
    screen: [100, 50, 1600, 1200],
    window: [100, 50, 1600, 1200],
    width: 1280,
    height: 960,
    scale: 0.8,
  };
  assert.deepEqual(imageToScreen(g, 0, 0), [100, 50]);
  assert.deepEqual(imageToScreen(g, 640, 480), [900, 650]);
  assert.equal(imageToScreen(g, 1280, 10), undefined);
  assert.equal(imageToScreen(g, -1, 10), undefined);
  assert.deepEqual(screenToImage(g, [900, 650, 100, 50]), [640, 480, 80, 40]);
});

test('a new capture of a window retires its older OCR refs; refs are never reused', () => {
  const t = new VisualTable();
  const w = widgetFactory().window;
  const g: CaptureGeometry = { screen: [0, 0, 10, 10], window: [0, 0, 10, 10], width: 10, height: 10, scale: 1 };
  const c1 = t.add('ocr', w, g);
  const [o1] = t.addOcr(c1, [{ text: 'OK', bounds: [1, 1, 2, 2], confidence: 90 }]);
  const c2 = t.add('ocr', w, g);
  const [o2] = t.addOcr(c2, [{ text: 'OK', bounds: [1, 1, 2, 2], confidence: 90 }]);
  assert.equal(t.ocr(o1!.ref), undefined);
  assert.equal(t.capture(c1.id), undefined);
  assert.notEqual(o1!.ref, o2!.ref);
  assert.deepEqual(VisualTable.fromJSON(JSON.parse(JSON.stringify(t.toJSON()))).ocr(o2!.ref), o2);
});

function session(screenshots?: { allowed: boolean; imageInput: boolean }) {
  const f = widgetFactory();
  const fake = new FakeDriver([{ info: f.window, root: f.root }]);
  const s = new Session({
    device: new Device({ connect: () => fake.connect() }),
    ...(screenshots ? { screenshots } : {}),
  });
  const call = (name: string, params: unknown) =>
    runTool(
      TOOLS.find((t) => t.schema.name === name)!,
      { session: s },
      params,
    );
  return { fake, call };
}

test('computer_screenshot mode "image" is refused with the default ' +
    'settings, and without an image-taking host; nothing is captured', async () => {
  const { fake, call } = session();
  const res = await call('computer_screenshot', { app: 'gtk3-widget-factory', mode: 'image' });
  assert.equal(res.isError, true);
  assert.equal(res.code, 'denied_by_policy');
  assert.match(
    res.text,
    /Screenshots as images are off.*mode "ocr".*only the user can turn on, in their own settings/s,
  );
  assert.equal(res.images, undefined);
  const noImages = await session({ allowed: true, imageInput: false }).call('computer_screenshot', { mode: 'image' });
  assert.equal(noImages.code, 'unsupported');
  assert.ok(!fake.calls.some((c) => c.method.startsWith('screen.')), 'no capture was asked of the driver');
  // The setting is read from settings.json, and only from a file others cannot write.
  const dir = await mkdtemp(join(tmpdir(), 'cu-shots-'));
  updateSettings(join(dir, 's.json'), (s) => { s['allowScreenshots'] = true; });
  assert.equal(loadSettings(join(dir, 's.json')).settings.allowScreenshots, true);
  await writeFile(join(dir, 'w.json'), JSON.stringify({ allowScreenshots: true }), { mode: 0o666 });
  const { chmod } = await import('node:fs/promises');
  await chmod(join(dir, 'w.json'), 0o666);
  assert.equal(loadSettings(join(dir, 'w.json')).settings.allowScreenshots, undefined);
});

test('an OCR ref that is unknown is stale_ref; the act names computer_screenshot', async () => {
  const res = await session().call('computer_act', { actions: [{ ref: 'o7', op: 'click' }] });
  assert.equal(res.code, 'stale_ref');
  assert.match(res.text, /computer_screenshot/);
});

test('policy: input at a pixel asks in default mode, is ' +
    'audited with its point, clipboard text only as a digest', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cu-pol-'));
  const audit = join(dir, 'audit.jsonl');
  const policy = new Policy({
    mode: 'default',
    audit,
    settingsPath: false,
    processInfo: () => undefined,
    hostPids: [],
  });
  await assert.rejects(
    policy.check({
      kind: 'pointer',
      tool: 'computer_input',
      app: 'drawn-buttons',
      op: 'click',
      role: 'pixel',
      point: [10, 20],
    }),
    (e: Error & { code?: string }) =>
      e.code === 'confirmation_required' && /click at screen pixel 10,20/i.test(e.message),
  );
  const bypass = new Policy({
    mode: 'bypass',
    allowApps: ['clipboard'],
    audit,
    settingsPath: false,
    processInfo: () => undefined,
    hostPids: [],
  });
  const d = await bypass.check({
    kind: 'clipboard',
    tool: 'computer_input',
    app: 'clipboard',
    op: 'clipboard_write',
    value: 'secret text',
  });
  d.done('dispatched');
  const { readFile } = await import('node:fs/promises');
  const log = await readFile(audit, 'utf8');
  assert.match(log, /"point":"10,20"/);
  assert.doesNotMatch(log, /secret text/);
  assert.match(log, /"op":"clipboard_write".*"hmac"/);
  // An OCR'd "Delete" is untrusted text, but it can add a confirmation.
  await assert.rejects(
    new Policy({
      mode: 'accept-edits',
      allowApps: ['drawn-buttons'],
      audit: false,
      settingsPath: false,
      processInfo: () => undefined,
      hostPids: [],
    }).check({
      kind: 'pointer',
      tool: 'computer_act',
      app: 'drawn-buttons',
      op: 'click',
      role: 'text (ocr)',
      name: 'Delete',
      point: [5, 5],
    }),
    (e: Error & { code?: string }) => e.code === 'confirmation_required' && /irreversible/.test(e.message),
  );
});
