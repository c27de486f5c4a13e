/**
 * GTK 4's Save dialog closes only once the app's save handler ran, after the act's settle. A click on its Save
 * button read `unknown` and "(no visible change in the window)" while the dialog had closed and the main window
 * was retitled: the click must read as the Return does, the dialog closed by the window list and the window that
 * took the focus back with its new title.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { E2E_APPS, killApp, ok, openComputer, refOn } from '../helpers.js';

test("a click on GTK 4's Save button reads the dialog closed and the main window retitled", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-act-gtk4-save-'));
  writeFileSync(join(dir, 'settings.json'), '{}', { mode: 0o600 });
  const computer = await openComputer({
    auditPath: join(dir, 'audit.jsonl'),
    settingsPath: join(dir, 'settings.json'),
    allowApps: [...E2E_APPS, 'gtk4-print-editor'],
  });
  const app = spawn('gtk4-print-editor', [], { env: { ...process.env, GSETTINGS_BACKEND: 'memory' }, stdio: 'ignore' });
  const file = join(dir, 'list.txt');
  try {
    ok(await computer.tools.wait({ until: 'window_appears', text: 'Print Editor', timeoutMs: 20000 }));
    const main = ok(await computer.tools.observe({ full: true, app: 'gtk4-print-editor' }));
    ok(await computer.tools.act({ actions: [{ ref: refOn(main, /document editable/), op: 'type', value: 'milk' }] }));
    const dialog = ok(await computer.tools.keys({ keys: 'ctrl+s', app: 'gtk4-print-editor' }));
    assert.match(dialog, /new window \[w\d+\] \w+ "Select file"/, dialog);
    const name = refOn(dialog, /textbox "Name:" editable/);
    const save = refOn(dialog, /button "Save"/);
    const out = ok(
      await computer.tools.act({
        actions: [
          { ref: name, op: 'set_value', value: file },
          { ref: save, op: 'click' },
        ],
      }),
    );
    assert.match(out, new RegExp(`ok click ${save} · confirmed`), out);
    assert.match(out, /window closed: \[w\d+\] "Select file"/, out);
    assert.match(out, /has the focus back/, out);
    assert.match(out, /list\.txt"/, out);
    assert.doesNotMatch(out, /no visible change/, out);
    for (let i = 0; i < 50 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(readFileSync(file, 'utf8'), 'milk');
  } finally {
    await computer.close();
    if (app.pid) await killApp(app.pid);
  }
});
