/**
 * A launch whose started program turns out denied is ended by the device's driver (`apps.terminate`), never by
 * a host `process.kill`: the pid belongs to the device (an ssh or paired device has its own pid space), and on
 * this machine the same number can be an unrelated process.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import { createComputer } from '../../src/index.js';
import { widgetFactory } from '../fixtures/engine/widget-factory.js';

const home = mkdtempSync(join(tmpdir(), 'cu-launch-terminate-'));
process.env['COMPUTER_USE_HOME'] = home;

const alive = (pid: number): boolean => { try { process.kill(pid, 0); return true; } catch { return false; } };

test('a denied program started on a remote device is ended ' +
    'there, and the same pid on this machine lives on', async () => {
  // An unrelated local process whose pid the remote device happens to report for what it started.
  const bystander = spawn('sleep', ['60'], { stdio: 'ignore' });
  const pid = bystander.pid!;
  try {
    const w = widgetFactory();
    const local = new FakeDriver([{ info: w.window, root: w.root }]);
    const remote = new FakeDriver();
    remote.extra['apps.launch'] = () => ({
      pid,
      window: { id: 'w9', title: 'Passwords', app: 'keepassxc', pid, role: 'window', focused: true, startToken: '77' },
    });
    remote.extra['apps.resolveLaunch'] = () => ({
      executable: '/opt/notes/notes',
      argv: ['/opt/notes/notes'],
      names: ['notes'],
    });
    remote.extra['apps.terminate'] = () => ({ ended: true });
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
    const r = await c.call('computer_launch', { device: 'lab', command: 'notes' });
    assert.equal(r.code, 'denied_by_policy', r.text);
    assert.match(r.text, /password manager/);
    await new Promise((res) => setTimeout(res, 100));
    assert.ok(alive(pid), 'the local process with the device\'s pid number was not killed');
    const ends = remote.calls.filter((x) => x.method === 'apps.terminate');
    assert.deepEqual(
      ends.map((x) => x.params),
      [{ pid, startToken: '77' }],
      "the device's driver was asked to end it, bound to its start token",
    );
    await c.close();
  } finally { bystander.kill('SIGKILL'); }
});
