/**
 * The close op on a real app, as a person closes a window with its title bar's close button (the window manager's
 * close request, never a kill): gedit with unsaved text asks first, and the receipt names its dialog; answering it
 * closes the window; a window with nothing to save closes and its app exits, which the receipt says.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { killApp, ok, openComputer, refOn } from '../helpers.js';

function gedit(file: string) {
  return spawn('gedit', ['--standalone', file], {
    env: { ...process.env, GSETTINGS_BACKEND: 'memory' },
    stdio: 'ignore',
  });
}

test('gedit, unsaved text: close brings its Save dialog, named in the receipt; Close without Saving ends', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-close-'));
  writeFileSync(join(dir, 'settings.json'), '{}', { mode: 0o600 });
  const file = join(dir, 'draft.txt');
  writeFileSync(file, 'first line\n');
  const computer = await openComputer({
    auditPath: join(dir, 'audit.jsonl'),
    settingsPath: join(dir, 'settings.json'),
  });
  const app = gedit(file);
  try {
    ok(await computer.tools.wait({ until: 'window_appears', text: 'draft.txt', timeoutMs: 20000 }));
    const snap = ok(await computer.tools.observe({ full: true, app: 'gedit' }));
    const body = refOn(snap, /document|textbox .*editable/);
    ok(await computer.tools.act({ actions: [{ ref: body, op: 'type', value: 'unsaved words ' }] }));
    // The close goes to the window that holds the element named (the document here), as its close button does.
    const r = ok(await computer.tools.act({ actions: [{ ref: body, op: 'close' }] }));
    assert.match(
      r,
      /^ok close e1 · confirmed \(the window that holds e\d+; close request sent .*; the app asked first: it opened \[w\d+\] (dialog|alert|window) "[^"]*"/m,
      r,
    );
    assert.match(r, /^new window \[w\d+\]/m, r);
    const dontSave = refOn(r, /button "Close (without|_without) Saving"|button "Don.t Save"/);
    const closed = ok(await computer.tools.act({ actions: [{ ref: dontSave, op: 'click' }] }));
    assert.match(closed, /window closed: \[w\d+\] "\*?draft\.txt/, closed);
  } finally {
    await computer.close();
    if (app.pid) await killApp(app.pid);
  }
});

test('a window with nothing to save closes, and the receipt says its app exited', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-close-'));
  writeFileSync(join(dir, 'settings.json'), '{}', { mode: 0o600 });
  const file = join(dir, 'plain.txt');
  writeFileSync(file, 'nothing to save\n');
  const computer = await openComputer({
    auditPath: join(dir, 'audit.jsonl'),
    settingsPath: join(dir, 'settings.json'),
  });
  const app = gedit(file);
  try {
    ok(await computer.tools.wait({ until: 'window_appears', text: 'plain.txt', timeoutMs: 20000 }));
    const snap = ok(await computer.tools.observe({ full: true, app: 'gedit' }));
    const root = refOn(snap, /^\[e\d+\] window/);
    const r = ok(await computer.tools.act({ actions: [{ ref: root, op: 'close' }] }));
    assert.match(
      r,
      new RegExp(
        `^ok close ${root} · confirmed \\(close request sent \\(_NET_CLOSE_WINDOW\\).*` +
          '; the window closed; gedit exited\\)',
        'm',
      ),
      r,
    );
    assert.match(r, /^window closed: \[w\d+\] "plain\.txt/m, r);
  } finally {
    await computer.close();
    if (app.pid) await killApp(app.pid);
  }
});
