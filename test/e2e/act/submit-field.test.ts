/**
 * Fields that take their value on Return, on real apps: gnumeric's address box (a tool bar field) and Evince's page
 * box (a plain field of the viewer's main window). set_value alone left them holding the text; set_value with
 * `submit` presses Return in the field, judged by the policy's Enter rule (in default mode with nobody to ask, a
 * Return that needed a question would be refused: gnumeric's window has Delete menu items), and the receipt says
 * the value was taken. Before: the Return was refused ("Enter in a single-line field (submits the form)").
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { writePdf } from '../../apps/minipdf.js';
import { E2E_APPS, killApp, ok, openComputer, refOn } from '../helpers.js';

/** Calls `fn` until it returns a text matching `pattern`, or fails with the last text. */
async function until(fn: () => Promise<string>, pattern: RegExp): Promise<string> {
  let text = '';
  for (let i = 0; i < 120; i++) {
    text = await fn();
    if (pattern.test(text)) return text;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.fail(`${pattern} never showed in:\n${text}`);
}

test('gnumeric: set_value with submit in the address ' +
    'box moves the cursor there, with no question', { timeout: 90_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-submit-gnumeric-'));
  writeFileSync(join(dir, 'settings.json'), '{}', { mode: 0o600 });
  const computer = await openComputer({
    auditPath: join(dir, 'audit.jsonl'),
    settingsPath: join(dir, 'settings.json'),
    allowApps: [...E2E_APPS, 'gnumeric'],
  });
  const app = spawn('gnumeric', ['--no-splash'], {
    env: { ...process.env, GSETTINGS_BACKEND: 'memory', HOME: dir },
    stdio: 'ignore',
  });
  try {
    ok(await computer.tools.wait({ until: 'window_appears', text: 'Gnumeric', timeoutMs: 30000 }));
    ok(await computer.tools.keys({ keys: '1 Return 2 Return 3 Return', app: 'gnumeric' }));
    const snap = await until(
      async () => ok(await computer.tools.observe({ app: 'gnumeric', full: true })),
      /textbox value="A4" editable/,
    );
    const box = refOn(snap, /textbox value="A4" editable/);
    const r = ok(await computer.tools.act({ actions: [{ ref: box, op: 'set_value', value: 'A2', submit: true }] }));
    assert.match(r, /^ok set_value .* · confirmed \(.*Return pressed in the field .*: taken: /m, r);
    // The cursor is on A2 now: the status bar's sum is that cell's.
    assert.match(r, /"Sum = 2"/, r);
  } finally {
    await computer.close();
    if (app.pid) await killApp(app.pid);
  }
});

test('Evince: set_value with submit in the page box goes to that page', { timeout: 90_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-submit-evince-'));
  const file = join(dir, 'pages.pdf');
  writePdf(
    file,
    Array.from({ length: 6 }, (_, i) => [
      `Chapter ${i + 1}`,
      ...Array.from({ length: 30 }, (_, j) => `Line ${j + 1} of chapter ${i + 1}.`),
    ]),
  );
  const computer = await openComputer({ allowApps: [...E2E_APPS, 'evince'] });
  const child = spawn('evince', [file], { detached: true, stdio: 'ignore', env: { ...process.env, HOME: dir } });
  try {
    const snap = await until(async () => ok(await computer.tools.observe({ full: true, app: 'evince' })), /Chapter 1/);
    const box = refOn(snap, /textbox "page-label-entry"|group "Select page"\n\s+\[e\d+\] textbox/);
    const r = ok(await computer.tools.act({ actions: [{ ref: box, op: 'set_value', value: '5', submit: true }] }));
    assert.match(r, /^ok set_value .* · confirmed \(.*Return pressed in the field .*: taken: the view changed/m, r);
    assert.match(r, /Chapter 5/, r);
  } finally {
    await computer.close();
    if (child.pid) await killApp(child.pid);
  }
});
