/**
 * The plan of a partial re-read after an act (drivers/linux/tree/patch-plan.ts): which subtrees and nodes the app's
 * events say changed, and every case where a partial re-read could be wrong and the window must be read whole.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RawNode } from '../../src/protocol/nodes.js';
import {
  planPatch,
  patchable,
  MAX_PATCH_EVENTS,
  type KeptRead,
  type Locate,
} from '../../src/drivers/linux/tree/patch-plan.js';

const A = ':1.9';
const n = (path: string, role: RawNode['role'], children?: RawNode[], extra: Partial<RawNode> = {}): RawNode => ({
  id: A + path, role, states: [], actions: [], ...(children ? { children } : {}), ...extra,
});

/** A window: a toolbar of two buttons, a form with a check box and an entry, a hidden page, a list of 3 rows. */
function kept(): KeptRead {
  const root = n('/win', 'window', [
    n('/bar', 'toolbar', [n('/b1', 'button'), n('/b2', 'button')]),
    n('/form', 'group', [
      n('/agree', 'checkbox'),
      n('/name', 'textbox'),
      n('/more', 'group', [n('/m1', 'label'), n('/m2', 'label'), n('/m3', 'label')]),
    ], { name: 'Details' }),
    n('/hidden', 'group', undefined, { childCount: 4 }),
    n(
      '/list',
      'list',
      [n('/r1', 'listitem', undefined, { posInSet: 1 }), n('/r2', 'listitem', undefined, { posInSet: 2 })],
      { setSize: 40 },
    ),
    n('/p1', 'label'),
    n('/p2', 'label'),
    n('/p3', 'label'),
    n('/p4', 'label'),
  ]);
  return { mark: 'm', root, nodes: 19, notShowing: new Set([A + '/hidden']), textLeft: 10_000, reliable: true };
}
const ev = (type: string, path: string): { type: string; source: string } => ({ type, source: A + path });
const nowhere: Locate = () => Promise.resolve(undefined);

test("a state change re-reads the node and its parent (and the window's own facts), nothing else", async () => {
  const plan = await planPatch(kept(), [ev('object:state-changed:checked', '/agree')], nowhere);
  assert.deepEqual(plan, { subtrees: [], refresh: [A + '/agree', A + '/form', A + '/win'], carets: [] });
});

test('a layout box with no name, description or value of its own is not read again for its child', async () => {
  const k = kept();
  const form = k.root.children![1]!;
  delete form.name;
  const plan = await planPatch(k, [ev('object:state-changed:checked', '/agree')], nowhere);
  assert.deepEqual(plan, { subtrees: [], refresh: [A + '/agree', A + '/win'], carets: [] });
  // A combo box takes its choice from its list: read again whatever it carries.
  form.role = 'combobox';
  const combo = await planPatch(k, [ev('object:state-changed:checked', '/agree')], nowhere);
  assert.deepEqual(combo, { subtrees: [], refresh: [A + '/agree', A + '/form', A + '/win'], carets: [] });
});

test("a subtree replaced (children changed) is read again whole, what it holds not refreshed apart", async () => {
  const plan = await planPatch(
    kept(),
    [
      ev('object:children-changed:remove', '/more'),
      ev('object:property-change:accessible-name', '/m2'),
      ev('object:children-changed:add', '/more'),
    ],
    nowhere,
  );
  assert.deepEqual(plan, { subtrees: [A + '/more'], refresh: [A + '/win'], carets: [] });
});

test('a node moved between parents re-reads both parents', async () => {
  const plan = await planPatch(
    kept(),
    [ev('object:children-changed:remove', '/bar'), ev('object:children-changed:add', '/more')],
    nowhere,
  );
  assert.deepEqual(plan, { subtrees: [A + '/bar', A + '/more'], refresh: [A + '/win'], carets: [] });
});

test('a node that shows or hides re-reads its parent (what a read keeps below it depends on it)', async () => {
  const plan = await planPatch(kept(), [ev('object:state-changed:showing', '/m1')], nowhere);
  assert.deepEqual(plan, { subtrees: [A + '/more'], refresh: [A + '/win'], carets: [] });
});

test('a dialog opened by the act in another window of the app leaves this read patched', async () => {
  const outside: Locate = (s) => Promise.resolve(s.startsWith(A + '/dlg') ? 'outside' : undefined);
  const plan = await planPatch(
    kept(),
    [
      ev('object:children-changed:add', '/org/a11y/atspi/accessible/root'),
      ev('window:create', '/dlg'),
      ev('object:state-changed:showing', '/dlg1'),
      ev('object:state-changed:checked', '/agree'),
    ],
    outside,
  );
  assert.deepEqual(plan, { subtrees: [], refresh: [A + '/agree', A + '/form', A + '/win'], carets: [] });
});

test('an event below a node the read did not descend into (a hidden page) changes nothing read', async () => {
  const plan = await planPatch(
    kept(),
    [ev('object:state-changed:checked', '/deep'), ev('object:state-changed:checked', '/agree')],
    () => Promise.resolve(A + '/hidden'),
  );
  assert.deepEqual(plan, { subtrees: [], refresh: [A + '/agree', A + '/form', A + '/win'], carets: [] });
});

