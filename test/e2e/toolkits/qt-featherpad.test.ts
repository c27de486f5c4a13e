/**
 * A Qt 5 app (featherpad) started through computer_launch registers with the accessibility
 * bus, survives being read (Qt 5 crashed on Properties.GetAll), and a user's task works end to end: type a
 * line, save it through ctrl+s and the Save dialog, and the file holds the bytes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { Computer } from '../../../src/index.js';
import { E2E_APPS, killApp, launch, ok, openComputer, refOn } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'cu-qt-'));
let computer: Computer | undefined;
let pid = 0;

after(async () => {
  if (pid) await killApp(pid);
  await computer?.close();
});

test('featherpad (Qt 5): launch, type, save through the dialog, file bytes', async () => {
  computer = await openComputer({ allowApps: [...E2E_APPS, 'featherpad'] });
  const started = await launch(computer, 'featherpad');
  pid = started.pid;
  // The launch snapshot is the app's tree: the editor and the toolbar are there.
  const doc = refOn(started.text, /document editable/);
  // The toolbar's buttons may print folded to one line (`… 12 buttons: e14 "Save", …`).
  assert.match(started.text, /button "Save"|\be\d+ "Save"/, started.text);

  const typed = ok(await computer.tools.act({ actions: [{ ref: doc, op: 'type', value: 'hello from Qt 5, 你好' }] }));
  assert.match(typed, /\*Untitled/, typed); // the title marks the document modified

  const saving = ok(await computer.tools.keys({ keys: 'ctrl+s', app: 'featherpad' }));
  assert.match(saving, /dialog "Save as\.\.\."/, saving);
  const dialog = ok(await computer.tools.observe({ full: true, app: 'featherpad' }));
  const name = refOn(dialog, /textbox "File name:"/);
  const save = refOn(dialog, /button "Save"/);
  const file = join(dir, 'qt-note.txt');
  ok(await computer.tools.act({ actions: [{ ref: name, op: 'set_value', value: file }] }));
  const clicked = ok(await computer.tools.act({ actions: [{ ref: save, op: 'click' }] }));
  assert.match(clicked, /window closed/, clicked);

  for (let i = 0; i < 50 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 100));
  // featherpad ends the file with a newline.
  assert.equal(readFileSync(file, 'utf8').replace(/\n$/, ''), 'hello from Qt 5, 你好');

  // Reading it again does not crash it (Qt 5 segfaulted on the first Properties.GetAll).
  const again = ok(await computer.tools.observe({ full: true, app: 'featherpad' }));
  assert.match(again, /qt-note\.txt/, again);
  process.kill(pid, 0);
});
