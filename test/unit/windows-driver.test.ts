/**
 * The Windows driver's own checks (src/drivers/windows/driver.ts) over the real helper under Mono, replaying an
 * assembled Notepad recording: identity re-checked before acting (stale_ref, nothing sent), ops only where the
 * patterns allow, actionability, keys only to the window of the expected process, background keys when the
 * window cannot come to the front, settle from events, cancellation.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { ensureHelper, monoMcs } from '../../src/drivers/windows/build.js';
import { WindowsDriver } from '../../src/drivers/windows/driver.js';
import { HelperClient, helperCommand } from '../../src/drivers/windows/helper-client.js';
import { HELPER_SOURCES } from '../../src/drivers/windows/helper-sources.generated.js';
import { isComputerUseError } from '../../src/protocol/errors.js';

const FIXTURE = fileURLToPath(new URL('../../../test/fixtures/windows/notepad.helper.json', import.meta.url));
const EDIT = '264462:42.264462.4.7';
let dir = '';
let exe = '';
const helpers: HelperClient[] = [];
const driverOn = (recording = FIXTURE): WindowsDriver => {
  const h = new HelperClient(helperCommand(exe, ['--replay', recording]));
  helpers.push(h);
  return new WindowsDriver(h);
};
/** A recording like the fixture with some answers replaced (matched by op, first wins). */
const variant = (name: string, first: unknown[]): string => {
  const doc = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { answers: unknown[] };
  const p = join(dir, name);
  writeFileSync(p, JSON.stringify({ answers: [...first, ...doc.answers] }));
  return p;
};

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cu-win-driver-'));
  exe = (await ensureHelper({ sources: HELPER_SOURCES, driversDir: join(dir, 'drivers'), compiler: monoMcs() })).path;
});
after(() => { for (const h of helpers) h.close(0); rmSync(dir, { recursive: true, force: true }); });

test('a snapshot maps the window\'s UIA tree and says what it read', { timeout: 60_000 }, async () => {
  const s = await driverOn().snapshot({ window: 'hwnd:264462' });
  assert.equal(s.window.app, 'notepad');
  assert.equal(s.root.role, 'window');
  assert.deepEqual(s.root.children!.map((c) => c.role), ['generic', 'menubar', 'textbox', 'statusbar', 'button']);
  assert.deepEqual(s.stats, { nodes: 16, ms: 12.5, truncated: false });
  const file = s.root.children![1]!.children![0]!;
  assert.deepEqual([file.name, file.role, file.states, file.keyBinding], ['File', 'menuitem', ['collapsed'], 'Alt+F']);
});

test('set_value goes through Value.SetValue and ' +
    'returns the element before and after', { timeout: 60_000 }, async () => {
  const r = await driverOn().act({ id: EDIT, op: 'set_value', value: 'written' });
  assert.equal(r.method, 'pattern');
  assert.equal(r.detail, 'Value.SetValue');
  assert.equal(r.before?.value, 'hello 世界');
  assert.equal(r.after?.value, 'written');
});

test('an element whose role or name no longer matches ' +
    'is stale_ref, and the act is never sent', { timeout: 60_000 }, async () => {
  const d = driverOn(
    variant('no-act.json', [{ op: 'act', error: { code: 'internal', message: 'the act reached the helper' } }]),
  );
  await assert.rejects(
    d.act({ id: EDIT, op: 'set_value', value: 'x', expect: { role: 'button' } }),
    (e: unknown) => isComputerUseError(e, 'stale_ref') && /now a textbox/.test(e.message),
  );
  await assert.rejects(
    d.act({ id: EDIT, op: 'set_value', value: 'x', expect: { role: 'textbox', name: 'Other' } }),
    (e: unknown) => isComputerUseError(e, 'stale_ref'),
  );
  await assert.rejects(
    d.act({ id: '264462:42.264462.9', op: 'click' }),
    (e: unknown) => isComputerUseError(e, 'stale_ref'),
    'the helper answered UIA_E_ELEMENTNOTAVAILABLE',
  );
  await assert.rejects(
    d.act({ id: 'hwnd:264462', op: 'click' }),
    (e: unknown) => isComputerUseError(e, 'stale_ref'),
    'a window id is no element handle',
  );
  await assert.rejects(
    d.act({ id: EDIT, op: 'toggle' }),
    (e: unknown) => isComputerUseError(e, 'unsupported'),
    'an Edit has no Toggle pattern',
  );
});

