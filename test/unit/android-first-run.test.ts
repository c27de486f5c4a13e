/**
 * What a first run on a real phone would hit, on the fake phone behind the fake adb server (every command through
 * mksh): a landscape screen (the dump's rotation), an app that never stops animating (uiautomator finds no idle
 * moment), a screen capture, the apps the phone runs, a URL or an activity to open, and what the driver proves
 * about an app's process.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AdbClient } from '../../src/drivers/android/adb/client.js';
import { AndroidDriver } from '../../src/drivers/android/driver.js';
import { decodePngRgb, encodePngRgb } from '../../src/fallback/png.js';
import { androidHandlers, launchTarget } from '../../src/drivers/android/main.js';
import type { UiNode } from '../../src/drivers/android/uixml.js';
import { isComputerUseError } from '../../src/protocol/errors.js';
import type { Handlers } from '../../src/protocol/peer.js';
import type { RawNode } from '../../src/engine/node.js';
import { FakePhone } from '../android/phone.js';

const ctx = { signal: new AbortController().signal } as never;
const flat = (n: RawNode, out: RawNode[] = []): RawNode[] => {
  out.push(n);
  for (const c of n.children ?? []) flat(c, out);
  return out;
};
const walk = (n: UiNode, out: UiNode[] = []): UiNode[] => {
  out.push(n);
  n.children.forEach((c) => walk(c, out));
  return out;
};

async function withPhone(
  fn: (h: Required<Handlers>, phone: FakePhone, window: string) => Promise<void>,
  setup?: (phone: FakePhone) => void,
): Promise<void> {
  const phone = new FakePhone(
    FakePhone.screen('network-internet.xml', 'com.android.settings.Settings$NetworkDashboardActivity'),
  );
  setup?.(phone);
  phone.render();
  const port = await phone.start();
  try {
    const driver = new AndroidDriver({
      client: new AdbClient({ address: { host: '127.0.0.1', port }, timeoutMs: 8000 }),
      pollMs: 10,
    });
    const h = androidHandlers(driver) as Required<Handlers>;
    await h.hello({}, ctx);
    const apps = await h['apps.list']({}, ctx);
    const window = apps.apps.find((a) => a.windows.length)!.windows[0]!.id;
    await fn(h, phone, window);
  } finally { await phone.stop(); }
}

/** Lays the front screen out in landscape: the dump's rotation, and the Wi-Fi switch moved beyond the portrait width. */
function landscape(phone: FakePhone, rotation: 1 | 3): UiNode {
  const dump = phone.front.dump;
  dump.rotation = rotation;
  const wifi = walk(dump.roots[0]!).find((n) => n.checkable && n.className.endsWith('Switch'))!;
  wifi.bounds = rotation === 1 ? [2000, 400, 2140, 500] : [200, 400, 340, 500];
  return wifi;
}

test('landscape (rotation 1): an element right of the ' +
    'portrait width is on screen and tapped at its center', async () => {
  await withPhone(async (h, phone, window) => {
    const snap = await h['tree.snapshot']({ window }, ctx);
    assert.deepEqual(snap.root.bounds, [0, 0, 2400, 1080], 'the window is the rotated screen');
    const wifi = flat(snap.root).find((n) => n.role === 'switch' && n.name === 'Wi‑Fi')!;
    assert.ok(!wifi.states.includes('offscreen'), `states: ${wifi.states.join(' ')}`);
    await h['node.act']({ id: wifi.id, op: 'toggle' }, ctx);
    assert.deepEqual(phone.log.filter((c) => c[0] === 'input').at(-1), ['input', 'tap', '2070', '450']);
  }, (phone) => landscape(phone, 1));
});

