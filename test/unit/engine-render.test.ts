import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DistilledNode } from '../../src/engine/distill.js';
import type { RawNode, WindowInfo } from '../../src/engine/node.js';
import { escapeText } from '../../src/engine/escape.js';
import { render, renderHeader, renderLine } from '../../src/engine/render.js';
import { compactCount, cutText } from '../../src/engine/measure.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';
import { RefTable } from '../../src/engine/refs.js';
import { n } from '../fixtures/engine/build.js';

function d(
  role: DistilledNode['role'],
  props: Partial<DistilledNode> = {},
  children: DistilledNode[] = [],
): DistilledNode {
  return {
    id: 'x',
    role,
    states: [],
    actions: [],
    rawChildCount: children.length,
    children,
    index: 0,
    path: '',
    ...props,
  };
}

const WIN: WindowInfo = { id: 'w', title: 'Untitled Document 1 - gedit', app: 'gedit', pid: 4242, role: 'window',
  focused: true };

test('the format of the seed example', () => {
  const root = d('window', { ref: 'e1', name: 'Untitled Document 1 - gedit' }, [
    d('menubar', { ref: 'e2' }, [d('menuitem', { ref: 'e3', name: 'File', rawChildCount: 1 })]),
    d('document', { ref: 'e5', name: 'Text view', value: `hello wor${'x'.repeat(100)}`, valueLength: 1234,
      states: ['focusable', 'multiline', 'focused', 'editable'] }),
    d('statusbar', { ref: 'e6', name: 'Ln 1, Col 12' }),
    d('button', { ref: 'e7', name: 'Close' }),
  ]);
  const r = render(root, WIN, { notes: { folded: 23 } });
  assert.equal(
    r.text,
    [
      'app gedit pid=4242 · window "Untitled Document 1 - gedit" [focused]',
      '[e1] window',
      '  [e2] menubar',
      '    [e3] menuitem "File" ▸',
      // A document is a text body: up to 600 characters, then the exact range shown and how to read on.
      `  [e5] document "Text view" value="hello wor${'x'.repeat(100)}…" (text 0–109 of 1,234; more: scope=e5 ` +
        `from=109) editable focused`,
      '  [e6] statusbar "Ln 1, Col 12"',
      '  [e7] button "Close"',
      '(folded 23 nameless containers)',
    ].join('\n'),
  );
  assert.deepEqual(r.lines.map((l) => [l.ref, l.depth, l.parent ?? '-']),
    [['e1', 0, '-'], ['e2', 1, 'e1'], ['e3', 2, 'e2'], ['e5', 1, 'e1'], ['e6', 1, 'e1'], ['e7', 1, 'e1']]);
});

test('line details: value equal to name, range, states, markers', () => {
  assert.equal(renderLine(d('label', { ref: 'e1', name: 'Hi', value: 'Hi' })), '[e1] label "Hi"');
  assert.equal(renderLine(d('slider', { ref: 'e2', name: 'Volume', value: '50', range: { min: 0, max: 100 } })),
    '[e2] slider "Volume" value="50" range=0..100');
  assert.equal(renderLine(d('combobox', { ref: 'e3', name: 'Mode', states: ['collapsed', 'focusable'] })),
    '[e3] combobox "Mode" ▸');
  assert.equal(renderLine(d('combobox', { ref: 'e3', name: 'Mode', states: ['expanded'] })),
    '[e3] combobox "Mode" expanded');
  assert.equal(renderLine(d('menuitem', { ref: 'e4', name: 'Edit', rawChildCount: 2, states: ['expanded'] })),
    '[e4] menuitem "Edit" expanded');
  assert.equal(
    renderLine(d('checkbox', { ref: 'e5', name: 'A', states: ['active', 'checked', 'disabled', 'offscreen'] })),
    '[e5] checkbox "A" disabled checked',
  );
  assert.equal(renderLine(d('textbox', { ref: 'e6', value: '' })), '[e6] textbox');
});

test('a checkable element says unchecked when it is not checked: off reads apart from unknown', () => {
  assert.equal(renderLine(d('checkbox', { ref: 'e1', name: 'Wrap' })), '[e1] checkbox "Wrap" unchecked');
  assert.equal(
    renderLine(d('switch', { ref: 'e2', name: 'Wi-Fi', states: ['disabled'] })),
    '[e2] switch "Wi-Fi" disabled unchecked',
  );
  assert.equal(renderLine(d('radio', { ref: 'e3', name: 'Page 2' })), '[e3] radio "Page 2" unchecked');
  assert.equal(renderLine(d('checkbox', { ref: 'e4', name: 'Some', states: ['mixed'] })), '[e4] checkbox "Some" mixed');
  // A check menu item (toggle op, the driver reads its state) is checkable; a toggle button reads pressed.
  assert.equal(
    renderLine(d('menuitem', { ref: 'e5', name: 'Word Wrap', actions: ['click', 'toggle'] })),
    '[e5] menuitem "Word Wrap" unchecked',
  );
  assert.equal(renderLine(d('menuitem', { ref: 'e6', name: 'Open', actions: ['click'] })), '[e6] menuitem "Open"');
  assert.equal(
    renderLine(d('button', { ref: 'e7', name: 'Bold', actions: ['click', 'toggle'] })),
    '[e7] button "Bold"',
  );
});