test('actionability: a disabled element fails ' +
    'element_disabled after the wait, and nothing is sent', { timeout: 60_000 }, async () => {
  const d = driverOn(
    variant('no-act2.json', [{ op: 'act', error: { code: 'internal', message: 'the act reached the helper' } }]),
  );
  await assert.rejects(d.act({ id: '264462:42.264462.5.1', op: 'click', actionable: { timeoutMs: 200, checks: ['enabled', 'visible'] } }), (e: unknown) => {
    assert.ok(isComputerUseError(e, 'element_disabled'));
    assert.deepEqual(e.details['unmet'], ['enabled']);
    return true;
  });
});

test('keys go only to the window of the expected ' +
    'process; the foreground path sends by SendInput', { timeout: 60_000 }, async () => {
  const d = driverOn();
  await assert.rejects(d.keys({ window: 'hwnd:264462', text: 'x', expect: { pid: 4813 } }), (e: unknown) =>
    isComputerUseError(e, 'window_not_focused'),
  );
  await assert.rejects(
    d.keys({ window: 'hwnd:264462', text: 'x', expect: { pid: 4812, startToken: '1' } }),
    (e: unknown) => isComputerUseError(e, 'window_not_focused'),
    'a reused pid',
  );
  assert.deepEqual(
    await d.keys({
      window: 'hwnd:264462',
      chords: [{ mods: ['Primary'], key: 's' }],
      expect: { pid: 4812, startToken: '134091108001230000' },
    }),
    { method: 'synthetic', focusedFirst: true, sent: 1 },
  );
  await assert.rejects(d.keys({ window: 'hwnd:999', text: 'x' }), (e: unknown) =>
    isComputerUseError(e, 'window_not_found'),
  );
});

test('a window that cannot come to the front gets plain ' +
    'keys by message, and no chord with modifiers', { timeout: 60_000 }, async () => {
  const d = driverOn(variant('background.json', [
    { op: 'focus', result: { foreground: false } },
    { op: 'keys', match: { via: 'message' }, result: { sent: 3, via: 'message' } },
    { op: 'keys', error: { code: 'internal', message: 'SendInput was used without the foreground' } },
  ]));
  assert.deepEqual(await d.keys({ window: 'hwnd:264462', text: 'abc' }), {
    method: 'message',
    focusedFirst: false,
    sent: 3,
  });
  await assert.rejects(d.keys({ window: 'hwnd:264462', chords: [{ mods: ['Primary'], key: 's' }] }), (e: unknown) =>
    isComputerUseError(e, 'window_not_focused'),
  );
});

test('settle counts the window\'s events and ends when ' +
    'they stop; a cancelled settle ends at once', { timeout: 60_000 }, async () => {
  const d = driverOn();
  const quiet = await d.settle({ quietMs: 100, timeoutMs: 5000, window: 'hwnd:264462' });
  assert.equal(quiet.settled, true);
  const settling = d.settle({ quietMs: 300, timeoutMs: 5000, window: 'hwnd:264462' });
  await d.act({ id: EDIT, op: 'set_value', value: 'written' }); // its recording emits a property event of pid 4812
  const r = await settling;
  assert.equal(r.settled, true);
  assert.equal(r.events, 1);
  const ac = new AbortController();
  const t0 = Date.now();
  const long = d.settle({ quietMs: 60_000, timeoutMs: 60_000 }, ac.signal);
  setTimeout(() => ac.abort(), 100);
  assert.equal((await long).settled, false);
  assert.ok(Date.now() - t0 < 10_000);
});

test('text.read slices the element\'s text and counts lines', { timeout: 60_000 }, async () => {
  assert.deepEqual(await driverOn().textRead({ id: EDIT, start: 6 }), {
    text: '世界',
    start: 6,
    length: 8,
    startLine: 1,
  });
});