test('an event below a node read with its children but not itself in the read re-reads that node', async () => {
  const plan = await planPatch(kept(), [ev('object:state-changed:checked', '/new')], () => Promise.resolve(A + '/bar'));
  assert.deepEqual(plan, { subtrees: [A + '/bar'], refresh: [A + '/win'], carets: [] });
});

// Qt 5 (featherpad) retitles its window ("Untitled" -> "*Untitled" after a type) with no event on the window: the
// events of that type named the edited document, two toolbar buttons and the status bar, never the frame.
test("the window's own facts (its title) are read again on every patched read, with no event naming it", async () => {
  const plan = await planPatch(
    kept(),
    [ev('object:text-changed:insert', '/name'), ev('object:state-changed:enabled', '/b1')],
    nowhere,
  );
  assert.ok('refresh' in plan, JSON.stringify(plan));
  assert.ok(plan.refresh.includes(A + '/win'), JSON.stringify(plan));
});

// A caret moves with no event the driver hears.
test("a caret a snapshot shows is read again; an unfocused field's is not", async () => {
  const k = kept();
  const field = k.root.children![1]!.children![1]!;
  field.caret = 3;
  const plan = await planPatch(k, [ev('object:state-changed:checked', '/agree')], nowhere);
  assert.deepEqual(plan, { subtrees: [], refresh: [A + '/agree', A + '/form', A + '/win'], carets: [] });
  field.states = ['focused'];
  const focused = await planPatch(k, [ev('object:state-changed:checked', '/agree')], nowhere);
  assert.deepEqual(focused, { subtrees: [], refresh: [A + '/agree', A + '/form', A + '/win'], carets: [A + '/name'] });
  field.states = [];
  field.selection = [1, 3];
  const selected = await planPatch(k, [ev('object:state-changed:checked', '/agree')], nowhere);
  assert.deepEqual(selected, { subtrees: [], refresh: [A + '/agree', A + '/form', A + '/win'], carets: [A + '/name'] });
});

test('every unsure case reads whole', async () => {
  type Events = { type: string; source: string }[] | undefined;
  const whole = async (events: Events, locate: Locate = nowhere, k = kept()): Promise<string | undefined> => {
    const plan = await planPatch(k, events, locate);
    return 'whole' in plan ? plan.whole : undefined;
  };
  assert.equal(await whole(undefined), 'events not all known');
  assert.equal(await whole([]), 'no event');
  // A flood (an app sending 1,000 events a second) is never patched from.
  const flood = Array.from({ length: MAX_PATCH_EVENTS + 1 }, () => ev('object:property-change:accessible-name', '/b1'));
  assert.equal(await whole(flood), 'too many events');
  assert.equal(await whole([ev('object:state-changed:checked', '/unknown')]), 'a source that could not be placed');
  assert.equal(await whole([ev('object:children-changed:add', '/win')]), "a change at the window's root");
  assert.equal(await whole([ev('object:state-changed:showing', '/bar')]), "a change at the window's root");
  assert.equal(await whole([ev('object:state-changed:selected', '/r1')]), 'a change inside a table or a set');
  assert.equal(await whole([ev('object:children-changed:add', '/list')]), 'a change inside a table or a set');
  assert.equal(
    await whole([ev('object:children-changed:add', '/form'), ev('object:children-changed:add', '/bar')]),
    'most of the window changed',
  );
  const many: Locate = () => Promise.resolve('outside');
  const sources = Array.from({ length: 30 }, (_, i) => ev('object:state-changed:showing', `/dlg${i}`));
  assert.equal(await whole(sources, many), 'too many sources outside the read');
});

test('a read cut short, with untrusted showing states or a slice no scroll bar reports is never patched', () => {
  const k = kept();
  assert.equal(patchable({ root: k.root, truncated: false, reliable: true }), true);
  assert.equal(patchable({ root: k.root, truncated: true, reliable: true }), false);
  assert.equal(patchable({ root: k.root, truncated: false, reliable: false }), false);
  const pane = n('/pane', 'scrollarea', [
    n('/rows', 'table', [n('/row9', 'row')], { childRange: { start: 9, end: 10 }, childCount: 200 }),
  ]);
  k.root.children!.push(pane);
  assert.equal(patchable({ root: k.root, truncated: false, reliable: true }), false);
  pane.children!.push(n('/vbar', 'scrollbar'));
  assert.equal(patchable({ root: k.root, truncated: false, reliable: true }), true);
});

test("a scroll bar that moved re-reads its pane (the rows on screen of the list in it), tables included", async () => {
  const k = kept();
  const pane = n('/pane', 'scrollarea', [n('/rows', 'group', [n('/row9', 'label')]), n('/vbar', 'scrollbar')]);
  k.root.children!.push(pane);
  k.nodes += 4;
  assert.deepEqual(await planPatch(k, [ev('object:value-changed', '/vbar')], nowhere), {
    subtrees: [A + '/pane'],
    refresh: [A + '/win'],
    carets: [],
  });
  // A table inside the re-read subtree is read whole with it (its cells numbered by that read).
  pane.children![0]!.table = { rows: 200, cols: 1 };
  assert.deepEqual(await planPatch(k, [ev('object:value-changed', '/vbar')], nowhere), {
    subtrees: [A + '/pane'],
    refresh: [A + '/win'],
    carets: [],
  });
});
