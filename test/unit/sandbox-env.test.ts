import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildSandboxEnv, chooseDisplay, cleanEnv, displayName, parseDbusLaunch, sandboxKind, shellExports, takenDisplays,
} from '../../src/drivers/linux/sandbox/env.js';
import { describeSession, sessionLine } from '../../src/drivers/linux/checkup/session.js';

test('parseDbusLaunch reads the address and pid from --sh-syntax output', () => {
  const out = [
    "DBUS_SESSION_BUS_ADDRESS='unix:path=/tmp/dbus-gU9AKSqMUA,guid=98dc2ec6ee9a13aedce560fc6b0d4d0f';",
    'export DBUS_SESSION_BUS_ADDRESS;',
    'DBUS_SESSION_BUS_PID=5273;',
    'DBUS_SESSION_BUS_WINDOWID=2097153;',
    '',
  ].join('\n');
  assert.deepEqual(parseDbusLaunch(out), {
    address: 'unix:path=/tmp/dbus-gU9AKSqMUA,guid=98dc2ec6ee9a13aedce560fc6b0d4d0f',
    pid: 5273,
  });
});

test('parseDbusLaunch undoes shell quoting and rejects incomplete output', () => {
  const quoted = parseDbusLaunch("DBUS_SESSION_BUS_ADDRESS='unix:path=/tmp/a'\\''b';\nDBUS_SESSION_BUS_PID=7;\n");
  assert.equal(quoted.address, "unix:path=/tmp/a'b");
  assert.throws(() => parseDbusLaunch('DBUS_SESSION_BUS_PID=7;\n'), /DBUS_SESSION_BUS_ADDRESS/);
  assert.throws(() => parseDbusLaunch("DBUS_SESSION_BUS_ADDRESS='unix:path=/x';\n"), /DBUS_SESSION_BUS_PID/);
  assert.throws(() => parseDbusLaunch(''), /DBUS_SESSION_BUS_ADDRESS/);
});

test('takenDisplays collects sockets, lock files and reservations', () => {
  const taken = takenDisplays(['X0', 'X90', 'junk'], ['.X91-lock', '.X0-lock', 'dbus-abc', '.X11-unix'], [93]);
  assert.deepEqual([...taken].sort((a, b) => a - b), [0, 90, 91, 93]);
});

test('chooseDisplay picks the lowest free number from 90', () => {
  assert.equal(chooseDisplay(new Set()), 90);
  assert.equal(chooseDisplay(new Set([90, 91, 93])), 92);
  assert.equal(chooseDisplay(new Set([0, 1, 2]), 0), 3);
  assert.throws(() => chooseDisplay(new Set([90, 91]), 90, 2), /no free X display/);
});

test('displayName normalizes display numbers', () => {
  assert.equal(displayName(90), ':90');
  assert.equal(displayName('91'), ':91');
  assert.equal(displayName(':092'), ':92');
  assert.throws(() => displayName('localhost:1'), /not an X display/);
});

test('cleanEnv drops variables that break accessibility or point at another desktop', () => {
  const env = cleanEnv({
    PATH: '/bin', NO_AT_BRIDGE: '1', GTK_MODULES: 'gail', GTK_A11Y: 'none', WAYLAND_DISPLAY: 'wayland-0',
    AT_SPI_BUS_ADDRESS: 'unix:path=/x', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/y', UNDEF: undefined,
  });
  assert.deepEqual(env, { PATH: '/bin' });
});

test('buildSandboxEnv sets the display, buses, runtime dir and GTK4 renderer', () => {
  const env = buildSandboxEnv({
    display: ':90', runtimeDir: '/r/display-90', dbusAddress: 'unix:path=/tmp/dbus-1', a11yAddress: 'unix:path=/r/bus',
  }, { HOME: '/root', DISPLAY: ':0', NO_AT_BRIDGE: '1', GTK_A11Y: 'none', COMPUTER_USE_SANDBOX: ':99' });
  assert.equal(env['HOME'], '/root');
  assert.equal(env['DISPLAY'], ':90');
  assert.equal(env['XDG_RUNTIME_DIR'], '/r/display-90');
  assert.equal(env['DBUS_SESSION_BUS_ADDRESS'], 'unix:path=/tmp/dbus-1');
  assert.equal(env['AT_SPI_BUS_ADDRESS'], 'unix:path=/r/bus');
  assert.equal(env['GSK_RENDERER'], 'cairo');
  assert.equal(env['COMPUTER_USE_SANDBOX'], ':90');
  assert.equal('NO_AT_BRIDGE' in env, false);
  assert.equal('GTK_A11Y' in env, false);
});

test('shellExports quotes values for a POSIX shell', () => {
  assert.equal(shellExports({ A: "it's", B: 'x' }, ['A', 'B', 'C']), "export A='it'\\''s'\nexport B='x'");
});