test('landscape (rotation 3) on a phone: the navigation bar ' +
    'is at the left, so a view under it is not tapped there', async () => {
  await withPhone(async (h, phone, window) => {
    const snap = await h['tree.snapshot']({ window }, ctx);
    const wifi = flat(snap.root).find((n) => n.role === 'switch' && n.name === 'Wi‑Fi')!;
    await h['node.act']({ id: wifi.id, op: 'toggle' }, ctx);
    // 48 dp at 420 dpi is 126 px of navigation bar on the left: the switch's visible part starts right of it.
    const tap = phone.log.filter((c) => c[0] === 'input').at(-1)!;
    assert.deepEqual(tap, ['input', 'tap', '233', '450']);
  }, (phone) => { const w = landscape(phone, 3); w.bounds = [60, 400, 340, 500]; });
});

test('an app that never stops animating: observe says the screen ' +
    'never went idle and the way out, not a bare dump failure', async () => {
  await withPhone(async (h, phone, window) => {
    const render = phone.render.bind(phone);
    phone.render = () => { render(); phone.device.print('uiautomator', 'ERROR: could not get idle state.\n'); };
    phone.render();
    await assert.rejects(async () => h['tree.snapshot']({ window }, ctx), (e: unknown) =>
      isComputerUseError(e, 'timeout') && /never went idle/.test(e.message) && /Animator duration scale/.test(e.message)
        && (e.details as { reason?: string } | undefined)?.reason === 'not_idle');
    const settled = await h['ui.settle']({ quietMs: 0, timeoutMs: 300 }, ctx);
    assert.equal(settled.settled, false, 'a settle over a screen that never idles reports it did not settle');
  });
});

/** A PNG of w×h pixels, every pixel `rgb` (the fake phone's screencap). */
function solidPng(w: number, h: number, rgb: [number, number, number]): Buffer {
  const px = Buffer.alloc(w * h * 3);
  for (let i = 0; i < w * h; i++) px.set(rgb, i * 3);
  return encodePngRgb(px, w, h);
}

test('screen.capture: screencap of the app in front, the status bar blacked out, scaled to the long edge', async () => {
  await withPhone(async (h, phone, window) => {
    phone.device.print('screencap', solidPng(1080, 2400, [200, 100, 50]));
    const hello = await h.hello({}, ctx);
    assert.ok(hello.capabilities.includes('capture'));
    const shot = await h['screen.capture']({ window, maxEdge: 1280 }, ctx);
    assert.deepEqual([shot.geometry.width, shot.geometry.height], [576, 1280]);
    assert.deepEqual(shot.geometry.screen, [0, 0, 1080, 2400]);
    assert.deepEqual(shot.covered, [[0, 0, 1080, 63]], '24 dp of status bar at 420 dpi');
    const img = decodePngRgb(Buffer.from(shot.png, 'base64'));
    assert.deepEqual([...img.rgb.subarray(0, 3)], [0, 0, 0], 'the status bar is black');
    const mid = (640 * img.width + 288) * 3;
    assert.deepEqual([...img.rgb.subarray(mid, mid + 3)], [200, 100, 50], 'the app is as it was');
    assert.ok(phone.log.some((c) => c[0] === 'screencap' && c[1] === '-p'));
    // Another app in front: no image of it is returned.
    phone.open(FakePhone.screen('messenger-draft.xml', '.ConversationActivity'));
    await assert.rejects(
      async () => h['screen.capture']({ window }, ctx),
      (e: unknown) => isComputerUseError(e, 'window_changed'),
    );
  });
});

test('apps.list: the app in front with its screen, then the recent apps that run, without windows', async () => {
  await withPhone(async (h) => {
    const apps = await h['apps.list']({}, ctx);
    assert.deepEqual(
      apps.apps.map((a) => [a.name, a.windows.length]),
      [
        ['com.android.settings', 1],
        ['com.example.messenger', 0],
        ['org.mozilla.firefox', 0],
      ],
    );
  }, (phone) => phone.device.print('dumpsys.activity', [
    'ACTIVITY MANAGER RECENT TASKS (dumpsys activity recents)',
    '  Recent tasks:',
    '  * Recent #0: Task{5d2a3f1 #12 type=standard A=1000:com.android.settings U=0 visible=true mode=fullscreen sz=1}',
    '  * Recent #1: Task{7e1b2c0 #9 type=standard A=10123:com.example.messenger U=0 visible=false sz=1}',
    '  * Recent #2: TaskRecord{1c2d3e4 #7 A=org.mozilla.firefox U=0 StackId=1 sz=1}',
    '  * Recent #3: Task{9f8e7d6 #3 type=home A=10042:$(reboot) U=0 sz=1}',
    '',
  ].join('\n')));
});

