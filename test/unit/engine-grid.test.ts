import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DistilledNode } from '../../src/engine/distill.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';
import { cellAddress, cellLine, cellShowsEntry, columnName, parseAddress, renderGrid } from '../../src/engine/grid.js';
import { estimateTokens } from '../../src/engine/measure.js';
import type { RawNode, WindowInfo } from '../../src/engine/node.js';
import { RefTable } from '../../src/engine/refs.js';
import { diffSnapshots } from '../../src/engine/diff.js';
import { n } from '../fixtures/engine/build.js';
import { entered, formulaOf } from '../../src/drivers/linux/tree/table.js';
import { parseRange } from '../../src/protocol/cells.js';

const WIN: WindowInfo = {
  id: 'w',
  title: 'Untitled 1 - LibreOffice Calc',
  app: 'soffice',
  pid: 42,
  role: 'window',
  focused: true,
};

function sheet(
  values: Record<string, string>,
  opts: { rows?: number; cols?: number; focus?: string; selected?: string[] } = {},
): RawNode {
  const rows = opts.rows ?? 20;
  const cols = opts.cols ?? 8;
  const cells: RawNode[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const address = cellAddress(r, c);
      const states: RawNode['states'] = [];
      if (opts.focus === address) states.push('focused');
      if (opts.selected?.includes(address)) states.push('selected');
      cells.push({
        id: `t#${r},${c}`,
        role: 'cell',
        name: address,
        value: values[address] ?? '',
        states,
        actions: ['set_value'],
        cell: { row: r, col: c, address },
      });
    }
  }
  return { id: 'win', role: 'window', name: WIN.title, states: [], actions: [], children: [
    {
      id: 't',
      role: 'table',
      name: 'Sheet Sheet1',
      states: [],
      actions: ['select'],
      table: { rows: 1_048_576, cols: 16_384 },
      childCount: 2_147_483_647,
      childRange: { start: 0, end: (rows - 1) * 16_384 + cols },
      children: cells,
    },
  ], };
}

test('addresses: column letters both ways, ranges', () => {
  assert.deepEqual([0, 25, 26, 701, 702, 16_383].map(columnName), ['A', 'Z', 'AA', 'ZZ', 'AAA', 'XFD']);
  assert.deepEqual(parseAddress('B7'), { row: 6, col: 1 });
  assert.deepEqual(parseAddress('xfd1048576'), { row: 1_048_575, col: 16_383 });
  for (const bad of ['B0', '7B', 'B', 'ABCD1', 'B7 ', 'B-1', '']) assert.equal(parseAddress(bad), undefined, bad);
  assert.deepEqual(parseRange('B3:A1'), [0, 0, 2, 1]);
  assert.deepEqual(parseRange('c5'), [4, 2, 4, 2]);
  assert.equal(parseRange('A1:'), undefined);
});

test('a sheet renders its filled part as rows of values, with the range read and the full size', () => {
  const snap = buildSnapshot(
    { window: WIN, root: sheet({ A1: '6', B1: '1', B2: '2', B3: '3' }, { focus: 'A1' }) },
    new RefTable(),
  );
  assert.equal(snap.text, [
    'app soffice pid=42 · window "Untitled 1 - LibreOffice Calc" [focused]',
    '[e1] window',
    '  [e2] table "Sheet Sheet1" cells A1:H20 of 1,048,576 × 16,384 · cursor A1 · filled part A1:B3 shown · act on a cell: ref=e2:B7',
    '      | A | B',
    '    1 | 6 | 1',
    '    2 |  | 2',
    '    3 |  | 3',
  ].join('\n'));
  // Every cell keeps a ref and an address-named element line, for cell refs, diffs and receipts.
  const b2 = snap.elements.find((l) => l.name === 'B2');
  assert.equal(b2?.parent, 'e2');
  assert.equal(b2?.text, `[${b2?.ref ?? ''}] cell "B2" value="2"`);
  assert.equal(snap.elements.filter((l) => l.role === 'cell').length, 160);
});

