import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffSnapshots } from '../../src/engine/diff.js';
import { escapeText } from '../../src/engine/escape.js';
import type { RawNode } from '../../src/engine/node.js';
import { RefTable } from '../../src/engine/refs.js';
import { buildSnapshot, type Snapshot } from '../../src/engine/snapshot.js';
import { byId, n, type Fixture } from '../fixtures/engine/build.js';
import { GEDIT_TEXT, gedit } from '../fixtures/engine/gedit.js';
import { FAKE_API_KEY, FAKE_PASSWORD, widgetFactory } from '../fixtures/engine/widget-factory.js';

/** Snapshots a fixture, mutates a fresh copy, snapshots again with the same table. */
function around(
  make: () => Fixture,
  mutate: (f: Fixture) => void,
  before?: (f: Fixture) => void,
): [Snapshot, Snapshot] {
  const t = new RefTable();
  const a = make();
  before?.(a);
  const s1 = buildSnapshot(a, t);
  const b = make();
  before?.(b);
  mutate(b);
  return [s1, buildSnapshot(b, t)];
}

test('no change, no lines', () => {
  const [a, b] = around(gedit, () => undefined);
  assert.deepEqual(diffSnapshots(a, b), { lines: [], changed: false });
});

test('toggle', () => {
  const [a, b] = around(widgetFactory, (f) => {
    byId(f.root, 13).states.push('checked');
    byId(f.root, 10).states = [];
    byId(f.root, 14).states = [];
    byId(f.root, 26).states = ['expanded'];
  });
  assert.deepEqual(diffSnapshots(a, b).lines, [
    '~ [e5] checkbox "checkbutton" checked → unchecked',
    '~ [e8] checkbox "Bold" unchecked → checked',
    '~ [e9] button "togglebutton" pressed → unpressed',
    '~ [e17] combobox "Mode" collapsed → expanded',
  ]);
});

test('value and name changes; long values show where they differ', () => {
  const [a, b] = around(gedit, (f) => {
    byId(f.root, 24).value = `${GEDIT_TEXT.slice(0, 700)}X${GEDIT_TEXT.slice(700)}`;
    byId(f.root, 29).name = 'Ln 1, Col 13';
  });
  // The old side 60 characters around the change, the new side 240 (what appeared), then where the rest is read.
  const ctx = (s: string, n: number): string => `"…${escapeText(s.slice(670, 670 + n))}…(1.5k)"`;
  const after = `${GEDIT_TEXT.slice(0, 700)}X${GEDIT_TEXT.slice(700)}`;
  assert.deepEqual(diffSnapshots(a, b).lines, [
    `~ [e11] document "Text view" value ${ctx(GEDIT_TEXT, 60)} → ${ctx(after, 240)} (more: scope=e11 from=910)`,
    '~ [e13] label name "Ln 1, Col 12" → "Ln 1, Col 13"',
  ]);
  const [c, d] = around(widgetFactory, (f) => {
    byId(f.root, 22).value = 'Ada';
  });
  assert.deepEqual(diffSnapshots(c, d).lines, ['~ [e13] textbox "Name" value "Ada \\"the first\\" Lovelace" → "Ada"']);
});

test('added popover with focus moving into it (a popover opened by a click)', () => {
  const [a, b] = around(gedit, (f) => {
    byId(f.root, 40).states = [];
    byId(f.root, 41).states = ['focused'];
    byId(f.root, 24).states = ['editable', 'multiline'];
  });
  assert.deepEqual(diffSnapshots(a, b).lines, [
    '+ [e16] menu',
    '+   [e17] menuitem "New Window" focused',
    '+   [e18] menuitem "Save As…"',
    '+   [e19] menuitem "Preferences"',
    '~ [e11] document "Text view" focused → (unfocused)',
    'focus: e17',
  ]);
});

