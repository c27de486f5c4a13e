/**
 * A receipt says where the focus went once. Only one element has the keyboard focus, but toolkits mark its
 * ancestors too (Calc's sheet and its cell) and the diff printed every element whose focus flipped as its own line:
 * the eval's receipts read 62 focus-only lines (~750 tokens), each move twice (the one that lost it, the one that
 * took it) and often three or four times. The diff itself keeps every line (the receipt's verdict reads it).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffSnapshots } from '../../src/engine/diff.js';
import type { RawNode, WindowInfo } from '../../src/engine/node.js';
import { RefTable } from '../../src/engine/refs.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';
import type { ActOutcome } from '../../src/session/act.js';
import { WindowTable } from '../../src/session/windows.js';
import { formatActOutcome } from '../../src/tools/format.js';

const main: WindowInfo = {
  id: ':1.7/w',
  title: 'inventory.csv',
  app: 'soffice',
  pid: 7,
  role: 'window',
  focused: true,
};
const dialog: WindowInfo = { id: ':1.7/d', title: 'Question', app: 'soffice', pid: 7, role: 'alert', focused: true };

/** The printed receipt of an act whose only receipt is a confirmed click on e9, with these diff lines. */
function printed(diff: string[], more: Partial<ActOutcome> = {}): string[] {
  const o: ActOutcome = {
    receipts: [{ op: 'click', ref: 'e9', status: 'confirmed', detail: 'the window changed' }],
    diff,
    newWindows: [],
    closedWindows: [],
    ...more,
  };
  return formatActOutcome(o, new WindowTable()).split('\n').slice(1);
}

test('focus that moved prints once, on the element that took it: the losers and its ancestors go', () => {
  // Calc, a focus on the formula bar's field: its sheet and the sheet's cell lost the focus, the field took it.
  assert.deepEqual(printed([
    '~ [e34] table "Sheet expenses" focused → (unfocused)',
    '~ [e35] cell "A1" focused → (unfocused)',
    '~ [e447] textbox (unfocused) → focused',
    'focus: e447',
  ]), ['focus → [e447] textbox']);
  // The Return back: the sheet (the cell's ancestor) took it too; the field keeps its own change.
  assert.deepEqual(printed([
    '~ [e34] table "Sheet expenses" (unfocused) → focused',
    '~ [e36] cell "B1" unselected → selected, (unfocused) → focused',
    '~ [e447] textbox value "B:B" → "B1:B1048576", focused → (unfocused)',
    '~ 25 cells of [e34] table "Sheet expenses" ([e51] "B2" … [e411] "B26") unselected → selected',
    'focus: e36',
  ]), [
    '~ [e36] cell "B1" unselected → selected, (unfocused) → focused',
    '~ [e447] textbox value "B:B" → "B1:B1048576"',
    '~ 25 cells of [e34] table "Sheet expenses" ([e51] "B2" … [e411] "B26") unselected → selected',
  ]);
  // A loss as the first of a line's changes.
  assert.deepEqual(printed([
    '~ [e5] checkbox "Gift wrap" focused → (unfocused), checked → unchecked',
    '~ [e6] button "Place order" (unfocused) → focused',
    'focus: e6',
  ]), ['~ [e5] checkbox "Gift wrap" checked → unchecked', 'focus → [e6] button "Place order"']);
  // A line that took it with a change of its own keeps it (mousepad's Edit menu closed, its document took it back).
  assert.deepEqual(printed([
    '~ [e4] menu "Edit" selected → unselected',
    '~ [e13] document value "a" → "A", (unfocused) → focused',
    'focus: e13',
  ]), ['~ [e4] menu "Edit" selected → unselected', '~ [e13] document value "a" → "A", (unfocused) → focused']);
});

test('focus that went to an added element prints on its added line, a folded menu entry included', () => {
  assert.deepEqual(printed([
    '+ [e58] menu "File"',
    '+   [e59] … [e62] 4 menuitems: e59 "New report" focused, e60 "Open report…", e61 "Export" ▸, e62 "Print…"',
    '~ [e41] document "Report editor" focused → (unfocused)',
    '~ [e43] menuitem "File" collapsed → expanded',
    'focus: e59',
  ]), [
    '+ [e58] menu "File"',
    '+   [e59] … [e62] 4 menuitems: e59 "New report" focused, e60 "Open report…", e61 "Export" ▸, e62 "Print…"',
    '~ [e43] menuitem "File" collapsed → expanded',
  ]);
  assert.deepEqual(printed(['+ [e4] generic focused (exposes no items)', 'focus: e4']),
    ['+ [e4] generic focused (exposes no items)']);
  assert.deepEqual(printed([
    '+   [e64] menuitem "As PDF" focused',
    '~ [e59] menuitem "New report" focused → (unfocused)',
    'focus: e64',
  ]), ['+   [e64] menuitem "As PDF" focused']);
});

test('focus that went where no line shows it prints as the focus line alone', () => {
  assert.deepEqual(printed([
    '~ [e34] table "Sheet inventory" focused → (unfocused)',
    '~ [e925] cell "B1874" focused → (unfocused)',
    '~ [e479] button "Undo" disabled → enabled',
    'focus: e17',
  ]), ['~ [e479] button "Undo" disabled → enabled', 'focus: e17']);
  assert.deepEqual(printed(['~ [e2] label name "a" → "b"', 'focus: e9']), ['~ [e2] label name "a" → "b"', 'focus: e9']);
});

