/**
 * The DevTools channel's AX-tree mapping on a recorded `Accessibility.getFullAXTree` answer
 * (test/fixtures/cdp/order-desk.ax.json, recorded by test/fixtures/record-cdp.ts from cdp-app.html), its
 * key chords, and the `channel:` line every result through a non-native channel starts with.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import { axTreeToRaw, nodeHandle, parseHandle, type AXNode } from '../../src/drivers/cdp/axtree.js';
import { chordEvents } from '../../src/drivers/cdp/keys.js';
import { parseChord } from '../../src/session/chords.js';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import { countNodes, walk, type RawNode, type WindowInfo } from '../../src/engine/node.js';
import { RefTable } from '../../src/engine/refs.js';
import { CDP_ROLE_MAP } from '../../src/drivers/cdp/roles.js';
import { ROLES } from '../../src/protocol/vocabulary.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';
import { Session } from '../../src/session/session.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/tool.js';
import { widgetFactory } from '../fixtures/engine/widget-factory.js';

const AX = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/cdp/order-desk.ax.json', import.meta.url), 'utf8'),
) as { nodes: AXNode[] };
const WIN = 'cdp:0123ABCD';
const window: WindowInfo = { id: WIN, title: 'Order desk', app: 'chromium', pid: 4242, role: 'window', focused: true };

function mapped(passwords: number[] = []): RawNode {
  return axTreeToRaw(AX.nodes, { window: WIN, title: 'Order desk', passwords: new Set(passwords) }).root;
}
function all(root: RawNode): RawNode[] {
  const out: RawNode[] = [];
  walk(root, (n) => { out.push(n); });
  return out;
}
function find(root: RawNode, role: string, name?: string): RawNode {
  const hit = all(root).find((n) => n.role === role && (name === undefined || n.name === name));
  assert.ok(hit, `no ${role} ${name ?? ''}`);
  return hit;
}

test('the recorded tree maps to unified roles under a window root, without text-box and marker noise', () => {
  assert.ok(AX.nodes.length > 50, 'fixture is a real page read');
  const root = mapped();
  assert.equal(root.id, WIN);
  assert.equal(root.role, 'window');
  const doc = root.children?.[0];
  assert.equal(doc?.role, 'document');
  assert.equal(doc?.name, 'Order desk');
  const natives = new Set(all(root).map((n) => n.nativeRole));
  for (const dropped of ['InlineTextBox', 'ListMarker', 'LineBreak', 'none']) assert.ok(!natives.has(dropped), dropped);
  for (const n of all(root)) assert.ok((ROLES as readonly string[]).includes(n.role), n.role);
  // Every role Chromium used in the fixture is in the map (nothing silently generic).
  for (const n of AX.nodes) {
    const r = String(n.role?.value ?? '');
    if (!n.ignored && !['InlineTextBox', 'ListMarker', 'LineBreak', 'none'].includes(r))
      assert.ok(r in CDP_ROLE_MAP, `unmapped role ${r}`);
  }
  assert.ok(countNodes(root) < AX.nodes.length);
});

test('form controls carry names, values, states and DOM actions', () => {
  const root = mapped();
  const customer = find(root, 'textbox', 'Customer');
  assert.deepEqual(customer.children, undefined, 'the inner editor of an <input> is not a child');
  assert.ok(customer.states.includes('editable') && customer.states.includes('focusable'));
  assert.ok(customer.actions.includes('set_value') && customer.actions.includes('type'));
  assert.ok(find(root, 'textbox', 'Note').states.includes('multiline'));
  const size = find(root, 'combobox', 'Size');
  assert.equal(size.value, 'Medium');
  assert.ok(size.actions.includes('select'));
  assert.ok(!size.states.includes('collapsed'), 'a <select> lists its options; no submenu marker');
  const options = all(size)
    .filter((n) => n.role === 'listitem')
    .map((n) => `${n.name}${n.states.includes('selected') ? '*' : ''}`);
  assert.deepEqual(options, ['Small', 'Medium*', 'Large']);
  const gift = find(root, 'checkbox', 'Gift wrap');
  assert.ok(!gift.states.includes('checked') && gift.actions.includes('toggle'));
  assert.ok(find(root, 'button', 'Place order').actions.includes('click'));
  assert.equal(find(root, 'statusbar').nativeRole, 'status');
  assert.equal(find(root, 'list', 'Items').children?.length, 1);
  // Handles are the DOM backend node ids the acts resolve.
  const h = parseHandle(customer.id);
  assert.equal(h?.window, WIN);
  assert.ok(Number.isInteger(h?.backendNodeId));
  assert.equal(nodeHandle(WIN, { nodeId: '5', backendDOMNodeId: 14 }), `${WIN}:14`);
  assert.deepEqual(parseHandle(`${WIN}:ax7`), { window: WIN });
  assert.deepEqual(parseHandle(WIN), { window: WIN });
  assert.equal(parseHandle('/org/a11y/atspi/accessible/1'), undefined);
});

test('a password input never shows its value, whether the DOM or Chromium\'s masking tells', () => {
  const pin = AX.nodes.find((n) => n.name?.value === 'PIN' && n.role?.value === 'textbox')!;
  for (const passwords of [[], [pin.backendDOMNodeId!]]) {
    const field = find(mapped(passwords), 'textbox', 'PIN');
    assert.equal(field.value, '••••');
    assert.ok(field.states.includes('password'));
    assert.equal(field.children, undefined, 'its bullet text child is dropped');
  }
  const text = JSON.stringify(mapped([pin.backendDOMNodeId!]));
  assert.ok(!text.includes('4711'));
});

test('the mapped tree renders through the engine like any window, within budget', () => {
  const s = buildSnapshot({ window, root: mapped() }, new RefTable());
  assert.ok(s.tokens < 800, `${s.tokens} tokens`);
  assert.match(s.text, /^app chromium pid=4242 · window "Order desk"/);
  assert.match(s.text, /\[e\d+\] textbox "Customer" editable/);
  assert.match(s.text, /\[e\d+\] combobox "Size" value="Medium"/);
  assert.match(s.text, /\[e\d+\] textbox "PIN" value="••••" editable password/);
  assert.match(s.text, /\[e\d+\] button "Place order"/);
  assert.ok(!/InlineTextBox|"• "/.test(s.text));
});

test('maxNodes cuts the read and marks it truncated', () => {
  const r = axTreeToRaw(AX.nodes, { window: WIN, title: 'Order desk', maxNodes: 10 });
  assert.equal(r.truncated, true);
  assert.equal(countNodes(r.root), 10);
});

test('key chords become DevTools key events', () => {
  const [down, up] = chordEvents(parseChord('ctrl+a'));
  assert.deepEqual(down, {
    type: 'rawKeyDown',
    modifiers: 2,
    key: 'a',
    code: 'KeyA',
    windowsVirtualKeyCode: 65,
    nativeVirtualKeyCode: 65,
  });
  assert.equal(up?.['type'], 'keyUp');
  assert.equal(chordEvents(parseChord('Return'))[0]?.['text'], '\r');
  assert.equal(chordEvents(parseChord('shift+Tab'))[0]?.['modifiers'], 8);
  // Case is kept: "T" is shift + KeyT with text "T".
  assert.deepEqual(chordEvents(parseChord('T'))[0], {
    type: 'keyDown',
    modifiers: 8,
    key: 'T',
    code: 'KeyT',
    windowsVirtualKeyCode: 84,
    nativeVirtualKeyCode: 84,
    text: 'T',
    unmodifiedText: 'T',
  });
  assert.equal(chordEvents(parseChord('comma'))[0]?.['text'], ',');
  assert.throws(() => chordEvents({ mods: [], key: 'Hyper_L' }), /cannot be sent/);
});

test('every result through a non-native channel starts with its channel line; the native path has none', async () => {
  for (const channel of [undefined, 'cdp']) {
    const f = widgetFactory();
    const fake = new FakeDriver([{ info: f.window, root: f.root }]);
    if (channel) fake.channel = channel;
    const session = new Session({ device: new Device({ connect: () => fake.connect() }) });
    const call = (name: string, params: unknown) =>
      runTool(
        TOOLS.find((t) => t.schema.name === name)!,
        { session },
        params,
      );
    for (const [name, params] of [
      ['computer_apps', {}],
      ['computer_observe', {}],
      ['computer_find', { text: 'zzz-nothing' }],
      ['computer_act', { actions: [{ ref: 'e999', op: 'click' }] }],
    ] as const) {
      const r = await call(name, params);
      if (channel) assert.match(r.text, /^channel: cdp\n/, `${name}: ${r.text}`);
      else assert.ok(!r.text.startsWith('channel:'), `${name}: ${r.text}`);
    }
    await session.close();
  }
});
