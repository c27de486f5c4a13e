/**
 * Long tables of web pages on a fake accessibility bus: `list.find` finds a text in a later column (a page's
 * "Archive row 437" button cell) and names that cell, not the row's first one; the table's viewport is the
 * page's document (Chromium reports the table at its full height), so row 437 reads as off-screen.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { A11yBus } from '../../src/drivers/linux/bus/bus.js';
import { busAnswering, type Msg } from './fake-bus.js';
import { findInList } from '../../src/drivers/linux/tree/listfind.js';
import { sliceRows, viewportOf } from '../../src/drivers/linux/tree/visible.js';
import type { RawNode } from '../../src/engine/node.js';

const APP = ':1.7';
const ROWS = 600;
const ROLE = { table: 55, cell: 56 };


/** A page-like table of ROWS rows × 3 columns: number, subject, and the row's action cell. */
function fakeTable(): A11yBus {
  const cellName = (path: string): string => {
    const m = /^\/cell\/(\d+)\/(\d+)$/.exec(path);
    if (!m) return '';
    const [row, col] = [Number(m[1]), Number(m[2])];
    return col === 0 ? String(row) : col === 1 ? `Ticket subject ${row}` : `Archive row ${row}`;
  };
  const props = (path: string): Record<string, unknown> => path === '/table'
    ? { Name: '', Description: '', ChildCount: ROWS, NRows: ROWS, NColumns: 3 }
    : { Name: cellName(path), Description: '', ChildCount: 0 };
  const answer = (m: Msg): unknown[] => {
    switch (m.member) {
      case 'GetRole': return [m.path === '/table' ? ROLE.table : ROLE.cell];
      case 'Get': return [{ value: props(m.path)[String(m.body[1])] }];
      case 'GetAll': return [Object.fromEntries(Object.entries(props(m.path)).map(([k, v]) => [k, { value: v }]))];
      case 'GetState': return [[0, 0]];
      case 'GetInterfaces':
        return [
          m.path === '/table' ? ['org.a11y.atspi.Accessible', 'org.a11y.atspi.Table'] : ['org.a11y.atspi.Accessible'],
        ];
      case 'GetAccessibleAt': return [[APP, `/cell/${String(m.body[0])}/${String(m.body[1])}`]];
      case 'GetChildren': return [[]];
      default: throw Object.assign(new Error('no such method'), { type: 'org.freedesktop.DBus.Error.UnknownMethod' });
    }
  };
  const bus = busAnswering(answer);
  return bus;
}

test('list.find searches every column of a table row, and names the cell that holds the text', async () => {
  const r = await findInList(
    fakeTable(),
    { dest: APP, path: '/table' },
    { text: 'Archive row 437', deadlineMs: 30_000 },
  );
  assert.equal(r.complete, true);
  assert.equal(r.matches.length, 1, JSON.stringify(r));
  const m = r.matches[0]!;
  assert.equal(m.row, 437);
  assert.equal(m.node.name, 'Archive row 437');
});

test('list.find finds a text of the middle column, and a text in no row matches nothing', async () => {
  const bus = fakeTable();
  const first = await findInList(
    bus,
    { dest: APP, path: '/table' },
    { text: 'Ticket subject 599', deadlineMs: 30_000 },
  );
  assert.deepEqual(first.matches.map((m) => [m.row, m.node.name]), [[599, 'Ticket subject 599']]);
  const none = await findInList(bus, { dest: APP, path: '/table' }, { text: 'Archive row 601', deadlineMs: 30_000 });
  assert.equal(none.matches.length, 0);
  assert.equal(none.complete, true);
});

/** A page: frame › document web (the part on screen) › section › table (its full height, 15,026 px). */
function fakePage(): A11yBus {
  const nodes: Record<string, { role: number; parent: string; ext: number[] }> = {
    '/frame': { role: 23, parent: '/org/a11y/atspi/accessible/root', ext: [14, 10, 1042, 1000] },
    '/doc': { role: 95, parent: '/frame', ext: [14, 153, 1042, 857] },
    '/section': { role: 39, parent: '/doc', ext: [14, 153, 1042, 15200] },
    '/table': { role: ROLE.table, parent: '/section', ext: [22, 233, 257, 15026] },
  };
  const messageBus = {
    call: (m: Msg) => {
      const n = nodes[m.path];
      if (!n) return Promise.reject(new Error(`no object ${m.path}`));
      switch (m.member) {
        case 'GetRole': return Promise.resolve({ body: [n.role] });
        case 'Get': return Promise.resolve({ body: [{ value: m.body[1] === 'Parent' ? [APP, n.parent] : undefined }] });
        case 'GetExtents': return Promise.resolve({ body: [n.ext] });
        default:
          return Promise.reject(
            Object.assign(new Error('no such method'), { type: 'org.freedesktop.DBus.Error.UnknownMethod' }),
          );
      }
    },
    disconnect: () => undefined,
  };
  const bus = new (A11yBus as unknown as new (b: unknown, address: string) => A11yBus)(messageBus, 'fake');
  bus.p2p = false;
  return bus;
}

test('a table in a web page is seen through the page\'s ' +
    'document: its viewport is the part of the page on screen', async () => {
  assert.deepEqual(await viewportOf(fakePage(), { dest: APP, path: '/table' }), [22, 233, 257, 777]);
});

test('the rows on screen of a web table (children that are ' +
    'rows, not cells) are not given a cell\'s coordinates', async () => {
  // GetRowAtIndex/GetColumnAtIndex take a cell's index: asked with a row's index they name some other cell.
  const messageBus = {
    call: (m: Msg) => {
      if (m.member === 'GetRowAtIndex') return Promise.resolve({ body: [134] });
      if (m.member === 'GetColumnAtIndex') return Promise.resolve({ body: [1] });
      return Promise.reject(
        Object.assign(new Error('no such method'), { type: 'org.freedesktop.DBus.Error.UnknownMethod' }),
      );
    },
    disconnect: () => undefined,
  };
  const bus = new (A11yBus as unknown as new (b: unknown, address: string) => A11yBus)(messageBus, 'fake');
  bus.p2p = false;
  const row = (i: number): RawNode => ({
    id: `r${i}`,
    role: 'row',
    states: [],
    actions: [],
    children: [{ id: `c${i}`, role: 'cell', name: String(i), states: [], actions: [] }],
  });
  const table: RawNode = {
    id: 't',
    role: 'table',
    states: [],
    actions: [],
    table: { rows: 601, cols: 3 },
    childRange: { start: 403, end: 440 },
    children: [row(403), row(439)],
  };
  await sliceRows(bus, { dest: APP, path: '/table' }, table);
  assert.deepEqual(table.children?.map((r) => r.cell), [undefined, undefined]);
});
