/**
 * Doctor's "why is this tree empty" verdicts on driver answers (fake driver) and its toolkit detection;
 * the real-app check (Chromium in the sandbox) is in test/e2e/cdp.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import { CHROMIUM_REREAD_MS, diagnoseApp, formatDoctor, TINY_TREE } from '../../src/doctor/doctor.js';
import { detectToolkit, flagOf } from '../../src/drivers/linux/apps/process.js';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import type { RawNode, WindowInfo } from '../../src/engine/node.js';
import { WindowTable } from '../../src/session/windows.js';
import { formatApps } from '../../src/tools/format.js';

const PID = 999_999_99; // no such process: toolkit comes from the bus name

function chromiumWindow(webNodes: number): { info: WindowInfo; root: RawNode } {
  const info: WindowInfo = {
    id: 'w-chr',
    title: 'Order desk - Chromium',
    app: 'Chromium',
    pid: PID,
    role: 'window',
    focused: true,
  };
  const ui: RawNode[] = Array.from({ length: 30 }, (_, i) => ({
    id: `b${i}`,
    role: 'button',
    name: `UI ${i}`,
    states: [],
    actions: ['click'],
  }));
  const content: RawNode[] = Array.from({ length: webNodes }, (_, i) => ({
    id: `t${i}`,
    role: 'text',
    name: `text ${i}`,
    states: [],
    actions: [],
  }));
  return {
    info,
    root: {
      id: 'w-chr',
      role: 'window',
      name: info.title,
      states: [],
      actions: [],
      children: [...ui, { id: 'doc', role: 'document', states: [], actions: [], children: content }],
    },
  };
}

async function diagnose(fake: FakeDriver, name?: string) {
  const device = new Device({ connect: () => fake.connect() });
  const { apps } = await device.call('apps.list', { withWindows: true });
  try { return await diagnoseApp(device, apps, name, true); } finally { await device.close(); }
}

test('a Chromium window whose pages expose nothing fails ' +
    'with the flag and the DevTools channel as fixes', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const fake = new FakeDriver([chromiumWindow(0)]);
  const pending = diagnose(fake, 'chromium');
  // The re-read after CHROMIUM_REREAD_MS (Chromium may turn accessibility on when first read).
  for (let i = 0; i < 20; i++) { await new Promise((r) => setImmediate(r)); t.mock.timers.tick(CHROMIUM_REREAD_MS); }
  const d = await pending;
  assert.equal(d.toolkit, 'chromium');
  assert.equal(d.status, 'fail');
  assert.match(d.summary, /web content is not exposed: 0 nodes inside its pages/);
  assert.ok(d.windows[0]!.nodes > TINY_TREE, 'the browser UI alone is not content');
  assert.match(d.fixes[0]!, /--force-renderer-accessibility/);
  assert.match(d.fixes[1]!, /--remote-debugging-port=9222.*driver: 'cdp'/);
  const text = formatDoctor({ ok: false, platform: 'linux', session: 'x11', checks: [], app: d });
  assert.match(text, /FAIL app Chromium pid=\d+ \(chromium\)/);
  assert.match(text, /fix: Restart it with --force-renderer-accessibility/);
});

test('a Chromium window with its content is fine', async () => {
  const d = await diagnose(new FakeDriver([chromiumWindow(60)]), 'Chromium');
  assert.equal(d.status, 'ok');
  assert.match(d.summary, /exposes 60 web content nodes/);
});

test('an app that is not running anywhere is reported as such', async () => {
  const d = await diagnose(new FakeDriver([chromiumWindow(60)]), 'no-such-app-xyz');
  assert.equal(d.status, 'fail');
  assert.equal(d.onBus, false);
  assert.match(d.summary, /No app named "no-such-app-xyz"/);
});

test('an app registered on the bus but not answering is ' +
    'busy, not "never registered"; computer_apps lists it', async () => {
  const device = new Device({ connect: () => new FakeDriver([]).connect() });
  const apps = [{ name: 'soffice.bin', pid: PID, id: ':1.9/org/a11y/atspi/accessible/root', windows: [], busy: true }];
  try {
    const d = await diagnoseApp(device, apps, 'soffice.bin', true);
    assert.equal(d.status, 'fail');
    assert.equal(d.onBus, true);
    assert.match(
      d.summary,
      /soffice\.bin \(pid \d+\) is registered with the accessibility bus but busy: it does not answer/,
    );
    assert.doesNotMatch(d.summary, /never registered/);
  } finally { await device.close(); }
  assert.equal(formatApps(apps, new WindowTable()), `soffice.bin pid=${PID} (busy: not answering)`);
});

test('toolkits are told apart by executable and mapped libraries; flags are read from argv', () => {
  assert.equal(detectToolkit('/usr/lib/jvm/java-17-openjdk-amd64/bin/java', ['java', '-jar', 'app.jar'], ''), 'java');
  assert.equal(
    detectToolkit(
      '/usr/lib/chromium/chromium',
      ['/usr/lib/chromium/chromium'],
      '/usr/lib/x86_64-linux-gnu/libgtk-3.so.0',
    ),
    'chromium',
  );
  assert.equal(
    detectToolkit('/usr/bin/keepassxc', ['keepassxc'], '7f00 r-xp /usr/lib/x86_64-linux-gnu/libQt5Core.so.5.15.8'),
    'qt',
  );
  assert.equal(detectToolkit('/usr/bin/gtk4-widget-factory', [], '/usr/lib/x86_64-linux-gnu/libgtk-4.so.1'), 'gtk4');
  assert.equal(detectToolkit('/usr/bin/gedit', [], '/usr/lib/x86_64-linux-gnu/libgtk-3.so.0'), 'gtk3');
  assert.equal(detectToolkit('/usr/bin/xterm', [], ''), 'unknown');
  assert.equal(
    flagOf(['chromium', '--remote-debugging-port=9222', '--force-renderer-accessibility'], 'remote-debugging-port'),
    '9222',
  );
  assert.equal(flagOf(['chromium', '--force-renderer-accessibility'], 'force-renderer-accessibility'), true);
  assert.equal(flagOf(['chromium'], 'force-renderer-accessibility'), undefined);
});
