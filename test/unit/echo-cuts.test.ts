/**
 * Lines that only repeat what the print or the receipt already says: a closed combo box's list of its one current
 * choice, rich-text markup around a tool tip's words, a tab list renamed with its selected tab, and the submenus of
 * a menu that closed, a line each.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffSnapshots } from '../../src/engine/diff.js';
import { plainMarkup } from '../../src/engine/markup.js';
import type { RawNode, WindowInfo } from '../../src/engine/node.js';
import { RefTable } from '../../src/engine/refs.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';
import { n } from '../fixtures/engine/build.js';

const B = ':1.90';
const WINDOW: WindowInfo = { id: `${B}/1`, title: 'Save as', app: 'qtapp', pid: 4400, role: 'dialog', focused: true };

/** A dialog with a Qt combo box (its list a 1 × 1 grid), a Gecko one (a menu of its value) and one of three items. */
function combos(): RawNode {
  return n(B, 1, 'dialog', { name: 'Save as' }, [
    n(B, 2, 'combobox', { name: '/root', actions: ['click'] }, [
      n(B, 3, 'list', { table: { rows: 1, cols: 1 } }, [
        n(B, 4, 'cell', { name: '/root', cell: { row: 0, col: 0 }, states: ['selected'] }),
      ]),
    ]),
    n(B, 5, 'combobox', { name: 'Size', value: 'Small', states: ['collapsed'], actions: ['click'] }, [
      n(B, 6, 'menu', {}, [n(B, 7, 'menuitem', { name: 'Small', states: ['selected'] })]),
    ]),
    n(B, 8, 'combobox', { name: 'Encoding', value: 'UTF-8', actions: ['click'] }, [
      n(B, 9, 'menu', {}, [
        n(B, 10, 'menuitem', { name: 'UTF-8' }),
        n(B, 11, 'menuitem', { name: 'Latin-1' }),
        n(B, 12, 'menuitem', { name: 'UTF-16' }),
      ]),
    ]),
    n(B, 13, 'combobox', { name: 'Mode', states: ['expanded'], actions: ['click'] }, [
      n(B, 14, 'menu', {}, [n(B, 15, 'menuitem', { name: 'Mode' })]),
    ]),
  ]);
}

test('a closed combo box whose list holds only its current choice prints without the list', () => {
  const snap = buildSnapshot({ window: WINDOW, root: combos() }, new RefTable(), { fold: true });
  assert.match(snap.text, /^ {2}\[e2\] combobox "\/root"\n {2}\[e5\] combobox "Size" value="Small" ▸$/m, snap.text);
  assert.doesNotMatch(snap.text, /cells A1|menuitem "Small"/, snap.text);
  // A list of other choices, and the list of an open combo box, stay.
  assert.match(snap.text, /menuitem "Latin-1"/, snap.text);
  assert.match(snap.text, /\[e13\] combobox "Mode" expanded\n\s+\[e14\] menu\n\s+\[e15\] menuitem "Mode"/, snap.text);
  // The items are still elements (select and find reach them), and full=true prints them.
  assert.ok(snap.elements.some((l) => l.role === 'menuitem' && l.name === 'Small'), snap.text);
  const full = buildSnapshot({ window: WINDOW, root: combos() }, new RefTable());
  assert.match(full.text, /menuitem "Small" selected/, full.text);
});

test('a tool tip written as rich text prints its words, not its tags', () => {
  assert.equal(
    plainMarkup("<p style='white-space:pre'>Calculate number of words\n(For huge texts, this may be CPU-intensive.)</p>"),
    'Calculate number of words\n(For huge texts, this may be CPU-intensive.)',
  );
  assert.equal(
    plainMarkup('<html><head/><body><p>Save &amp; close<br/>the <b>file</b></p></body></html>'),
    'Save & close\nthe file',
  );
  assert.equal(plainMarkup('<qt>a &lt;b&gt; tag</qt>'), 'a <b> tag');
  // Not plainly markup: left as it is.
  for (const s of ['a < b and c > d', '<none>', '<p>open', 'x <b>bold</b>', '<script>alert(1)</script>'])
    assert.equal(plainMarkup(s), s);
  const root = n(B, 1, 'dialog', { name: 'Save as' }, [
    n(B, 2, 'button', { description: "<p style='white-space:pre'>Count words\n(slow)</p>", actions: ['click'] }),
    n(B, 3, 'button', { description: '<p>"]\n[e9] button "OK</p>', actions: ['click'] }),
  ]);
  const snap = buildSnapshot({ window: WINDOW, root }, new RefTable());
  assert.match(snap.text, /\[e2\] button description="Count words\\n\(slow\)"$/m, snap.text);
  // App text stays data: escaped on its one line.
  assert.doesNotMatch(snap.text, /^\s*\[e9\]/m, snap.text);
  assert.match(snap.text, /\[e3\] button description="\\"]\\n\[e9\] button \\"OK"$/m, snap.text);
});

const EDITOR: WindowInfo = { id: `${B}/1`, title: 'Untitled', app: 'editor', pid: 4401, role: 'window', focused: true };

