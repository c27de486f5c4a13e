/**
 * The rows of a long table's slice are told by counting its cells from the first one read. A cell that is no
 * longer at the index it was read at (lxtask re-sorts its process list every few seconds; a process gone between
 * the index read and its facts drops a cell) shifted every row after it: a row line printed "sleep" beside
 * another process's PID. The slice's rows are said only when every cell is still in its slot.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { busAnswering, type Msg } from './fake-bus.js';
import { sliceRows } from '../../src/drivers/linux/tree/visible.js';
import type { RawNode } from '../../src/engine/node.js';

const APP = ':1.7';
const COLS = 3;

/** A table whose child at index i answers i, except the ones `moved` says answer another index. */
function fakeTable(moved: Map<number, number>) {
  return busAnswering((m: Msg) => {
    const cell = /^\/cell\/(\d+)$/.exec(m.path);
    switch (m.member) {
      case 'GetIndexInParent': {
        const i = Number(cell?.[1] ?? -1);
        return [moved.get(i) ?? i];
      }
      case 'GetRowAtIndex': return [Math.floor(Number(m.body[0]) / COLS)];
      case 'GetColumnAtIndex': return [Number(m.body[0]) % COLS];
      case 'GetAll': return [{ NRows: { value: 40 }, NColumns: { value: COLS } }];
      default: throw Object.assign(new Error('no such method'), { type: 'org.freedesktop.DBus.Error.UnknownMethod' });
    }
  });
}

/** A slice of cells read at `slots` (the indexes the read asked), starting at index 30. */
function slice(slots: number[]): RawNode {
  return {
    id: `${APP}/table`, role: 'table', states: [], actions: [], childRange: { start: 30, end: 30 + slots.length },
    children: slots.map((i) => ({ id: `${APP}/cell/${i}`, role: 'cell', name: `v${i}`, states: [], actions: [] })),
  };
}

const ends = (n: RawNode) => [n.children![0]!.cell, n.children![n.children!.length - 1]!.cell];

test('a slice whose cells are all in their slots says the rows of its first and last cell', async () => {
  const node = slice(Array.from({ length: 12 }, (_, k) => 30 + k));
  await sliceRows(fakeTable(new Map()), { dest: APP, path: '/table' }, node);
  assert.deepEqual(ends(node), [{ row: 10, col: 0 }, { row: 13, col: 2 }]);
});

test('a cell that now answers for another row (a re-sort during the read): no rows said', async () => {
  const node = slice(Array.from({ length: 12 }, (_, k) => 30 + k));
  // The first column's cell of the third row moved four rows down while the others were read.
  await sliceRows(fakeTable(new Map([[36, 48]])), { dest: APP, path: '/table' }, node);
  assert.deepEqual(ends(node), [undefined, undefined]);
});

test('a cell gone from the middle of the read (its process ended): no rows said', async () => {
  const node = slice([30, 31, 32, 33, 34, 36, 37, 38, 39, 40, 41, 42]);
  await sliceRows(fakeTable(new Map()), { dest: APP, path: '/table' }, node);
  assert.deepEqual(ends(node), [undefined, undefined]);
});

test('a toolkit whose cells cannot say their index keeps its rows', async () => {
  const node = slice(Array.from({ length: 12 }, (_, k) => 30 + k));
  await sliceRows(
    fakeTable(new Map(Array.from({ length: 12 }, (_, k) => [30 + k, -1]))),
    { dest: APP, path: '/table' },
    node,
  );
  assert.deepEqual(ends(node), [{ row: 10, col: 0 }, { row: 13, col: 2 }]);
});
