/**
 * Refs never move (docs/tools.md, "What the model sees"): a ref bound to an element of a row never follows the row the
 * app recycles
 * or scrolls. On trees recorded from claws-mail's compose window (test/fixtures/linux/claws-compose-*.json:
 * one empty To entry; then, after a set_value of "alice@example.com", the app moved the address into a new row
 * it scrolled out of sight and scrolled a new empty entry in) and on synthetic recycled-widget rows.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { RawNode, WindowInfo } from '../../src/engine/node.js';
import { RefTable } from '../../src/engine/refs.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';

interface Recorded { window: WindowInfo; root: RawNode }
const fixture = (name: string): Recorded =>
  JSON.parse(readFileSync(new URL(`../../../test/fixtures/linux/${name}.json`, import.meta.url), 'utf8')) as Recorded;

/** The first raw node under the compose window's "Header" tab matching `pick`. */
function inHeader(root: RawNode, pick: (n: RawNode) => boolean): RawNode {
  let found: RawNode | undefined;
  const visit = (n: RawNode, inside: boolean): void => {
    if (found) return;
    if (inside && pick(n)) { found = n; return; }
    for (const c of n.children ?? []) visit(c, inside || n.name === 'Header');
  };
  visit(root, false);
  assert.ok(found, 'no such node under the Header tab');
  return found;
}

const emptyEntry = (n: RawNode): boolean =>
  n.role === 'textbox' && (n.value ?? '') === '' && !n.states.includes('offscreen');

test('claws-mail: the To entry\'s ref does not pass to the empty ' +
    'row the app scrolls in after the address moved away', () => {
  const refs = new RefTable();
  const before = fixture('claws-compose-before');
  const after = fixture('claws-compose-after');
  const snap1 = buildSnapshot(before, refs);
  const entry = inHeader(before.root, emptyEntry);
  const ref = snap1.elements.find((l) => l.role === 'textbox' && refs.lookup(l.ref)?.id === entry.id)?.ref;
  assert.ok(ref, snap1.text);

  const snap2 = buildSnapshot(after, refs);
  const fresh = inHeader(after.root, emptyEntry);
  assert.notEqual(fresh.id, entry.id, 'the fixture: a new entry widget was scrolled in');
  const freshRef = snap2.elements.find((l) => refs.lookup(l.ref)?.id === fresh.id)?.ref;
  assert.ok(freshRef, snap2.text);
  assert.notEqual(freshRef, ref, `the new empty row took the ref of the entry the address went into:\n${snap2.text}`);
  assert.equal(refs.lookup(ref)?.id, entry.id, 'the ref still names the entry it was given for');
  // At act time the ref is found again on a live read: never as the new row.
  const where = refs.relocate(ref, after.root, after.window);
  assert.ok(!('id' in where) || where.id === entry.id, JSON.stringify(where));
});

/** A list of `rows` recipient rows (a "To:" combo and an entry), the entries showing `values`. */
function recipients(values: string[], focused = -1): Recorded {
  const window: WindowInfo = { id: 'w', title: 'Recipients', app: 'mail', pid: 7, role: 'window', focused: true };
  const row = (i: number): RawNode => ({ id: `:1.9/row${i}`, role: 'generic', states: [], actions: [], children: [
    { id: `:1.9/combo${i}`, role: 'combobox', states: [], actions: ['click'], value: 'To:' },
    {
      id: `:1.9/entry${i}`,
      role: 'textbox',
      states: ['editable', ...(i === focused ? ['focused' as const] : [])],
      actions: ['set_value'],
      value: values[i] ?? '',
    },
  ], });
  return { window, root: { id: ':1.9/win', role: 'window', name: 'Recipients', states: [], actions: [], children: [
    { id: ':1.9/list', role: 'group', states: [], actions: [], children: values.map((_v, i) => row(i)) },
  ] } };
}

