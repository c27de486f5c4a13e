/**
 * Keys go to the window the policy judged, not merely to its process. A GTK app's main window "Notes" (a plain
 * entry) has a modal "Unlock" dialog of the same process over it, its password entry focused: the window
 * manager hands the focus to the modal when Notes is activated. computer_keys aimed at "Notes" must then not
 * type into the password field unasked (the decision read Notes' focused entry, not the dialog's): it is refused
 * as window_not_focused naming the window that holds the focus, or asked; the dialog's field stays empty.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import type { Computer } from '../../../src/index.js';
import { killApp, ok, openComputer } from '../helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const APP = join(root, 'test', 'apps', 'modal-password.py');

let computer: Computer;
let app: ChildProcessWithoutNullStreams;
let printed = '';

before(async () => {
  app = spawn('/usr/bin/python3', [APP]);
  app.stdout.setEncoding('utf8').on('data', (d: string) => { printed += d; });
  computer = await openComputer({ mode: 'accept-edits', allowApps: [`/usr/bin/python3 ${APP}`] });
  ok(await computer.tools.wait({ until: 'window_appears', text: 'Unlock', timeoutMs: 20000 }));
  for (let i = 0; i < 100 && !printed.includes('ready'); i++) await new Promise((r) => setTimeout(r, 50));
});
after(async () => {
  await computer?.close();
  if (app?.pid) await killApp(app.pid);
});

test('keys aimed at the main window while a modal dialog of the ' +
    'same app holds the focus never reach its password field', async () => {
  const r = await computer.tools.keys({ keys: 's e c r e t', window: 'Notes' });
  await new Promise((resolve) => setTimeout(resolve, 400));
  assert.doesNotMatch(printed, /^pw ./m, `the password field received keys (${r.code ?? 'ok'}: ${r.text})`);
  assert.ok(r.code === 'window_not_focused' || r.code === 'confirmation_required', r.text);
  // Named only when it is proven the same app's (another app's title could be a denied one).
  if (/same app/.test(r.text)) assert.match(r.text, /Unlock/, `says which window holds the focus: ${r.text}`);
});

test('keys aimed at the dialog itself are judged on its password field: asked, nothing typed', async () => {
  const seen = printed.length;
  const r = await computer.tools.keys({ keys: 's e c r e t', window: 'Unlock' });
  assert.equal(r.code, 'confirmation_required', r.text);
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.doesNotMatch(printed.slice(seen), /^pw ./m);
});