test('launch: the program found in System32, the command line built from ' +
    'argv, the environment extended; the helper is asked for exactly those', { timeout: 60_000 }, async () => {
  const application = 'C:\\Windows\\System32\\notepad.exe';
  const commandLine = '"C:\\Windows\\System32\\notepad.exe" "C:\\My Files\\a.txt" "x\\" & calc" ""';
  const environment = [
    'MY_VAR=a b "c" %PATH%',
    'PATH=C:\\Windows\\System32',
    'USERPROFILE=C:\\Users\\me',
    'WINDIR=C:\\Windows',
  ];
  const rec = variant('launch.json', [
    {
      op: 'launch',
      match: { application, commandLine, environment },
      result: { pid: 4812, startToken: '134091108001230000' },
    },
  ]);
  const h = new HelperClient(helperCommand(exe, ['--replay', rec]));
  helpers.push(h);
  const driver = new WindowsDriver(
    h,
    { WINDIR: 'C:\\Windows', PATH: 'C:\\Windows\\System32', USERPROFILE: 'C:\\Users\\me' },
    (p) => p === application,
  );
  const r = await driver.launch({
    command: 'notepad',
    args: ['C:\\My Files\\a.txt', 'x" & calc', ''],
    env: { MY_VAR: 'a b "c" %PATH%' },
    waitForWindowMs: 2000,
  });
  assert.equal(r.pid, 4812);
  assert.equal(r.startToken, '134091108001230000');
  assert.deepEqual(r.argv, [application, 'C:\\My Files\\a.txt', 'x" & calc', '']);
  assert.equal(r.window?.title, 'Untitled - Notepad');
  await assert.rejects(
    driver.launch({ command: '.\\notepad.exe' }),
    (e: unknown) => isComputerUseError(e, 'invalid_params'),
    'a relative path is refused before the helper is asked',
  );
});

test('pointer: only inside the window as it is now and as ' +
    'the caller saw it; the helper gets the proven process', { timeout: 60_000 }, async () => {
  const rec = variant('pointer.json', [
    { op: 'focus', result: { foreground: true, method: 'already' } },
    {
      op: 'pointer',
      match: { hwnd: '264462', pid: 4812, startToken: '134091108001230000', action: 'click', x: 100, y: 120 },
      result: { detail: 'SendInput click at 100,120' },
    },
  ]);
  const d = driverOn(rec);
  assert.deepEqual(await d.pointer({ window: 'hwnd:264462', action: 'click', x: 100, y: 120 }), {
    method: 'synthetic',
    detail:
      'SendInput click at 100,120; the window was already in front (pointer input goes to the window in ' + 'front)',
  });
  await assert.rejects(
    d.pointer({ window: 'hwnd:264462', action: 'click', x: 900, y: 120 }),
    (e: unknown) => isComputerUseError(e, 'window_changed'),
    'outside the window',
  );
  await assert.rejects(
    d.pointer({ window: 'hwnd:264462', action: 'drag', x: 10, y: 10, to: [10, 700] }),
    (e: unknown) => isComputerUseError(e, 'window_changed'),
    'a drag that ends outside',
  );
  await assert.rejects(
    d.pointer({ window: 'hwnd:264462', action: 'click', x: 100, y: 120, expectBounds: [5, 0, 800, 600] }),
    (e: unknown) => isComputerUseError(e, 'window_changed'),
    'the window moved',
  );
  const back = variant('pointer-back.json', [{ op: 'focus', result: { foreground: false } }]);
  await assert.rejects(
    driverOn(back).pointer({ window: 'hwnd:264462', action: 'click', x: 100, y: 120 }),
    (e: unknown) => isComputerUseError(e, 'window_not_focused'),
  );
});