test('a recycled row widget showing another item: its entry\'s ref goes stale, the live check says missing', () => {
  const refs = new RefTable();
  const page1 = recipients(['a0@x', 'a1@x', 'a2@x', 'a3@x']);
  const snap1 = buildSnapshot(page1, refs);
  const ref = snap1.elements.find((l) => l.value === 'a0@x')?.ref;
  assert.ok(ref, snap1.text);
  // The app scrolled by four: the same four widgets now show items 4 to 7.
  const page2 = recipients(['a4@x', 'a5@x', 'a6@x', 'a7@x']);
  assert.deepEqual(
    refs.relocate(ref, page2.root, page2.window),
    { missing: true },
    'the live check followed the recycled row',
  );
  const snap2 = buildSnapshot(page2, refs);
  assert.notEqual(snap2.elements.find((l) => l.value === 'a4@x')?.ref, ref, snap2.text);
  assert.deepEqual(refs.relocate(ref, page2.root, page2.window), { missing: true });
});

test('a look-alike entry being typed into (focused), or edited by our own act, keeps its ref', () => {
  const refs = new RefTable();
  const snap1 = buildSnapshot(recipients(['a0@x', '', 'a2@x']), refs);
  const ref = snap1.elements.filter((l) => l.role === 'textbox')[1]?.ref;
  assert.ok(ref);
  const typing = recipients(['a0@x', 'bo', 'a2@x'], 1);
  assert.deepEqual(refs.relocate(ref, typing.root, typing.window), { id: ':1.9/entry1' });
  const snap2 = buildSnapshot(typing, refs);
  assert.equal(snap2.elements.find((l) => l.value === 'bo')?.ref, ref, snap2.text);
  // Our own set_value (not focused): the act forgets the content, so the check after it passes.
  refs.forgetContent(ref);
  const set = recipients(['a0@x', 'bob@x', 'a2@x']);
  assert.deepEqual(refs.relocate(ref, set.root, set.window), { id: ':1.9/entry1' });
  assert.equal(buildSnapshot(set, refs).elements.find((l) => l.value === 'bob@x')?.ref, ref);
});

/** A long list read as a slice: `start` is the first row on screen; the driver reuses handles by screen slot. */
function slice(start: number, names: (i: number) => string): Recorded {
  const window: WindowInfo = { id: 'w', title: 'Long', app: 'list', pid: 7, role: 'window', focused: true };
  const kids: RawNode[] = [0, 1, 2].map((k) => ({
    id: `:1.9/slot${k}`,
    role: 'listitem',
    name: names(start + k),
    states: [],
    actions: ['click'],
  }));
  return { window, root: { id: ':1.9/win', role: 'window', name: 'Long', states: [], actions: [], children: [
    {
      id: ':1.9/list',
      role: 'list',
      states: [],
      actions: [],
      childCount: 1000,
      childRange: { start, end: start + 3 },
      children: kids,
    },
  ], } };
}

test('a handle reused for another real row of a sliced list ' +
    'is another element; the same item moved keeps its ref', () => {
  const refs = new RefTable();
  const snap1 = buildSnapshot(slice(0, () => 'Row'), refs);
  const ref = snap1.elements.find((l) => l.role === 'listitem')?.ref;
  assert.ok(ref);
  // Rows 10-12 in the same three handles, all alike: row 0's ref must not name row 10.
  const later = slice(10, () => 'Row');
  assert.deepEqual(refs.relocate(ref, later.root, later.window), { missing: true });
  const snap2 = buildSnapshot(later, refs);
  assert.ok(!snap2.elements.some((l) => l.ref === ref), snap2.text);

  // A unique item moved down one row (an item inserted above it) under its handle keeps its ref.
  const t = new RefTable();
  const named = (i: number): string => `Item ${i}`;
  const s1 = buildSnapshot(slice(0, named), t);
  const item1 = s1.elements.find((l) => l.name === 'Item 1')?.ref;
  const moved = slice(0, named);
  moved.root.children![0]!.children = [
    { id: ':1.9/new', role: 'listitem', name: 'New', states: [], actions: [] },
    ...moved.root.children![0]!.children!.slice(0, 2).map((c, k) => ({ ...c, name: named(k) })),
  ];
  const s2 = buildSnapshot(moved, t);
  assert.equal(s2.elements.find((l) => l.name === 'Item 1')?.ref, item1, s2.text);
});

