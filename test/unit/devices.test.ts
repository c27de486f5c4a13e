/**
 * Many devices in one computer, through createComputer and two in-memory fake drivers: refs name
 * their device, calls are routed by ref / `device` / last used, per-device policy, the emergency stop and a link
 * lost mid-act. Plus the ssh address parser and argv builder (no ssh needed here; test/e2e/devices runs sshd).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import { validateSpec } from '../../src/devices/registry.js';
import { classifySshFailure, parseSshUrl, sshArgs } from '../../src/devices/ssh.js';
import type { DriverConnection } from '../../src/devices/stdio.js';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import { resolveLaunchFacts } from '../../src/drivers/linux/apps/resolve.js';
import type { AppInfo } from '../../src/engine/node.js';
import { ComputerUseError } from '../../src/protocol/errors.js';
import { handshake } from '../../src/protocol/handshake.js';
import { Peer, type Handlers } from '../../src/protocol/peer.js';
import { createComputer, type ComputerOptions } from '../../src/index.js';
import { requestResume, requestStop } from '../../src/policy/stop.js';
import { widgetFactory } from '../fixtures/engine/widget-factory.js';

const home = mkdtempSync(join(tmpdir(), 'cu-devices-unit-'));
process.env['COMPUTER_USE_HOME'] = home;

async function two(extra: Partial<ComputerOptions> = {}, lab: Record<string, unknown> = {}) {
  const a = widgetFactory();
  const b = widgetFactory();
  // A pid no process on this machine can have (pid_max is at most 2^22): the fixture's 5151 was sometimes a live
  // process here (another test's driver), whose /proc then proved a different program than the fake app.
  a.window.pid = b.window.pid = 2_000_000_001;
  const local = new FakeDriver([{ info: a.window, root: a.root }]);
  const remote = new FakeDriver([{ info: b.window, root: b.root }]);
  // The remote driver proves the executable (as the Linux driver does from /proc on its own machine).
  const proven = lab['unproven'] !== true;
  if (proven) {
    const plain = (remote as unknown as { apps: () => AppInfo[] }).apps.bind(remote);
    (remote as unknown as { apps: () => AppInfo[] }).apps = () =>
      plain().map((a) => ({ ...a, executable: '/usr/bin/gtk3-widget-factory' }));
  }
  // process.identify as a driver answers it: the executable when it can prove it, else only the pid.
  remote.extra['process.identify'] = (p) =>
    proven ? { pid: p.pid, executable: '/usr/bin/gtk3-widget-factory' } : { pid: p.pid };
  // The local device resolves launches on this machine, as the Linux driver does.
  local.extra['apps.resolveLaunch'] = (p) => resolveLaunchFacts(p);
  delete lab['unproven'];
  let remoteConn: DriverConnection | undefined;
  const c = await createComputer({
    desktop: 'current',
    mode: 'bypass',
    allowApps: ['gtk3-widget-factory'],
    settingsPath: join(home, 'settings.json'),
    auditPath: join(home, 'audit.jsonl'),
    connect: () => local.connect(),
    showActivity: false,
    devices: [{ name: 'lab', connect: () => (remoteConn = remote.connect()), ...lab }],
    ...extra,
  });
  return { c, local, remote, conn: () => remoteConn };
}
/** A driver served by `handlers` in memory, as a DriverConnection (kill closes both ends). */
function inMemoryDriver(handlers: Handlers): DriverConnection {
  const toDriver = new PassThrough();
  const toHost = new PassThrough();
  const server = new Peer(toDriver, toHost, handlers);
  const client = new Peer(toHost, toDriver, {}, { timeoutMs: 5000 });
  const close = (): void => { server.close('closed'); client.close('closed'); };
  return { peer: client, stderrTail: () => '', kill: close, end: async () => close() };
}

const refOf = (text: string, pattern: RegExp): string => {
  const line = text.split('\n').find((l) => pattern.test(l));
  const m = line ? /\[((?:d\d+)?e\d+)\]/.exec(line) : null;
  assert.ok(m?.[1], `no line matches ${pattern} in\n${text}`);
  return m[1];
};

