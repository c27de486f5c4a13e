/**
 * The Linux driver on a session marked Wayland (XDG_SESSION_TYPE=wayland) in the sandbox desktop, whose session
 * bus has no usable RemoteDesktop portal (none installed, or one with no compositor behind it) and where libei
 * is not installed (Debian 12): hello reports the probe, and keys and pointer fail with input_blocked and the
 * reason (no window proof on Wayland; the portal's state and why it is not used), sending nothing (no uinput).
 * The real Wayland compositor case (Weston) is test/e2e/weston.test.ts; the RemoteDesktop client itself is
 * tested against a stub portal in test/unit/linux-portal.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import { runDoctor } from '../../src/doctor/doctor.js';
import { isComputerUseError } from '../../src/protocol/errors.js';

test('a Wayland session without the RemoteDesktop portal or libei: input_blocked with the reason', async () => {
  const device = new Device({
    platform: 'linux',
    env: { XDG_SESSION_TYPE: 'wayland', WAYLAND_DISPLAY: 'wayland-cu-absent' },
    timeoutMs: 15_000,
  });
  try {
    const hello = await device.hello();
    assert.equal(hello.session, 'wayland');
    assert.ok(!hello.capabilities.includes('keys') && !hello.capabilities.includes('pointer'));
    // Without xdg-desktop-portal there is no interface; with it installed (D-Bus activated on the sandbox's bus)
    // but no compositor behind its backend, the interface offers no devices. Either way: input_blocked, since even
    // a working portal would not be used without a proof of the receiving window.
    const portal = hello.permissions['remote_desktop_portal'];
    assert.equal(hello.permissions['libei'], false);
    assert.match(
      hello.facts?.['wayland_input'] ?? '',
      portal ? /The RemoteDesktop portal offers no devices/ : /no xdg-desktop-portal RemoteDesktop interface/,
    );
    assert.match(hello.facts?.['wayland_input'] ?? '', /no X11 window proof/);
    assert.match(hello.facts?.['wayland_input'] ?? '', /libei is not installed.*uinput is never used/);
    const check = (e: unknown): boolean =>
      isComputerUseError(e) &&
      e.code === 'input_blocked' &&
      /no X11 window proof/.test(e.message) &&
      /RemoteDesktop/.test(e.message) &&
      /uinput is never used/.test(e.message);
    await assert.rejects(device.call('input.keys', { window: 'w-none', text: 'x' }), check);
    await assert.rejects(device.call('input.pointer', { window: 'w-none', action: 'click', x: 10, y: 10 }), check);
  } finally {
    await device.close();
  }
});

test('doctor on that session reports the Wayland input check with the reason', async () => {
  const report = await runDoctor({ env: { XDG_SESSION_TYPE: 'wayland', WAYLAND_DISPLAY: 'wayland-cu-absent' } });
  assert.equal(report.session, 'wayland');
  const c = report.checks.find((x) => x.id === 'wayland_input');
  assert.equal(c?.status, 'warn', JSON.stringify(report.checks));
  assert.match(
    c.summary,
    /^input_blocked: Wayland: .*(no xdg-desktop-portal RemoteDesktop interface|The RemoteDesktop portal offers no devices)/,
  );
  // Not a Weston sandbox: a session merely marked Wayland inside the Xvfb sandbox.
  assert.equal(report.sessionInfo?.headless, undefined);
});
