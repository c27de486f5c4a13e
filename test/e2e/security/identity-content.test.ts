/**
 * Denied means unseen, by content (docs/policy.md, "One app, one allow entry"): a copy of seahorse (the keyring manager
 * on the
 * built-in deny list) under another name, started by the user (not through computer_launch), is the same
 * program. Its executable's content is checked on every read, not only at launch: apps lists it as denied,
 * observe, find and screenshot refuse it, and no text of its window reaches the model.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdtemp } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Computer } from '../../../src/index.js';
import { killApp, openComputer } from '../helpers.js';

const SEAHORSE = '/usr/bin/seahorse';
let dir: string;
let computer: Computer;
let child: ChildProcess | undefined;
const skip = existsSync(SEAHORSE) ? false : 'seahorse is not installed (scripts/setup-debian.sh installs it)';

before(async () => {
  if (skip) return;
  dir = await mkdtemp(join(tmpdir(), 'cu-content-'));
  process.env['COMPUTER_USE_HOME'] = join(dir, 'home');
  await copyFile(SEAHORSE, join(dir, 'notes'));
  // "notes" is allow-listed: a name (or an allow entry) must not make the copy readable.
  computer = await openComputer({ allowApps: ['notes'], allowScreenshots: true });
  child = spawn(join(dir, 'notes'), [], { stdio: 'ignore' });
  for (let i = 0; i < 200; i++) {
    const apps = await computer.session.device.call('apps.list', { withWindows: true });
    if (apps.apps.some((a) => a.pid === child?.pid && a.windows.length > 0)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail('the copy of seahorse never showed a window');
});

after(async () => {
  if (child?.pid) await killApp(child.pid);
  await computer?.close();
});

test('a renamed copy of seahorse is denied by its content on every read path', { skip }, async () => {
  const apps = (await computer.tools.apps()).text;
  assert.match(apps, /notes .*\(denied: .*keyring or credential manager/, apps);
  for (const r of [
    await computer.tools.observe({ full: true, app: 'notes' }),
    await computer.call('computer_find', { app: 'notes', text: 'Passwords' }),
    await computer.call('computer_screenshot', { app: 'notes', mode: 'ocr' }),
  ]) {
    assert.equal(r.code, 'denied_by_policy', r.text);
    assert.doesNotMatch(r.text, /Passwords|Keys|GnuPG|Login/i, 'nothing of the window reaches the model');
  }
});