test('the second device prints d2 refs, the first keeps plain ones; acts go where the ref says', async () => {
  const { c, local, remote } = await two();
  const apps = await c.call('computer_apps', {});
  assert.match(apps.text, /^device local:\n {2}gtk3-widget-factory pid=2000000001\n {4}\[w1\] window/m);
  assert.match(apps.text, /^device lab \(refs d2…\):\n {2}gtk3-widget-factory pid=2000000001\n {4}\[d2w1\] window/m);
  const onLab = await c.call('computer_observe', { device: 'lab' });
  const boldLab = refOf(onLab.text, /checkbox "Bold"/);
  assert.match(boldLab, /^d2e\d+$/);
  const onLocal = await c.call('computer_observe', { device: 'local' });
  const boldLocal = refOf(onLocal.text, /checkbox "Bold"/);
  assert.match(boldLocal, /^e\d+$/);
  // The last used device is local, but the d2 ref goes to lab.
  const r = await c.call('computer_act', { actions: [{ ref: boldLab, op: 'toggle' }] });
  assert.match(r.text, new RegExp(`^ok toggle ${boldLab} · confirmed`, 'm'));
  assert.equal(remote.calls.filter((x) => x.method === 'node.act').length, 1);
  assert.equal(local.calls.filter((x) => x.method === 'node.act').length, 0);
  // Without refs or device, a call goes to the device used last (lab now).
  const last = await c.call('computer_observe', { full: true });
  assert.match(last.text, /\[d2e\d+\] checkbox "Bold" checked/);
  // A window ref names its device too.
  assert.match((await c.call('computer_observe', { window: 'd2w1', full: true })).text, /\[d2e\d+\]/);
  assert.match(
    (await c.call('computer_observe', { window: 'w1', full: true })).text,
    /\[e\d+\] checkbox "Bold"(?! checked)/,
  );
  await c.close();
});

test('mixed refs, a ref against another device, an unknown ' +
    'device and an unknown prefix are refused before sending', async () => {
  const { c, local, remote } = await two();
  const l = refOf((await c.call('computer_observe', { device: 'local' })).text, /checkbox "Bold"/);
  const d = refOf((await c.call('computer_observe', { device: 'lab' })).text, /checkbox "Bold"/);
  const mixed = await c.call('computer_act', { actions: [{ ref: l, op: 'toggle' }, { ref: d, op: 'toggle' }] });
  assert.equal(mixed.code, 'invalid_params');
  assert.match(mixed.text, /mixes refs of 2 devices/);
  assert.match(
    (await c.call('computer_act', { device: 'lab', actions: [{ ref: l, op: 'toggle' }] })).text,
    /^error invalid_params: The refs belong to device local, not lab/,
  );
  assert.equal((await c.call('computer_observe', { device: 'mars' })).code, 'unknown_device');
  assert.equal((await c.call('computer_act', { actions: [{ ref: 'd7e1', op: 'toggle' }] })).code, 'unknown_device');
  // A bad device value fails the schema first (invalid_params), like any field.
  assert.equal((await c.call('computer_observe', { device: '-oProxyCommand=x' })).code, 'invalid_params');
  assert.equal([...local.calls, ...remote.calls].filter((x) => x.method === 'node.act').length, 0);
  await c.close();
});

