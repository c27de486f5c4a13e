/**
 * A long table's slice read after a scroll starts past its header row (GNOME System Monitor's process list, a Qt
 * table): its column headers are read through the Table interface and put before the rows, so a value is still
 * named by its column. A table that lies about its width (10⁹ or a negative column count) costs a bounded read.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addColumnHeads } from '../../src/drivers/linux/tree/column-heads.js';
import type { RawNode } from '../../src/protocol/nodes.js';
import { busAnswering, type Msg } from './fake-bus.js';

const APP = ':1.8';
const HEADS = ['Process Name', 'User', 'ID'];

function tableBus(cols: number, asked: number[]) {
  return busAnswering((m: Msg) => {
    if (m.path === '/table') {
      if (m.member === 'Get') return [{ value: cols }];
      if (m.member === 'GetColumnHeader') {
        asked.push(Number(m.body[0]));
        return [[APP, `/head/${String(m.body[0])}`]];
      }
    }
    const c = Number(/^\/head\/(-?\d+)$/.exec(m.path)?.[1]);
    const props = { Name: HEADS[c] ?? `Column ${c}`, Description: '', ChildCount: 0 };
    switch (m.member) {
      case 'GetRole': return [57]; // table column header
      case 'GetState': return [[(1 << 25) | (1 << 30), 0]];
      case 'GetInterfaces': return [['org.a11y.atspi.Accessible']];
      case 'GetAll': return [Object.fromEntries(Object.entries(props).map(([k, v]) => [k, { value: v }]))];
      case 'Get': return [{ value: (props as Record<string, unknown>)[String(m.body[1])] }];
      default: throw Object.assign(new Error('no such method'), { type: 'org.freedesktop.DBus.Error.UnknownMethod' });
    }
  });
}

const slice = (start: number, table?: { rows: number; cols: number }): RawNode => ({
  id: `${APP}/table`,
  role: 'table',
  nativeRole: 'table',
  states: [],
  actions: [],
  childCount: 600,
  childRange: { start, end: start + 6 },
  ...(table ? { table } : {}),
  children: Array.from({ length: 6 }, (_, i) => ({
    id: `${APP}/cell/${start + i}`,
    role: 'cell',
    nativeRole: 'table cell',
    name: `v${start + i}`,
    states: [],
    actions: [],
  })),
});

test('a slice below the header row gets the column headers ' +
    'before its cells, numbered so its cells keep their index', async () => {
  const node = slice(300, { rows: 200, cols: 3 });
  await addColumnHeads(tableBus(3, []), { dest: APP, path: '/table' }, node, true);
  assert.deepEqual(
    node.children?.slice(0, 4).map((c) => [c.role, c.name]),
    [
      ['columnheader', 'Process Name'],
      ['columnheader', 'User'],
      ['columnheader', 'ID'],
      ['cell', 'v300'],
    ],
  );
  assert.deepEqual(node.childRange, { start: 297, end: 306 });
});

test('a slice at the top (headers read already) is left alone', async () => {
  const node = slice(0, { rows: 200, cols: 3 });
  const asked: number[] = [];
  await addColumnHeads(tableBus(3, asked), { dest: APP, path: '/table' }, node, true);
  assert.deepEqual(asked, []);
  assert.equal(node.children?.length, 6);
});

test('a table that says it has 10⁹ columns costs at most 40 header reads; a negative count reads none', async () => {
  const asked: number[] = [];
  const node = slice(300);
  await addColumnHeads(tableBus(1_000_000_000, asked), { dest: APP, path: '/table' }, node, true);
  assert.equal(asked.length, 40);
  const none: number[] = [];
  await addColumnHeads(tableBus(-5, none), { dest: APP, path: '/table' }, slice(300), true);
  assert.deepEqual(none, []);
});
