/**
 * Pointer input on macOS against the fake AX library: AX first (AXIncrement/AXDecrement on the scroll bar, AXOpen),
 * pointer events posted to the target process only as the last resort (a click on an element with no press or
 * select, a double click with no AXOpen, a drag, a scroll with no scroll bar), and never when the point shows
 * another window (the system-wide hit test) or the window moved since it was observed: window_changed, nothing sent.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { MacDriver } from '../../src/drivers/macos/driver.js';
import { oneLibrary } from '../../src/drivers/macos/ffi.js';
import { macHandlers, macHello } from '../../src/drivers/macos/main.js';
import type { RawNode } from '../../src/engine/node.js';
import { isComputerUseError } from '../../src/protocol/errors.js';
import { assertBalanced, buildFakeAx, fakeAx, MACOS_FIXTURES } from '../macos/fake-ax.js';

const LIB = buildFakeAx();
const fake = fakeAx(LIB);
let driver: MacDriver | undefined;
const start = (): MacDriver => (driver = new MacDriver({ libraries: oneLibrary(LIB), messagingTimeoutS: 0.3 }));
beforeEach(() => { fake.load(join(MACOS_FIXTURES, 'textedit.json')); });
afterEach(() => { driver?.close(); driver = undefined; assertBalanced(fake); });

const find = (n: RawNode, pred: (n: RawNode) => boolean): RawNode | undefined => {
  if (pred(n)) return n;
  for (const c of n.children ?? []) { const hit = find(c, pred); if (hit) return hit; }
  return undefined;
};
const code = (e: unknown): string | undefined => (isComputerUseError(e) ? e.code : undefined);
const events = (kind: 'mouse' | 'scroll'): string[] => fake.log().split('\n').filter((l) => l.startsWith(kind));

function textEdit(d: MacDriver): { window: string; text: RawNode; spacing: RawNode; root: RawNode } {
  const w = d.apps().find((a) => a.name === 'TextEdit')!.windows[0]!;
  const root = d.snapshot({ window: w.id }).root;
  return {
    window: w.id,
    root,
    text: find(root, (n) => n.nativeRole === 'AXTextArea')!,
    spacing: find(root, (n) => n.name === 'line spacing')!,
  };
}

test('scroll by direction moves the scroll bar through AX (AXIncrement / AXDecrement): no pointer event', async () => {
  const d = start();
  const { text, root } = textEdit(d);
  assert.ok(find(root, (n) => n.nativeRole === 'AXScrollArea')?.actions.includes('scroll'));
  fake.clearLog();
  let r = await d.act({ id: text.id, op: 'scroll', value: 'down' });
  assert.equal(r.method, 'pattern');
  assert.match(r.detail ?? '', /AXIncrement ×3 on the vertical scroll bar/);
  assert.equal(fake.log().match(/action vscroll AXIncrement/g)?.length, 3);
  r = await d.act({ id: text.id, op: 'scroll', value: 'up' });
  assert.match(r.detail ?? '', /AXDecrement/);
  assert.deepEqual(events('mouse'), []);
  assert.deepEqual(events('scroll'), []);
  await assert.rejects(d.act({ id: text.id, op: 'scroll', value: 'to 5\n' }), (e) => code(e) === 'unsupported');
});

test('the pointer is the last resort: a click, a double click, a wheel ' +
    'scroll and a drag posted to the app at the element\'s centre', async () => {
  const d = start();
  const { text, spacing } = textEdit(d);
  fake.clearLog();
  // The text area has no AXPress and no AXSelected: a click at its centre (200 + 625/2, 178 + 422/2).
  let r = await d.act({ id: text.id, op: 'click' });
  assert.equal(r.method, 'synthetic');
  // The receipt says the pointer may take the focus from the user.
  assert.match(r.detail ?? '', /pointer events posted to the app, which may take the focus and come to the front/);
  assert.deepEqual(events('mouse'), [
    'mouse pid=4242 type=1 at=512,389 button=0 clicks=1',
    'mouse pid=4242 type=2 at=512,389 button=0 clicks=1',
  ]);
  fake.clearLog();
  await d.act({ id: text.id, op: 'double_click' });
  assert.deepEqual(events('mouse').map((l) => l.replace(/ at=\S+/, '')), [
    'mouse pid=4242 type=1 button=0 clicks=1', 'mouse pid=4242 type=2 button=0 clicks=1',
    'mouse pid=4242 type=1 button=0 clicks=2', 'mouse pid=4242 type=2 button=0 clicks=2']);
  fake.clearLog();
  r = await d.act({ id: text.id, op: 'drag_to', value: spacing.id });
  const drag = events('mouse');
  assert.equal(drag[0], 'mouse pid=4242 type=1 at=512,389 button=0 clicks=1');
  assert.equal(drag.filter((l) => / type=6 /.test(l)).length, 8);
  assert.equal(drag.at(-1), 'mouse pid=4242 type=2 at=395,163 button=0 clicks=1');
  // The Login window has no scroll bar: its password field scrolls by the wheel, once its window is in front.
  const login = d.apps().find((a) => a.name === 'Login')!.windows[0]!;
  const pw = find(d.snapshot({ window: login.id }).root, (n) => n.name === 'Password')!;
  fake.clearLog();
  await assert.rejects(
    d.act({ id: pw.id, op: 'scroll', value: 'down' }),
    (e) => code(e) === 'window_changed',
    'TextEdit covers it',
  );
  assert.deepEqual(events('scroll'), []);
  fake.raise(4343);
  await d.act({ id: pw.id, op: 'scroll', value: 'down' });
  assert.deepEqual(events('scroll'), ['scroll pid=4343 vertical=-3 horizontal=0']);
  await assert.rejects(d.act({ id: text.id, op: 'drag_to', value: pw.id }), (e) => code(e) === 'invalid_params');
});

test('a covered element gets no pointer event: window_changed, nothing sent', async () => {
  const d = start();
  const { text } = textEdit(d);
  fake.raise(4343); // the Login window (500,300 300×160) now covers the text area's centre
  fake.clearLog();
  await assert.rejects(d.act({ id: text.id, op: 'click' }), (e) => code(e) === 'window_changed');
  await assert.rejects(d.act({ id: text.id, op: 'double_click' }), (e) => code(e) === 'window_changed');
  assert.deepEqual(events('mouse'), []);
});

test('input.pointer: bound to the window (its bounds as ' +
    'observed, the point showing it), then posted to its process', async () => {
  const d = start();
  const { window } = textEdit(d);
  assert.ok(macHello(d, macHandlers(d)).capabilities.includes('pointer'));
  fake.clearLog();
  assert.throws(
    () => d.pointer({ action: 'click', x: 300, y: 200, window, expectBounds: [0, 0, 640, 480] }),
    (e) => code(e) === 'window_changed',
  );
  assert.throws(() => d.pointer({ action: 'click', x: 100, y: 100, window }), (e) => code(e) === 'window_changed');
  assert.throws(
    () => d.pointer({ action: 'drag', x: 300, y: 200, to: [1000, 900], window }),
    (e) => code(e) === 'window_changed',
  );
  assert.deepEqual(events('mouse'), []);
  const r = d.pointer({ action: 'right_click', x: 300, y: 200, window, expectBounds: [200, 120, 640, 480] });
  assert.equal(r.method, 'synthetic');
  assert.match(r.detail ?? '', /which may take the focus and come to the front/);
  assert.deepEqual(events('mouse'), [
    'mouse pid=4242 type=3 at=300,200 button=1 clicks=1',
    'mouse pid=4242 type=4 at=300,200 button=1 clicks=1',
  ]);
  d.pointer({ action: 'scroll', x: 300, y: 200, direction: 'left', amount: 2, window });
  assert.deepEqual(events('scroll'), ['scroll pid=4242 vertical=0 horizontal=2']);
});