test('removed dialog: only its top, with what was inside', () => {
  const dialog = (f: Fixture): void => {
    f.root.children?.push(n(':1.77', 500, 'dialog', { name: 'Save changes?', states: ['modal'] }, [
      n(':1.77', 501, 'label', { name: 'Your changes will be lost.' }),
      n(':1.77', 502, 'generic', {}, [
        n(':1.77', 503, 'button', { name: 'Discard', actions: ['click'] }),
        n(':1.77', 504, 'button', { name: 'Save', actions: ['click'], states: ['focused'] }),
      ]),
    ]));
    byId(f.root, 22).states = ['editable'];
  };
  const [a, b] = around(widgetFactory, (f) => {
    f.root.children?.pop();
    byId(f.root, 22).states = ['editable', 'focused'];
  }, dialog);
  assert.deepEqual(diffSnapshots(a, b).lines, [
    '- [e59] dialog "Save changes?" modal (+3 inside)',
    '~ [e13] textbox "Name" (unfocused) → focused',
    'focus: e13',
  ]);
});

test('focus move between existing elements', () => {
  const [a, b] = around(widgetFactory, (f) => {
    byId(f.root, 22).states = ['editable'];
    byId(f.root, 13).states = ['focused'];
  });
  assert.deepEqual(diffSnapshots(a, b).lines, [
    '~ [e8] checkbox "Bold" (unfocused) → focused',
    '~ [e13] textbox "Name" focused → (unfocused)',
    'focus: e8',
  ]);
});

test('a role change is a removal plus an addition', () => {
  const [a, b] = around(widgetFactory, (f) => {
    byId(f.root, 13).role = 'switch';
  });
  assert.deepEqual(diffSnapshots(a, b).lines, ['+ [e59] switch "Bold" unchecked', '- [e8] checkbox "Bold" unchecked']);
});

