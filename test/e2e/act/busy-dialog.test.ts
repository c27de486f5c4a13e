/**
 * An app busy inside the act itself (claws-mail's Compose opened a modal "Spell checker could not be started"
 * error inside the click's own call): the app answers no accessibility request while the dialog waits, and in a
 * trial `apps` then listed only "claws-mail (busy: not answering)", with no window, so the model could neither
 * see nor close the dialog. The display's window list still holds both windows: the act's answer and `apps` name
 * them with the way out, and OCR of the dialog's window plus a pointer click answer it (keys do not: the app's bridge
 * holds each key event on the bus while it is busy). Fixture: test/apps/busy-dialog.py.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { killApp, ok, openComputer, refOn } from '../helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const APP = join(root, 'test', 'apps', 'busy-dialog.py');

test('a modal dialog opened inside the act: the answer and the app list ' +
    'name its window and the way out; OCR and a click answer it', { timeout: 120_000 }, async () => {
  const computer = await openComputer({ allowApps: [`/usr/bin/python3 ${APP}`] });
  const app = spawn('/usr/bin/python3', [APP], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  app.stdout?.setEncoding('utf8').on('data', (d: string) => { out += d; });
  const printed = async (line: RegExp): Promise<void> => {
    for (let i = 0; i < 200 && !line.test(out); i++) await new Promise((r) => setTimeout(r, 100));
    assert.match(out, line);
  };
  try {
    await printed(/^ready$/m);
    const snap = ok(await computer.tools.wait({ until: 'window_appears', text: 'Busy lab', timeoutMs: 15000 }));
    const compose = refOn(snap, /button "Compose"/);
    const r = await computer.tools.act({ actions: [{ ref: compose, op: 'click' }] });
    await printed(/^dialog open$/m);
    // The act's own answer names the dialog's window and the way out.
    assert.match(r.text, /\[w\d+\] \w+ "Error"/, r.text);
    assert.match(r.text, /read it with computer_screenshot \(OCR\) and click its button/, r.text);
    const apps = ok(await computer.tools.apps({}));
    const block = apps.split(/\n(?=\S)/).find((b) => b.includes(`pid=${app.pid}`)) ?? '';
    assert.match(block, /busy/, apps);
    const dialog = /\[(w\d+)\] \w+ "Error"/.exec(block)?.[1];
    // The main window, listed from the display now, keeps the ref it had: one id for one window.
    const main = /\[(w\d+)\] "Busy lab"/.exec(snap)?.[1];
    assert.ok(main, snap);
    assert.match(block, new RegExp(`\\[${main}\\] window "Busy lab"`), block);
    assert.ok(dialog, `the app list names the dialog's window: ${apps}`);
    assert.match(block, /read it with computer_screenshot \(OCR\) and click its button/, block);
    // Observing that window says the app is busy and to look again, never to close and relaunch a working app.
    const seen = await computer.tools.observe({ window: dialog });
    assert.match(seen.text, /busy/, seen.text);
    assert.doesNotMatch(seen.text, /start it again|Close the app/, seen.text);
    // The way out works: OCR of that window finds its button, a pointer click on it answers the dialog.
    const shot = ok(await computer.tools.screenshot({ window: dialog, mode: 'ocr' }));
    const button = /\[(o\d+)\] text "ok"/i.exec(shot)?.[1];
    assert.ok(button, shot);
    ok(await computer.tools.act({ actions: [{ ref: button, op: 'click' }] }));
    await printed(/^dialog closed /m);
  } finally {
    await computer.close();
    if (app.pid) await killApp(app.pid);
  }
});
