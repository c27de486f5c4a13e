/**
 * Bringing a window to the front against Windows' foreground lock, on the replay helper's simulated desktop
 * (helper/DesktopSim.cs keeps the lock's rule: SetForegroundWindow fails for a process that is not in front, did
 * not receive the last input and shares no input with the foreground thread). The ladder of helper/Foreground.cs
 * runs there as it runs on user32: a bare SetForegroundWindow is refused, attaching to the foreground thread's
 * input works and is undone; when the attach is refused, an input event of the helper's own (two Alt taps) does;
 * a minimized window is restored first; when nothing works the driver says what the user can do.
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
import { isComputerUseError } from '../../src/protocol/errors.js';
import { replayHelper } from './windows-replay.js';

let dir = '';
let exe = '';
const helpers: HelperClient[] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cu-win-fg-'));
  exe = (await ensureHelper({ sources: HELPER_SOURCES, driversDir: join(dir, 'drivers'), compiler: monoMcs() })).path;
});
after(() => { for (const h of helpers) h.close(0); rmSync(dir, { recursive: true, force: true }); });

/** The user works in Edge (5001, thread 50); the target is Notepad (264462, thread 48); the helper's thread is 700. */
function desktop(extra: Record<string, unknown>, notepad: Record<string, unknown> = {}): unknown {
  return {
    self: { thread: 700, pid: 7000 }, foreground: '5001', lock: true, ...extra,
    windows: [{ hwnd: '5001', thread: 50, pid: 5000 }, { hwnd: '264462', thread: 48, pid: 4812, ...notepad }],
  };
}

function helperOn(name: string, simulate: unknown): HelperClient {
  const p = join(dir, `${name}.json`);
  const hello = { op: 'hello', result: { backend: 'replay', version: '1.0.0' } };
  writeFileSync(p, JSON.stringify({ answers: [{ op: 'focus', result: { simulate } }, hello] }));
  return replayHelper(exe, p, helpers);
}

interface Focus {
  foreground: boolean; method?: string; restored?: boolean; why?: string; calls: string[]; detached: boolean;
}

test('under the foreground lock a bare SetForegroundWindow is refused; ' +
    'attaching to the foreground thread brings the window, then detaches', { timeout: 120_000 }, async () => {
  const r = await helperOn('attach', desktop({})).request<Focus>('focus', { hwnd: '264462' });
  assert.equal(r.foreground, true);
  assert.equal(r.method, 'AttachThreadInput');
  assert.equal(r.calls[0], 'SetForegroundWindow 264462 -> false', 'the simulated lock refuses the old bare call');
  assert.ok(r.calls.includes('AttachThreadInput 700 50 TRUE -> true'), r.calls.join('\n'));
  assert.ok(r.calls.includes('AttachThreadInput 700 50 FALSE -> true'), r.calls.join('\n'));
  assert.equal(r.detached, true, 'no thread is left sharing the user\'s input state');
  assert.ok(r.calls.includes('AllowSetForegroundWindow 4812 -> true'), 'the app may take the foreground on from there');
});

test('when the foreground thread refuses the attach, ' +
    'two Alt taps of the helper\'s own lift the lock', { timeout: 120_000 }, async () => {
  const r = await helperOn('alt', desktop({ attachRefused: true })).request<Focus>('focus', { hwnd: '264462' });
  assert.equal(r.foreground, true);
  assert.equal(r.method, 'Alt key');
  assert.ok(r.calls.includes('SendInput Alt Alt -> true'));
});

test('a minimized window is restored before it is brought to the front', { timeout: 120_000 }, async () => {
  const r = await helperOn('min', desktop({}, { minimized: true })).request<Focus>('focus', { hwnd: '264462' });
  assert.equal(r.restored, true);
  assert.equal(r.calls[0], 'ShowWindow 264462 SW_RESTORE -> true');
  assert.equal(r.foreground, true);
});

test('a window already in front needs nothing; ' +
    'without the lock the plain call is enough', { timeout: 120_000 }, async () => {
  const front = { ...desktop({}) as object, foreground: '264462' };
  const already = await helperOn('already', front).request<Focus>('focus', { hwnd: '264462' });
  assert.deepEqual([already.foreground, already.method, already.calls], [true, 'already', []]);
  const plain = await helperOn('plain', desktop({ lock: false })).request<Focus>('focus', { hwnd: '264462' });
  assert.equal(plain.method, 'SetForegroundWindow');
});

test('when nothing lifts the lock (attach refused, input ' +
    'blocked, or the user holds Alt), activate says what to do', { timeout: 120_000 }, async () => {
  for (const extra of [{ attachRefused: true, inputBlocked: true }, { attachRefused: true, altHeld: true }]) {
    const helper = helperOn(`stuck-${Object.keys(extra).join('-')}`, desktop(extra));
    const r = await helper.request<Focus>('focus', { hwnd: '264462' });
    assert.equal(r.foreground, false);
    assert.equal(r.detached, true);
    await assert.rejects(new WindowsDriver(helper).activate('hwnd:264462'), (e: unknown) => {
      assert.ok(isComputerUseError(e, 'window_not_focused'));
      assert.match(e.message, /click the window or its taskbar button/);
      return true;
    });
  }
});

test('pointer input brings the window to the front through ' +
    'the lock and its receipt says it took the focus', { timeout: 120_000 }, async () => {
  const p = join(dir, 'pointer.json');
  writeFileSync(p, JSON.stringify({ answers: [
    { op: 'windows', result: { desktop: [
      { hwnd: '5001', title: 'Edge', className: 'Chrome_WidgetWin_1', pid: 5000, foreground: true,
        bounds: [0, 0, 1000, 700] },
      { hwnd: '264462', title: 'Untitled - Notepad', className: 'Notepad', pid: 4812, bounds: [100, 100, 800, 600] },
    ], processes: {
      5000: { pid: 5000, image: 'C:\\edge.exe' }, 4812: { pid: 4812, image: 'C:\\Windows\\notepad.exe' },
    },
    } },
    { op: 'focus', result: { simulate: desktop({}) } },
    { op: 'pointer', result: { detail: 'SendInput click at 300,300' } },
    { op: 'hello', result: { backend: 'replay', version: '1.0.0' } },
  ] }));
  const driver = new WindowsDriver(replayHelper(exe, p, helpers));
  const r = await driver.pointer({ window: 'hwnd:264462', action: 'click', x: 300, y: 300 });
  assert.match(r.detail ?? '',
    /^SendInput click at 300,300; the window was brought to the front for it \(AttachThreadInput\), taking the focus/);
});
