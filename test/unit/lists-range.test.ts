/**
 * Long lists in the engine: a list the driver read only in part (`childRange`, the rows on
 * screen) says which rows it shows of how many, in table rows where the cells tell them, and every row on
 * screen is shown (no 25-item cut).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RawNode } from '../../src/engine/node.js';
import { RefTable } from '../../src/engine/refs.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';

const window = {
  id: ':1.9/w',
  title: 'Long lists',
  app: 'long-lists',
  pid: 42,
  role: 'window' as const,
  focused: true,
};
const node = (id: string, role: RawNode['role'], extra: Partial<RawNode> = {}): RawNode => ({
  id,
  role,
  states: [],
  actions: [],
  ...extra,
});

test('a list read from row 1,492 shows all 30 rows on screen and says "rows 1,492–1,521 of 5,000"', () => {
  const rows = Array.from({ length: 30 }, (_, i) =>
    node(`:1.9/r${i}`, 'listitem', { name: `entry-${1492 + i}`, actions: ['select'] }),
  );
  const list = node(':1.9/list', 'list', {
    name: 'Entries',
    children: rows,
    childCount: 5000,
    childRange: { start: 1491, end: 1521 },
  });
  const s = buildSnapshot(
    { window, root: node(':1.9/w', 'window', { name: 'Long lists', children: [list] }) },
    new RefTable(),
    { maxTokens: 20_000 },
  );
  assert.match(
    s.text,
    /\[(e\d+)\] list "Entries"[^]*… rows 1,492–1,521 of 5,000 on screen \(computer_find searches them all; scroll \1 value="to N" shows row N\)/,
    s.text,
  );
  for (const i of [1492, 1510, 1521]) assert.match(s.text, new RegExp(`listitem "entry-${i}"`), s.text);
  assert.doesNotMatch(s.text, /more items/, s.text);
});

test('a table whose cells carry their row says table rows, not child indexes', () => {
  const cells = Array.from({ length: 10 }, (_, i) =>
    node(`:1.9/c${i}`, 'cell', {
      name: i % 2 ? `${(4309 + (i >> 1)) * 10}` : `item-${4309 + (i >> 1)}`,
      ...(i === 0 ? { cell: { row: 4308, col: 0 } } : i === 9 ? { cell: { row: 4312, col: 1 } } : {}),
    }),
  );
  const table = node(':1.9/t', 'table', {
    name: 'Items',
    children: cells,
    childCount: 10002,
    childRange: { start: 8618, end: 8628 },
    table: { rows: 5000, cols: 2 },
  });
  const s = buildSnapshot(
    { window, root: node(':1.9/w', 'window', { name: 'Long lists', children: [table] }) },
    new RefTable(),
    { maxTokens: 20_000 },
  );
  assert.match(s.text, /… rows 4,309–4,313 of 5,000 on screen/, s.text);
});

test('cells of a spreadsheet read by index without row facts are called cells', () => {
  const cells = Array.from({ length: 5 }, (_, i) => node(`:1.9/c${i}`, 'cell', { name: `A${i + 1}` }));
  const table = node(':1.9/t', 'table', {
    name: 'Sheet1',
    children: cells,
    childCount: 2147483647,
    childRange: { start: 0, end: 5 },
  });
  const s = buildSnapshot(
    { window, root: node(':1.9/w', 'window', { name: 'Calc', children: [table] }) },
    new RefTable(),
    { maxTokens: 20_000 },
  );
  assert.match(s.text, /… cells 1–5 of 2,147,483,647 on screen/, s.text);
});

test('a long list slice: its first cell (with coordinates) is an element line by name, not a grid address', () => {
  const cells = Array.from({ length: 4 }, (_, i) =>
    node(`:1.9/c${i}`, 'cell', {
      name: i % 2 ? 'Land' : `City${157 + (i >> 1)}`,
      ...(i === 0 ? { cell: { row: 156, col: 0 } } : i === 3 ? { cell: { row: 157, col: 1 } } : {}),
    }),
  );
  const table = node(':1.9/t', 'table', {
    children: cells,
    childCount: 800,
    childRange: { start: 312, end: 316 },
    table: { rows: 400, cols: 2 },
  });
  const s = buildSnapshot(
    { window, root: node(':1.9/w', 'window', { name: 'Pick a city', children: [table] }) },
    new RefTable(),
    { maxTokens: 20_000 },
  );
  const first = s.elements.find((l) => l.text.includes('City157'));
  // The diff and receipts print these lines: they must read as the snapshot does (`cell "City157"`).
  assert.match(first?.text ?? '', /^\[e\d+\] cell "City157"$/, JSON.stringify(s.elements.map((l) => l.text)));
  assert.equal(first?.name, 'City157');
  assert.match(s.text, /cell "City157"/, s.text);
});