test('a Weston sandbox environment: Wayland only, DISPLAY empty so an outer X display cannot leak back in', () => {
  const env = buildSandboxEnv(
    {
      display: ':95',
      runtimeDir: '/tmp/cu/sandboxes/display-95',
      kind: 'weston',
      waylandDisplay: 'wayland-cu',
      dbusAddress: 'unix:path=/tmp/s',
      a11yAddress: 'unix:path=/tmp/a',
    },
    { DISPLAY: ':90', GDK_BACKEND: 'x11', QT_QPA_PLATFORM: 'xcb', PATH: '/bin' },
  );
  assert.equal(env['DISPLAY'], '');
  assert.equal(env['WAYLAND_DISPLAY'], 'wayland-cu');
  assert.equal(env['XDG_SESSION_TYPE'], 'wayland');
  assert.equal(env['GDK_BACKEND'], 'wayland');
  assert.equal(env['QT_QPA_PLATFORM'], 'wayland');
  assert.equal(env['GSK_RENDERER'], undefined);
  assert.equal(env['COMPUTER_USE_SANDBOX'], ':95');
  assert.equal(env['AT_SPI_BUS_ADDRESS'], 'unix:path=/tmp/a');
  // Merged over the caller's environment (as Device and spawnDriver do), DISPLAY stays empty.
  assert.equal({ DISPLAY: ':90', ...env }['DISPLAY'], '');
  // The default kind is unchanged: X11 on the sandbox's display, with no inherited backend override.
  const x = buildSandboxEnv(
    { display: ':96', runtimeDir: '/r' },
    { GDK_BACKEND: 'wayland', WAYLAND_DISPLAY: 'wayland-0' },
  );
  assert.equal(x['DISPLAY'], ':96');
  assert.equal(x['GDK_BACKEND'], undefined);
  assert.equal(x['WAYLAND_DISPLAY'], undefined);
});

test('sandboxKind parses the kinds and their aliases, and rejects the rest', () => {
  assert.equal(sandboxKind('weston'), 'weston');
  assert.equal(sandboxKind('Wayland'), 'weston');
  assert.equal(sandboxKind('x11'), 'xvfb');
  assert.equal(sandboxKind('xvfb'), 'xvfb');
  assert.throws(() => sandboxKind('mutter'), /unknown sandbox kind "mutter": use xvfb or weston/);
});

test('describeSession: the session type, the headless sandbox kind only where the sandbox set it, what works', () => {
  const weston = describeSession({
    XDG_SESSION_TYPE: 'wayland',
    WAYLAND_DISPLAY: 'wayland-cu',
    DISPLAY: '',
    COMPUTER_USE_SANDBOX: ':95',
  });
  assert.equal(weston.type, 'wayland');
  assert.equal(weston.headless, 'weston');
  assert.match(
    sessionLine(weston),
    /^wayland, headless \(Weston sandbox :95\) · XDG_SESSION_TYPE=wayland WAYLAND_DISPLAY=wayland-cu DISPLAY=\(empty\)$/,
  );
  assert.ok(weston.notHere.some((n) => /keys and pointer: input_blocked/.test(n)));
  const xvfb = describeSession({ XDG_SESSION_TYPE: 'x11', DISPLAY: ':90', COMPUTER_USE_SANDBOX: ':90' });
  assert.equal(xvfb.headless, 'xvfb');
  assert.ok(xvfb.works.some((w) => /keys and pointer \(XTest/.test(w)));
  // Marked Wayland inside an Xvfb sandbox is not a Weston sandbox; a user's own desktop is not headless.
  assert.equal(
    describeSession({
      XDG_SESSION_TYPE: 'wayland',
      WAYLAND_DISPLAY: 'wayland-0',
      DISPLAY: ':90',
      COMPUTER_USE_SANDBOX: ':90',
    }).headless,
    undefined,
  );
  assert.equal(describeSession({ WAYLAND_DISPLAY: 'wayland-0' }).headless, undefined);
  assert.equal(describeSession({ WAYLAND_DISPLAY: 'wayland-0' }).type, 'wayland');
  assert.equal(describeSession({}).type, 'none');
  assert.equal(
    sessionLine(describeSession({})),
    'none · XDG_SESSION_TYPE=(unset) WAYLAND_DISPLAY=(unset) DISPLAY=(unset)',
  );
});

test('defaultKind: the option wins, then COMPUTER_USE_SANDBOX_KIND, else xvfb', async () => {
  const { defaultKind } = await import('../../src/drivers/linux/sandbox/sandbox.js');
  assert.equal(defaultKind({}, {}), 'xvfb');
  assert.equal(defaultKind({}, { COMPUTER_USE_SANDBOX_KIND: 'wayland' }), 'weston');
  assert.equal(defaultKind({ kind: 'xvfb' }, { COMPUTER_USE_SANDBOX_KIND: 'weston' }), 'xvfb');
  assert.throws(() => defaultKind({}, { COMPUTER_USE_SANDBOX_KIND: 'sway' }), /unknown sandbox kind/);
});
