/**
 * A launch whose started program turns out denied must never be ended by a host `process.kill` when the program
 * runs on another device: an ssh, paired or adb device has its own pid space, and the same number here can be an
 * unrelated process of this machine.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import { createComputer } from '../../src/index.js';
import type { Handlers } from '../../src/protocol/peer.js';
import { widgetFactory } from '../fixtures/engine/widget-factory.js';

const home = mkdtempSync(join(tmpdir(), 'cu-launch-remote-kill-'));
process.env['COMPUTER_USE_HOME'] = home;
const alive = (pid: number): boolean => { try { process.kill(pid, 0); return true; } catch { return false; } };

test('a denied program started on a remote device is not "ended" by killing the same pid on this machine', async () => {
  const bystander = spawn('sleep', ['60'], { stdio: 'ignore' });
  const pid = bystander.pid!;
  try {
    const w = widgetFactory();
    const local = new FakeDriver([{ info: w.window, root: w.root }]);
    const remote = new FakeDriver();
    const base = remote.handlers.bind(remote);
    // A device driver that resolves launches but cannot end a process (no apps.terminate).
    remote.handlers = (): Handlers => ({
      ...base(),
      'apps.launch': () => ({
        pid,
        window: { id: 'w9', title: 'Passwords', app: 'keepassxc', pid, role: 'window', focused: true },
      }),
      'apps.resolveLaunch': () => ({ executable: '/opt/notes/notes', argv: ['/opt/notes/notes'], names: ['notes'] }),
    });
    const c = await createComputer({
      desktop: 'current',
      mode: 'bypass',
      allowApps: ['notes'],
      settingsPath: join(home, 'settings.json'),
      auditPath: join(home, 'audit.jsonl'),
      connect: () => local.connect(),
      showActivity: false,
      devices: [{ name: 'lab', connect: () => remote.connect() }],
    });
    try {
      const r = await c.call('computer_launch', { device: 'lab', command: 'notes' });
      assert.equal(r.code, 'denied_by_policy', r.text);
      await new Promise((res) => setTimeout(res, 100));
      assert.ok(alive(pid), 'the local process that has the device\'s pid number lives on');
      assert.match(r.text, /not ended \(on device lab/, r.text);
    } finally { await c.close(); }
  } finally { bystander.kill('SIGKILL'); }
});
