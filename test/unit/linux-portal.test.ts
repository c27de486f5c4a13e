/**
 * The RemoteDesktop portal client and the Wayland input probe, against a stub org.freedesktop.portal.Desktop
 * on a private dbus-daemon (no compositor, no real portal: see the README's "Verified on").
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import dbus from 'dbus-next';
import { onPath } from '../../src/drivers/linux/checkup/prereq.js';
import { LinuxInput } from '../../src/drivers/linux/input/input.js';
import { DEVICE, probeWaylandInput, RemoteDesktopPortal } from '../../src/drivers/linux/input/portal.js';
import { ComputerUseError } from '../../src/protocol/errors.js';

const { Message, Variant } = dbus;
const skip = !onPath('dbus-daemon') && 'dbus-daemon is not installed';

let daemon: ChildProcess | undefined;
let dir = '';
let address = '';
let stub: dbus.MessageBus | undefined;
const calls: { member: string; body: unknown[] }[] = [];
let startAnswer = 0;

const opt = (dict: unknown, key: string): unknown => ((dict as Record<string, { value: unknown }>)[key])?.value;

function serveStub(bus: dbus.MessageBus): void {
  const respond = (msg: dbus.Message, token: string, code: number, results: Record<string, unknown>): void => {
    const path =
      `/org/freedesktop/portal/desktop/request/${(msg.sender ?? '').replace(/^:/, '').replace(/\./g, '_')}/` +
      `${token}`;
    bus.send(Message.newMethodReturn(msg, 'o', [path]));
    setTimeout(
      () => bus.send(Message.newSignal(path, 'org.freedesktop.portal.Request', 'Response', 'ua{sv}', [code, results])),
      20,
    );
  };
  bus.addMethodHandler((msg: dbus.Message) => {
    calls.push({ member: msg.member ?? '', body: msg.body });
    if (msg.interface === 'org.freedesktop.DBus.Properties' && msg.member === 'Get') {
      bus.send(
        Message.newMethodReturn(msg, 'v', [
          new Variant('u', msg.body[1] === 'version' ? 2 : DEVICE.keyboard | DEVICE.pointer),
        ]),
      );
    } else if (msg.member === 'CreateSession') {
      const token = String(opt(msg.body[0], 'handle_token'));
      respond(msg, token, 0, {
        session_handle: new Variant(
          's',
          `/org/freedesktop/portal/desktop/session/x/${String(opt(msg.body[0], 'session_handle_token'))}`,
        ),
      });
    } else if (msg.member === 'SelectDevices') {
      respond(msg, String(opt(msg.body[1], 'handle_token')), 0, {});
    } else if (msg.member === 'Start') {
      respond(
        msg,
        String(opt(msg.body[2], 'handle_token')),
        startAnswer,
        startAnswer === 0 ? { devices: new Variant('u', 3), restore_token: new Variant('s', 'tok-1') } : {},
      );
    } else if (msg.member?.startsWith('Notify')) {
      bus.send(Message.newMethodReturn(msg));
    } else if (msg.member === 'Close') {
      /* Session.Close: no reply expected */
    } else return false;
    return true;
  });
}

before(async () => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), 'cu-portal-'));
  writeFileSync(join(dir, 'bus.conf'), `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:dir=${dir}</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow \
own="*"/></policy></busconfig>`);
  daemon = spawn('dbus-daemon', ['--config-file', join(dir, 'bus.conf'), '--nofork', '--print-address=1'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  address = await new Promise<string>((resolve) => {
    daemon!.stdout!.setEncoding('utf8').once('data', (d: string) => resolve(d.trim().split('\n')[0]!));
  });
});