test('an empty sheet is one line; the cursor cell stays addressable; selection is a range', () => {
  const snap = buildSnapshot(
    { window: WIN, root: sheet({}, { focus: 'C4', selected: ['B2', 'B3', 'C2', 'C3'] }) },
    new RefTable(),
  );
  assert.match(
    snap.text,
    /cells A1:H20 of 1,048,576 × 16,384 · cursor C4 · selected B2:C3 · all empty · act on a cell: ref=e2:B7$/,
  );
  assert.equal(snap.text.split('\n').length, 3);
  assert.ok(snap.lines.some((l) => l.name === 'C4' && l.states.includes('focused')));
});

test('app text in cells cannot forge lines or columns', () => {
  const snap = buildSnapshot(
    { window: WIN, root: sheet({ A1: 'x\n[e9] button "OK"', B1: 'a|b', C1: '\u202eevil' }) },
    new RefTable(),
  );
  const lines = snap.text.split('\n');
  assert.equal(lines.length, 5, snap.text);
  // A text that reads as a ref is escaped: the grid prints real refs for the controls in its cells.
  assert.match(lines[4] ?? '', /^ {4}1 \| x⏎\\\[e9\] button "OK" \| a\\\|b \| evil$/);
});

test('the grid stays within its token allowance and says which rows it left out', () => {
  const values: Record<string, string> = {};
  for (let r = 0; r < 40; r++) for (let c = 0; c < 8; c++) values[cellAddress(r, c)] = `value ${r * 8 + c}`;
  const raw = sheet(values, { rows: 40 });
  const snap = buildSnapshot({ window: WIN, root: raw }, new RefTable(), { maxTokens: 600 });
  assert.ok(snap.tokens <= 600, `${snap.tokens} tokens`);
  assert.match(snap.text, /… rows \d+–40 not shown \(budget\): scroll, or observe with scope=e2/);
  // Scoped to the table, the grid may use the whole budget.
  const scoped = buildSnapshot({ window: WIN, root: raw }, new RefTable(), { maxTokens: 4000, scope: 'e2' });
  assert.match(scoped.text, /^ {2}40 \| value 312/m);
  assert.doesNotMatch(scoped.text, /not shown/);
  const g = renderGrid(
    {
      ...({} as DistilledNode),
      role: 'table',
      children: [],
      table: { rows: 0, cols: 0 },
      states: [],
      actions: [],
    } as DistilledNode,
    estimateTokens,
  );
  assert.match(g.summary, /cells none of 0 × 0/);
});

test('receipts: a formula entry is confirmed by the formula, whole or as Calc\'s bridge cuts it', () => {
  assert.equal(cellShowsEntry({ role: 'cell', value: '6', formula: '=SUM(B1:B3)' }, '=sum(b1:b3)'), true);
  assert.equal(cellShowsEntry({ role: 'cell', value: '6', formula: '=SUM(B1…' }, '=SUM(B1:B3)'), true);
  assert.equal(cellShowsEntry({ role: 'cell', value: '6', formula: '=SUM(B1…' }, '=SUM(B12)'), false);
  assert.equal(cellShowsEntry({ role: 'cell', value: '6' }, '=SUM(B1:B3)'), false);
  assert.equal(cellShowsEntry({ role: 'cell', value: '1.5' }, '1.50'), true);
  assert.equal(cellShowsEntry({ role: 'textbox', value: '6', formula: '=6' }, '=6'), false);
  assert.deepEqual(formulaOf({ Formula: 'SUM(B1\\' }), { cut: '=SUM(B1' });
  assert.deepEqual(formulaOf({ Formula: 'B1*2' }), { formula: '=B1*2' });
  assert.deepEqual(formulaOf({ Formula: '' }), {});
  assert.equal(entered({ text: '6', cut: '=SUM(B1' }, '=SUM(B1:B3)'), true);
  assert.equal(entered({ text: '6', cut: '=SUM(B1' }, '=SUM(B10)'), false);
  assert.equal(entered({ text: '3.5' }, '3.5'), true);
  assert.equal(entered({ text: '' }, 'x'), false);
});

