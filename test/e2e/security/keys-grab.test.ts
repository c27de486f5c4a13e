/**
 * Keys reach the target or are refused, also when another app holds the keyboard. A window of another process
 * that grabs the keyboard (test/apps/keyboard-grab.py; a browser's open menu or popup does the same) gets every
 * key the X server receives, wherever the focus is: in a trial, "keys ctrl+h --app gedit" answered "ok" three
 * times while the keys went elsewhere, though the window manager and the X focus both named gedit's window.
 * Now the keys are refused as window_not_focused, naming the window that holds the focus, nothing typed
 * anywhere; once the grab is gone they reach gedit.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import type { Computer } from '../../../src/index.js';
import { E2E_APPS, killApp, ok, openComputer } from '../helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const GRABBER = join(root, 'test', 'apps', 'keyboard-grab.py');

let computer: Computer;
let gedit: ChildProcess | undefined;
let grabber: ChildProcess | undefined;
let printed = '';

/** gedit's window line in computer_apps, once its own process lists one. */
async function geditWindow(): Promise<string> {
  for (let i = 0; i < 60; i++) {
    const apps = ok(await computer.tools.apps({}));
    const m = new RegExp(`^gedit pid=${gedit?.pid}\\n\\s+\\[(w\\d+)\\]`, 'm').exec(apps);
    if (m?.[1]) return m[1];
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('gedit showed no window');
}

before(async () => {
  computer = await openComputer({ allowApps: [...E2E_APPS, `/usr/bin/python3 ${GRABBER}`] });
  // Its own instance: a gedit already running would take the window and exit.
  gedit = spawn('gedit', ['--standalone'], { detached: true, stdio: 'ignore' });
});
after(async () => {
  await computer?.close();
  if (grabber?.pid) await killApp(grabber.pid);
  if (gedit?.pid) await killApp(gedit.pid);
});

test('keys aimed at gedit while another app grabs the keyboard ' +
    'are refused, naming the focused window; nothing is typed', { timeout: 90_000 }, async () => {
  const window = await geditWindow();
  grabber = spawn('/usr/bin/python3', [GRABBER], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  grabber.stdout?.setEncoding('utf8').on('data', (d: string) => { printed += d; });
  for (let i = 0; i < 200 && !/^grab/m.test(printed); i++) await new Promise((r) => setTimeout(r, 50));
  assert.match(printed, /^grabbed$/m, printed);

  const r = await computer.tools.keys({ keys: 'x y z', window });
  await new Promise((resolve) => setTimeout(resolve, 400));
  assert.doesNotMatch(printed, /^key /m, `the keys reached the grabbing app (${r.code ?? 'ok'}: ${r.text})`);
  assert.equal(r.code, 'window_not_focused', r.text);
  assert.match(r.text, /holds the keyboard/, r.text);
  assert.match(r.text, /"Grabber"/, `names the window that has the focus: ${r.text}`);
  assert.doesNotMatch(ok(await computer.tools.observe({ window, full: true })), /value="[^"]*xyz/);

  // The grab gone, the same keys reach gedit (focused first when needed, proven).
  await killApp(grabber.pid!);
  grabber = undefined;
  const sent = ok(await computer.tools.keys({ keys: 'x y z', window }));
  assert.match(sent, /^ok keys /m, sent);
  assert.match(ok(await computer.tools.observe({ window, full: true })), /document value="xyz"/);
});
