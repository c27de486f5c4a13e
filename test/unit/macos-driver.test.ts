/**
 * The macOS driver against the fake AX library (test/macos-fake, built here with gcc): the same TypeScript
 * that binds ApplicationServices on a Mac binds the fake's symbols, reads an assembled TextEdit-like tree
 * (test/fixtures/macos/textedit.json), acts, settles and posts keys. After every test the driver is closed and
 * the fake proves that every reference the driver was given or made was released exactly once.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { builtinDriver } from '../../src/devices/stdio.js';
import { doctorMac } from '../../src/drivers/macos/doctor.js';
import { MacDriver } from '../../src/drivers/macos/driver.js';
import { oneLibrary } from '../../src/drivers/macos/ffi.js';
import { macHandlers, macHello } from '../../src/drivers/macos/main.js';
import { RefTable } from '../../src/engine/refs.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';
import { isComputerUseError } from '../../src/protocol/errors.js';
import type { RawNode } from '../../src/engine/node.js';
import { assertBalanced, buildFakeAx, fakeAx, MACOS_FIXTURES } from '../macos/fake-ax.js';

const LIB = buildFakeAx();
const fake = fakeAx(LIB);
const TEXTEDIT = join(MACOS_FIXTURES, 'textedit.json');
let driver: MacDriver | undefined;

function start(opts: ConstructorParameters<typeof MacDriver>[0] = {}): MacDriver {
  driver = new MacDriver({
    libraries: oneLibrary(LIB),
    messagingTimeoutS: 0.3,
    resolve: { realpath: (p) => p },
    ...opts,
  });
  return driver;
}

beforeEach(() => { fake.load(TEXTEDIT); });
afterEach(() => {
  driver?.close();
  driver = undefined;
  assertBalanced(fake);
});

const find = (n: RawNode, pred: (n: RawNode) => boolean): RawNode | undefined => {
  if (pred(n)) return n;
  for (const c of n.children ?? []) { const hit = find(c, pred); if (hit) return hit; }
  return undefined;
};
const windowOf = (d: MacDriver, app: string) => {
  const w = d.apps().find((a) => a.name === app)?.windows[0];
  assert.ok(w, `${app} has a window`);
  return w;
};
const code = (e: unknown): string | undefined => (isComputerUseError(e) ? e.code : undefined);

test('apps and windows carry the identity libproc proves; the frontmost app\'s key window is focused', () => {
  const d = start();
  const apps = d.apps();
  assert.deepEqual(apps.map((a) => a.name), ['TextEdit', 'Login']);
  const te = apps[0]!;
  assert.equal(te.pid, 4242);
  assert.equal(te.startToken, String(1764633600 * 1_000_000 + 250_000));
  assert.equal(te.executable, '/System/Applications/TextEdit.app/Contents/MacOS/TextEdit');
  assert.equal(te.user, '501');
  assert.equal(te.windows[0]?.title, 'Untitled');
  assert.equal(te.windows[0]?.focused, true);
  assert.deepEqual(te.windows[0]?.bounds, [200, 120, 640, 480]);
  assert.equal(apps[1]?.windows[0]?.role, 'dialog');
  assert.equal(apps[1]?.windows[0]?.focused, false);
  // The same window listed again keeps its handle.
  assert.equal(d.apps()[0]?.windows[0]?.id, te.windows[0]?.id);
});

test('a snapshot of the TextEdit-like window through the real engine', () => {
  const d = start();
  const w = windowOf(d, 'TextEdit');
  const s = d.snapshot({ window: w.id });
  const snap = buildSnapshot({ window: s.window, root: s.root }, new RefTable());
  assert.match(snap.text, /window "Untitled"/);
  assert.match(snap.text, /button "close button"/);
  assert.match(snap.text, /combobox "font family" value="Helvetica"/);
  assert.match(snap.text, /checkbox "bold"/);
  assert.match(snap.text, /combobox "lists bullets and numbering" value="None" disabled/);
  assert.match(snap.text, /textbox value="Hello from TextEdit" .*editable/);
  assert.match(snap.text, /menubar/);
  assert.match(snap.text, /menuitem "File"/);
  // The menu bar is collapsed: its menus are not read until a snapshot is scoped to an item.
  assert.doesNotMatch(snap.text, /Save…/);
  const text = find(s.root, (n) => n.nativeRole === 'AXTextArea')!;
  assert.deepEqual(text.states.sort(), ['editable', 'focusable', 'focused', 'multiline']);
  assert.deepEqual(text.actions.sort(), ['clear', 'focus', 'right_click', 'set_value', 'type']);
  assert.equal(text.caret, 5);
  const file = find(s.root, (n) => n.name === 'File')!;
  assert.ok(file.states.includes('collapsed'));
  const menu = d.snapshot({ window: w.id, scope: file.id });
  assert.ok(find(menu.root, (n) => n.name === 'Save…' && n.role === 'menuitem'));
  // Unchanged elements keep their handles across snapshots.
  assert.equal(find(d.snapshot({ window: w.id }).root, (n) => n.nativeRole === 'AXTextArea')?.id, text.id);
});

test('a password field reads as bullets, never its value', () => {
  const d = start();
  const s = d.snapshot({ window: windowOf(d, 'Login').id });
  const pw = find(s.root, (n) => n.name === 'Password')!;
  assert.equal(pw.value, '••••');
  assert.ok(pw.states.includes('password'));
  assert.doesNotMatch(JSON.stringify(s.root), /hunter2/);
});

test('every op goes through AX: set_value, type at the caret ' +
    '(Chinese), clear, toggle, focus, click, expand, right_click', async () => {
  const d = start();
  const w = windowOf(d, 'TextEdit');
  const root = d.snapshot({ window: w.id }).root;
  const text = find(root, (n) => n.nativeRole === 'AXTextArea')!;
  const bold = find(root, (n) => n.name === 'bold')!;
  const font = find(root, (n) => n.name === 'font family')!;
  const close = find(root, (n) => n.name === 'close button')!;

  let r = await d.act({ id: text.id, op: 'set_value', value: 'Hello' });
  assert.equal(r.method, 'pattern');
  assert.equal(r.after?.value, 'Hello');
  assert.equal(r.before?.value, 'Hello from TextEdit');
  r = await d.act({ id: text.id, op: 'type', value: '，世界 🌏' });
  assert.equal(r.after?.value, 'Hello，世界 🌏');
  assert.match(r.detail ?? '', /AXSelectedText/);
  r = await d.act({ id: text.id, op: 'clear' });
  assert.equal(r.after?.value, '');
  r = await d.act({ id: bold.id, op: 'toggle' });
  assert.ok(r.after?.states.includes('checked'));
  assert.ok(!r.before?.states.includes('checked'));
  await d.act({ id: font.id, op: 'focus' });
  await d.act({ id: font.id, op: 'expand' });
  await d.act({ id: text.id, op: 'right_click' });
  await d.act({ id: close.id, op: 'click' });
  const log = fake.log();
  assert.match(log, /set text AXValue=Hello\n/);
  assert.match(log, /set font AXFocused=true/);
  assert.match(log, /action font AXShowMenu/);
  assert.match(log, /action text AXShowMenu/);
  assert.match(log, /action close AXPress/);
  assert.doesNotMatch(log, /key pid/, 'no key event was needed');
  await assert.rejects(d.act({ id: close.id, op: 'set_value', value: 'x' }), (e) => code(e) === 'unsupported');
});

test('close on a window presses its title bar\'s close button ' +
    '(AXCloseButton); on another element it is unsupported', async () => {
  const d = start();
  const w = windowOf(d, 'TextEdit');
  const root = d.snapshot({ window: w.id }).root;
  assert.ok(root.actions.includes('close'), root.actions.join());
  const r = await d.act({ id: root.id, op: 'close' });
  assert.match(r.detail ?? '', /AXPress on the window's AXCloseButton/);
  assert.match(fake.log(), /action close AXPress/);
  const text = find(root, (n) => n.role === 'textbox')!;
  assert.ok(!text.actions.includes('close'));
  await assert.rejects(d.act({ id: text.id, op: 'close' }), (e) => code(e) === 'unsupported');
});

test('acting refuses a disabled element, a stale handle, ' +
    'a destroyed element, a role change and a reused pid', async () => {
  const d = start({ handles: { ttlMs: 60_000 } });
  const w = windowOf(d, 'TextEdit');
  const root = d.snapshot({ window: w.id }).root;
  const lists = find(root, (n) => n.name === 'lists bullets and numbering')!;
  const text = find(root, (n) => n.nativeRole === 'AXTextArea')!;
  const close = find(root, (n) => n.name === 'close button')!;
  await assert.rejects(d.act({ id: lists.id, op: 'click' }), (e) => code(e) === 'element_disabled');
  await assert.rejects(d.act({ id: 'e000000.1', op: 'click' }), (e) => code(e) === 'stale_ref');
  await assert.rejects(d.act({ id: text.id, op: 'click', expect: { role: 'button' } }), (e) => code(e) === 'stale_ref');
  fake.destroy('close');
  await assert.rejects(d.act({ id: close.id, op: 'click' }), (e) => code(e) === 'stale_ref');
  fake.reusePid(4242, 1764700000);
  await assert.rejects(d.act({ id: text.id, op: 'set_value', value: 'x' }), (e) => code(e) === 'stale_ref');
  assert.doesNotMatch(fake.log(), /action|set /, 'nothing was sent');
});

test('handles expire: an unused one is released and reads as stale', async () => {
  let now = 1_000_000;
  const d = start({ handles: { ttlMs: 1000, now: () => now } });
  const w = windowOf(d, 'TextEdit');
  const close = find(d.snapshot({ window: w.id }).root, (n) => n.name === 'close button')!;
  const before = d.handles.size;
  now += 5000;
  await assert.rejects(d.act({ id: close.id, op: 'click' }), (e) => code(e) === 'stale_ref');
  d.handles.sweep();
  assert.ok(d.handles.size < before);
});

test('settle: by notifications after an app-side change, and by polling when no observer can be made', async () => {
  const d = start({ pumpMs: 5 });
  const w = windowOf(d, 'TextEdit');
  const text = find(d.snapshot({ window: w.id }).root, (n) => n.nativeRole === 'AXTextArea')!;
  assert.ok(fake.observerCount() > 0, 'the app is observed');
  await d.act({ id: text.id, op: 'set_value', value: 'set by the agent' });
  const s = await d.settle({ quietMs: 50, timeoutMs: 2000, window: w.id });
  assert.equal(s.settled, true);
  assert.equal(s.events, 1, 'the AXValueChanged the act caused');
  fake.appSetString('text', 'AXValue', 'typed by the user');
  const again = await d.settle({ quietMs: 50, timeoutMs: 2000, window: w.id });
  assert.equal(again.events, 1, 'the app\'s own change');
  d.close();
  driver = undefined;

  fake.load(TEXTEDIT);
  fake.failObservers(true);
  const p = start();
  const pw = windowOf(p, 'TextEdit');
  const polled = await p.settle({ quietMs: 30, timeoutMs: 2000, window: pw.id });
  assert.equal(polled.settled, true);
  assert.equal(fake.observerCount(), 0);
});

test('a hung app is answered by the messaging timeout, not by hanging the driver', () => {
  const d = start({ messagingTimeoutS: 0.3 });
  const w = windowOf(d, 'TextEdit');
  fake.setHang(4242, 60_000);
  assert.throws(() => d.snapshot({ window: w.id }), (e) => code(e) === 'timeout');
  assert.equal(fake.timeoutS(4242), 0.30000001192092896);
  assert.match(fake.log(), /timeout pid=4242 after=300ms/);
  // The list still answers: the hung app shows as busy.
  assert.equal(d.apps().find((a) => a.pid === 4242)?.busy, true);
});

test('keys go to the target process by CGEventPostToPid: ctrl is Command, control is Control, text as Unicode', () => {
  const d = start();
  const w = windowOf(d, 'TextEdit');
  fake.clearLog();
  const r = d.keys({
    window: w.id,
    chords: [
      { mods: ['Primary'], key: 's' },
      { mods: ['Control'], key: 'a' },
      { mods: [], key: 'Enter' },
    ],
  });
  assert.equal(r.method, 'synthetic');
  const lines = fake.log().trim().split('\n');
  assert.deepEqual(lines.slice(0, 4), [
    'key pid=4242 code=55 down flags=0x100000 text=', 'key pid=4242 code=1 down flags=0x100000 text=',
    'key pid=4242 code=1 up flags=0x100000 text=', 'key pid=4242 code=55 up flags=0x0 text=',
  ]);
  assert.deepEqual(lines.slice(4, 6), [
    'key pid=4242 code=59 down flags=0x40000 text=',
    'key pid=4242 code=0 down flags=0x40000 text=',
  ]);
  d.keys({ window: w.id, text: '中文' });
  assert.match(fake.log(), /key pid=4242 code=0 down flags=0x0 text=中文/);
  const text = find(d.snapshot({ window: w.id }).root, (n) => n.nativeRole === 'AXTextArea')!;
  assert.equal(text.value, 'Hello中文 from TextEdit', 'typed at the caret of the focused element');
  assert.throws(() => d.keys({ window: w.id, chords: [{ mods: [], key: 'F24' }] }), (e) => code(e) === 'unsupported');
  assert.throws(() => d.keys({ window: w.id, text: 'x', expect: { pid: 1 } }), (e) => code(e) === 'window_not_focused');
});

test('permissions: hello reads trust without prompting; untrusted, every read says what to grant and where', () => {
  fake.setTrusted(false);
  const d = start();
  const h = macHello(d, macHandlers(d));
  assert.ok(
    h.methods.includes('node.act') && h.methods.includes('screen.capture') && h.capabilities.includes('capture'),
  );
  assert.equal(h.permissions['accessibility'], false);
  assert.match(h.facts?.['accessibility'] ?? '', /Privacy & Security › Accessibility/);
  assert.throws(
    () => d.apps(),
    (e) => code(e) === 'permission_denied' && /Privacy & Security › Accessibility/.test((e as Error).message),
  );
  assert.equal(fake.prompts(), 0, 'the system prompt was never asked for');
  fake.setTrusted(true);
  assert.equal(macHello(d, {}).permissions['accessibility'], true);
});

test('Chromium and Electron are asked for their full tree (AXManualAccessibility) once per app', () => {
  const d = start();
  d.apps();
  d.apps();
  d.snapshot({ window: windowOf(d, 'TextEdit').id });
  // The fixture apps do not take it (not settable): asked once each, refused, ignored.
  assert.deepEqual(fake.log().match(/refused \S+ AXManualAccessibility/g), [
    'refused AXApplication AXManualAccessibility',
    'refused AXApplication AXManualAccessibility',
  ]);
});

test('doctor on a Mac: the permission (never prompting) and what can be read', () => {
  const libs = { libraries: oneLibrary(LIB), messagingTimeoutS: 0.3 };
  const ok = doctorMac(libs);
  assert.deepEqual(
    ok.map((c) => [c.name, c.ok]),
    [
      ['accessibility', true],
      ['apps', true],
      ['screen recording', true],
    ],
  );
  assert.match(ok[1]!.detail, /2 apps with 2 windows/);
  assert.equal(ok[2]!.warn, undefined);
  fake.setScreenRecording(false);
  const noRecording = doctorMac(libs)[2]!;
  assert.deepEqual([noRecording.ok, noRecording.warn], [true, true]);
  assert.match(noRecording.fix ?? '', /Privacy & Security › Screen Recording/);
  fake.setTrusted(false);
  const denied = doctorMac(libs);
  assert.deepEqual(denied.map((c) => [c.name, c.ok]), [['accessibility', false]]);
  assert.match(denied[0]!.fix ?? '', /System Settings › Privacy & Security › Accessibility/);
  assert.equal(fake.prompts(), 0);
});

test('on darwin the session starts the macOS driver', () => {
  const cmd = builtinDriver('darwin');
  assert.match(cmd.args[0] ?? '', /drivers\/macos\/main\.js$/);
  assert.ok(existsSync(cmd.args[0]!));
});

test('launch: open -a with the bundle the name resolved to as one ' +
    'argv element, then the app\'s window; hostile names refused', async () => {
  const calls: [string, readonly string[]][] = [];
  const d = start({ spawner: async (file, args) => { calls.push([file, args]); } });
  const r = await d.launch({ command: 'TextEdit', args: ['--x; rm -rf ~'], waitForWindowMs: 2000 });
  assert.deepEqual(calls, [['/usr/bin/open', ['-a', '/System/Applications/TextEdit.app', '--args', '--x; rm -rf ~']]]);
  assert.equal(r.pid, 4242);
  assert.equal(r.window?.title, 'Untitled');
  await assert.rejects(d.launch({ command: '-n /bin/sh' }), (e) => code(e) === 'invalid_params');
  await assert.rejects(
    d.launch({ command: 'TextEdit', env: { DYLD_INSERT_LIBRARIES: '/tmp/x.dylib' } }),
    (e) => code(e) === 'unsupported',
  );
  assert.equal(calls.length, 1, 'nothing else was started');
  await assert.rejects(d.launch({ command: 'Nothing', waitForWindowMs: 300 }), (e) => code(e) === 'timeout');
});
