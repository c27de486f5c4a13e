import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dbusCall, getA11yAddress } from '../../src/drivers/linux/sandbox/dbus.js';
import { pidAlive, pidsWithEnv, pollUntil } from '../../src/drivers/linux/sandbox/processes.js';
import {
  listSandboxes,
  sandboxEnv,
  startSandbox,
  stopSandbox,
  type SandboxInfo,
} from '../../src/drivers/linux/sandbox/sandbox.js';

/** Applications registered with the AT-SPI registry of a sandbox. */
async function registeredApps(info: SandboxInfo): Promise<number> {
  const [children] = await dbusCall(info.a11yAddress, {
    destination: 'org.a11y.atspi.Registry',
    path: '/org/a11y/atspi/accessible/root',
    interface: 'org.a11y.atspi.Accessible',
    member: 'GetChildren',
  });
  assert.ok(Array.isArray(children));
  return children.length;
}

test('two sandboxes side by side: own buses, apps register, clean teardown', { timeout: 90_000 }, async (t) => {
  // Our own state folder, so the sandbox this test may run inside (`sandbox exec`) is left alone.
  const home = mkdtempSync(join(tmpdir(), 'cu-e2e-'));
  const previousHome = process.env['COMPUTER_USE_HOME'];
  process.env['COMPUTER_USE_HOME'] = home;
  const started: SandboxInfo[] = [];
  try {
    const t0 = Date.now();
    const both = await Promise.all([startSandbox(), startSandbox()]);
    started.push(...both);
    const [a, b] = both as [SandboxInfo, SandboxInfo];
    t.diagnostic(`two sandboxes up in ${Date.now() - t0} ms: ${a.display} ${b.display}`);
    assert.notEqual(a.display, b.display);
    assert.notEqual(a.dbusAddress, b.dbusAddress);
    assert.notEqual(a.a11yAddress, b.a11yAddress);
    assert.equal((await listSandboxes()).filter((s) => s.alive).length, 2);

    for (const info of both) {
      assert.equal(await getA11yAddress(info.dbusAddress, { noAutoStart: true }), info.a11yAddress);
      const before = await registeredApps(info);
      const app = spawn('gtk3-widget-factory', [], { env: sandboxEnv(info), stdio: 'ignore', detached: true });
      app.unref();
      const after = await pollUntil(`gtk3-widget-factory on ${info.display} registers`, async () => {
        const n = await registeredApps(info);
        return n > before ? n : undefined;
      }, { timeoutMs: 20_000, intervalMs: 100 });
      assert.ok(after > before);
    }

    for (const info of both) {
      const t1 = Date.now();
      await stopSandbox(info.display);
      t.diagnostic(`${info.display} stopped in ${Date.now() - t1} ms`);
      assert.deepEqual(await pidsWithEnv([`DBUS_SESSION_BUS_ADDRESS=${info.dbusAddress}`]), []);
      assert.equal(await pidAlive(info.pids.xvfb ?? -1), false, `Xvfb ${info.pids.xvfb} still runs`);
      assert.equal(existsSync(info.runtimeDir), false);
    }
    assert.deepEqual(await listSandboxes(), []);
  } finally {
    for (const info of started) await stopSandbox(info.display).catch(() => undefined);
    if (previousHome === undefined) delete process.env['COMPUTER_USE_HOME'];
    else process.env['COMPUTER_USE_HOME'] = previousHome;
    rmSync(home, { recursive: true, force: true });
  }
});
