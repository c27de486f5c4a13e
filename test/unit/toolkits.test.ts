/**
 * The pure parts of the other toolkit families: the launch environment per toolkit, doctor's advice for apps off the
 * accessibility bus, and how computer_apps shows them (a denied one stays unseen).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inaccessibleAdvice } from '../../src/drivers/linux/apps/advice.js';
import { appLaunchEnv, javaA11yOptions, toolkitLaunchEnv } from '../../src/drivers/linux/apps/toolkits.js';
import { isX11Handle, x11Handle, xidOf } from '../../src/drivers/linux/apps/x11apps.js';
import type { AppInfo } from '../../src/engine/node.js';
import { WindowTable } from '../../src/session/windows.js';
import { formatApps } from '../../src/tools/format.js';

const JAR = '/usr/share/java/java-atk-wrapper.jar';

test('launch env: Qt switches on, the Java wrapper only when its jar is installed, user values kept', () => {
  const env = toolkitLaunchEnv({}, { javaJar: JAR });
  assert.equal(env['QT_ACCESSIBILITY'], '1');
  assert.equal(env['QT_LINUX_ACCESSIBILITY_ALWAYS_ON'], '1');
  // The class alone makes OpenJDK 17 exit ("Assistive Technology not found"): the jar goes on the boot class path.
  assert.equal(
    env['JAVA_TOOL_OPTIONS'],
    `-Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper -Xbootclasspath/a:${JAR}`,
  );
  assert.equal(
    toolkitLaunchEnv({}, {})['JAVA_TOOL_OPTIONS'],
    undefined,
    'no jar: naming the class would crash every JVM',
  );
  const kept = toolkitLaunchEnv({ QT_ACCESSIBILITY: '0', JAVA_TOOL_OPTIONS: '-Xmx64m' }, { javaJar: JAR });
  assert.equal(kept['QT_ACCESSIBILITY'], undefined);
  assert.equal(kept['JAVA_TOOL_OPTIONS'], `-Xmx64m ${javaA11yOptions(JAR)}`);
  assert.equal(
    toolkitLaunchEnv({ JAVA_TOOL_OPTIONS: '-Djavax.accessibility.assistive_technologies=X' }, { javaJar: JAR })[
      'JAVA_TOOL_OPTIONS'
    ],
    undefined,
  );
});

test('advice names the cause per toolkit and always the fallback', () => {
  const qt = inaccessibleAdvice({ toolkit: 'qt', env: { QT_ACCESSIBILITY: '1' }, atspiRootProperty: false });
  assert.match(qt.reason, /AT_SPI_BUS/);
  // The remedies, not tool names: the host words them (tools/remedy.ts).
  assert.deepEqual(qt.remedy, ['relaunch', 'read_pixels']);
  assert.match(
    inaccessibleAdvice({ toolkit: 'qt', env: {}, atspiRootProperty: true }).reason,
    /without QT_ACCESSIBILITY=1/,
  );
  assert.match(
    inaccessibleAdvice({ toolkit: 'java', env: {}, javaJarInstalled: true }).reason,
    /without the ATK wrapper/,
  );
  assert.match(
    inaccessibleAdvice({
      toolkit: 'java',
      env: { JAVA_TOOL_OPTIONS: '-Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper' },
      javaJarInstalled: true,
    }).reason,
    /not on its class path/,
  );
  assert.match(
    inaccessibleAdvice({ toolkit: 'java', env: {}, javaJarInstalled: false }).fix ?? '',
    /apt-get install libatk-wrapper-java-jni/,
  );
  const x = inaccessibleAdvice({ toolkit: 'unknown', env: {} });
  assert.match(x.reason, /does not speak AT-SPI/);
  assert.deepEqual(x.remedy, ['read_pixels'], 'no start fixes it: only the pixels');
});

test('x11 window handles round-trip and are told apart from AT-SPI handles', () => {
  assert.equal(xidOf(x11Handle(4194305)), 4194305);
  assert.ok(isX11Handle('x11:12'));
  assert.ok(!isX11Handle(':1.23/org/a11y/atspi/accessible/1'));
  assert.equal(xidOf('x11:abc'), undefined);
});

const offBus = (name: string, title: string): AppInfo => ({
  name, pid: 4242, id: 'x11-app:4242', executable: `/usr/bin/${name}`,
  inaccessible: { reason: 'its toolkit does not speak AT-SPI', fix: 'No switch makes it readable.' },
  windows: [{ id: 'x11:77', title, app: name, pid: 4242, role: 'window', focused: false, bounds: [0, 0, 200, 80] }],
});

test('computer_apps shows an app off the bus with reason, fix, window ref and the fallback', () => {
  const table = new WindowTable();
  const text = formatApps([offBus('xmessage', 'Quokka notice')], table);
  assert.match(text, /^xmessage pid=4242 \(not accessible: its toolkit does not speak AT-SPI\)$/m);
  assert.match(text, /^ {2}fix: No switch makes it readable\.$/m);
  assert.match(text, /\[w1\] window "Quokka notice" 200x80 · no tree: computer_screenshot \{"window":"w1"\}/);
});

test('a denied app off the bus stays unseen: name and "denied", no title, no window ref', () => {
  const table = new WindowTable();
  const text = formatApps([offBus('keepassxc', 'Vault Quokka')], table, (w) =>
    w.app === 'keepassxc' ? 'it is on your denyApps list' : undefined,
  );
  assert.equal(text, 'keepassxc (denied: it is on your denyApps list)');
  assert.equal(table.get('w1'), undefined);
});

test('the launched app does not inherit AT_SPI_BUS_ADDRESS when the session bus can tell it (Qt 6.4)', () => {
  const base = {
    DBUS_SESSION_BUS_ADDRESS: 'unix:path=/tmp/s',
    AT_SPI_BUS_ADDRESS: 'unix:path=/tmp/a',
    PATH: '/usr/bin',
  };
  const env = appLaunchEnv(base, {}, {});
  assert.equal(env['AT_SPI_BUS_ADDRESS'], undefined);
  assert.equal(env['PATH'], '/usr/bin');
  assert.equal(env['QT_ACCESSIBILITY'], '1');
  assert.equal(
    appLaunchEnv({ AT_SPI_BUS_ADDRESS: 'unix:path=/tmp/a' }, {}, {})['AT_SPI_BUS_ADDRESS'],
    'unix:path=/tmp/a',
    'no session bus: the only way to the bus stays',
  );
  assert.equal(
    appLaunchEnv(base, { AT_SPI_BUS_ADDRESS: 'unix:path=/tmp/b' }, {})['AT_SPI_BUS_ADDRESS'],
    'unix:path=/tmp/b',
  );
});

test('a Qt app started with AT_SPI_BUS_ADDRESS is told why (Qt 6.4 never registers with it)', () => {
  const a = inaccessibleAdvice({
    toolkit: 'qt',
    env: { QT_ACCESSIBILITY: '1', AT_SPI_BUS_ADDRESS: 'unix:path=/x' },
    atspiRootProperty: true,
  });
  assert.match(a.reason, /AT_SPI_BUS_ADDRESS/);
  assert.match(a.fix ?? '', /no AT_SPI_BUS_ADDRESS/);
});

test('a process that just mapped its window is still registering: not listed as inaccessible yet', async () => {
  const { spawn } = await import('node:child_process');
  const { inaccessibleApps, REGISTER_GRACE_MS } = await import('../../src/drivers/linux/apps/x11apps.js');
  const { processAgeMs } = await import('../../src/common/proc.js');
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], { stdio: 'ignore' });
  try {
    const young = processAgeMs(child.pid!);
    assert.ok(young !== undefined && young < REGISTER_GRACE_MS, `age ${young}`);
    assert.ok((processAgeMs(process.pid) ?? 0) >= 0);
    let windowReads = 0;
    const xw = {
      clients: async () => [{ id: 0x400001, pid: child.pid }],
      rootString: async () => undefined,
      pidOf: async () => { windowReads++; return child.pid; }, title: async () => 'Focus thief',
      geometry: async () => ({ rect: [0, 0, 100, 100] }), className: async () => undefined,
    } as unknown as Parameters<typeof inaccessibleApps>[0];
    // A toolkit that may still register (GTK 3 here): it is given the grace.
    const gtk3 = (pid: number) => ({ pid, comm: 'thief', argv: [], env: {}, toolkit: 'gtk3' as const });
    assert.deepEqual(await inaccessibleApps(xw, new Set(), process.pid, gtk3), []);
    assert.equal(windowReads, 0);
  } finally { child.kill(); }
});

test('a young process that never registers (no AT-SPI toolkit) is listed at once, with its window', async () => {
  const { spawn } = await import('node:child_process');
  const { inaccessibleApps } = await import('../../src/drivers/linux/apps/x11apps.js');
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], { stdio: 'ignore' });
  try {
    const xw = {
      clients: async () => [{ id: 0x400001, pid: child.pid }],
      rootString: async () => undefined,
      pidOf: async () => child.pid, title: async () => 'Notice',
      geometry: async () => ({ rect: [0, 0, 100, 100] }), wmClass: async () => undefined,
    } as unknown as Parameters<typeof inaccessibleApps>[0];
    const apps = await inaccessibleApps(xw, new Set());
    assert.equal(apps.length, 1);
    assert.equal(apps[0]?.windows[0]?.id, 'x11:4194305');
  } finally { child.kill(); }
});
