/**
 * Lists that hide what they hold (docs/tools.md, "What the model sees"): a zenity --checklist. The grid prints the
 * check
 * column with each box's state ([x] / [ ]) next to the items, find finds an item by its text, and toggling a
 * box by its cell ref checks it in the app: OK prints the checked items (read outside the tools).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { killApp, ok, openComputer, refOn } from '../helpers.js';

test('zenity --checklist: the check column and its state print, ' +
    'find "Apple" finds its row, a box toggles by its cell ref', { timeout: 90_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-checklist-'));
  writeFileSync(join(dir, 'settings.json'), '{}', { mode: 0o600 });
  const computer = await openComputer({
    auditPath: join(dir, 'audit.jsonl'),
    settingsPath: join(dir, 'settings.json'),
  });
  const app = spawn(
    'zenity',
    [
      '--list',
      '--checklist',
      '--title',
      'Fruit basket',
      '--column',
      'Pick',
      '--column',
      'Fruit',
      'TRUE',
      'Apple',
      'FALSE',
      'Banana',
      'TRUE',
      'Cherry',
      'FALSE',
      'Date',
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let out = '';
  app.stdout.setEncoding('utf8').on('data', (d: string) => { out += d; });
  const exited = new Promise<void>((resolve) => app.once('exit', () => resolve()));
  try {
    const snap = ok(await computer.tools.wait({ until: 'window_appears', text: 'Fruit basket', timeoutMs: 20000 }));
    const table = refOn(snap, /\] table .*cells A1:B4 of 4 × 2/);
    assert.match(snap, /1 \| \[x\] \| Apple/, snap);
    assert.match(snap, /2 \| \[ \] \| Banana/, snap);
    assert.match(snap, /3 \| \[x\] \| Cherry/, snap);
    const found = ok(await computer.tools.find({ app: 'zenity', text: 'Apple' }));
    assert.match(found, /^1 match for "Apple"/, found);
    assert.match(found, /cell "B1" value="Apple"/, found);

    const toggled = ok(await computer.tools.act({ actions: [{ ref: `${table}:A2`, op: 'toggle' }] }));
    assert.match(toggled, /· confirmed/, toggled);
    assert.match(toggled, /cell "A2" unchecked → checked/, `the diff shows Banana's box checked:\n${toggled}`);
    const okButton = refOn(ok(await computer.tools.observe({ app: 'zenity', full: true })), /button "OK"/);
    ok(await computer.tools.act({ actions: [{ ref: okButton, op: 'click' }] }));
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10000))]);
    assert.equal(out.trim(), 'Apple|Banana|Cherry');
  } finally {
    await computer.close();
    if (app.pid) await killApp(app.pid);
  }
});
