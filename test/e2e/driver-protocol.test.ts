/**
 * The real Linux driver process on the wire, inside a sandbox desktop (`npm run test:e2e` provides DISPLAY,
 * DBUS_SESSION_BUS_ADDRESS and AT_SPI_BUS_ADDRESS): protocol robustness, error codes, and Device's restart
 * after the driver is killed.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Device } from '../../src/devices/manager.js';
import { isComputerUseError } from '../../src/protocol/errors.js';
import { LineReader } from '../../src/protocol/framing.js';
import { METHOD_NAMES, PROTOCOL_VERSION } from '../../src/protocol/methods.js';

const ENTRY = fileURLToPath(new URL('../../src/drivers/linux/main.js', import.meta.url));

interface Wire {
  jsonrpc: string;
  id?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: { code?: string } };
}

/** The driver as a raw process: write lines, wait for the response of an id. */
class RawDriver {
  readonly child: ChildProcessWithoutNullStreams;
  readonly received: Wire[] = [];
  stderr = '';
  private readonly reader = new LineReader();
  private waiters: (() => void)[] = [];

  constructor() {
    this.child = spawn(process.execPath, [ENTRY], { env: process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.setEncoding('utf8');
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (d: string) => { this.stderr += d; });
    this.child.stdout.on('data', (chunk: string) => {
      for (const ev of this.reader.push(chunk)) if (ev.kind === 'message') this.received.push(ev.message as Wire);
      for (const w of this.waiters) w();
    });
    this.child.on('exit', () => { for (const w of this.waiters) w(); });
  }

  send(line: string): void { this.child.stdin.write(line.endsWith('\n') ? line : `${line}\n`); }

  request(id: number, method: string, params: unknown = {}): void {
    this.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
  }

  /** Waits for the response with this id, failing after a deadline or if the driver exits. */
  async response(id: number, timeoutMs = 10_000): Promise<Wire> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.received.find((m) => m.id === id);
      if (hit) return hit;
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        assert.fail(
          `driver exited (${this.child.exitCode ?? this.child.signalCode}) before answering ${id}:\n` +
            `${this.stderr}`,
        );
      }
      const left = deadline - Date.now();
      if (left <= 0) assert.fail(`no response to ${id} within ${timeoutMs} ms:\n${this.stderr}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, left);
        const waiters = this.waiters;
        function done(): void { clearTimeout(timer); waiters.splice(waiters.indexOf(done), 1); resolve(); }
        waiters.push(done);
      });
    }
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
  }
}

/** Polls until `probe` returns true, or fails after the deadline. */
async function until(what: string, probe: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

let driver: RawDriver;
before(() => {
  assert.ok(process.env['DISPLAY'] && process.env['AT_SPI_BUS_ADDRESS'], 'run inside a sandbox: npm run test:e2e');
  driver = new RawDriver();
});
after(async () => { await driver.stop(); });

test('hello: protocolVersion, every method, platform linux, version, capabilities and permissions', async () => {
  driver.request(1, 'hello', { client: 'e2e' });
  const r = await driver.response(1, 20_000);
  assert.equal(r.error, undefined, JSON.stringify(r.error));
  const hello = r.result as {
    protocolVersion: string;
    methods: string[];
    platform: string;
    version: string;
    capabilities: string[];
    permissions: Record<string, boolean>;
    session?: string;
  };
  assert.equal(hello.platform, 'linux');
  assert.equal(hello.protocolVersion, PROTOCOL_VERSION);
  // The Linux driver serves every declared method.
  assert.deepEqual([...hello.methods].sort(), [...METHOD_NAMES].sort());
  assert.match(hello.version, /^\d+\.\d+\.\d+/);
  assert.ok(
    Array.isArray(hello.capabilities) && hello.capabilities.includes('events'),
    JSON.stringify(hello.capabilities),
  );
  assert.equal(hello.permissions['a11y_bus'], true);
  // Synthetic input is XTest over the driver's own X connection, no helper program.
  assert.equal(hello.permissions['xtest'], true, JSON.stringify(hello.permissions));
  assert.equal(hello.permissions['xdotool'], undefined);
  assert.equal(hello.session, 'x11');
});

test('a malformed line and a non-object line do not crash the driver; it answers the next request', async () => {
  driver.send('{not json');
  driver.send('42');
  driver.request(2, 'hello');
  const r = await driver.response(2);
  assert.equal((r.result as { platform: string }).platform, 'linux');
  // The non-object got an Invalid Request error (id null); the non-JSON line was only logged.
  const invalid = driver.received.filter((m) => m.id === null);
  assert.equal(invalid.length, 1, JSON.stringify(invalid));
  assert.equal(invalid[0]?.error?.code, -32600);
  await until('the junk line logged on stderr', () => driver.stderr.includes('{not json'));
  assert.equal(driver.child.exitCode, null);
});

test('an unknown method is a JSON-RPC error with data.code unsupported', async () => {
  driver.request(3, 'frobnicate.widgets', { hard: true });
  const r = await driver.response(3);
  assert.equal(r.result, undefined);
  assert.equal(r.error?.code, -32601);
  assert.equal(r.error?.data?.code, 'unsupported');
  assert.match(r.error?.message ?? '', /frobnicate\.widgets/);
});

test('tree.snapshot of a window that does not exist answers window_not_found promptly', async () => {
  const t0 = Date.now();
  // A well-formed handle on a bus name nobody owns, and an object path the registry does not have.
  driver.request(4, 'tree.snapshot', { window: ':1.99999/org/a11y/atspi/accessible/root' });
  driver.request(5, 'tree.snapshot', { window: 'org.a11y.atspi.Registry/org/a11y/atspi/accessible/no_such_window' });
  for (const id of [4, 5]) {
    const r = await driver.response(id, 10_000);
    assert.equal(r.result, undefined, `${id}: got a result`);
    assert.equal(r.error?.data?.code, 'window_not_found', `${id}: ${JSON.stringify(r.error)}`);
    // The driver states the fact and the remedy by name; the host words it in its tools' names (tools/remedy.ts).
    assert.match(r.error?.message ?? '', /gone|closed/);
    assert.doesNotMatch(r.error?.message ?? '', /computer_/);
    assert.deepEqual(
      (r.error?.data as { remedy?: unknown } | undefined)?.remedy,
      ['list_windows'],
      JSON.stringify(r.error),
    );
  }
  assert.ok(Date.now() - t0 < 10_000);
});

test('tree.snapshot of a handle that is not a handle at all answers window_not_found', async () => {
  driver.request(6, 'tree.snapshot', { window: 'bogus' });
  const r = await driver.response(6);
  assert.equal(r.error?.data?.code, 'window_not_found', JSON.stringify(r.error));
});

test('Device: a driver killed with SIGKILL fails the ' +
    'call in flight, and the next call restarts it', { timeout: 90_000 }, async (t) => {
  const device = new Device({ platform: 'linux', timeoutMs: 30_000 });
  let appPid: number | undefined;
  try {
    const hello = await device.hello();
    assert.equal(hello.platform, 'linux');
    assert.equal(device.restarts, 0);
    const launched = await device.call('apps.launch', { command: 'gtk3-widget-factory', waitForWindowMs: 15_000 });
    appPid = launched.pid;
    const window = launched.window;
    assert.ok(window, 'the launch reported a window');
    assert.equal(window.app, 'gtk3-widget-factory');
    const first = await device.call('tree.snapshot', { window: window.id });
    assert.ok(first.stats.nodes > 20, `${first.stats.nodes} nodes`);

    // Kill the driver while a call is running: settle waits for 5 s of quiet, so it is surely in flight.
    const pid = device.driverPid;
    assert.ok(pid !== undefined);
    const inFlight = device.call('ui.settle', { quietMs: 5000, timeoutMs: 20_000 });
    await new Promise((r) => setImmediate(r));
    process.kill(pid, 'SIGKILL');
    const t0 = Date.now();
    await assert.rejects(inFlight, (e: unknown) => {
      assert.ok(isComputerUseError(e, 'driver_unavailable'), String(e));
      assert.match(e.message, /driver (stopped|exited)|SIGKILL/);
      assert.match(e.message, /restarted on the next call/);
      return true;
    });
    t.diagnostic(`in-flight call failed ${Date.now() - t0} ms after the kill`);

    // The next call starts a new driver, and the app and its window are still there.
    const again = await device.call('tree.snapshot', { window: window.id });
    assert.equal(device.restarts, 1);
    assert.notEqual(device.driverPid, pid);
    assert.equal(again.window.id, window.id);
    assert.equal(again.stats.nodes, first.stats.nodes);

    // Killed while idle: once the exit is seen, the next call restarts transparently.
    const pid2 = device.driverPid;
    assert.ok(pid2 !== undefined);
    process.kill(pid2, 'SIGKILL');
    await until('the device to notice the exit', () => device.driverPid === undefined);
    const { apps } = await device.call('apps.list', {});
    assert.ok(apps.some((a) => a.pid === appPid), 'gtk3-widget-factory is listed by the restarted driver');
    assert.equal(device.restarts, 2);
  } finally {
    await device.close();
    if (appPid !== undefined) {
      try { process.kill(appPid, 'SIGTERM'); } catch { /* already gone */ }
      await until('gtk3-widget-factory to exit', () => {
        try { process.kill(appPid!, 0); return false; } catch { return true; }
      }).catch(() => { try { process.kill(appPid!, 'SIGKILL'); } catch { /* gone */ } });
    }
  }
});
