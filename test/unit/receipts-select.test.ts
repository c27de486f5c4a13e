/**
 * A range selected in a grid is confirmed by its cells (session/act.ts verifyReceipts): Calc's `select e34
 * "A1:A20"` stayed `unknown` while the table reported 20 selected and the diff showed the cells turn selected.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RefTable } from '../../src/engine/refs.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';
import { verifyReceipts, type ActionReceipt } from '../../src/session/receipts.js';
import { n, type Fixture } from '../fixtures/engine/build.js';

/** A sheet of A1:B10 whose cells in `selected` read selected. */
const sheet = (selected: ReadonlySet<string>): Fixture => ({
  window: { id: 'w', title: 'Sheet', app: 'calc', pid: 1, role: 'window', focused: true },
  root: n(':1.1', 1, 'window', { name: 'Sheet' }, [n(':1.1', 2, 'table', { name: 'Sheet1', states: ['focused'] },
    Array.from({ length: 20 }, (_, i) => {
      const name = `${i % 2 ? 'B' : 'A'}${(i >> 1) + 1}`;
      return n(':1.1', 100 + i, 'cell', { name, states: selected.has(name) ? ['selected'] : [] });
    }))]),
});

const range = (...names: string[]): Set<string> => new Set(names);

function receiptAfter(selected: ReadonlySet<string>, value: string): ActionReceipt {
  const refs = new RefTable();
  const before = buildSnapshot(sheet(range()), refs);
  const after = buildSnapshot(sheet(selected), refs);
  const table = after.elements.find((l) => l.role === 'table')!.ref;
  const r = {
    ref: table,
    op: 'select',
    value,
    status: 'unknown',
    detail: 'Selection.SelectChild × 3; the table reports 3 selected',
  } as ActionReceipt;
  verifyReceipts([r], before, after);
  return r;
}

test('a range whose cells on screen all read selected confirms the select', () => {
  const r = receiptAfter(range('A1', 'A2', 'A3'), 'A1:A3');
  assert.equal(r.status, 'confirmed', r.detail);
  assert.match(r.detail, /; A1:A3 selected$/);
});

test('a range with a cell left unselected stays unknown, and a range of no cell on screen too', () => {
  assert.equal(receiptAfter(range('A1', 'A3'), 'A1:A3').status, 'unknown');
  assert.equal(receiptAfter(range('A1', 'A2', 'A3'), 'C1:C3').status, 'unknown');
  // A value that is not a range is an item's name: not judged by cells.
  assert.equal(receiptAfter(range('A1'), 'Sheet2').status, 'unknown');
});

test('a scroll to a row that shows and moved the selection says so once, with no empty part ("; ;")', () => {
  const refs = new RefTable();
  const before = buildSnapshot(sheet(range('A1')), refs);
  const after = buildSnapshot(sheet(range('A1', 'A3')), refs);
  const table = after.elements.find((l) => l.role === 'table')!.ref;
  const r = {
    ref: table,
    op: 'scroll',
    value: 'to 3',
    status: 'unknown',
    detail: 'scroll bar 2 pages: A3 on screen',
  } as ActionReceipt;
  verifyReceipts([r], before, after);
  assert.equal(r.status, 'confirmed', r.detail);
  assert.match(
    r.detail,
    /^scroll bar 2 pages: A3 on screen; side effect: the selection moved to \[e\d+\] "A3"$/,
    r.detail,
  );
});

/** A GTK combo box, whose name is the item it shows (Thunar's Bulk Rename: "From the front (left)"). */
const combo = (shows: string): Fixture => ({
  window: { id: 'w', title: 'Bulk Rename', app: 'thunar', pid: 1, role: 'dialog', focused: true },
  root: n(':1.2', 1, 'dialog', { name: 'Bulk Rename' }, [
    n(':1.2', 2, 'combobox', { name: shows, actions: ['select'] }),
  ]),
});

function comboSelect(from: string, to: string, value: string): ActionReceipt {
  const refs = new RefTable();
  const before = buildSnapshot(combo(from), refs);
  const after = buildSnapshot(combo(to), refs);
  const ref = after.elements.find((l) => l.role === 'combobox')!.ref;
  const r = {
    ref, op: 'select', value, status: 'unknown',
    detail: 'Selection.SelectChild(1) by item index (items under the popup)',
  } as ActionReceipt;
  verifyReceipts([r], before, after);
  return r;
}

test('a combo box that now shows the chosen item confirms the select (its name is the choice)', () => {
  const r = comboSelect('From the front (left)', 'From the back (right)', 'From the back (right)');
  assert.equal(r.status, 'confirmed', r.detail);
  assert.match(r.detail, /; shows "From the back \(right\)"$/, r.detail);
});

test('a combo box that still shows another item leaves the select unknown', () => {
  assert.equal(
    comboSelect('From the front (left)', 'From the front (left)', 'From the back (right)').status,
    'unknown',
  );
});
