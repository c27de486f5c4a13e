/**
 * Rows are addressed by their real index (docs/tools.md, "What the model sees"): a GTK TreeView of 300 rows is read as
 * the rows on screen (a slice from its child index 256 after "scroll to 257"), and each cell's coordinates
 * come from the table's own index → row mapping. On a fake bus shaped like that TreeView (one column: child
 * index = row), the first cell on screen is A257, not A1 as its place among the children read.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { A11yBus } from '../../src/drivers/linux/bus/bus.js';
import { busAnswering, type Msg } from './fake-bus.js';
import type { RawNode } from '../../src/engine/node.js';
import { handleOf, type ElementInfo } from '../../src/drivers/linux/tree/reader.js';
import { annotateCells } from '../../src/drivers/linux/tree/table.js';

const APP = ':1.5';

function fakeTree(rows: number): A11yBus {
  const answer = (m: Msg): unknown[] => {
    if (m.path === '/tree' && m.member === 'GetAll') return [{ NRows: { value: rows }, NColumns: { value: 1 } }];
    if (m.path === '/tree' && m.member === 'GetRowAtIndex') return [Number(m.body[0])];
    if (m.path === '/tree' && m.member === 'GetColumnAtIndex') return [0];
    throw Object.assign(new Error(`no ${m.member} on ${m.path}`), { type: 'org.freedesktop.DBus.Error.UnknownMethod' });
  };
  const bus = busAnswering(answer);
  return bus;
}

test('cells of a TreeView read as the rows on screen are numbered ' +
    'by their row in the table, not their place on screen', async () => {
  const bus = fakeTree(300);
  const start = 256;
  const children = Array.from({ length: 4 }, (_, k) => ({ dest: APP, path: `/cell${start + k}` }));
  const info: ElementInfo = {
    target: { dest: APP, path: '/tree' },
    atspiRole: 'tree table',
    name: '',
    description: '',
    accessibleId: '',
    states: new Set(['showing']),
    interfaces: new Set(['org.a11y.atspi.Table']),
    children,
    childCount: 300,
    childStart: start,
    childVisible: true,
  };
  const node: RawNode = {
    id: handleOf(info.target),
    role: 'table',
    states: [],
    actions: [],
    children: children.map((c) => ({
      id: handleOf(c),
      role: 'cell',
      name: `item-${Number(c.path.slice(5)) + 1}`,
      states: [],
      actions: ['select'],
    })),
  };
  await annotateCells(bus, info, node);
  assert.deepEqual(node.children?.map((c) => c.cell?.row), [256, 257, 258, 259]);
  assert.deepEqual(node.table, { rows: 300, cols: 1 });
});