test('clipboard: text with its proven owner; a secret or an unproven ' +
    'owner\'s text never passes, even when a helper sends it', { timeout: 60_000 }, async () => {
  const plain = variant('clip.json', [
    {
      op: 'clipboard',
      match: { action: 'read' },
      result: { text: '世界 \u2028 line', owner: { pid: 4812, startToken: '134091108001230000' } },
    },
  ]);
  assert.deepEqual(await driverOn(plain).clipboard({ action: 'read' }), {
    method: 'win32 clipboard',
    text: '世界 \u2028 line',
    owner: { pid: 4812, startToken: '134091108001230000' },
  });
  const secret = variant('clip-secret.json', [
    {
      op: 'clipboard',
      match: { action: 'read' },
      result: { text: 'hunter2', owner: { pid: 77, startToken: '5', secret: true } },
    },
  ]);
  const s = await driverOn(secret).clipboard({ action: 'read' });
  assert.equal(s.text, undefined);
  assert.equal(s.owner?.secret, true);
  const unproven = variant('clip-unproven.json', [
    { op: 'clipboard', match: { action: 'read' }, result: { text: 'hunter2', owner: { unproven: true } } },
  ]);
  assert.equal((await driverOn(unproven).clipboard({ action: 'read' })).text, undefined);
  const write = variant('clip-write.json', [
    { op: 'clipboard', match: { action: 'write', text: 'a\u0000b "c"' }, result: { ok: true } },
  ]);
  assert.deepEqual(await driverOn(write).clipboard({ action: 'write', text: 'a\u0000b "c"' }), {
    method: 'win32 clipboard',
  });
});

test('process.identify: image path (or AUMID) as appId, FILETIME start token, SID, integrity level ' +
    'and elevation; unreadable and gone said plainly; odd helper facts dropped', { timeout: 60_000 }, async () => {
  const rec = variant('identify.json', [
    {
      op: 'identify',
      match: { pid: 77 },
      result: {
        pid: 77,
        image:
          'C:\\Program ' +
          'Files\\WindowsApps\\Microsoft.WindowsCalculator_11.2311.0.0_x64__8wekyb3d8bbwe\\CalculatorApp.exe',
        aumid: 'Microsoft.WindowsCalculator_8wekyb3d8bbwe!App',
        startToken: '134091108001230001',
        user: 'S-1-5-21-1-2-3-1001',
      },
    },
    {
      op: 'identify',
      match: { pid: 78 },
      result: {
        pid: 78,
        image: 'C:\\x.exe',
        aumid: 'evil\nname',
        startToken: '12ab',
        user: 'S-1-5-21-1\u2028',
        integrity: -1,
        elevated: 'yes',
      },
    },
    {
      op: 'identify',
      match: { pid: 79 },
      result: { pid: 79, image: 'C:\\Windows\\regedit.exe', integrity: 0x3000, elevated: true },
    },
  ]);
  const d = driverOn(rec);
  assert.deepEqual(await d.identify({ pid: 4812 }), {
    pid: 4812,
    appId: 'C:\\Windows\\System32\\notepad.exe',
    executable: 'C:\\Windows\\System32\\notepad.exe',
    startToken: '134091108001230000',
    user: 'S-1-5-21-1004336348-1177238915-682003330-1001',
    privilege: { level: 'medium', elevated: false },
  });
  assert.deepEqual(
    (await d.identify({ pid: 79 })).privilege,
    { level: 'high', elevated: true },
    'an app run as administrator says so',
  );
  assert.equal(
    (await d.identify({ pid: 77 })).appId,
    'Microsoft.WindowsCalculator_8wekyb3d8bbwe!App',
    'a packaged app is known by its AUMID',
  );
  assert.deepEqual(
    await d.identify({ pid: 78 }),
    { pid: 78, appId: 'C:\\x.exe', executable: 'C:\\x.exe' },
    'a malformed AUMID, token or SID is no fact',
  );
  assert.deepEqual(
    await d.identify({ pid: 6020 }),
    { pid: 6020, unreadable: true },
    'OpenProcess denied: nothing proves what it is',
  );
  assert.deepEqual(await d.identify({ pid: 9 }), { pid: 9, gone: true });
});