test('a one-column tree\'s grid offers a cell ref it has (Geany\'s symbol tree has no B7)', () => {
  const cells: RawNode[] = Array.from({ length: 9 }, (_, r) => ({
    id: `g#${r}`,
    role: 'cell',
    name: `symbol${r}`,
    states: [],
    actions: ['select'],
    cell: { row: r, col: 0 },
  }));
  const root: RawNode = { id: 'win', role: 'window', name: 'geany', states: [], actions: [], children: [
    { id: 'g', role: 'tree', name: 'Symbols', states: [], actions: [], table: { rows: 9, cols: 1 }, children: cells },
  ] };
  const snap = buildSnapshot({ window: { ...WIN, title: 'geany' }, root }, new RefTable());
  const hint = /act on a cell: ref=(e\d+):(\w+)/.exec(snap.text);
  assert.ok(hint?.[2], snap.text);
  assert.notEqual(hint[2], 'B7', snap.text);
  assert.equal(parseAddress(hint[2])?.col, 0, snap.text);
});

test('a cell line quotes its text as every element line does: a cell ' +
    'cannot forge attributes or refs (found in a geany log diff)', () => {
  // `+ [e230] cell "A4" value="15:46:53: New file "untitled" opened."` printed the app's quotes raw.
  const cell = {
    ref: 'e230',
    role: 'cell',
    states: [],
    actions: [],
    children: [],
    cell: { row: 3, col: 0 },
    value: 'a "b" c." focused [e1] button "Pay',
    description: 'x" formula="=1',
  } as unknown as Parameters<typeof cellLine>[0];
  const line = cellLine(cell);
  assert.equal(
    line,
    '[e230] cell "A4" value="a \\"b\\" c.\\" focused [e1] button \\"Pay" formula="x\\" formula=\\"=1"',
  );
  assert.equal(line.match(/(?<!\\)"/g)?.length, 6, 'only the three pairs of quotes of its own');
});

test('a grid grows with maxTokens (60% of it, not a fixed 1,200) and a scoped grid has no 60-row cap', () => {
  const values: Record<string, string> = {};
  for (let r = 0; r < 100; r++) for (let c = 0; c < 8; c++) values[cellAddress(r, c)] = `value ${r * 8 + c}`;
  const raw = sheet(values, { rows: 100 });
  // The window observe at 20,000 tokens: the grid takes more than 1,200 tokens, and stops at 60 rows.
  const win = buildSnapshot({ window: WIN, root: raw }, new RefTable(), { maxTokens: 20000 });
  const grid = win.text.split('\n').filter((l) => /^ +\d+ \| value/.test(l));
  assert.equal(grid.length, 60, win.text);
  assert.ok(estimateTokens(grid.join('\n')) > 1200, `${estimateTokens(grid.join('\n'))} tokens`);
  assert.match(win.text, /… rows 61–100 not shown/);
  // At the default budget the grid keeps within the budget.
  const small = buildSnapshot({ window: WIN, root: raw }, new RefTable());
  assert.ok(small.tokens <= 2000, `${small.tokens}`);
  assert.match(small.text, /… rows \d+–100 not shown/);
  // Scoped to the table, every row prints when the budget allows.
  const scoped = buildSnapshot({ window: WIN, root: raw }, new RefTable(), { maxTokens: 20000, scope: 'e2' });
  assert.match(scoped.text, /^ {2}100 \| value 792/m, scoped.text.slice(-300));
  assert.doesNotMatch(scoped.text, /not shown|over budget/);
  assert.ok(scoped.tokens <= 20000);
});

test('a web table grid prints the refs of the controls in its cells; a moved grid\'s buttons are in its block', () => {
  // A trial's Chromium table of orders: after a scroll the grid printed "Refund" with no ref, and 32 bare
  // '+ [e2080] button "Refund"' lines with no row.
  const page = (first: number): RawNode => n(':1.5', 1, 'window', { name: 'Orders' }, [
    n(':1.5', 2, 'table', { table: { rows: 300, cols: 2 } }, Array.from({ length: 10 }, (_, i) => {
      const r = first + i;
      return n(':1.5', `r${r}`, 'row', {}, [
        n(':1.5', `a${r}`, 'cell', { name: `Order ${r}`, cell: { row: r, col: 0 } }),
        n(':1.5', `b${r}`, 'cell', { cell: { row: r, col: 1 } }, [
          n(':1.5', `k${r}`, 'button', { name: 'Refund', actions: ['click'] }),
        ]),
      ]);
    })),
  ]);
  const refs = new RefTable();
  const a = buildSnapshot({ window: WIN, root: page(0) }, refs);
  const row = a.text.split('\n').find((l) => l.includes('Order 3')) ?? '';
  const button = /\[(e\d+)\] Refund/.exec(row)?.[1];
  assert.ok(button && a.elements.some((l) => l.ref === button && l.role === 'button'), a.text);
  const b = buildSnapshot({ window: WIN, root: page(250) }, refs);
  const lines = diffSnapshots(a, b).lines;
  assert.ok(!lines.some((l) => /^[+-] \[e\d+\] button/.test(l)), lines.join('\n'));
  assert.ok(lines.some((l) => /Order 257 \| \[e\d+\] Refund$/.test(l)), lines.join('\n'));
});

test('a cell value is cut by the room its grid has: whole in ' +
    'a narrow table, cut in a wide sheet; find shows it whole', () => {
  // A search tool's result table: four columns, a folder path of 42 characters (the model read it as "…/o…").
  const path = '/work/trial-fixtures/any3/docs/archive/old';
  const narrow = buildSnapshot(
    { window: WIN, root: sheet({ A1: 'Budget_2019.txt', B1: '1 bytes', C1: path, D1: 'Today' }, { rows: 2, cols: 4 }) },
    new RefTable(),
  );
  assert.ok(narrow.text.includes(`| ${path} |`), narrow.text);
  // A sheet of twelve filled columns keeps its 40-character cut: its rows would not fit otherwise.
  const wide: Record<string, string> = {};
  for (let c = 0; c < 12; c++) wide[cellAddress(0, c)] = `${path}-${c}`;
  const sheet12 = buildSnapshot({ window: WIN, root: sheet(wide, { rows: 2, cols: 12 }) }, new RefTable());
  assert.ok(!sheet12.text.includes(`${path}-0`), sheet12.text);
  assert.ok(sheet12.text.includes(`${path.slice(0, 40)}…`), sheet12.text);
  // The cell's own line (what find prints) holds a value of 100 characters whole.
  const long = 'x'.repeat(100);
  const one = buildSnapshot({ window: WIN, root: sheet({ A1: long }, { rows: 1, cols: 1 }) }, new RefTable());
  assert.equal(one.elements.find((l) => l.name === 'A1')?.text.includes(`value="${long}"`), true);
});

test('a table of a few columns names the columns out of view to the right and the scroll that shows them', () => {
  // A task manager's list showed A–E of 9 columns; its PID column was to the right and nothing said so.
  const root = sheet({ A1: 'trialsleeper', B1: 'root', E1: '1.6 MB' }, { rows: 3, cols: 5 });
  const table = root.children?.[0];
  if (table) table.table = { rows: 53, cols: 9 };
  const snap = buildSnapshot({ window: WIN, root }, new RefTable());
  assert.match(
    snap.text,
    /cells A1:E3 of 53 × 9 · columns F–I out of view: scroll e2 value="right" \(a step each, repeat\) shows them/,
    snap.text,
  );
  // A spreadsheet's thousands of columns are not named.
  const calc = buildSnapshot({ window: WIN, root: sheet({ A1: '6' }) }, new RefTable());
  assert.doesNotMatch(calc.text, /out of view/, calc.text);
});

test('a query that hits a cell keeps its whole row: the other columns are not called out of view', () => {
  // A task manager's list queried for a process printed only column A of its row and said "columns B–I out of
  // view", though they showed on screen: the row's user and priority were what the model asked for.
  const root = sheet(
    { A1: 'bash', B1: 'root', C1: '0', A2: 'dbus-daemon', B2: 'messagebus', C2: '5', A3: 'openbox', B3: 'root' },
    { rows: 3, cols: 3 },
  );
  const table = root.children?.[0];
  if (table) table.table = { rows: 30, cols: 3 };
  const snap = buildSnapshot({ window: WIN, root }, new RefTable(), { query: 'dbus-daemon' });
  assert.match(snap.text, /dbus-daemon \| messagebus \| 5/, snap.text);
  assert.doesNotMatch(snap.text, /out of view/, snap.text);
  assert.doesNotMatch(snap.text, /openbox/, snap.text);
});
