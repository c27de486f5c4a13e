/**
 * A UWP app's window is an ApplicationFrameWindow of ApplicationFrameHost.exe, which frames every UWP app; the app
 * runs in its own process, whose CoreWindow is a child of the frame. Over the real helper under Mono, with
 * recorded window facts listed by the helper's own rule (helper/AppWindow.cs): the window's identity is the app's
 * process (image, AUMID, start token), never the frame host's; a frame with no app attached is not listed; and
 * facts of the frame host itself (an older or lying helper) prove no app.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ensureHelper, monoMcs } from '../../src/drivers/windows/build.js';
import { WindowsDriver } from '../../src/drivers/windows/driver.js';
import type { HelperClient } from '../../src/drivers/windows/helper-client.js';
import { HELPER_SOURCES } from '../../src/drivers/windows/helper-sources.generated.js';
import { replayHelper } from './windows-replay.js';

const HOST = {
  pid: 9000,
  image: 'C:\\Windows\\System32\\ApplicationFrameHost.exe',
  startToken: '134091100000000000',
  user: 'S-1-5-21-1-2-3-1001',
  integrity: 0x2000,
  elevated: false,
};
const SETTINGS = {
  pid: 9100,
  image: 'C:\\Windows\\ImmersiveControlPanel\\SystemSettings.exe',
  startToken: '134091108009990000',
  user: 'S-1-5-21-1-2-3-1001',
  aumid: 'windows.immersivecontrolpanel_cw5n1h2txyewy!microsoft.windows.immersivecontrolpanel',
  integrity: 0x2000,
  elevated: false,
};
const NOTEPAD = {
  pid: 4812,
  image: 'C:\\Windows\\System32\\notepad.exe',
  startToken: '134091108001230000',
  user: 'S-1-5-21-1-2-3-1001',
  integrity: 0x2000,
  elevated: false,
};
const CORE = 'Windows.UI.Core.CoreWindow';
let dir = '';
let exe = '';
const helpers: HelperClient[] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cu-win-uwp-'));
  exe = (await ensureHelper({ sources: HELPER_SOURCES, driversDir: join(dir, 'drivers'), compiler: monoMcs() })).path;
});
after(() => { for (const h of helpers) h.close(0); rmSync(dir, { recursive: true, force: true }); });

function driverOn(name: string, answers: unknown[]): WindowsDriver {
  const p = join(dir, `${name}.json`);
  writeFileSync(
    p,
    JSON.stringify({
      answers: [
        ...answers,
        {
          op: 'hello',
          result: { backend: 'replay', version: '1.0.0', self: { pid: 7000, integrity: 0x2000, elevated: false } },
        },
      ],
    }),
  );
  return new WindowsDriver(replayHelper(exe, p, helpers));
}

const desktop = {
  op: 'windows', result: {
    desktop: [
      { hwnd: '5001', title: 'Settings', className: 'ApplicationFrameWindow', pid: 9000, foreground: true, bounds: [0, 0, 1000, 700], children: [{ className: CORE, pid: 9100 }] },
      // Calculator suspended: Windows moved its CoreWindow out of the frame; nothing proves which app this is.
      { hwnd: '5002', title: 'Calculator', className: 'ApplicationFrameWindow', pid: 9000, bounds: [50, 50, 300, 500], children: [] },
      // A child claiming to be a CoreWindow of the frame host itself proves no app either.
      { hwnd: '5003', title: 'Photos', className: 'ApplicationFrameWindow', pid: 9000, children: [{ className: CORE, pid: 9000 }] },
      { hwnd: '264462', title: 'Untitled - Notepad', className: 'Notepad', pid: 4812, bounds: [0, 0, 800, 600] },
    ],
    processes: { 9000: HOST, 9100: SETTINGS, 4812: NOTEPAD },
  },
};

test('a UWP window is its app\'s process and AUMID, never ' +
    'ApplicationFrameHost\'s; a frame with no app attached is not listed', { timeout: 60_000 }, async () => {
  const d = driverOn('uwp', [desktop]);
  const windows = await d.windows();
  assert.deepEqual(windows.map((w) => [w.title, w.pid]), [['Settings', 9100], ['Untitled - Notepad', 4812]]);
  const settings = windows[0]!;
  assert.equal(settings.appId, SETTINGS.aumid);
  assert.equal(settings.executable, SETTINGS.image);
  assert.equal(settings.startToken, SETTINGS.startToken);
  assert.equal(settings.app, 'SystemSettings');
  assert.equal(settings.className, 'ApplicationFrameWindow');
  const apps = await d.apps();
  assert.ok(
    !apps.some((a) => a.pid === 9000 || /ApplicationFrameHost/i.test(`${a.name} ${a.executable ?? ''}`)),
    JSON.stringify(apps),
  );
  assert.deepEqual(apps.find((a) => a.pid === 9100)?.windows.map((w) => w.id), ['hwnd:5001']);
});

test('facts of the frame host itself prove no app: no appId or ' +
    'executable, and process.identify says unreadable', { timeout: 60_000 }, async () => {
  const d = driverOn('host', [
    {
      op: 'windows',
      result: { windows: [{ hwnd: '5001', title: 'Settings', className: 'ApplicationFrameWindow', process: HOST }] },
    },
    { op: 'identify', match: { pid: 9000 }, result: HOST },
  ]);
  const [w] = await d.windows();
  assert.equal(w!.appId, undefined);
  assert.equal(w!.executable, undefined);
  assert.equal(w!.app, 'ApplicationFrameWindow');
  const id = await d.identify({ pid: 9000 });
  assert.equal(id.unreadable, true);
  assert.equal(id.appId, undefined);
});
