/**
 * Nameless fields named by the label beside them (drivers/common/labels.ts): pluma's Find/Replace entries have no
 * name and no link to their labels, which are siblings in a GtkGrid row that GTK 3 lists in reverse. The field
 * prints `beside="Search for:"`, find and observe's query match it; a label two fields could take names neither.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import { nameFieldsByLabels, parentsOfFields } from '../../src/drivers/common/labels.js';
import type { Rect } from '../../src/drivers/common/rects.js';
import { FakeDriver, type FakeWindow } from '../../src/drivers/fake/driver.js';
import { RefTable } from '../../src/engine/refs.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';
import type { RawNode } from '../../src/protocol/nodes.js';
import { Session } from '../../src/session/session.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/tool.js';
import { n } from '../fixtures/engine/build.js';

const B = ':1.77';
const editable = { states: ['editable' as const], actions: ['set_value' as const] };

/** Names the fields of `parent` from bounds given per child (by position in its children). */
function pair(parent: RawNode, rects: (Rect | undefined)[]): number {
  return nameFieldsByLabels(parent, new Map((parent.children ?? []).map((k, i) => [k, rects[i]])));
}

/** pluma 1.26's Replace dialog grid as AT-SPI lists it (reverse order) with its measured bounds. */
function plumaGrid(): RawNode {
  return n(B, 10, 'group', {}, [
    n(B, 11, 'combobox', {}, [n(B, 12, 'textbox', editable)]),
    n(B, 13, 'combobox', {}, [n(B, 14, 'textbox', editable)]),
    n(B, 15, 'label', { name: 'Replace with:' }),
    n(B, 16, 'label', { name: 'Search for:' }),
  ]);
}
const PLUMA: Rect[] = [[514, 422, 358, 34], [514, 376, 358, 34], [410, 422, 92, 34], [410, 376, 74, 34]];

test('pluma\'s grid: each combo\'s entry takes the label on its row, not its previous sibling', () => {
  const grid = plumaGrid();
  assert.deepEqual(parentsOfFields(n(B, 1, 'dialog', {}, [grid])), [grid]);
  assert.equal(pair(grid, PLUMA), 2);
  const [replace, search] = grid.children!;
  assert.equal(replace!.children![0]!.beside, 'Replace with:');
  assert.equal(search!.children![0]!.beside, 'Search for:');
  assert.equal(replace!.beside, undefined, 'the combo\'s entry carries it, once');
});

test('a label names one field only: the next of two on its ' +
    'row, neither of two it spans, never the field above it', () => {
  const range = n(B, 20, 'group', {}, [
    n(B, 21, 'label', { name: 'Range:' }),
    n(B, 22, 'textbox', editable),
    n(B, 23, 'textbox', editable),
  ]);
  assert.equal(pair(range, [[0, 0, 45, 34], [51, 0, 232, 34], [289, 0, 231, 34]]), 1);
  assert.deepEqual(range.children!.map((c) => c.beside), [undefined, 'Range:', undefined]);
  // A tall label beside two stacked fields: both would take it.
  const tall = n(B, 30, 'group', {}, [
    n(B, 31, 'label', { name: 'Limits' }),
    n(B, 32, 'spinbutton', editable),
    n(B, 33, 'spinbutton', editable),
  ]);
  assert.equal(pair(tall, [[0, 0, 50, 60], [60, 0, 100, 30], [60, 30, 100, 30]]), 0);
  // The previous sibling below the field (a reverse-listed grid) is the next row's label.
  const below = n(B, 40, 'group', {}, [n(B, 41, 'label', { name: 'Next row:' }), n(B, 42, 'textbox', editable)]);
  assert.equal(pair(below, [[0, 40, 80, 30], [0, 0, 200, 30]]), 0);
});

test('a previous sibling above its field names it; named, described and unmeasured fields are left alone', () => {
  const stacked = n(B, 50, 'group', {}, [n(B, 51, 'label', { name: 'Comment' }), n(B, 52, 'textbox', editable)]);
  assert.equal(pair(stacked, [[0, 0, 80, 17], [0, 21, 300, 30]]), 1);
  assert.equal(stacked.children![1]!.beside, 'Comment');
  const own = n(B, 60, 'group', {}, [
    n(B, 61, 'label', { name: 'Other:' }),
    n(B, 62, 'textbox', { ...editable, name: 'Own name' }),
    n(B, 63, 'label', { name: 'Tip:' }),
    n(B, 64, 'textbox', { ...editable, description: 'Type a tip' }),
  ]);
  assert.equal(pair(own, [[0, 0, 40, 34], [46, 0, 300, 34], [0, 40, 40, 34], [46, 40, 300, 34]]), 0);
  assert.equal(pair(plumaGrid(), [undefined, undefined, undefined, undefined]), 0, 'no bounds, no pairing');
});