test('per-device policy: an app denied on lab is unseen there ' +
    'and still usable locally; lab in plan mode refuses acts', async () => {
  const denied = await two({}, { denyApps: ['gtk3-widget-factory'] });
  const apps = await denied.c.call('computer_apps', {});
  assert.match(apps.text, /^device lab \(refs d2…\):\n {2}gtk3-widget-factory \(denied: /m);
  assert.equal((await denied.c.call('computer_observe', { device: 'lab' })).code, 'denied_by_policy');
  assert.equal((await denied.c.call('computer_observe', { device: 'local' })).isError, false);
  await denied.c.close();
  const plan = await two({}, { mode: 'plan' });
  const d = refOf((await plan.c.call('computer_observe', { device: 'lab' })).text, /checkbox "Bold"/);
  const refused = await plan.c.call('computer_act', { actions: [{ ref: d, op: 'toggle' }] });
  assert.match(refused.text, /rejected toggle d2e\d+ · denied_by_policy: Plan mode/);
  const l = refOf((await plan.c.call('computer_observe', { device: 'local' })).text, /checkbox "Bold"/);
  assert.match((await plan.c.call('computer_act', { actions: [{ ref: l, op: 'toggle' }] })).text, /confirmed/);
  assert.equal(plan.remote.calls.filter((x) => x.method === 'node.act').length, 0);
  await plan.c.close();
  // Identity comes from the device's own driver: a remote process it cannot prove is unproven, whatever this
  // machine's /proc says about the same pid number.
  const unproven = await two({}, { unproven: true });
  const u = refOf((await unproven.c.call('computer_observe', { device: 'lab' })).text, /checkbox "Bold"/);
  assert.match(
    (await unproven.c.call('computer_act', { actions: [{ ref: u, op: 'toggle' }] })).text,
    /confirmation_required: .*cannot be proven/,
  );
  await unproven.c.close();
});

test('a link lost while node.act is in flight is receipt unknown, never failed; the next call reconnects', async () => {
  const { c, remote, conn } = await two();
  const d = refOf((await c.call('computer_observe', { device: 'lab' })).text, /checkbox "Bold"/);
  const restarts = c.devices.byName('lab')!.session.device.restarts;
  remote.onAct = () => { conn()?.kill(); }; // the act happens on the device, and the link drops before the answer
  const r = await c.call('computer_act', { actions: [{ ref: d, op: 'toggle' }] });
  assert.equal(r.isError, false, r.text);
  assert.match(
    r.text,
    new RegExp(
      `^ok toggle ${d} · unknown \\(The link to device lab dropped while node.act was in flight: it may have ` +
        `happened`,
      'm',
    ),
  );
  delete remote.onAct;
  const again = await c.call('computer_observe', { device: 'lab' });
  assert.equal(again.isError, false, again.text);
  assert.match(again.text, /checkbox "Bold" checked/, 'it had happened');
  assert.equal(c.devices.byName('lab')!.session.device.restarts, restarts + 1);
  await c.close();
});

test('the emergency stop reaches every device: a call in flight on lab returns paused', async () => {
  const { c, remote } = await two();
  const d = refOf((await c.call('computer_observe', { device: 'lab' })).text, /checkbox "Bold"/);
  remote.onAct = () => { requestStop(home, 'unit test'); };
  const r = await c.call('computer_act', { actions: [{ ref: d, op: 'toggle' }] });
  assert.equal(r.code, 'paused', r.text);
  // Paused for every device, not only lab.
  const l = await c.call('computer_keys', { device: 'local', keys: 'ctrl+s' });
  assert.equal(l.code, 'paused', l.text);
  requestResume(home);
  delete remote.onAct;
  await c.close();
});

test('ssh addresses: parsed and checked parts only; argv puts -- before the host and quotes the remote command', () => {
  const t = parseSshUrl('ssh://me@lab.example:2222?command=node%20/opt/cu/main.js%20driver%20linux');
  assert.deepEqual(t, {
    user: 'me',
    host: 'lab.example',
    port: 2222,
    command: ['node', '/opt/cu/main.js', 'driver', 'linux'],
  });
  const args = sshArgs(t, { configFile: '/tmp/cfg' });
  assert.deepEqual(args.slice(0, 2), ['-F', '/tmp/cfg']);
  assert.ok(args.includes('BatchMode=yes'));
  assert.deepEqual(args.slice(-3), ['--', 'lab.example', "'node' '/opt/cu/main.js' 'driver' 'linux'"]);
  assert.deepEqual(parseSshUrl('ssh://[::1]').host, '::1');
  assert.deepEqual(parseSshUrl('ssh://host').command, ['computer-use', 'driver', 'linux']);
  for (const bad of [
    'ssh://-oProxyCommand=x',
    'ssh://u:pw@host',
    'http://host',
    'ssh://host/path',
    'ssh://host:0',
    'ssh://ho st',
    'ssh://host?command=a;b',
    'ssh://host?command=$(id)',
    'ssh://host?x=1',
    'ssh://%2Dl@host',
  ]) {
    assert.throws(() => parseSshUrl(bad), /invalid_params|Not a usable ssh device address|characters/, bad);
  }
  assert.throws(() => sshArgs(t, { configFile: 'relative' }));
  assert.equal(
    classifySshFailure(
      '@@@@@@@\n@ WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED! @\nHost key verification failed.',
      'lab',
    )?.code,
    'host_key_mismatch',
  );
  assert.equal(classifySshFailure('Host key verification failed.', 'lab')?.code, 'host_key_mismatch');
  assert.equal(classifySshFailure('me@h: Permission denied (publickey).', 'lab')?.code, 'auth_failed');
  assert.equal(classifySshFailure('bash: line 1: computer-use: command not found', 'lab')?.code, 'driver_unavailable');
  assert.equal(classifySshFailure('something else', 'lab'), undefined);
  // Device names never read as the local device or a ref prefix.
  for (const name of ['local', 'd3', 'D12', '-x', '3lab', 'a b'])
    assert.throws(() => validateSpec({ name, url: 'ssh://h' }), /invalid_params|refused/, name);
  assert.equal(validateSpec({ name: 'lab-2', url: 'ssh://h' }).name, 'lab-2');
});

test('heartbeat: a dropped link is brought back in the background; a link that cannot start backs off', async () => {
  const a = widgetFactory();
  const fake = new FakeDriver([{ info: a.window, root: a.root }]);
  let conn: DriverConnection | undefined;
  let fail = false;
  const device = new Device({ name: 'hb', heartbeatMs: 40, backoff: { initialMs: 30, maxMs: 200 }, connect: () => {
    conn = fake.connect();
    if (fail) conn.kill();
    return conn;
  } });
  const until = async (what: () => boolean): Promise<void> => {
    for (let i = 0; i < 500 && !what(); i++) await new Promise((r) => setTimeout(r, 10));
  };
  await device.hello();
  assert.equal(device.status.state, 'up');
  conn!.kill(); // the link drops while idle
  await until(() => device.restarts >= 1 && device.status.state === 'up');
  assert.equal(device.status.state, 'up', 'reconnected without a call');
  fail = true;
  conn!.kill();
  await until(() => device.status.retryAt !== undefined);
  assert.equal(device.status.state, 'down');
  assert.ok(device.status.retryAt! > Date.now() - 1000 && device.status.error);
  const before = device.restarts;
  fail = false;
  await until(() => device.status.state === 'up');
  assert.equal(device.status.state, 'up', 'back once the device answers again');
  assert.ok(device.restarts > before);
  await device.close();
});

test('a launch on a remote device is not proven by this ' +
    'machine\'s programs (the audit names no local executable)', async () => {
  const audit = join(home, 'audit-launch.jsonl');
  const { c } = await two({ allowApps: ['gedit', 'gtk3-widget-factory'], auditPath: audit });
  await c.call('computer_launch', { device: 'lab', command: 'gedit' });
  await c.call('computer_launch', { device: 'local', command: 'gedit' });
  const records = readFileSync(audit, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { phase: string; device?: string; executable?: string; tool: string })
    .filter((r) => r.phase === 'decided' && r.tool === 'computer_launch');
  const lab = records.find((r) => r.device === 'lab');
  const local = records.find((r) => r.device !== 'lab');
  assert.ok(lab && local, JSON.stringify(records));
  assert.equal(lab.executable, undefined, 'this machine\'s /usr/bin/gedit proves nothing about the device\'s');
  assert.match(local.executable ?? '', /\/gedit$/, 'the local launch is proven here');
  await c.close();
});

test('a stopped input call answers only once the driver ended it: no key arrives after the answer', async () => {
  // A driver that notices the cancel late (it checks between keys, each one taking a while), as a busy
  // driver process does: the host must not answer "stopped" while it is still typing.
  let typed = 0;
  const handlers: Handlers = {
    hello: () => ({ ...handshake(handlers), platform: 'fake', version: '0', capabilities: [], permissions: {} }),
    'input.keys': async (_p, ctx) => {
      for (let i = 0; i < 200; i++) {
        await new Promise((r) => setTimeout(r, 5));
        typed++;
        if (ctx.signal.aborted && i % 10 === 9) break; // looks at the signal every tenth key
      }
      return { method: 'synthetic', focusedFirst: false, sent: typed };
    },
  };
  const device = new Device({ connect: () => inMemoryDriver(handlers) });
  await device.hello();
  const stop = new AbortController();
  const call = device.call('input.keys', { window: 'w', text: 'x'.repeat(200) }, 5000, stop.signal);
  while (typed < 3) await new Promise((r) => setTimeout(r, 2));
  stop.abort(new ComputerUseError('paused', 'Stopped by the user.'));
  await assert.rejects(call, (e: unknown) => e instanceof ComputerUseError && e.code === 'paused');
  const atAnswer = typed;
  await new Promise((r) => setTimeout(r, 150));
  assert.equal(typed, atAnswer, `${typed - atAnswer} keys arrived after the stop answered`);
  assert.ok(typed < 200, 'the driver did stop');
  await device.close();
});

test('a driver that answers `timeout` itself is not restarted; one that does not answer in time is', async () => {
  // geany's File › Save As: the app sat in its modal dialog's own loop, the Linux driver answered tree.snapshot
  // with `timeout`, and the host killed the driver for it: the next call answered driver_unavailable.
  let hang = false;
  const handlers: Handlers = {
    hello: () => ({ ...handshake(handlers), platform: 'fake', version: '0', capabilities: [], permissions: {} }),
    'apps.list': async () => {
      if (hang) await new Promise((r) => setTimeout(r, 400));
      return { apps: [] };
    },
    'tree.snapshot': () => { throw new ComputerUseError('timeout', 'The app did not answer within 2000 ms (busy).'); },
  };
  let connects = 0;
  const device = new Device({ connect: () => { connects++; return inMemoryDriver(handlers); } });
  await device.hello();
  await assert.rejects(
    device.call('tree.snapshot', { window: 'w' } as never, 5000),
    (e: unknown) => e instanceof ComputerUseError && e.code === 'timeout',
  );
  assert.deepEqual(
    await device.call('apps.list', {} as never, 5000),
    { apps: [] },
    'the same driver answers the next call',
  );
  assert.equal(connects, 1, 'the driver was not restarted');
  hang = true;
  await assert.rejects(
    device.call('apps.list', {} as never, 50),
    (e: unknown) => e instanceof ComputerUseError && e.code === 'timeout',
  );
  hang = false;
  await device.call('apps.list', {} as never, 5000);
  assert.equal(connects, 2, 'a driver that did not answer in time was restarted');
  await device.close();
});