test('big changes are capped, the focus line is kept', () => {
  const [a, b] = around(widgetFactory, (f) => {
    const list = byId(f.root, 100);
    const more: RawNode[] = [];
    for (let i = 0; i < 100; i++) more.push(n(':1.77', 1000 + i, 'listitem', { name: `New ${i}` }));
    list.children = more;
    byId(f.root, 22).states = [];
    byId(f.root, 1000).states = ['focused'];
  });
  const d = diffSnapshots(a, b);
  // 100 rows added, 40 rows removed (one line: they were all the list's), Name lost focus. The added take the
  // lines the others leave of the 60, and the change is kept (a trial's change that mattered came after
  // '… 49 more changes').
  assert.equal(d.lines.length, 62);
  assert.equal(d.lines.filter((l) => /^\+ \[/.test(l)).length, 58);
  assert.equal(d.lines[58], '+ … 42 more added');
  assert.match(d.lines[59] ?? '', /^- 40 elements of \[e18\] list "Rows" \(\[e19\] "Row 1" … \[e58\] "Row 40"\)$/);
  assert.match(d.lines[60] ?? '', /^~ \[e\d+\] textbox "Name" .*focused → \(unfocused\)$/);
  assert.equal(d.lines[61], 'focus: e59');
});

test('elements hidden by the budget are not reported as removed', () => {
  const t = new RefTable();
  const a = buildSnapshot(widgetFactory(), t);
  const b = buildSnapshot(widgetFactory(), t, { maxTokens: 150 });
  assert.deepEqual(diffSnapshots(a, b).lines, []);
});

test('no secret text in a diff', () => {
  const [a, b] = around(widgetFactory, (f) => {
    byId(f.root, 23).value = `${FAKE_PASSWORD}!`;
    byId(f.root, 22).value = `pasted ${FAKE_API_KEY}`;
    f.root.children?.push(n(':1.77', 600, 'textbox', { name: 'Password again', value: FAKE_PASSWORD,
      states: ['password'] }));
  });
  const d = diffSnapshots(a, b);
  const text = d.lines.join('\n');
  assert.ok(!text.includes(FAKE_PASSWORD) && !text.includes(FAKE_API_KEY), text);
  assert.deepEqual(d.lines, [
    '+ [e59] textbox "Password again" value="••••" password',
    '~ [e13] textbox "Name" value "Ada \\"the first\\" Lovelace" → "pasted ••••(secret)"',
  ]);
});

test('many siblings with one same state change read as one line, and the other changes stay within the budget', () => {
  // A sheet losing focus: every cell on screen turns editable (Calc, 400 cells); the Name Box's new value matters.
  const make = (): Fixture => ({
    window: { id: 'w', title: 'Sheet', app: 'calc', pid: 1, role: 'window', focused: true },
    root: n(':1.1', 1, 'window', { name: 'Sheet' }, [
      n(':1.1', 2, 'textbox', { value: 'A1', states: ['editable'] }),
      n(':1.1', 3, 'table', { name: 'Sheet1' }, Array.from({ length: 100 }, (_, i) => n(':1.1', 100 + i, 'cell', { name: `A${i + 1}`, value: String(i) }))),
    ]),
  });
  const [a, b] = around(make, (f) => {
    for (let i = 0; i < 100; i++) byId(f.root, 100 + i).states = ['editable'];
    byId(f.root, 2).value = 'B:B';
  });
  const lines = diffSnapshots(a, b).lines;
  // The sheet's cells turning editable all together (the sheet took the focus) is no line at all.
  assert.deepEqual(lines, [
    '~ [e2] textbox value "A1" → "B:B"',
  ]);
  const [e, g] = around(make, (f) => { for (let i = 0; i < 100; i++) byId(f.root, 100 + i).states = ['selected']; });
  assert.deepEqual(diffSnapshots(e, g).lines, [
    '~ 100 cells of [e3] table "Sheet1" ([e4] "A1" … [e103] "A100") unselected → selected',
  ]);
  // A few rows selected still read one by one (which rows matters).
  const [c, d] = around(make, (f) => { for (let i = 0; i < 3; i++) byId(f.root, 100 + i).states = ['selected']; });
  assert.equal(diffSnapshots(c, d).lines.length, 3);
});

test('like value changes fold as like state changes do: Calc\'s alt+Return filling A1:A20 with 5', () => {
  // By hand: twenty `~ [e50] cell "A2" value "" → "5"` lines, 453 tokens for the receipt.
  const make = (): Fixture => ({
    window: { id: 'w', title: 'Sheet', app: 'calc', pid: 1, role: 'window', focused: true },
    root: n(':1.1', 1, 'window', { name: 'Sheet' }, [
      n(':1.1', 2, 'label', { value: 'Sum: 0' }),
      n(':1.1', 3, 'table', { name: 'Sheet1' }, Array.from({ length: 30 }, (_, i) => n(':1.1', 100 + i, 'cell', { name: `A${i + 1}`, value: '' }))),
    ]),
  });
  const [a, b] = around(make, (f) => {
    for (let i = 0; i < 20; i++) byId(f.root, 100 + i).value = '5';
    byId(f.root, 125).value = '7';
    byId(f.root, 2).value = 'Sum: 107';
  });
  assert.deepEqual(diffSnapshots(a, b).lines, [
    '~ [e2] label value "Sum: 0" → "Sum: 107"',
    '~ 20 cells of [e3] table "Sheet1" ([e4] "A1" … [e23] "A20") value "" → "5"',
    '~ [e29] cell "A26" value "" → "7"',
  ]);
  // Different new values are different changes: each reads on its own line.
  const [c, d] = around(make, (f) => { for (let i = 0; i < 6; i++) byId(f.root, 100 + i).value = String(i); });
  assert.equal(diffSnapshots(c, d).lines.length, 6);
});

test('a terminal\'s diff leaves out the blank rows after its ' +
    'prompt and shows the new output, not 60 characters of it', () => {
  const screen = (text: string): Fixture => ({
    window: { id: 'w', title: 'Terminal', app: 'xfce4-terminal', pid: 1, role: 'window', focused: true },
    root: n(':1.1', 1, 'window', { name: 'Terminal' }, [
      n(':1.1', 2, 'document', { name: 'Terminal', value: `${text}${'\n'.repeat(24)}` }),
    ]),
  });
  const prompt = `${'user@host:~$ echo warmup\nwarmup\n'.repeat(3)}user@host:~$ `;
  const output = Array.from({ length: 8 }, (_, i) => `file-${i}.txt`).join('\n');
  const t = new RefTable();
  const a = buildSnapshot(screen(prompt), t);
  const b = buildSnapshot(screen(`${prompt}ls\n${output}\nuser@host:~$ `), t);
  const [line] = diffSnapshots(a, b).lines;
  assert.ok(line !== undefined);
  assert.doesNotMatch(line, /(\\n){3}/, 'no run of blank rows');
  assert.match(line, /file-7\.txt\\nuser@host:~\$"$/, 'the whole new output, up to the new prompt');
  // A line break typed at the end of a text is the change itself: it is shown.
  const c = buildSnapshot(screen('abc'), t);
  const e = buildSnapshot(
    {
      ...screen('abc'),
      root: n(':1.1', 1, 'window', { name: 'Terminal' }, [
        n(':1.1', 2, 'document', { name: 'Terminal', value: 'abc\n' }),
      ]),
    },
    t,
  );
  assert.ok(diffSnapshots(c, e).lines.some((l) => l.includes('value')), diffSnapshots(c, e).lines.join('\n'));
});

test('a terminal\'s output cut in a diff says where the rest is ' +
    'read (scope and from), from the offset the cut ends at', () => {
  // xfce4-terminal's `ls -la /usr/lib | head -12` read `"…drwxr-xr-x  5 root root    …(605)"`: no way on was named.
  const screen = (text: string, valueStart?: number): Fixture => ({
    window: { id: 'w', title: 'Terminal', app: 'xfce4-terminal', pid: 1, role: 'window', focused: true },
    root: n(':1.1', 1, 'window', { name: 'Terminal' }, [
      n(':1.1', 2, 'terminal', { name: 'Terminal', value: text, ...(valueStart !== undefined ? { valueStart } : {}) }),
    ]),
  });
  const prompt = `${'user@host:~$ echo warmup\nwarmup\n'.repeat(3)}user@host:~$ `;
  const after =
    `${prompt}ls -la\n` +
    `${Array.from({ length: 40 }, (_, i) => `-rw-r--r-- 1 root root 4096 file-${i}.txt`).join('\n')}\nuser@host:~$ `;
  for (const valueStart of [undefined, 5000]) {
    const t = new RefTable();
    const a = buildSnapshot(screen(prompt, valueStart), t);
    const [line] = diffSnapshots(a, buildSnapshot(screen(after, valueStart), t)).lines;
    const m = /→ "…(.*)…\([\d.,k]+\)" \(more: scope=e2 from=(\d+)\)$/.exec(line ?? '');
    assert.ok(m, line);
    // What was shown and what `from` reads on join up: no character is skipped or read twice.
    const shown = m[1]!.replaceAll('\\n', '\n');
    const from = Number(m[2]) - (valueStart ?? 0);
    assert.ok(after.slice(0, from).endsWith(shown), `${from}: ${shown}`);
    assert.ok(from < after.length);
  }
});

test('like changes fold into one line wherever they sit: 40 toolbar buttons turning enabled across 4 toolbars', () => {
  const make = (): Fixture => ({
    window: { id: 'w', title: 'gnumeric', app: 'gnumeric', pid: 1, role: 'window', focused: true },
    root: n(':1.1', 1, 'window', { name: 'Book1' }, [
      n(':1.1', 2, 'textbox', { name: 'Edit line', value: '4', states: ['editable', 'focused'] }),
      ...Array.from({ length: 4 }, (_, t) => n(':1.1', 10 + t, 'toolbar', { name: `Bar ${t}` },
        Array.from({ length: 10 }, (_, i) => n(':1.1', 100 + t * 10 + i, 'button', { name: `Tool ${t}.${i}`, states: ['disabled'] })))),
      ...Array.from({ length: 3 }, (_, i) => n(':1.1', 300 + i, 'checkbox', { name: `Opt ${i}` })),
    ]),
  });
  const [a, b] = around(make, (f) => {
    byId(f.root, 2).value = '42';
    for (let i = 0; i < 40; i++) byId(f.root, 100 + i).states = [];
    for (let i = 0; i < 3; i++) byId(f.root, 300 + i).states = ['checked'];
  });
  assert.deepEqual(diffSnapshots(a, b).lines, [
    '~ [e2] textbox "Edit line" value "4" → "42"',
    '~ [e47] checkbox "Opt 0" unchecked → checked',
    '~ [e48] checkbox "Opt 1" unchecked → checked',
    '~ [e49] checkbox "Opt 2" unchecked → checked',
    // The mass flip comes after the changes of their own, which it would otherwise push down.
    '~ 40 buttons ([e4] "Tool 0.0" … [e46] "Tool 3.9") disabled → enabled',
  ]);
});

test('a new grid reads as a grid block, as in observe, not one + line per cell', () => {
  const make = (): Fixture => ({
    window: { id: 'w', title: 'Start Center', app: 'soffice', pid: 1, role: 'window', focused: true },
    root: n(':1.1', 1, 'window', { name: 'LibreOffice' }, [n(':1.1', 2, 'button', { name: 'Calc Spreadsheet' })]),
  });
  const [a, b] = around(make, (f) => {
    f.root.children = [
      n(
        ':1.1',
        3,
        'table',
        { name: 'Sheet1', table: { rows: 1_048_576, cols: 1024 } },
        Array.from({ length: 470 }, (_, i) =>
          n(':1.1', 1000 + i, 'cell', {
            name: '',
            value: i === 0 ? 'x' : '',
            cell: { row: Math.floor(i / 10), col: i % 10 },
          }),
        ),
      ),
    ];
  });
  const lines = diffSnapshots(a, b).lines;
  assert.ok(lines.length < 12, lines.join('\n'));
  assert.match(lines[0] ?? '', /^\+ \[e\d+\] table "Sheet1" .*act on a cell: ref=e\d+:B7/);
  assert.ok(!lines.some((l) => /^\+ +\[e\d+\] cell/.test(l)), lines.join('\n'));
});

test('a grid that stays but shows other cells reads as one grid block, not a line per cell in and out of view', () => {
  // Calc's sheet after Find Next moved it from rows 1–26 to 1852–1876: 842 tokens of `+ [e3028] cell "A1852" …`.
  const sheet = (first: number): Fixture => ({
    window: { id: 'w', title: 'inventory.csv', app: 'soffice', pid: 1, role: 'window', focused: true },
    root: n(':1.1', 1, 'window', { name: 'inventory.csv' }, [
      n(':1.1', 2, 'table', { name: 'Sheet inventory', table: { rows: 1_048_576, cols: 16_384 } },
        Array.from({ length: 25 * 3 }, (_, i) => {
          const row = first + Math.floor(i / 3);
          return n(':1.1', `${row}-${i % 3}`, 'cell', {
            value: i % 3 === 0 ? `widget-${row}` : String(row % 97),
            cell: { row, col: i % 3 },
          });
        })),
      n(':1.1', 3, 'label', { name: 'Found' }),
    ]),
  });
  const t = new RefTable();
  const a = buildSnapshot(sheet(0), t);
  const moved = sheet(1851);
  byId(moved.root, 3).name = 'Found 1 match';
  const lines = diffSnapshots(a, buildSnapshot(moved, t)).lines;
  assert.ok(!lines.some((l) => /^[+-] \[e\d+\] cell/.test(l)), lines.join('\n'));
  assert.ok(lines.some((l) => /^~ \[e\d+\] label name "Found" → "Found 1 match"$/.test(l)), lines.join('\n'));
  const head = lines.find((l) => l.includes('shows other cells'));
  assert.match(
    head ?? '',
    /^~ \[e2\] table "Sheet inventory" shows other cells: cells A1852:C1876 of 1,048,576 × 16,384/,
    lines.join('\n'),
  );
  assert.ok(lines.some((l) => /^\+ +1852 \| widget-1851 \|/.test(l)), lines.join('\n'));
  assert.ok(lines.length < 40, lines.join('\n'));
});

test('alike added leaves fold into one line; the change that matters is not cut by them', () => {
  // GNOME Calculator's Programming mode: 64 bit buttons "0" came with the mode, and the diff ended '… 136 more
  // changes'.
  const make = (): Fixture => ({
    window: { id: 'w', title: 'Calculator', app: 'calc', pid: 1, role: 'window', focused: true },
    root: n(':1.1', 1, 'window', { name: 'Calculator' }, [
      n(':1.1', 2, 'label', { name: 'Basic' }),
      n(':1.1', 3, 'group', { name: 'Bits' }),
    ]),
  });
  const [a, b] = around(make, (f) => {
    byId(f.root, 2).name = 'Programming';
    byId(f.root, 3).children = Array.from({ length: 64 }, (_, i) =>
      n(':1.1', 100 + i, 'button', { name: '0', actions: ['click'] }),
    );
  });
  const lines = diffSnapshots(a, b).lines;
  assert.deepEqual(lines, ['+ [e4] … [e67] 64× button "0"', '~ [e2] label name "Basic" → "Programming"']);
});

test('a grid printed as the block of cells it shows now prints its kept cells\' changes only in that block', () => {
  // Calc after a formula entry that moved the view: the rows printed as "shows other cells", again as "re-filled",
  // then as "6 cells … value "North" → """ lines, three times the same rows (a trial's receipt of ~3,000 tokens).
  const regions = ['North', 'South', 'East', 'West'];
  const sheet = (cols: number[], cleared: boolean, focus: string): Fixture => ({
    window: { id: 'w', title: 'sales.csv', app: 'soffice', pid: 1, role: 'window', focused: true },
    root: n(':1.1', 1, 'window', { name: 'sales.csv' }, [
      n(':1.1', 2, 'table', { name: 'Sheet sales', table: { rows: 1_048_576, cols: 16_384 } },
        Array.from({ length: 24 }, (_, row) => cols.map((col) => {
          const value = col === 1 ? (cleared ? '' : regions[row % 4]!) : col === 0 ? `2026-${row}` : String(100 + row);
          const id = `${row}-${col}`;
          return n(':1.1', id, 'cell', { value, cell: { row, col }, states: id === focus ? ['focused'] : [] });
        })).flat()),
    ]),
  });
  const t = new RefTable();
  const a = buildSnapshot(sheet([0, 1, 2, 3, 4, 5], false, '0-5'), t);
  const after = sheet([0, 1, 2, 6, 7, 8], true, '0-7');
  const cell = after.root.children?.[0]?.children?.find((c) => c.id.endsWith('0-7'));
  if (cell) cell.value = '12750';
  const lines = diffSnapshots(a, buildSnapshot(after, t)).lines;
  const text = lines.join('\n');
  assert.equal(lines.filter((l) => l.includes('shows other cells')).length, 1, text);
  assert.ok(!lines.some((l) => /re-filled|re-sorted/.test(l)), text);
  assert.ok(
    !lines.some((l) => /cells of \[e2\] table "Sheet sales" .*value "(North|South|East|West)" → ""/.test(l)),
    text,
  );
  assert.ok(!lines.some((l) => /^~ \[e\d+\] cell "B\d+" value/.test(l)), text);
});

/** A window with a menu bar whose Edit menu, when open, holds `items` (a submenu among them) and a document. */
function menuWindow(open: boolean, parentAdded = false): Fixture {
  const items = [
    n(':1.9', 20, 'menuitem', { name: 'Undo', states: ['disabled'], actions: ['click'] }),
    n(':1.9', 21, 'menuitem', { name: 'Paste', states: ['selected'], actions: ['click'] }),
    n(':1.9', 22, 'menu', { name: 'Convert', actions: ['click'] }),
    n(':1.9', 23, 'menuitem', { name: 'Select All', actions: ['click'] }),
    n(':1.9', 24, 'menuitem', { name: 'Preferences…', actions: ['click'] }),
  ];
  const edit = parentAdded
    ? n(':1.9', 3, 'menu', { name: 'Edit', actions: ['click'] }, [])
    : n(':1.9', 3, 'menu', { name: 'Edit', actions: ['click'], states: open ? ['selected'] : [] }, open ? items : []);
  const popup = parentAdded && open ? [n(':1.9', 30, 'menu', { name: 'Edit' }, items)] : [];
  const root = n(':1.9', 1, 'window', { name: 'Notes' }, [
    n(':1.9', 2, 'menubar', {}, [edit]),
    ...popup,
    n(':1.9', 4, 'document', { value: 'text', states: ['editable'], actions: ['set_value'] }),
  ]);
  return { window: { id: ':1.9/w', title: 'Notes', app: 'notes', pid: 9, role: 'window', focused: true }, root };
}

test('an opened menu\'s entries read as one line, each by ref ' +
    'and name with its states; a submenu names its role', () => {
  const t = new RefTable();
  const s1 = buildSnapshot(menuWindow(false), t);
  const s2 = buildSnapshot(menuWindow(true), t);
  const lines = diffSnapshots(s1, s2).lines;
  assert.deepEqual(lines, [
    '+ [e5] … [e9] 5 menuitems: e5 "Undo" disabled, e6 "Paste" selected, e7 menu "Convert", e8 "Select All", ' +
      'e9 "Preferences…"',
    '~ [e3] menu "Edit" unselected → selected',
  ]);
  // A popup menu added with its entries keeps its line; the entries fold under it.
  const t2 = new RefTable();
  const p1 = buildSnapshot(menuWindow(false, true), t2);
  const p2 = buildSnapshot(menuWindow(true, true), t2);
  const popup = diffSnapshots(p1, p2).lines;
  assert.equal(popup[0], '+ [e5] menu "Edit"');
  assert.match(
    popup[1] ?? '',
    /^\+ {3}\[e6\] … \[e10\] 5 menuitems: e6 "Undo" disabled, e7 "Paste" selected, e8 menu "Convert"/,
  );
  assert.equal(popup.length, 2);
});

test('fewer than four menu entries, or entries with lines under them, print one line each', () => {
  const t = new RefTable();
  const make = (open: boolean): Fixture => {
    const f = menuWindow(open);
    const edit = byId(f.root, 3);
    if (open && edit.children) edit.children = edit.children.slice(0, 3);
    return f;
  };
  const lines = diffSnapshots(buildSnapshot(make(false), t), buildSnapshot(make(true), t)).lines;
  assert.deepEqual(lines.slice(0, 3), ['+ [e5] menuitem "Undo" disabled', '+ [e6] menuitem "Paste" selected',
    '+ [e7] menu "Convert"']);
});

test('a short value\'s change leaves out what both sides share at the start or end: galculator\'s mode line', () => {
  const modes = '\n DEC  HEX  OCT  BIN     DEG  RAD  GRAD     ALG  RPN  FORM';
  const make = (): Fixture => ({
    window: { id: 'w', title: 'galculator', app: 'galculator', pid: 1, role: 'window', focused: true },
    root: n(':1.1', 1, 'window', { name: 'galculator' }, [n(':1.1', 2, 'document', { value: `5${modes}` })]),
  });
  const [a, b] = around(make, (f) => { byId(f.root, 2).value = `51${modes}`; });
  assert.deepEqual(diffSnapshots(a, b).lines, [
    '~ [e2] document value "5" → "51" (+ the same 58 characters after each)',
  ]);
  // A line added at the end: the text before it is left out but for a few characters.
  const text = 'HOST = "localhost"\nPORT = 5432';
  const [e, g] = around(
    make,
    (f) => {
      byId(f.root, 2).value = `${text}\nTIMEOUT = 30`;
    },
    (f) => {
      byId(f.root, 2).value = text;
    },
  );
  assert.deepEqual(diffSnapshots(e, g).lines, ['~ [e2] document value "…T = 5432" → "…T = 5432\\nTIMEOUT = 30"']);
  // Values that share less stay whole.
  const [h, k] = around(
    make,
    (f) => {
      byId(f.root, 2).value = 'QUARTERLY NUMBERS';
    },
    (f) => {
      byId(f.root, 2).value = 'Quarterly numbers';
    },
  );
  assert.deepEqual(diffSnapshots(h, k).lines, ['~ [e2] document value "Quarterly numbers" → "QUARTERLY NUMBERS"']);
});

test('a run of added buttons reads as one line with each ref and name; one that is on keeps its own line', () => {
  // galculator's scientific mode added 26 buttons, a line each.
  const make = (): Fixture => ({
    window: { id: 'w', title: 'galculator', app: 'galculator', pid: 1, role: 'window', focused: true },
    root: n(':1.1', 1, 'window', { name: 'galculator' }, [n(':1.1', 2, 'label', { name: 'Basic' })]),
  });
  const names = ['sin', 'cos', 'tan', 'log', 'ln', 'A', 'B'];
  const [a, b] = around(make, (f) => {
    f.root.children!.push(...names.map((name, i) => n(':1.1', 10 + i, 'button', {
      name, actions: ['click'], states: i >= 5 ? ['disabled'] : i === 4 ? ['checked'] : [],
    })));
  });
  assert.deepEqual(diffSnapshots(a, b).lines, [
    '+ [e3] button "sin"', '+ [e4] button "cos"', '+ [e5] button "tan"', '+ [e6] button "log"',
    '+ [e7] button "ln" checked', '+ [e8] button "A" disabled', '+ [e9] button "B" disabled',
  ]);
  const [c, d] = around(make, (f) => {
    f.root.children!.push(...names.map((name, i) => n(':1.1', 10 + i, 'button', {
      name, actions: ['click'], states: i >= 5 ? ['disabled'] : [],
    })));
  });
  assert.deepEqual(diffSnapshots(c, d).lines, [
    '+ [e3] … [e9] 7 buttons: e3 "sin", e4 "cos", e5 "tan", e6 "log", e7 "ln", e8 "A" disabled, e9 "B" disabled',
  ]);
});
