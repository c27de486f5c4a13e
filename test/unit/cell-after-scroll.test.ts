/**
 * A cell an earlier action of the same call scrolled to, in a list that renders its rows a moment after the scroll
 * (a virtual web list: the rows came in after the scroll had settled). The act on the cell waits, bounded, for the
 * row to appear instead of answering that the cell is not on screen; a row that never comes is still refused with
 * the range shown. Through createComputer and the fake driver.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import type { RawNode } from '../../src/engine/node.js';
import { createComputer, type Computer } from '../../src/index.js';

const home = mkdtempSync(join(tmpdir(), 'cu-cell-scroll-'));
process.env['COMPUTER_USE_HOME'] = home;
const open: Computer[] = [];
after(async () => { await Promise.all(open.map((c) => c.close())); });

/** Rows `first`..`first + 9` (0-based) of a 5,000-row message list: text in A, an Open button's cell in B. */
function rows(first: number): RawNode[] {
  return Array.from({ length: 10 }, (_, i) => first + i).flatMap((r) => [
    {
      id: `a${r}`,
      role: 'cell',
      nativeRole: 'table cell',
      name: `Message #${r + 1}`,
      states: [],
      actions: [],
      cell: { row: r, col: 0 },
    },
    {
      id: `b${r}`,
      role: 'cell',
      nativeRole: 'table cell',
      name: `Open #${r + 1}`,
      states: [],
      actions: ['click'],
      cell: { row: r, col: 1 },
    },
  ]);
}

async function messages(renderAfterMs: number | undefined): Promise<{ c: Computer; fake: FakeDriver; table: string }> {
  const table: RawNode = {
    id: 't',
    role: 'table',
    nativeRole: 'table',
    name: 'Messages',
    states: [],
    actions: ['scroll'],
    table: { rows: 5000, cols: 2 },
    children: rows(0),
  };
  const root: RawNode = {
    id: 'w',
    role: 'window',
    nativeRole: 'frame',
    name: 'Mail',
    states: ['active'],
    actions: [],
    children: [table],
  };
  const fake = new FakeDriver([
    {
      info: { id: 'w', title: 'Mail', app: 'mail', pid: 4343, role: 'window', focused: true, bounds: [0, 0, 800, 600] },
      root,
    },
  ]);
  // The scroll empties the list at once and fills the new rows later, as a page's scroll handler does.
  fake.onAct = (p) => {
    if (p.op !== 'scroll') return;
    table.children = [];
    if (renderAfterMs !== undefined) setTimeout(() => { table.children = rows(4315); }, renderAfterMs);
  };
  const c = await createComputer({
    desktop: 'current',
    mode: 'accept-edits',
    allowApps: ['mail'],
    connect: () => fake.connect(),
    settingsPath: join(home, 'settings.json'),
    auditPath: join(home, 'audit.jsonl'),
  });
  open.push(c);
  const snap = await c.tools.observe({});
  const ref = /\[(e\d+)\] table "Messages"/.exec(snap.text)?.[1];
  assert.ok(ref, snap.text);
  return { c, fake, table: ref };
}

test('a cell scrolled to in the same call is acted on once the list has rendered it', async () => {
  const { c, fake, table } = await messages(400);
  const r = await c.tools.act({
    actions: [
      { ref: table, op: 'scroll', value: 'to 4321' },
      { ref: `${table}:B4321`, op: 'click' },
    ],
  });
  assert.equal(r.isError, false, r.text);
  assert.match(r.text, /ok click/, r.text);
  assert.equal(fake.dispatched.at(-1)?.id, 'b4320', 'the click went to row 4,321\'s cell B');
});

test('a cell that never renders is refused, nothing clicked', async () => {
  const { c, fake, table } = await messages(undefined);
  const r = await c.tools.act({
    actions: [
      { ref: table, op: 'scroll', value: 'to 4321' },
      { ref: `${table}:B4321`, op: 'click' },
    ],
  });
  assert.equal(r.isError, true, r.text);
  assert.match(r.text, /Cell B4321 of e\d+ is not on screen/, r.text);
  assert.ok(!fake.dispatched.some((p) => p.op === 'click'), 'nothing was clicked');
});

test('a cell off screen is refused with the scroll hint in the row form find gives for the same table', async () => {
  // find names an off-screen row as value="to 4321"; this refusal said value="to B4321" for the same table.
  const { c, table } = await messages(undefined);
  const r = await c.tools.act({ actions: [{ ref: `${table}:B4321`, op: 'click' }] });
  assert.equal(r.isError, true, r.text);
  assert.match(r.text, new RegExp(`scroll ${table} value="to 4321"`), r.text);
});
