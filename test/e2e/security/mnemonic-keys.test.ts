/**
 * Activation by keys: a GTK button "_Delete all" (accessible name "Delete all", access key
 * alt+d) fires from the keyboard without ever being focused by an act: through its mnemonic, or by moving
 * focus (Tab, ctrl+Tab) and pressing Return or space. What those keys hit cannot be proven before sending,
 * so each sequence asks (accept-edits, nobody to ask: confirmation_required) and no button fires.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import type { Computer } from '../../../src/index.js';
import { killApp, ok, openComputer } from '../helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const APP = join(root, 'test', 'apps', 'buttons.py');
const TITLE = 'Mnemonic buttons';

let computer: Computer;
let app: ChildProcessWithoutNullStreams;
let printed = '';

before(async () => {
  app = spawn('/usr/bin/python3', [
    APP,
    '--mnemonics',
    '--labels',
    '_Archive|_Delete all',
    '--title',
    TITLE,
    '--prgname',
    'mnemonic-buttons',
  ]);
  app.stdout.setEncoding('utf8').on('data', (d: string) => { printed += d; });
  computer = await openComputer({ mode: 'accept-edits', allowApps: [`/usr/bin/python3 ${APP}`] });
  ok(await computer.tools.wait({ until: 'window_appears', text: TITLE, timeoutMs: 20000 }));
});
after(async () => {
  await computer?.close();
  if (app?.pid) await killApp(app.pid);
});

for (const keys of ['alt+d', 'Tab Return', 'ctrl+Tab Return', 'Tab space', 'shift+Tab space']) {
  test(`keys "${keys}" in a window with "Delete all" ask; nothing fires`, async () => {
    const seen = printed.length;
    const r = await computer.tools.keys({ keys, window: TITLE });
    assert.equal(r.code, 'confirmation_required', r.text);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.doesNotMatch(printed.slice(seen), /activated/, printed);
  });
}

test('a harmless shortcut in the same window is not asked (alt+a is the mnemonic of Archive)', async () => {
  // The control alt+a reaches is known ("Archive"): no question, and it fires.
  const r = await computer.tools.keys({ keys: 'alt+a', window: TITLE });
  assert.equal(r.isError, false, r.text);
  for (let i = 0; i < 40 && !/activated 0/.test(printed); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.match(printed, /activated 0/);
  assert.doesNotMatch(printed, /activated 1/);
});
