/**
 * A method the driver's hello did not list is refused by the host without sending (docs/protocol.md,
 * "Handshake"), and the model reads what happened and what to do instead, worded by the host (the tools know
 * which tool works on such a device), in MCP words and, at a shell, in the CLI's.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import { cliWording } from '../../src/hosts/cli/wording.js';
import { createComputer, type Computer } from '../../src/index.js';
import type { Handlers } from '../../src/protocol/peer.js';
import { widgetFactory } from '../fixtures/engine/widget-factory.js';

const home = mkdtempSync(join(tmpdir(), 'cu-unsupported-advice-'));
process.env['COMPUTER_USE_HOME'] = home;

/** A phone-like device: a tree and element acts, no pixels (no screen.ocr, no screen.capture). */
async function phone(extra: Handlers = {}): Promise<{ c: Computer; fake: FakeDriver }> {
  const w = widgetFactory();
  const fake = new FakeDriver([{ info: w.window, root: w.root }]);
  Object.assign(fake.extra, extra);
  const c = await createComputer({
    desktop: 'current',
    mode: 'bypass',
    allowApps: ['gtk3-widget-factory'],
    settingsPath: join(home, 'settings.json'),
    auditPath: join(home, 'audit.jsonl'),
    connect: () => fake.connect(),
    showActivity: false,
    allowScreenshots: true,
    imageInput: true,
  });
  return { c, fake };
}

test('screenshot on a device whose driver reads no pixels: unsupported, ' +
    'nothing sent, and the model is told to observe instead', async () => {
  const { c, fake } = await phone();
  try {
    const r = await c.call('computer_screenshot', {});
    assert.equal(r.code, 'unsupported', r.text);
    assert.match(r.text, /does not implement screen\.ocr/, r.text);
    assert.match(r.text, /nothing was sent/, r.text);
    assert.match(r.text, /cannot read text from a window's pixels/, r.text);
    assert.match(r.text, /Use computer_observe/, r.text);
    assert.ok(!fake.calls.some((x) => x.method === 'screen.ocr'), 'the host sent nothing the driver did not list');
    // At a shell the same advice names the command the model can type.
    assert.match(cliWording(r.text), /Use computer-use observe/);
    assert.doesNotMatch(cliWording(r.text), /computer_/);
    const image = await c.call('computer_screenshot', { mode: 'image' });
    assert.equal(image.code, 'unsupported', image.text);
    assert.match(image.text, /does not implement screen\.capture/, image.text);
    assert.match(image.text, /Use computer_observe/, image.text);
    assert.doesNotMatch(image.text, /OCR/, 'OCR is not offered on a device that has no screen.ocr either');
  } finally { await c.close(); }
});

test('keys on a device whose driver sends no keys: the advice names element actions', async () => {
  const { c, fake } = await phone();
  const base = fake.handlers.bind(fake);
  fake.handlers = (): Handlers => { const h = base(); delete h['input.keys']; return h; };
  try {
    const r = await c.call('computer_keys', { keys: 'Tab' });
    assert.equal(r.code, 'unsupported', r.text);
    assert.match(
      r.text,
      /does not implement input\.keys.*This device cannot send keys\. Act on elements by ref with computer_act/,
      r.text,
    );
    assert.ok(!fake.calls.some((x) => x.method === 'input.keys'));
  } finally { await c.close(); }
});

test('an image capture missing where OCR exists: the advice offers OCR too', async () => {
  const { c } = await phone({
    'screen.ocr': () => ({
      lines: [],
      ms: { ocr: 0, capture: 0 },
      geometry: { window: [0, 0, 400, 300], screen: [0, 0, 400, 300], width: 400, height: 300, scale: 1 },
    }),
  });
  try {
    const image = await c.call('computer_screenshot', { mode: 'image' });
    assert.equal(image.code, 'unsupported', image.text);
    assert.match(image.text, /or computer_screenshot without a mode for the text in its pixels \(OCR\)/, image.text);
    assert.match(cliWording(image.text), /or computer-use screenshot without a mode/);
  } finally { await c.close(); }
});
