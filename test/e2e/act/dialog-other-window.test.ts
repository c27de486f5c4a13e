/**
 * An act in a dialog that changes the app's main window shows that window's diff: gedit's Find and Replace,
 * Replace All (a model in the loop met the same in pluma, whose receipt read "(no visible change in the window)").
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { killApp, ok, openComputer, refOn } from '../helpers.js';

test('gedit Replace All in its dialog: the receipt shows the document it changed, under the main window', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-act-replace-'));
  writeFileSync(join(dir, 'settings.json'), '{}', { mode: 0o600 });
  const file = join(dir, 'rep.txt');
  writeFileSync(file, 'The budget is approved.\nSend the budget.\n');
  const computer = await openComputer({
    auditPath: join(dir, 'audit.jsonl'),
    settingsPath: join(dir, 'settings.json'),
  });
  const app = spawn('gedit', ['--new-window', file], {
    env: { ...process.env, GSETTINGS_BACKEND: 'memory' },
    stdio: 'ignore',
  });
  try {
    ok(await computer.tools.wait({ until: 'window_appears', text: 'rep.txt', timeoutMs: 20000 }));
    ok(await computer.tools.observe({ full: true, app: 'gedit' }));
    const dialog = ok(await computer.tools.keys({ keys: 'ctrl+h', app: 'gedit' }));
    assert.match(dialog, /new window \[w\d+\] dialog "Find and Replace"/, dialog);
    // The fields are named by the labels beside them (drivers/common/labels.ts); the search field has the focus.
    const find = refOn(dialog, /textbox beside="Find" editable focused/);
    const replace = refOn(dialog, /textbox beside="Replace with" editable/);
    ok(
      await computer.tools.act({
        actions: [
          { ref: find, op: 'set_value', value: 'budget' },
          { ref: replace, op: 'set_value', value: 'plan' },
        ],
      }),
    );
    const r = ok(await computer.tools.act({ actions: [{ ref: refOn(dialog, /button "Replace All"/), op: 'click' }] }));
    assert.match(r, /^\[w\d+\] window "\*?rep\.txt[^"]*" of the same app changed:$/m, r);
    assert.match(
      r,
      /document value "The budget is approved\.\\nSend the budget\.(\\n)?" → "The plan is approved\.\\nSend the plan\.(\\n)?"/,
      r,
    );
    assert.doesNotMatch(r, /no visible change/, r);
  } finally {
    await computer.close();
    if (app.pid) await killApp(app.pid);
  }
});
