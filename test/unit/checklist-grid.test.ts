/**
 * Lists that hide what they hold (docs/tools.md, "What the model sees"): a zenity --checklist is a GTK TreeView whose
 * first column is drawn by a toggle renderer (nameless cells with the toggle op, `checked` when on) and whose
 * second holds the items. The grid prints both columns, the boxes as [x] / [ ], and computer_find finds an
 * item by its text (the cells' names are their addresses). Through createComputer and the fake driver, on the
 * shape the Linux driver reads from zenity 3.44.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import type { RawNode } from '../../src/engine/node.js';
import { createComputer, type Computer } from '../../src/index.js';

const home = mkdtempSync(join(tmpdir(), 'cu-checklist-'));
process.env['COMPUTER_USE_HOME'] = home;
const open: Computer[] = [];
after(async () => { await Promise.all(open.map((c) => c.close())); });

const FRUIT: [boolean, string][] = [[true, 'Apple'], [false, 'Banana'], [true, 'Cherry'], [false, 'Date']];

function checklist(): RawNode {
  const cells: RawNode[] = FRUIT.flatMap(([on, name], r) => [
    {
      id: `c${r}`,
      role: 'cell',
      nativeRole: 'table cell',
      states: on ? ['checked'] : [],
      actions: ['click', 'focus', 'toggle'],
      cell: { row: r, col: 0 },
    },
    {
      id: `n${r}`,
      role: 'cell',
      nativeRole: 'table cell',
      name,
      states: [],
      actions: ['click', 'focus'],
      cell: { row: r, col: 1 },
    },
  ]);
  return { id: 'w', role: 'dialog', nativeRole: 'dialog', name: 'Fruit', states: ['active'], actions: [], children: [
    { id: 'l', role: 'label', nativeRole: 'label', name: 'Select items from the list below.', states: [], actions: [] },
    {
      id: 't',
      role: 'table',
      nativeRole: 'table',
      states: ['focused'],
      actions: ['select', 'scroll'],
      table: { rows: 4, cols: 2 },
      children: [
        {
          id: 'h0',
          role: 'columnheader',
          nativeRole: 'table column header',
          name: 'Pick',
          states: [],
          actions: ['click'],
        },
        {
          id: 'h1',
          role: 'columnheader',
          nativeRole: 'table column header',
          name: 'Fruit',
          states: [],
          actions: ['click'],
        },
        ...cells,
      ],
    },
  ], };
}

test('a checklist prints its check column with each box\'s state, and find finds an item by its text', async () => {
  const fake = new FakeDriver([
    {
      info: {
        id: 'w',
        title: 'Fruit',
        app: 'zenity',
        pid: 4242,
        role: 'dialog',
        focused: true,
        bounds: [0, 0, 400, 300],
      },
      root: checklist(),
    },
  ]);
  const c = await createComputer({
    desktop: 'current',
    connect: () => fake.connect(),
    settingsPath: join(home, 'settings.json'),
    auditPath: join(home, 'audit.jsonl'),
  });
  open.push(c);
  const snap = await c.tools.observe({});
  assert.equal(snap.isError, false, snap.text);
  assert.match(snap.text, /cells A1:B4 of 4 × 2/, snap.text);
  for (const [r, [on, name]] of FRUIT.entries())
    assert.match(snap.text, new RegExp(`${r + 1} \\| \\${on ? '[x\\]' : '[ \\]'} \\| ${name}`), snap.text);
  assert.doesNotMatch(snap.text, /ref=e\d+:(Pick|B7)\b/, 'the hint names a header or a cell the list does not have');
  const found = await c.tools.find({ text: 'Apple' });
  assert.match(found.text, /^1 match for "Apple"/, found.text);
  assert.match(found.text, /cell "B1" value="Apple"/, found.text);
});