test('launch: a package by its launcher, a package/activity by am ' +
    'start, a URL by its default app; anything else is refused', () => {
  assert.deepEqual(launchTarget('com.android.settings', []).argv, [
    'monkey',
    '-p',
    'com.android.settings',
    '-c',
    'android.intent.category.LAUNCHER',
    '1',
  ]);
  assert.deepEqual(launchTarget('com.android.settings/.Settings$WifiSettingsActivity', []).argv,
    ['am', 'start', '-n', 'com.android.settings/.Settings$WifiSettingsActivity']);
  assert.deepEqual(launchTarget('https://example.org/a?b=c', []).argv, [
    'am',
    'start',
    '-a',
    'android.intent.action.VIEW',
    '-d',
    'https://example.org/a?b=c',
  ]);
  for (const bad of [
    'settings',
    'com.x; reboot',
    'com.x/..;rm',
    'javascript:alert(1)',
    'intent://x',
    'file:///sdcard/a',
  ]) {
    assert.throws(() => launchTarget(bad, []), (e: unknown) => isComputerUseError(e, 'invalid_params'), bad);
  }
});

/** A client whose shell answers from a table (the process files of one app). */
function procClient(files: Record<string, string>): AdbClient {
  const answer = (cmd: string): string => {
    if (cmd.startsWith('pm list packages')) return files['pm'] ?? '';
    return cmd
      .split('; echo __cu_proc__; ')
      .map((c) => files[/\/proc\/\d+\/(\w+)/.exec(c)?.[1] ?? ''] ?? '')
      .join('__cu_proc__\n');
  };
  return {
    shell: async (_s: string, cmd: string) => ({
      stdout: Buffer.from(answer(cmd)),
      stderr: Buffer.alloc(0),
      exitCode: 0,
    }),
  } as unknown as AdbClient;
}

test('process.identify: start time and uid from /proc; the package is ' +
    'the appId only when its installed uid is the process\'s', async () => {
  const stat =
    '4242 (droid.settings) S 1 1 0 0 -1 1077936448 1 0 0 0 0 0 0 0 20 0 30 0 123456 100 10 ' + '18446744073709551615';
  const files = {
    stat,
    status: 'Name:\tdroid.settings\nUid:\t1000\t1000\t1000\t1000\n',
    cmdline: 'com.android.settings\0',
    pm: 'package:com.android.settings uid:1000\npackage:com.android.settings.intelligence uid:10052\n',
  };
  const r = await new AndroidDriver({ client: procClient(files) }).identify(4242);
  assert.deepEqual(r, {
    pid: 4242,
    startToken: '123456',
    user: '1000',
    appId: 'com.android.settings',
    executable: 'com.android.settings',
    argv: ['com.android.settings'],
  });
  // A process that names itself after another package, under its own uid: nothing proves it is that app.
  const liar = await new AndroidDriver({
    client: procClient({ ...files, status: 'Uid:\t10666\t10666\t10666\t10666\n', cmdline: 'com.android.settings\0' }),
  }).identify(4242);
  assert.equal(liar.appId, undefined);
  assert.equal(liar.executable, undefined);
  assert.equal(liar.user, '10666');
  const gone = await new AndroidDriver({ client: procClient({}) }).identify(4242);
  assert.deepEqual(gone, { pid: 4242, gone: true });
});
