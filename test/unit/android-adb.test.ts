/**
 * The adb transport against the real thing on both sides: Debian's `adb` client talks to the fake server (so the
 * fake speaks the wire as adb does), the driver's client talks to the fake server (commands quoted for mksh and
 * parsed back by mksh itself) and to a real adb server started on a private port (host services as the real
 * server answers them).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdbClient, chooseDevice, parseDeviceList } from '../../src/drivers/android/adb/client.js';
import { isAdbError } from '../../src/drivers/android/adb/errors.js';
import { shellCommand, quoteWord } from '../../src/drivers/android/adb/quote.js';
import { FakeAdbServer } from '../android/fake-adb-server.js';
import { MkshDevice } from '../android/fake-device.js';

const hasAdb = (() => {
  try {
    execFileSync('adb', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const home = mkdtempSync(join(tmpdir(), 'cu-adb-home-'));
const phone = new MkshDevice('emulator-5554');
const server = new FakeAdbServer([phone]);
let client: AdbClient;

before(async () => {
  const port = await server.start();
  client = new AdbClient({ address: { host: '127.0.0.1', port }, timeoutMs: 5000 });
});
after(async () => { await server.stop(); phone.dispose(); rmSync(home, { recursive: true, force: true }); });

/** Runs Debian's adb client against the fake server. */
function adb(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('adb', args, { env: { PATH: process.env.PATH, HOME: home, ADB_SERVER_SOCKET: `tcp:127.0.0.1:${server.port}` }, timeout: 15_000 }, (err, stdout, stderr) => {
      resolve({
        code: err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0,
        stdout,
        stderr,
      });
    });
  });
}

/** Text a user may type, every shell-special shape in it. */
const HOSTILE = [
  'hello',
  'a b  c',
  "it's",
  'say "hi"',
  'a&b',
  'a;reboot',
  '%s literal',
  '$(reboot)',
  '`reboot`',
  '${HOME}',
  'back\\slash',
  'line1\nline2',
  'tab\there',
  '世界 你好',
  'emoji 😀👍🏽',
  '*',
  '~',
  '-x',
  '--help',
  "'",
  '"',
  '\\',
  '',
  ' leading and trailing ',
];

test('the real adb client lists the fake device ' +
    'and runs a command on it through shell v2', { skip: !hasAdb && 'adb is not installed' }, async () => {
  const list = await adb(['devices']);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /emulator-5554\s+device/);
  const echo = await adb(['-s', 'emulator-5554', 'shell', 'echo', 'hi']);
  assert.equal(echo.code, 0, echo.stderr);
  assert.equal(echo.stdout, 'hi\n');
  const exit = await adb(['-s', 'emulator-5554', 'shell', 'exit 3']);
  assert.equal(exit.code, 3, 'the exit code crosses the shell v2 exit packet');
  assert.ok(
    server.log.services.some((s) => s.startsWith('shell,v2,')),
    `the real client chose shell v2: ${server.log.services.join(' | ')}`,
  );
});

test('the real adb client joins its arguments unquoted: ' +
    'mksh splits them (why the driver quotes every word)', { skip: !hasAdb && 'adb is not installed' }, async () => {
  phone.takeCalls();
  await adb(['-s', 'emulator-5554', 'shell', 'input', 'text', 'a b']);
  assert.deepEqual(phone.takeCalls(), [['input', 'text', 'a', 'b']]);
});

test('the real adb client hears unauthorized ' +
    'and offline devices as adb reports them', { skip: !hasAdb && 'adb is not installed' }, async () => {
  phone.state = 'unauthorized';
  try {
    const r = await adb(['-s', 'emulator-5554', 'shell', 'echo', 'x']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /unauthorized/);
  } finally { phone.state = 'device'; }
});

test('every hostile text reaches the device program as exactly one argument, byte for byte', async () => {
  phone.takeCalls();
  for (const text of HOSTILE) {
    const r = await client.shell(phone.serial, shellCommand(['input', 'text', text]));
    assert.equal(r.exitCode, 0, r.stderr.toString());
  }
  assert.deepEqual(phone.takeCalls(), HOSTILE.map((t) => ['input', 'text', t]));
});

test('a word needs no quotes only when mksh cannot read anything into it', () => {
  assert.equal(quoteWord('KEYCODE_ENTER'), 'KEYCODE_ENTER');
  assert.equal(quoteWord('com.android.settings/.Settings'), 'com.android.settings/.Settings');
  assert.equal(quoteWord("it's"), `'it'\\''s'`);
  assert.equal(quoteWord(''), "''");
  assert.throws(() => quoteWord('a\0b'), /NUL/);
});