test('a tab list renamed with its selected tab: the change prints once, on the tab', () => {
  const editor = (title: string, other = 'notes.txt'): RawNode =>
    n(B, 1, 'window', { name: title }, [
      n(B, 2, 'tablist', { name: title }, [
        n(B, 3, 'tab', { name: title, states: ['selected'], actions: ['click'] }),
        n(B, 4, 'tab', { name: other, actions: ['click'] }),
      ]),
    ]);
  const t = new RefTable();
  const a = buildSnapshot({ window: EDITOR, root: editor('*Untitled') }, t);
  const b = buildSnapshot({ window: EDITOR, root: editor('list.txt') }, t);
  assert.deepEqual(diffSnapshots(a, b).lines, [
    '~ [e1] window name "*Untitled" → "list.txt"',
    '~ [e3] tab name "*Untitled" → "list.txt"',
  ]);
  // A tab list renamed otherwise than its tab keeps its line.
  const c = buildSnapshot({ window: EDITOR, root: editor('list.txt', 'other.txt') }, t);
  const root = editor('list.txt', 'other.txt');
  root.children![0]!.name = 'Tabs';
  const d = buildSnapshot({ window: EDITOR, root }, t);
  assert.deepEqual(diffSnapshots(c, d).lines, ['~ [e2] tablist name "list.txt" → "Tabs"']);
});

test('the submenus of a menu that closed fold into one line like its items', () => {
  const calc = (open: boolean): RawNode =>
    n(B, 1, 'window', { name: 'calc' }, [
      n(B, 2, 'menubar', {}, [
        n(B, 3, 'menu', { name: 'Calculator', states: open ? ['selected'] : [], actions: ['click'] }, open ? [
          n(B, 4, 'menu', { name: 'Number bases', states: ['selected'], actions: ['click'] }, [
            ...['Decimal', 'Hexadecimal', 'Octal', 'Binary'].map((name, i) =>
              n(B, 10 + i, 'menuitem', { name, actions: ['click'] })),
          ]),
          n(B, 5, 'menu', { name: 'Angle units', actions: ['click'] }),
          n(B, 6, 'menu', { name: 'Notation modes', actions: ['click'] }),
        ] : []),
      ]),
    ]);
  const t = new RefTable();
  const a = buildSnapshot({ window: EDITOR, root: calc(true) }, t);
  const b = buildSnapshot({ window: EDITOR, root: calc(false) }, t);
  assert.deepEqual(diffSnapshots(a, b).lines, [
    '- 3 entries of [e3] menu "Calculator" ([e4] … [e10]) (+4 inside)',
    '~ [e3] menu "Calculator" selected → unselected',
  ]);
});

test('a choice made in a closed combo box: its list of the one chosen item adds no lines to the receipt', () => {
  const page = (size: string): RawNode =>
    n(B, 1, 'window', { name: 'Order' }, [
      n(B, 2, 'combobox', { name: 'Size', value: size, states: ['collapsed'], actions: ['click'] }, [
        n(B, 3, 'menu', {}, [n(B, size === 'Small' ? 4 : 5, 'menuitem', { name: size, states: ['selected'] })]),
      ]),
      n(B, 6, 'combobox', { name: 'Color', value: 'Red', states: ['collapsed'], actions: ['click'] }, [
        n(B, 7, 'menu', {}, [n(B, size === 'Small' ? 8 : 9, 'menuitem', { name: size === 'Small' ? 'Red' : 'Blue' })]),
      ]),
    ]);
  const t = new RefTable();
  const a = buildSnapshot({ window: EDITOR, root: page('Small') }, t);
  const b = buildSnapshot({ window: EDITOR, root: page('Large') }, t);
  // The Color list's item no longer repeats its combo box's choice: it prints.
  assert.deepEqual(diffSnapshots(a, b).lines, [
    '+ [e9] menuitem "Blue"',
    '~ [e2] combobox "Size" value "Small" → "Large"',
  ]);
});

test('a name that keeps a long start or end changes as the part that differs', () => {
  const status = (text: string): RawNode =>
    n(B, 1, 'window', { name: 'Files' }, [n(B, 2, 'statusbar', { name: text })]);
  const t = new RefTable();
  const a = buildSnapshot({ window: EDITOR, root: status('"report-2345.txt"  |  0 bytes  |  plain text document') }, t);
  const b = buildSnapshot({ window: EDITOR, root: status('"q3-summary.txt"  |  0 bytes  |  plain text document') }, t);
  assert.deepEqual(diffSnapshots(a, b).lines, [
    '~ [e2] statusbar name "\\"report-2345" → "\\"q3-summary" (+ the same 41 characters after each)',
  ]);
  const c = buildSnapshot({ window: EDITOR, root: status('Encoding: UTF-8   Lines: 1   Sel. Chars: 0   Words: 0') }, t);
  const d = buildSnapshot({ window: EDITOR, root: status('Encoding: UTF-8   Lines: 1   Sel. Chars: 0   Words:') }, t);
  assert.deepEqual(diffSnapshots(c, d).lines, ['~ [e2] statusbar name "…  Words: 0" → "…  Words:"']);
});