function dialog(): FakeWindow {
  const grid = plumaGrid();
  pair(grid, PLUMA);
  const root = n(B, 1, 'dialog', { name: 'Replace', states: ['active'] }, [
    grid,
    n(B, 2, 'textbox', { ...editable, name: 'Named', beside: 'Ignored:' }),
  ]);
  return { info: { id: root.id, title: 'Replace', app: 'pluma', pid: 5151, role: 'dialog', focused: true }, root };
}

test('the snapshot prints the label beside a nameless field apart from a name, never for a named one', () => {
  const w = dialog();
  const s = buildSnapshot({ window: w.info, root: w.root }, new RefTable());
  assert.match(s.text, /\] combobox\n\s+\[e\d+\] textbox beside="Search for:" editable$/m, s.text);
  assert.match(s.text, /\] textbox beside="Replace with:" editable$/m, s.text);
  assert.match(s.text, /\] textbox "Named" editable$/m, s.text);
  assert.doesNotMatch(s.text, /Ignored/, s.text);
  assert.equal(s.elements.find((l) => l.beside === 'Search for:')?.role, 'textbox');
});

test('find and observe\'s query match a field by the label beside it', async () => {
  const fake = new FakeDriver([dialog()]);
  const session = new Session({ device: new Device({ connect: () => fake.connect() }) });
  const tool = (name: string) => TOOLS.find((t) => t.schema.name === name)!;
  try {
    const found = (await runTool(tool('computer_find'), { session }, { text: 'search for', role: 'textbox' })).text;
    assert.match(found, /^1 match for "search for"/, found);
    assert.match(found, /\[e\d+\] textbox beside="Search for:" editable/, found);
    const queried = (await runTool(tool('computer_observe'), { session }, { query: 'replace with' })).text;
    assert.match(queried, /textbox beside="Replace with:"/, queried);
    assert.doesNotMatch(queried, /Search for/, queried);
  } finally {
    await session.close();
  }
});

/** Thunar's preferences group as AT-SPI lists it: a combo named after its choice, the label linked to it after it. */
function thunarGroup(beside?: string): RawNode {
  return n(B, 30, 'dialog', { name: 'File Manager Preferences' }, [
    n(B, 31, 'group', { name: 'View Settings' }, [
      n(B, 32, 'checkbox', { name: 'Sort folders before files', actions: ['toggle'] }),
      n(B, 33, 'combobox', { name: 'Last Active View', actions: ['select'], ...(beside ? { beside } : {}) }),
      n(B, 34, 'label', { name: 'View new folders using:' }),
    ]),
  ]);
}

test('a query hit on a label keeps the combo it labels (a combo named after its choice, linked by labelled-by)', () => {
  // Before: `observe --query "View new folders"` printed only the label, not the combo it names.
  const root = thunarGroup('View new folders using:');
  const s = buildSnapshot({ window: { id: 'w', title: 'File Manager Preferences', app: 'Thunar', pid: 9,
    role: 'dialog', focused: true }, root }, new RefTable(), { query: 'View new folders' });
  assert.match(s.text, /\] combobox "Last Active View"\n\s+\[e\d+\] label "View new folders using:"/, s.text);
  assert.doesNotMatch(s.text, /beside=/, s.text);
  assert.doesNotMatch(s.text, /Sort folders/, s.text);
  // The whole print is as before: the combo prints its name, not the label.
  const whole = buildSnapshot({ window: { id: 'w', title: 'File Manager Preferences', app: 'Thunar', pid: 9,
    role: 'dialog', focused: true }, root: thunarGroup('View new folders using:') }, new RefTable());
  const plain = buildSnapshot({ window: { id: 'w', title: 'File Manager Preferences', app: 'Thunar', pid: 9,
    role: 'dialog', focused: true }, root: thunarGroup() }, new RefTable());
  assert.equal(whole.text, plain.text);
});