after(() => {
  try { stub?.disconnect(); } catch { /* closed */ }
  daemon?.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('without a portal on the session bus, Wayland input is input_blocked: ' +
    'the reason names the missing window proof and the portal, never uinput', { skip }, async () => {
  const w = await probeWaylandInput({ DBUS_SESSION_BUS_ADDRESS: address });
  assert.equal(w.code, 'input_blocked');
  assert.equal(w.portal, undefined);
  assert.match(w.reason, /no X11 window proof/);
  assert.match(
    w.reason,
    /no xdg-desktop-portal RemoteDesktop interface on the session bus .* would not be used either/,
  );
  assert.match(w.reason, /libei/);
  assert.match(w.reason, /uinput is never used/);
  assert.match(w.reason, /Use element actions/);
  const none = await probeWaylandInput({});
  assert.equal(none.code, 'input_blocked');
  assert.match(none.reason, /DBUS_SESSION_BUS_ADDRESS is unset/);
  // The driver's input on a Wayland session answers with the probe's code and reason.
  const input = LinuxInput.create({
    XDG_SESSION_TYPE: 'wayland',
    WAYLAND_DISPLAY: 'wayland-0',
    DBUS_SESSION_BUS_ADDRESS: address,
  });
  assert.equal(input.available, false);
  const e = await input.unavailableError('No keyboard.');
  assert.equal(e.code, 'input_blocked');
  assert.match(e.message, /no X11 window proof.*no xdg-desktop-portal RemoteDesktop interface/);
  // A Weston sandbox's environment: DISPLAY present but empty (it is merged over an outer X desktop's) is Wayland.
  assert.equal(LinuxInput.create({ DISPLAY: '', WAYLAND_DISPLAY: 'wayland-cu' }).available, false);
  assert.equal(LinuxInput.create({ DISPLAY: ':0' }).waylandProbe(), undefined, 'X11: no probe');
});

test('the RemoteDesktop client: probe, CreateSession, ' +
    'SelectDevices, Start, then keysyms and pointer events', { skip }, async () => {
  stub = dbus.sessionBus({ busAddress: address });
  await stub.requestName('org.freedesktop.portal.Desktop', 0);
  serveStub(stub);

  const w = await probeWaylandInput({ DBUS_SESSION_BUS_ADDRESS: address });
  assert.equal(w.code, 'input_blocked');
  assert.deepEqual(w.portal, { version: 2, deviceTypes: 3 });
  assert.match(w.reason, /RemoteDesktop portal \(version 2, keyboard\+pointer\)/);
  const blocked = await LinuxInput.create({
    XDG_SESSION_TYPE: 'wayland',
    WAYLAND_DISPLAY: 'wayland-0',
    DBUS_SESSION_BUS_ADDRESS: address,
  }).unavailableError('No keyboard.');
  assert.equal(blocked.code, 'input_blocked');
  assert.match(
    blocked.message,
    /no X11 window proof.*RemoteDesktop portal \(version 2, keyboard\+pointer\) is on this session bus .* does not send through it/,
  );

  const p = await RemoteDesktopPortal.connect(address);
  try {
    const session = await p.createSession();
    assert.match(session, /^\/org\/freedesktop\/portal\/desktop\/session\/x\/computer_use_\d+_\d+_session$/);
    await p.selectDevices(DEVICE.keyboard | DEVICE.pointer, { persist: true });
    const sel = calls.find((c) => c.member === 'SelectDevices')!;
    assert.equal(opt(sel.body[1], 'types'), 3);
    assert.equal(opt(sel.body[1], 'persist_mode'), 2);
    assert.deepEqual(await p.start(5000), { devices: 3, restoreToken: 'tok-1' });
    await p.keysym(0x61, true);
    await p.keysym(0x61, false);
    await p.pointerMotionAbsolute(7, 100.5, 200);
    await p.pointerButton(0x110, true);
    await p.pointerButton(0x110, false);
    await p.pointerAxisDiscrete(0, 2);
    const sent = calls.filter((c) => c.member.startsWith('Notify')).map((c) => [c.member, ...c.body.slice(2)]);
    assert.deepEqual(sent, [
      ['NotifyKeyboardKeysym', 0x61, 1], ['NotifyKeyboardKeysym', 0x61, 0],
      ['NotifyPointerMotionAbsolute', 7, 100.5, 200],
      ['NotifyPointerButton', 0x110, 1], ['NotifyPointerButton', 0x110, 0],
      ['NotifyPointerAxisDiscrete', 0, 2],
    ]);
    assert.ok(calls.filter((c) => c.member.startsWith('Notify')).every((c) => c.body[0] === session));
  } finally { p.close(); }

  // The user declines in the system's dialog: input_blocked, and no session to send through.
  startAnswer = 1;
  const q = await RemoteDesktopPortal.connect(address);
  try {
    await q.createSession();
    await q.selectDevices();
    await assert.rejects(
      q.start(5000),
      (e: unknown) => e instanceof ComputerUseError && e.code === 'input_blocked' && /declined/.test(e.message),
    );
  } finally { q.close(); }
});
