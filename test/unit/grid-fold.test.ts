/**
 * Tall grids in folded prints: a first print shows the top rows of the view and the cursor's, a receipt's grid that
 * shows other cells (a Find Next that moved the sheet) shows where the cursor went; every gap says how to list it.
 * A Calc sheet of 25 rows read ~300 tokens in a first print and ~400 in a Find Next's receipt.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildSnapshot } from '../../src/engine/snapshot.js';
import { diffSnapshots } from '../../src/engine/diff.js';
import type { RawNode, WindowInfo } from '../../src/engine/node.js';
import { RefTable } from '../../src/engine/refs.js';
import { n } from '../fixtures/engine/build.js';

const WIN: WindowInfo = { id: 'w', title: 'inventory.csv', app: 'soffice', pid: 1, role: 'window', focused: true };

/** A sheet showing `count` rows from row `first` (0-based), three filled columns, the cursor in column A of `cursor`. */
function sheet(first: number, count: number, cursor?: number): RawNode {
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
  ]);
}

const rowNumbers = (text: string): number[] =>
  [...text.matchAll(/^\+?\s*(\d+) \| widget/gm)].map((m) => Number(m[1]));

test('a first print of a tall grid shows its first ten rows and the rows around the cursor, each gap with its scope',
  () => {
  const snap = buildSnapshot({ window: WIN, root: sheet(1851, 25, 1873) }, new RefTable(), { fold: true });
  assert.deepEqual(rowNumbers(snap.text), [1852, 1853, 1854, 1855, 1856, 1857, 1858, 1859, 1860, 1861,
    1872, 1873, 1874, 1875, 1876], snap.text);
  assert.match(snap.text, /^\s+… rows 1862–1871 not shown \(scope=e2 lists them\)$/m, snap.text);
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
  assert.deepEqual(rowNumbers(top.text), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], top.text);
  assert.match(top.text, /^\s+… rows 11–26 not shown \(scope=e2 lists them\)$/m, top.text);
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
  assert.deepEqual(rowNumbers(text), [1871, 1872, 1873, 1874, 1875, 1876], text);
  assert.match(text, /^\+ +… rows 1852–1870 not shown \(scope=e2 lists them\)$/m, text);
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
