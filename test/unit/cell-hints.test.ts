/**
 * Every `act on a cell: ref=eN:B7` hint a snapshot prints names a form that act accepts. A Qt list view (a list
 * with a table's cells: PCManFM-Qt's file view) printed the hint, and act then refused it as "a list, not a
 * table". The hint is taken from the printed snapshot of each kind of view and resolved as act resolves it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RawNode, WindowInfo } from '../../src/engine/node.js';
import { RefTable } from '../../src/engine/refs.js';
import { buildSnapshot, type Snapshot } from '../../src/engine/snapshot.js';
import { resolveCellRef } from '../../src/session/cells.js';
import type { Session } from '../../src/session/session.js';
import { n } from '../fixtures/engine/build.js';

const B = ':1.77';
const WINDOW: WindowInfo = { id: 'w1', title: 'Files', app: 'files', pid: 7, role: 'window', focused: true };

/** A view of `role` holding rows × cols cells (row-major), each named "r<row>c<col>". */
function view(role: RawNode['role'], rows: number, cols: number): RawNode {
  const cells: RawNode[] = [];
  let id = 10;
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) cells.push(n(B, id++, 'cell', { name: `r${r}c${c}`, cell: { row: r, col: c } }));
  return n(B, 2, role, { table: { rows, cols }, states: ['focusable'] }, cells);
}

/** The hints of a printed snapshot, each resolved as act resolves a cell ref. */
function hintsResolve(
  root: RawNode,
  window: WindowInfo = WINDOW,
): { hints: string[]; resolved: string[]; snap: Snapshot } {
  const refs = new RefTable();
  const snap = buildSnapshot({ window, root }, refs);
  const session = { refs, last: new Map([[window.id, snap]]) } as unknown as Session;
  const hints = [...snap.text.matchAll(/act on a cell: ref=(\S+)/g)].map((m) => m[1]!);
  return { hints, resolved: hints.map((h) => resolveCellRef(session, h)), snap };
}

for (const [kind, role, rows, cols] of [
  ['a Qt list view (a list with cells)', 'list', 9, 1],
  ['a tree table', 'tree', 8, 2],
  ['a table', 'table', 3, 3],
  ['a one-column list of two rows', 'list', 2, 1],
] as const) {
  test(`the cell hint of ${kind} is accepted by act`, () => {
    const { hints, resolved, snap } = hintsResolve(n(B, 1, 'window', { name: 'Files' }, [view(role, rows, cols)]));
    assert.ok(hints.length > 0, snap.text);
    for (const ref of resolved)
      assert.equal(snap.elements.find((l) => l.ref === ref)?.role, 'cell', `${ref} in\n${snap.text}`);
  });
}

test("observe's scope takes the cell ref a grid's hint prints (e47:B7), as act does", async () => {
  const { FakeDriver } = await import('../../src/drivers/fake/driver.js');
  const { Device } = await import('../../src/devices/manager.js');
  const { Session } = await import('../../src/session/session.js');
  const { TOOLS } = await import('../../src/tools/index.js');
  const { runTool } = await import('../../src/tools/tool.js');
  const root = n(B, 1, 'window', { name: 'Files', states: ['active'] }, [view('tree', 8, 3)]);
  const fake = new FakeDriver([{ info: { ...WINDOW, id: root.id }, root }]);
  const session = new Session({ device: new Device({ connect: () => fake.connect() }) });
  const observe = TOOLS.find((t) => t.schema.name === 'computer_observe')!;
  try {
    const whole = (await runTool(observe, { session }, {})).text;
    const hint = /act on a cell: ref=(\S+)/.exec(whole)?.[1];
    assert.ok(hint, whole);
    const table = hint.split(':')[0]!;
    const scoped = await runTool(observe, { session }, { scope: `${table}:C5` });
    assert.doesNotMatch(scoped.text, /invalid_params|expected string/, scoped.text);
    assert.match(scoped.text, /\] cell "r4c2"/, scoped.text);
  } finally {
    await session.close();
  }
});
