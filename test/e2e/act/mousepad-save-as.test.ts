/**
 * The real failure: mousepad's Save As dialog enables Save ~150 ms after the name is set
 * (measured), after the set_value's events went quiet. The set_value's receipt must show Save becoming enabled,
 * and a click on Save in the next call must save the file.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { killApp, lineOf, ok, openComputer, refOn } from '../helpers.js';

test('mousepad Save As by set_value then click in separate calls writes the file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-act-mousepad-'));
  writeFileSync(join(dir, 'settings.json'), '{}', { mode: 0o600 });
  const computer = await openComputer({
    auditPath: join(dir, 'audit.jsonl'),
    settingsPath: join(dir, 'settings.json'),
  });
  // In-memory settings: no "restore the previous session?" question from an earlier run; no D-Bus server so
  // the pid is the window's.
  const app = spawn('mousepad', ['--disable-server'], {
    env: { ...process.env, GSETTINGS_BACKEND: 'memory' },
    stdio: 'ignore',
  });
  const file = join(dir, 'notes.txt');
  try {
    ok(await computer.tools.wait({ until: 'window_appears', text: 'Mousepad', timeoutMs: 20000 }));
    const main = ok(await computer.tools.observe({ full: true, app: 'mousepad' }));
    ok(
      await computer.tools.act({
        actions: [{ ref: refOn(main, /document editable/), op: 'type', value: 'saved by set_value and click' }],
      }),
    );
    const dialog = ok(await computer.tools.keys({ keys: 'ctrl+shift+s', app: 'mousepad' }));
    assert.match(dialog, /new window \[w\d+\] dialog "Save As"/, dialog);
    const name = refOn(dialog, /textbox beside="Name:" editable focused/);
    const save = refOn(dialog, /button "Save"/);
    assert.match(lineOf(dialog, save) ?? '', /disabled/, 'Save starts disabled (empty name)');
    const set = ok(await computer.tools.act({ actions: [{ ref: name, op: 'set_value', value: file }] }));
    assert.match(set, new RegExp(`ok set_value ${name} · confirmed`));
    // The settle after an edit lasts long enough to see what the edit enabled.
    assert.match(set, new RegExp(`~ \\[${save}\\] button "Save" disabled → enabled`), set);
    const click = ok(await computer.tools.act({ actions: [{ ref: save, op: 'click' }] }));
    assert.match(click, /window closed: \[w\d+\] "Save As"/, click);
    for (let i = 0; i < 50 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(readFileSync(file, 'utf8'), 'saved by set_value and click');
  } finally {
    await computer.close();
    if (app.pid) await killApp(app.pid);
  }
});
