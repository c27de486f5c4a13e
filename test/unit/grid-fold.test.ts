/**
 * Tall grids in folded prints: a first print shows the top rows of the view and the cursor's, a receipt's grid that
 * shows other cells (a Find Next that moved the sheet) shows where the cursor went, or the row the sheet's
 * cell-address box names when no cell has the focus; every gap says how to list it. A Calc sheet of 25 rows read
 * ~300 tokens in a first print and ~600 in a Find Next's receipt.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildSnapshot } from '../../src/engine/snapshot.js';
import { diffSnapshots } from '../../src/engine/diff.js';
import type { RawNode, WindowInfo } from '../../src/engine/node.js';
import { RefTable } from '../../src/engine/refs.js';
import { n } from '../fixtures/engine/build.js';

const WIN: WindowInfo = { id: 'w', title: 'inventory.csv', app: 'soffice', pid: 1, role: 'window', focused: true };

/**
 * A sheet showing `count` rows from row `first` (0-based), three filled columns, the cursor in column A of `cursor`;
 * `box`: the value of the window's cell-address box, when it has one.
 */
function sheet(first: number, count: number, cursor?: number, box?: string): RawNode {
  return n(':1.1', 1, 'window', { name: 'inventory.csv' }, [
    n(':1.1', 2, 'table', { name: 'Sheet inventory', table: { rows: 1_048_576, cols: 16_384 } },
      Array.from({ length: count * 3 }, (_, i) => {
        const row = first + Math.floor(i / 3);
        const col = i % 3;
        return n(':1.1', `${row}-${col}`, 'cell', {
          value: col === 0 ? `widget-${row}` : String(row % 97),
          cell: { row, col },
          ...(row === cursor && col === 0 ? { states: ['focused'] } : {}),
        });
      })),
    ...(box === undefined ? [] : [n(':1.1', 3, 'textbox', { value: box, states: ['editable'] })]),
  ]);
}

const rowNumbers = (text: string): number[] =>
  [...text.matchAll(/^\+?\s*(\d+) \| widget/gm)].map((m) => Number(m[1]));

test('a first print of a tall grid shows its first three rows and the rows around the cursor, each gap with its scope',
  () => {
  const snap = buildSnapshot({ window: WIN, root: sheet(1851, 25, 1873) }, new RefTable(), { fold: true });
  assert.deepEqual(rowNumbers(snap.text), [1852, 1853, 1854, 1872, 1873, 1874, 1875, 1876], snap.text);
  assert.match(snap.text, /^\s+… rows 1855–1871 not shown \(scope=e2 lists them\)$/m, snap.text);
  // The cursor's cell keeps its ref on a line a model reads.
  assert.match(snap.text, /cursor A1874/, snap.text);
  // A scope read of the grid and a print not folded show every row.
  const scoped = buildSnapshot({ window: WIN, root: sheet(1851, 25, 1873) }, new RefTable(), {
    fold: true,
    scope: 'e2',
  });
  assert.equal(rowNumbers(scoped.text).length, 25, scoped.text);
  const whole = buildSnapshot({ window: WIN, root: sheet(1851, 25, 1873) }, new RefTable());
  assert.equal(rowNumbers(whole.text).length, 25, whole.text);
});

test('a cursor in the first rows leaves one gap line at the end; a grid of 16 rows or fewer prints whole', () => {
  const top = buildSnapshot({ window: WIN, root: sheet(0, 26, 0) }, new RefTable(), { fold: true });
  assert.deepEqual(rowNumbers(top.text), [1, 2, 3], top.text);
  assert.match(top.text, /^\s+… rows 4–26 not shown \(scope=e2 lists them\)$/m, top.text);
  const short = buildSnapshot({ window: WIN, root: sheet(0, 16, 0) }, new RefTable(), { fold: true });
  assert.equal(rowNumbers(short.text).length, 16, short.text);
  assert.doesNotMatch(short.text, /not shown/, short.text);
});

test('the rows of cells just acted on print in a folded grid', () => {
  const t = new RefTable();
  const first = buildSnapshot({ window: WIN, root: sheet(0, 30, 0) }, t, { fold: true });
  const cell = first.elements.find((l) => l.role === 'cell' && l.value === 'widget-24');
  assert.ok(cell, first.text);
  const again = buildSnapshot({ window: WIN, root: sheet(0, 30, 0) }, t, { fold: true, whole: new Set([cell.ref]) });
  assert.ok(rowNumbers(again.text).includes(25), again.text);
});

test('a receipt of a grid that shows other cells prints the rows around the cursor, not the whole view', () => {
  const t = new RefTable();
  const a = buildSnapshot({ window: WIN, root: sheet(0, 25, 0) }, t);
  const b = buildSnapshot({ window: WIN, root: sheet(1851, 25, 1873) }, t);
  const text = diffSnapshots(a, b).lines.join('\n');
  assert.match(text, /shows other cells: cells A1852:C1876 of 1,048,576 × 16,384 · cursor A1874/, text);
  assert.deepEqual(rowNumbers(text), [1872, 1873, 1874, 1875, 1876], text);
  assert.match(text, /^\+ +… rows 1852–1871 not shown \(scope=e2 lists them\)$/m, text);
});

test('a receipt of a grid without a cursor prints the rows around the one its cell-address box names', () => {
  // Calc behind its Find and Replace dialog: Find Next moved the sheet to row 1874 and no cell reads as focused;
  // the Name Box reads "A1874". The 25 rows it shows read 609 tokens as `+` lines.
  const t = new RefTable();
  const a = buildSnapshot({ window: WIN, root: sheet(0, 25, undefined, 'A1') }, t);
  const b = buildSnapshot({ window: WIN, root: sheet(1851, 25, undefined, 'A1874') }, t);
  const text = diffSnapshots(a, b).lines.join('\n');
  assert.deepEqual(rowNumbers(text), [1872, 1873, 1874, 1875, 1876], text);
  assert.match(text, /^\+ +… rows 1852–1871 not shown \(scope=e2 lists them\)$/m, text);
  // A found row in the middle of the view: a gap either side.
  const c = buildSnapshot({ window: WIN, root: sheet(1851, 25, undefined, 'B1862') }, t);
  const mid = diffSnapshots(a, c).lines.join('\n');
  assert.deepEqual(rowNumbers(mid), [1860, 1861, 1862, 1863, 1864], mid);
  assert.match(mid, /^\+ +… rows 1865–1876 not shown \(scope=e2 lists them\)$/m, mid);
  // An address out of the view names no row of it: the receipt prints every row.
  const d = buildSnapshot({ window: WIN, root: sheet(1851, 25, undefined, 'A9') }, t);
  assert.equal(rowNumbers(diffSnapshots(a, d).lines.join('\n')).length, 25);
});

test('a receipt of a grid without a cursor (its window lost the focus) prints every row it shows', () => {
  // Calc behind its Find and Replace dialog: Find Next moved the sheet, and no cell of it reads as focused.
  const t = new RefTable();
  const a = buildSnapshot({ window: WIN, root: sheet(0, 25) }, t);
  const b = buildSnapshot({ window: WIN, root: sheet(1851, 25) }, t);
  const text = diffSnapshots(a, b).lines.join('\n');
  assert.equal(rowNumbers(text).length, 25, text);
  assert.doesNotMatch(text, /not shown/, text);
});