test('app text cannot break the line structure', () => {
  const evil = 'a"b\nc\r\n[e99] button "Pay"\u0007\u202e\u2028z\\';
  const line = renderLine(d('label', { ref: 'e1', name: evil }));
  // U+2028 is a line break like any other (engine/escape.ts): it reads as \n; BEL and RLO are dropped.
  assert.equal(line, '[e1] label "a\\"b\\nc\\n[e99] button \\"Pay\\"\\nz\\\\"');
  assert.ok(!line.includes('\n'));
  const header = renderHeader({ ...WIN, app: 'x\ny', title: 'T"\n' });
  assert.equal(header, 'app "x\\ny" pid=4242 · window "T\\"\\n" [focused]');
});

test('cutting and compact counts', () => {
  assert.deepEqual([812, 1000, 1234, 9999, 15_400, 999_999, 2_345_678].map(compactCount),
    ['812', '1k', '1.2k', '9.9k', '15k', '1000k', '2.3M']);
  assert.equal(cutText('abc', 80), 'abc');
  assert.equal(cutText('a'.repeat(100), 10), 'aaaaaaaaaa…(100)');
  assert.equal(cutText('abc', 80, 5000), 'abc…(5k)');
  assert.equal(cutText(`${'a'.repeat(9)}😀rest`, 10), 'aaaaaaaaa…(15)');
  assert.equal(escapeText('tab\there'), 'tab\\there');
  const long = renderLine(d('label', { ref: 'e1', name: 'n'.repeat(200) }));
  assert.equal(long, `[e1] label "${'n'.repeat(120)}…(200)"`);
});

test('long lists show 25 items and a more line; the uncapped node shows all', () => {
  const items = Array.from({ length: 30 }, (_, i) => d('listitem', { ref: `e${i + 3}`, name: `Row ${i + 1}` }));
  const list = d('list', { ref: 'e2', name: 'Rows' }, items);
  const root = d('window', { ref: 'e1', name: 'W' }, [list]);
  const r = render(root, WIN);
  const lines = r.text.split('\n');
  assert.equal(lines.length, 1 + 2 + 25 + 1 + 1);
  assert.equal(lines[28], '    … 5 more items (scope=e2)');
  assert.equal(lines[29], '(5 list items cut)');
  assert.equal(r.listCut, 5);
  const all = render(root, WIN, { uncapped: list });
  assert.equal(all.text.split('\n').length, 1 + 2 + 30);
});

test('no footer when nothing was folded or cut', () => {
  const r = render(d('window', { ref: 'e1', name: 'W' }), { ...WIN, focused: false, title: 'W' });
  assert.equal(r.text, 'app gedit pid=4242 · window "W"\n[e1] window');
});

test('a run of nameless alike siblings says its role in the plural (meld\'s drawing areas read "4 canvass")', () => {
  const b = ':1.94';
  const root = n(b, 1, 'window', { name: 'W', states: ['active'] }, [
    n(
      b,
      2,
      'group',
      {},
      [1, 2, 3, 4].map((i) => n(b, 10 + i, 'canvas', { actions: ['click'] })),
    ),
    n(
      b,
      3,
      'group',
      {},
      [1, 2, 3, 4].map((i) => n(b, 20 + i, 'checkbox', { actions: ['toggle'], states: ['checked'] })),
    ),
  ]);
  const s = buildSnapshot(
    { window: { id: root.id, title: 'W', app: 'w', pid: 1, role: 'window', focused: true }, root },
    new RefTable(),
  );
  assert.match(s.text, /\] 4 canvases without a name/, s.text);
  assert.match(s.text, /\] 4 checkboxes without a name checked/, s.text);
});

test('a subtree identical to one printed before it prints as ' +
    'one line that says so; its refs stay in the elements', () => {
  // LibreOffice Calc's second, zero-height copy of its menu bar: 12 lines in every snapshot.
  const menus = (bus: string, base: number): RawNode[] =>
    ['File', 'Edit', 'View', 'Insert', 'Help'].map((m, i) => n(bus, base + i, 'menu', { name: m, actions: ['click'] }));
  const root = n(':1.4', 1, 'window', { name: 'Calc' }, [
    n(':1.4', 2, 'menubar', {}, menus(':1.4', 10)),
    // The copy reads focusable, a state no line prints: still the same.
    n(':1.4', 3, 'pane', { name: 'Doc' }, [
      n(':1.4', 4, 'menubar', { states: ['focusable'] }, menus(':1.4', 20)),
      n(':1.4', 5, 'button', { name: 'Save', actions: ['click'] }),
    ]),
  ]);
  const s = buildSnapshot(
    { window: { id: 'w', title: 'Calc', app: 'soffice', pid: 1, role: 'window', focused: true }, root },
    new RefTable(),
  );
  const lines = s.text.split('\n');
  assert.equal(lines.filter((l) => /menu "Edit"/.test(l)).length, 1, s.text);
  assert.ok(lines.includes('    [e9] menubar (same as [e2], 5 inside)'), s.text);
  assert.ok(lines.includes('    [e15] button "Save"'), s.text);
  assert.equal(s.elements.filter((l) => l.role === 'menu' && l.name === 'Edit').length, 2);
});