test('a tree view\'s two scroll bars keep their refs when one moves: a ' +
    'value within a range is a position, not what a row holds', () => {
  const refs = new RefTable();
  const window: WindowInfo = {
    id: 'w1',
    pid: 4242,
    app: 'lab',
    title: 'Lab',
    bounds: [0, 0, 400, 300],
    focused: true,
  } as WindowInfo;
  const bar = (id: string, value: string): RawNode =>
    ({
      id,
      role: 'scrollbar',
      states: [],
      actions: [],
      value,
      range: { min: 0, max: 4378 },
      bounds: [380, 0, 20, 300],
    }) as RawNode;
  const tree = (v: string): RawNode =>
    ({
      id: 'root',
      role: 'window',
      name: 'Lab',
      states: [],
      actions: [],
      bounds: [0, 0, 400, 300],
      children: [
        {
          id: 'pane',
          role: 'scrollarea',
          states: [],
          actions: [],
          bounds: [0, 0, 400, 300],
          children: [bar('h', '0'), bar('v', v)],
        },
      ],
    }) as RawNode;
  const first = buildSnapshot({ window, root: tree('0') }, refs);
  const refOf = (snap: typeof first, id: string): string | undefined =>
    snap.elements.find((l) => refs.lookup(l.ref)?.id === id)?.ref;
  const v1 = refOf(first, 'v');
  assert.ok(v1, first.text);
  const second = buildSnapshot({ window, root: tree('438') }, refs);
  assert.equal(refOf(second, 'v'), v1, `the scrolled bar got a new ref:\n${second.text}`);
});

/**
 * Gnumeric's edit tool bar as read live (gnumeric 1.12, one read each): the address box at index 0 and the edit
 * line at index 5, both nameless textboxes under the same path and row; a commit moves the address on (A1 → A2)
 * and empties the edit line, under the same handles.
 */
function editBar(address: string, line: string, focused = false): Recorded {
  const window: WindowInfo = { id: 'w', title: 'Book1.gnumeric - Gnumeric', app: 'gnumeric', pid: 7, role: 'window',
    focused: true };
  const box = (id: string, value: string, focus: boolean): RawNode => ({ id: `:1.2/${id}`, role: 'textbox',
    states: ['editable', ...(focus ? ['focused' as const] : [])], actions: ['set_value'], value });
  const button = (i: number): RawNode => ({ id: `:1.2/b${i}`, role: 'button', states: [], actions: ['click'] });
  return { window, root: { id: ':1.2/win', role: 'window', name: window.title, states: [], actions: [], children: [
    { id: ':1.2/bar', role: 'toolbar', states: [], actions: [], children: [
      box('490', address, false), button(1), button(2), button(3), button(4), box('549', line, focused),
    ] },
  ] } };
}

test('gnumeric: the address box and edit line keep their refs across a commit (two look-alikes of one tool bar, ' +
    'told apart by their place, not by what they hold)', () => {
  const refs = new RefTable();
  const snap1 = buildSnapshot(editBar('A1', ''), refs);
  const [address, line] = snap1.elements.filter((l) => l.role === 'textbox').map((l) => l.ref);
  assert.ok(address && line, snap1.text);
  // Our set_value into the edit line, then its Return: the app moved the address on and emptied the line.
  refs.forgetContent(line);
  buildSnapshot(editBar('A1', '=1+2', true), refs);
  const committed = editBar('A2', '');
  assert.deepEqual(refs.relocate(line, committed.root, committed.window), { id: ':1.2/549' });
  const snap2 = buildSnapshot(committed, refs);
  assert.deepEqual(snap2.elements.filter((l) => l.role === 'textbox').map((l) => l.ref), [address, line], snap2.text);
  // The next entry: the line's ref still finds it.
  assert.deepEqual(refs.relocate(line, editBar('A2', '=2+2').root, committed.window), { id: ':1.2/549' });
});