test('the client reads version, devices, features, exit codes and stderr from the fake server', async () => {
  assert.equal(await client.version(), 41);
  const devices = await client.devices();
  assert.deepEqual(
    devices.map((d) => [d.serial, d.state, d.facts.model]),
    [['emulator-5554', 'device', 'sdk_gphone64_x86_64']],
  );
  assert.ok((await client.deviceFeatures('emulator-5554')).has('shell_v2'));
  phone.failWith('dumpsys', 7, 'Can\'t find service: nope\n');
  const r = await client.shell('emulator-5554', shellCommand(['dumpsys', 'nope']));
  assert.equal(r.exitCode, 7);
  assert.equal(r.stderr.toString(), "Can't find service: nope\n");
  phone.failWith('dumpsys', 0);
  phone.print('uiautomator', '<?xml version="1.0"?><hierarchy rotation="0"/>');
  const raw = await client.exec('emulator-5554', shellCommand(['uiautomator', 'dump', '/dev/tty']));
  assert.equal(raw.toString(), '<?xml version="1.0"?><hierarchy rotation="0"/>');
});

test('a device without shell v2 still runs commands over the legacy service (no exit code to tell)', async () => {
  const old = new MkshDevice('old-phone');
  old.features = ['cmd'];
  const s = new FakeAdbServer([old]);
  const port = await s.start();
  try {
    const c = new AdbClient({ address: { host: '127.0.0.1', port }, timeoutMs: 5000 });
    const r = await c.shell('old-phone', shellCommand(['echo', 'a b']));
    assert.equal(r.stdout.toString(), 'a b\n');
    assert.equal(r.exitCode, undefined);
    assert.ok(s.log.services.includes("shell:echo 'a b'"), s.log.services.join(' | '));
  } finally { await s.stop(); old.dispose(); }
});

test('unauthorized, offline, unknown serial and a dropped link are told apart', async () => {
  phone.state = 'unauthorized';
  await assert.rejects(client.shell('emulator-5554', 'echo x'), (e) => isAdbError(e, 'unauthorized'));
  phone.state = 'offline';
  await assert.rejects(client.shell('emulator-5554', 'echo x'), (e) => isAdbError(e, 'offline'));
  phone.state = 'device';
  await assert.rejects(client.shell('nope', 'echo x'), (e) => isAdbError(e, 'not_found'));
  server.dropOn = 'shell,v2,';
  try {
    await assert.rejects(client.shell('emulator-5554', 'echo x'), (e) => isAdbError(e, 'closed'));
  } finally { server.dropOn = undefined; }
});

test('the device is the one named or the only one attached; a device not ready says what to do', () => {
  const list = parseDeviceList(
    'emulator-5554          device product:sdk model:Pixel_7 device:emu transport_id:1\nR58M123       ' +
      'unauthorized usb:1-1 transport_id:2\n',
  );
  assert.equal(chooseDevice(list, 'emulator-5554').facts.model, 'Pixel_7');
  // Several attached: each listed with its state, and how to name one (a device added as adb:SERIAL).
  assert.throws(
    () => chooseDevice(list),
    (e) =>
      isAdbError(e, 'ambiguous') &&
      /adb:SERIAL/.test(e.message) &&
      /emulator-5554 \(ready\), R58M123 \(unauthorized: accept "Allow USB debugging\?" on the phone\)/.test(e.message),
  );
  assert.throws(
    () => chooseDevice(list, 'nope'),
    (e) => isAdbError(e, 'not_found') && /R58M123 \(unauthorized/.test(e.message),
  );
  assert.throws(
    () => chooseDevice(list, 'R58M123'),
    (e) => isAdbError(e, 'unauthorized') && /Allow USB debugging/.test(e.message),
  );
  assert.throws(() => chooseDevice([]), (e) => isAdbError(e, 'not_found'));
});

test('the client speaks the host services ' +
    'as the real adb server answers them', { skip: !hasAdb && 'adb is not installed' }, async () => {
  const port = await new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
  const env = { PATH: process.env.PATH, HOME: home };
  execFileSync('adb', ['-P', String(port), 'start-server'], { env, stdio: 'ignore', timeout: 20_000 });
  try {
    const real = new AdbClient({ address: { host: '127.0.0.1', port }, timeoutMs: 5000 });
    assert.equal(await real.version(), 41);
    assert.deepEqual(await real.devices(), []);
    await assert.rejects(real.shell('emulator-9999', 'echo x'), (e) => isAdbError(e, 'not_found'));
  } finally { execFileSync('adb', ['-P', String(port), 'kill-server'], { env, stdio: 'ignore', timeout: 20_000 }); }
});
