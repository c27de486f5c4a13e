/**
 * A notebook's pages (Mousepad's preferences, GTK 3). A model toggled [e5] "Show line numbers" on the View page,
 * went to another page and back, and found the box as [e34]; on the other page, `find "Show line numbers"` answered
 * "0 matches". The page shown again gives its elements their own refs back, and find reaches a page not shown,
 * naming the tab to click first.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Computer } from '../../../src/index.js';
import { killApp, ok, openComputer, refOn } from '../helpers.js';

/** Mousepad's preferences on its View page, its first print, and how to end it. */
async function preferences(): Promise<{ computer: Computer; first: string; view: string; end: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'cu-act-tab-pages-'));
  writeFileSync(join(dir, 'settings.json'), '{}', { mode: 0o600 });
  const computer = await openComputer({
    auditPath: join(dir, 'audit.jsonl'),
    settingsPath: join(dir, 'settings.json'),
  });
  const app = spawn('mousepad', ['--disable-server', '--preferences'], {
    env: { ...process.env, GSETTINGS_BACKEND: 'memory' },
    stdio: 'ignore',
  });
  const end = async (): Promise<void> => {
    await computer.close();
    if (app.pid) await killApp(app.pid);
  };
  try {
    ok(await computer.tools.wait({ until: 'window_appears', text: 'Preferences', timeoutMs: 20000 }));
    let first = ok(await computer.tools.observe({ full: true, app: 'mousepad' }));
    // The dialog opens on the page last shown.
    const view = refOn(first, /tab "View"/);
    if (!/tab "View" selected/.test(first)) {
      ok(await computer.tools.act({ actions: [{ ref: view, op: 'click' }] }));
      first = ok(await computer.tools.observe({ full: true, app: 'mousepad' }));
    }
    return { computer, first, view, end };
  } catch (e) {
    await end();
    throw e;
  }
}

test('mousepad preferences: refs survive page switches; find reaches a page not shown', async () => {
  const { computer, first, view, end } = await preferences();
  try {
    const editor = refOn(first, /tab "Editor"/);
    const box = refOn(first, /checkbox "Show line numbers"/);
    const display = refOn(first, /group "Display"/);
    // As the trial did: toggle, go to another page, edit there (several reads), then come back.
    ok(await computer.tools.act({ actions: [{ ref: box, op: 'toggle' }, { ref: editor, op: 'click' }] }));
    const editorPage = ok(await computer.tools.observe({ app: 'mousepad' }));
    const width = refOn(editorPage, /spinbutton beside="Tab width:"/);
    ok(await computer.tools.act({ actions: [{ ref: width, op: 'set_value', value: '3' }] }));
    ok(await computer.tools.act({ actions: [{ ref: width, op: 'set_value', value: '5' }] }));
    const found = ok(await computer.tools.find({ text: 'Show line numbers' }));
    assert.match(found, /^1 match for "Show line numbers"/m, found);
    assert.match(found, new RegExp(`^\\[${box}\\] checkbox "Show line numbers" \\w+ — on the page of \\[${view}\\] ` +
      `tab "View", not shown: click the tab first`, 'm'), found);
    const back = ok(await computer.tools.act({ actions: [{ ref: view, op: 'click' }] }));
    assert.match(back, new RegExp(`\\[${box}\\] checkbox "Show line numbers"`), back);
    assert.match(back, new RegExp(`\\[${display}\\] group "Display"`), back);
  } finally {
    await end();
  }
});

test('mousepad preferences: a page seen before and shown again as it was is one receipt line', async () => {
  const { computer, first, view, end } = await preferences();
  try {
    const editor = refOn(first, /tab "Editor"/);
    const box = refOn(first, /checkbox "Show line numbers"/);
    // The Editor page, never seen: printed as a first print shows it, each element by its ref.
    const toEditor = ok(await computer.tools.act({ actions: [{ ref: editor, op: 'click' }] }));
    assert.match(toEditor, new RegExp(`~ \\[${editor}\\] tab "Editor" unselected → selected`), toEditor);
    assert.match(toEditor, /^\+ \[e\d+\] group "Indentation"/m, toEditor);
    assert.doesNotMatch(toEditor, /shown again/, toEditor);
    // The View page, seen and unchanged: one line that names its tab, no element of it.
    const back = ok(await computer.tools.act({ actions: [{ ref: view, op: 'click' }] }));
    assert.match(back, new RegExp(`^\\+ \\[e\\d+\\].* page of \\[${view}\\] tab "View" shown again, as before: `, 'm'),
      back);
    assert.doesNotMatch(back, /checkbox "Show line numbers"/, back);
    assert.equal(back.split('\n').filter((l) => l.startsWith('+ ')).length, 1, back);
    // Its refs hold, and observe still prints it whole.
    const again = ok(await computer.tools.observe({ full: true, app: 'mousepad' }));
    assert.match(again, new RegExp(`\\[${box}\\] checkbox "Show line numbers"`), again);
    ok(await computer.tools.act({ actions: [{ ref: box, op: 'toggle' }] }));
  } finally {
    await end();
  }
});