test('apps.terminate is bound to the start token; apps.resolveLaunch ' +
    'finds the program as launch would, and starts nothing', { timeout: 60_000 }, async () => {
  const d = driverOn();
  assert.deepEqual(await d.terminate({ pid: 4812, startToken: '134091108001230000' }), { ended: true });
  assert.deepEqual(
    await d.terminate({ pid: 4812, startToken: '134091108001239999' }),
    { ended: false },
    'a reused pid is never ended',
  );
  const files = new Set(['C:\\Windows\\System32\\notepad.exe', 'C:\\Tools\\run.cmd']);
  const r = new WindowsDriver(d.helper, { WINDIR: 'C:\\Windows', PATH: 'C:\\Tools' }, (p) => files.has(p));
  assert.deepEqual(r.resolveLaunch({ command: 'notepad', args: ['C:\\notes\\a b.txt'] }), {
    executable: 'C:\\Windows\\System32\\notepad.exe',
    appId: 'C:\\Windows\\System32\\notepad.exe',
    argv: ['C:\\Windows\\System32\\notepad.exe', 'C:\\notes\\a b.txt'],
    names: ['notepad', 'C:\\Windows\\System32\\notepad.exe', 'C:\\notes\\a b.txt'],
  });
  assert.throws(
    () => r.resolveLaunch({ command: 'C:\\Tools\\run.cmd' }),
    (e: unknown) => isComputerUseError(e, 'invalid_params'),
  );
  assert.throws(
    () => r.resolveLaunch({ command: 'Microsoft.WindowsCalculator_8wekyb3d8bbwe!App', kind: 'aumid' }),
    (e: unknown) => isComputerUseError(e, 'unsupported'),
  );
});

test('tree.find asks UIA one FindAll (condition on text and control ' +
    'types, a limit) and answers in the other drivers\' shape', { timeout: 60_000 }, async () => {
  const d = driverOn();
  const byText = await d.find({ window: 'hwnd:264462', text: 'replace' });
  assert.deepEqual(
    byText.matches.map((m) => [m.node.id, m.node.role, m.node.name, m.path]),
    [['264462:42.264462.5.1', 'button', 'Replace All', ['264462:42.264462']]],
  );
  assert.equal(byText.matches[0]!.node.children, undefined, 'matches carry no children');
  const buttons = await d.find({ window: 'hwnd:264462', role: 'button', limit: 2 });
  assert.deepEqual(buttons.matches.map((m) => m.node.name), ['Minimize', 'Maximize'], 'the limit holds');
  assert.deepEqual(buttons.matches[0]!.path, ['264462:42.264462', '264462:42.264462.1']);
  assert.equal(buttons.scanned, 4);
  assert.deepEqual((await d.find({ window: 'hwnd:264462', role: 'no-such-role' })).matches, []);
  await assert.rejects(d.find({ window: 'w1', text: 'x' }), (e: unknown) => isComputerUseError(e, 'window_not_found'));
});

test('tree.find checks what the helper found: a Button that is a switch is no ' +
    'button, hidden or password values never pass, odd paths dropped', { timeout: 60_000 }, async () => {
  const el = (rid: string, extra: Record<string, unknown>) => ({
    rid,
    ct: 50000,
    enabled: true,
    patterns: ['invoke'],
    ...extra,
  });
  const rec = variant('find-hostile.json', [{ op: 'find', match: { hwnd: '264462' }, result: { found: 5, matches: [
    { node: el('42.1.1', { name: 'Dark mode', cls: 'ToggleSwitch', patterns: ['toggle'], toggle: 1 }), path: ['42.1'] },
    { node: el('42.1.2', { name: 'Hidden', offscreen: true }), path: ['42.1'] },
    { node: el('42.1.3', { name: 'OK' }), path: ['42.1', '42;rm -rf', 7] },
    {
      node: { rid: '42.1.4', ct: 50004, name: 'Password', password: true, value: 'hunter2', patterns: ['value'] },
      path: [],
    },
  ], } }]);
  const d = driverOn(rec);
  const r = await d.find({ window: 'hwnd:264462', role: 'button' });
  assert.deepEqual(r.matches.map((m) => [m.node.name, m.path]), [['OK', ['264462:42.1']]]);
  const sw = await d.find({ window: 'hwnd:264462', role: 'switch' });
  assert.deepEqual(
    sw.matches.map((m) => [m.node.name, m.node.role, m.node.states.includes('checked')]),
    [['Dark mode', 'switch', true]],
  );
  assert.doesNotMatch(JSON.stringify(await d.find({ window: 'hwnd:264462', role: 'button' })), /hunter2/);
});