test('a new window that took the focus implies the old window lost it: its losers are not printed', () => {
  const snapshot = buildSnapshot({ window: dialog, root: { id: ':1.7/d', role: 'alert', states: [], actions: [] } },
    new RefTable());
  const lines = printed([
    '~ [e34] table "Sheet inventory" focused → (unfocused)',
    '~ [e925] cell "B1874" focused → (unfocused)',
    '~ [e479] button "Undo" disabled → enabled',
    'focus: e17',
  ], { newWindows: [{ window: dialog, snapshot }] });
  assert.deepEqual(lines.slice(0, 2), [
    '~ [e479] button "Undo" disabled → enabled',
    'new window [w1] alert "Question" [focused] · app soffice pid=7',
  ]);
  // Only a loss: nothing of the old window is printed, and no "(no visible change)" either.
  const only = printed(['~ [e40] canvas focused → (unfocused)', 'focus: (none)'], {
    newWindows: [{ window: dialog, snapshot }],
  });
  assert.deepEqual(only[0], 'new window [w1] alert "Question" [focused] · app soffice pid=7');
  assert.ok(!only.some((l) => /^(?:~|focus)/.test(l) || l.includes('no visible change')), only.join('\n'));
  assert.deepEqual(printed(['~ [e13] document focused → (unfocused)', 'focus: (none)'], { popups: [dialog] }), [
    'popup window [w1] opened (its items are the + lines above)',
  ]);
});

test('a window that appeared or a menu that opened took the focus, with no focus line too', () => {
  // FeatherPad's Save dialog: its document lost the focus, and another focused element stayed (no focus line).
  const snapshot = buildSnapshot({ window: dialog, root: { id: ':1.7/d', role: 'alert', states: [], actions: [] } },
    new RefTable());
  const lines = printed(['- [e4] generic focused', '~ [e3] document focused → (unfocused)',
    '~ [e14] tablist name "Untitled" → "*Untitled"'], { newWindows: [{ window: dialog, snapshot }] });
  assert.deepEqual(lines.slice(0, 2), ['- [e4] generic focused', '~ [e14] tablist name "Untitled" → "*Untitled"']);
  // mousepad's Edit menu opened: it holds the keyboard while it is open.
  const menu = '+ [e14] … [e17] 4 menuitems: e14 "Undo" disabled, e15 "Redo", e16 "Cut", e17 "Paste" selected';
  assert.deepEqual(printed([menu, '~ [e4] menu "Edit" unselected → selected', '~ [e13] document focused → (unfocused)',
    'focus: (none)']), [menu, '~ [e4] menu "Edit" unselected → selected']);
  assert.deepEqual(printed(['+ [e68] menu "Number bases" selected', '~ [e9] document focused → (unfocused)',
    'focus: (none)']), ['+ [e68] menu "Number bases" selected']);
  // Without a focus line and nothing new, a loss stays.
  assert.deepEqual(printed(['~ [e3] document focused → (unfocused)']), ['~ [e3] document focused → (unfocused)']);
});

test('focus that was lost with nothing to take it is still said: the typing target lost it', () => {
  assert.deepEqual(printed(['~ [e40] canvas focused → (unfocused)', 'focus: (none)']),
    ['~ [e40] canvas focused → (unfocused)']);
  assert.deepEqual(printed(['~ [e2] label name "a" → "b"', 'focus: (none)']),
    ['~ [e2] label name "a" → "b"', 'focus: (none)']);
});

test('a window that has the focus back prints where the focus is, once', () => {
  assert.deepEqual(printed([
    '~ [e34] table "Sheet inventory" (unfocused) → focused',
    '~ [e925] cell "B1874" (unfocused) → focused',
    'focus: e925',
  ], { refocused: main, closedWindows: [dialog] }), [
    'window closed: [w1] "Question"',
    '[w2] window "inventory.csv" has the focus back:',
    'focus → [e925] cell "B1874"',
  ]);
});

test('app text that reads like a focus change is no focus change', () => {
  const forged = ['~ [e9] label name "x" → "→ focused"', '+ [e9] label "y focused"', 'focus: e9'];
  assert.deepEqual(printed(forged), forged);
  assert.deepEqual(printed(['~ [e3] label name "focused → (unfocused)" → "b"', 'focus: (none)']),
    ['~ [e3] label name "focused → (unfocused)" → "b"', 'focus: (none)']);
  // A loss stays in a name: only the line's own change part goes.
  assert.deepEqual(printed([
    '~ [e3] label "a, focused → (unfocused)" value "1" → "2", focused → (unfocused)',
    '~ [e4] textbox "b" (unfocused) → focused, value "" → "c, (unfocused) → focused"',
    'focus: e4',
  ]), [
    '~ [e3] label "a, focused → (unfocused)" value "1" → "2"',
    '~ [e4] textbox "b" (unfocused) → focused, value "" → "c, (unfocused) → focused"',
  ]);
});

test('a diff of real snapshots: Calc\'s sheet and cell hand the focus to the formula bar\'s field', () => {
  const tree = (inField: boolean): RawNode => ({
    id: ':1.7/w', role: 'window', name: 'inventory.csv', states: [], actions: [], children: [
      { id: ':1.7/t', role: 'table', name: 'Sheet inventory', states: inField ? [] : ['focused'], actions: [],
        children: [{ id: ':1.7/c', role: 'cell', name: 'A1', states: inField ? [] : ['focused'], actions: [] }] },
      { id: ':1.7/f', role: 'textbox', states: ['editable', ...(inField ? ['focused' as const] : [])],
        actions: [] },
    ],
  });
  const refs = new RefTable();
  const before = buildSnapshot({ window: main, root: tree(false) }, refs);
  const diff = diffSnapshots(before, buildSnapshot({ window: main, root: tree(true) }, refs)).lines;
  assert.equal(diff.filter((l) => l.includes('focused')).length, 3, diff.join('\n'));
  assert.deepEqual(printed(diff), ['focus → [e4] textbox'], diff.join('\n'));
});
