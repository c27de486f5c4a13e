/**
 * computer_find lists an element once: a combo box found by its name ("Size") whose value also holds the text
 * ("Choose a size") is one match, not an element line plus a text hit. Through createComputer and the fake driver.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import type { RawNode } from '../../src/engine/node.js';
import { createComputer, type Computer } from '../../src/index.js';

const home = mkdtempSync(join(tmpdir(), 'cu-find-dedupe-'));
process.env['COMPUTER_USE_HOME'] = home;
const open: Computer[] = [];
after(async () => { await Promise.all(open.map((c) => c.close())); });

test('find: an element whose name and value both hold the text is listed once', async () => {
  const root: RawNode = {
    id: 'w',
    role: 'window',
    nativeRole: 'frame',
    name: 'Shirt order',
    states: ['active'],
    actions: [],
    children: [
      {
        id: 'doc',
        role: 'document',
        nativeRole: 'document web',
        name: 'Shirt order',
        states: [],
        actions: [],
        children: [
          {
            id: 'size',
            role: 'combobox',
            nativeRole: 'combo box',
            name: 'Size',
            value: 'Choose a size',
            states: ['collapsed'],
            actions: ['expand', 'select'],
          },
          {
            id: 'other',
            role: 'textbox',
            nativeRole: 'entry',
            name: 'Note',
            value: 'any size will do',
            states: ['editable'],
            actions: ['set_value'],
          },
        ],
      },
    ],
  };
  const fake = new FakeDriver([
    {
      info: {
        id: 'w',
        title: 'Shirt order',
        app: 'shop',
        pid: 4242,
        role: 'window',
        focused: true,
        bounds: [0, 0, 800, 600],
      },
      root,
    },
  ]);
  const c = await createComputer({
    desktop: 'current',
    connect: () => fake.connect(),
    settingsPath: join(home, 'settings.json'),
    auditPath: join(home, 'audit.jsonl'),
  });
  open.push(c);
  const combo = await c.tools.find({ text: 'size', role: 'combobox' });
  assert.equal(combo.isError, false, combo.text);
  assert.match(combo.text, /^1 match for "size" role=combobox/, combo.text);
  assert.equal(combo.text.split('\n').filter((l) => l.includes('combobox "Size"')).length, 1, combo.text);
  // A value hit of another element is still found (by its text).
  const any = await c.tools.find({ text: 'size' });
  assert.match(any.text, /^2 matches for "size"/, any.text);
  assert.match(any.text, /textbox "Note"/, any.text);
});

test('find: a grid cell\'s address is no text of it; "257" ' +
    'finds the cell that shows 257, not cells A257 and C257', async () => {
  // A trial's web table of orders: find "257" answered [e2227] cell "A257" value="256" and [e2229] cell "C257"
  // value="Refund".
  const cell = (r: number, c: number, name: string): RawNode => ({
    id: `c${r}-${c}`,
    role: 'cell',
    nativeRole: 'table cell',
    name,
    states: [],
    actions: [],
    cell: { row: r, col: c },
  });
  const rows: RawNode[] = [];
  for (let r = 250; r < 262; r++)
    rows.push({
      id: `r${r}`,
      role: 'row',
      nativeRole: 'table row',
      states: [],
      actions: [],
      children: [cell(r, 0, String(r)), cell(r, 1, `Customer ${'abcdefghijkl'[r - 250] ?? ''}`)],
    });
  const root: RawNode = {
    id: 'w2',
    role: 'window',
    nativeRole: 'frame',
    name: 'Orders',
    states: ['active'],
    actions: [],
    children: [
      {
        id: 'doc2',
        role: 'document',
        nativeRole: 'document web',
        name: 'Orders',
        states: [],
        actions: [],
        children: [
          {
            id: 'tab',
            role: 'table',
            nativeRole: 'table',
            states: [],
            actions: [],
            table: { rows: 300, cols: 2 },
            children: rows,
          },
        ],
      },
    ],
  };
  const fake = new FakeDriver([
    {
      info: {
        id: 'w2',
        title: 'Orders',
        app: 'browser',
        pid: 4343,
        role: 'window',
        focused: true,
        bounds: [0, 0, 800, 600],
      },
      root,
    },
  ]);
  const c = await createComputer({
    desktop: 'current',
    connect: () => fake.connect(),
    settingsPath: join(home, 'settings2.json'),
    auditPath: join(home, 'audit2.jsonl'),
  });
  open.push(c);
  const r = await c.tools.find({ text: '257' });
  assert.match(r.text, /^1 match for "257"/, r.text);
  assert.match(r.text, /value="257"/, r.text);
  assert.doesNotMatch(r.text, /cell "A257"|cell "B257"/, r.text);
  // The address itself still finds its cell.
  assert.match((await c.tools.find({ text: 'A259' })).text, /cell "A259"/);
});

test('find on a table that shows fewer rows than it has searches ' +
    'the rest (list.find), so a row off screen is no "0 matches"', async () => {
  // A trial's 200-row web table read as a grid of the rows on screen after a scroll: find "Person 200" said 0 matches.
  const cell = (r: number, c: number, name: string): RawNode => ({
    id: `p${r}-${c}`,
    role: 'cell',
    nativeRole: 'table cell',
    name,
    states: [],
    actions: [],
    cell: { row: r, col: c },
  });
  const rows: RawNode[] = [];
  for (let r = 116; r < 151; r++)
    rows.push({
      id: `pr${r}`,
      role: 'row',
      nativeRole: 'table row',
      states: [],
      actions: [],
      children: [cell(r, 0, `Person ${r}`), cell(r, 1, `p${r}@example.com`)],
    });
  const root: RawNode = {
    id: 'w3',
    role: 'window',
    nativeRole: 'frame',
    name: 'Contacts',
    states: ['active'],
    actions: [],
    children: [
      {
        id: 'doc3',
        role: 'document',
        nativeRole: 'document web',
        name: 'Contacts',
        states: [],
        actions: [],
        children: [
          {
            id: 'tab3',
            role: 'table',
            nativeRole: 'table',
            states: [],
            actions: [],
            table: { rows: 200, cols: 2 },
            children: rows,
          },
        ],
      },
    ],
  };
  const fake = new FakeDriver([
    {
      info: {
        id: 'w3',
        title: 'Contacts',
        app: 'browser',
        pid: 4444,
        role: 'window',
        focused: true,
        bounds: [0, 0, 800, 600],
      },
      root,
    },
  ]);
  fake.extra['list.find'] = () => ({
    matches: [
      {
        node: { id: 'p199-0', role: 'cell', nativeRole: 'table cell', name: 'Person 199', states: [], actions: [] },
        index: 199,
        row: 199,
      },
    ],
    total: 200,
    scanned: 200,
    next: 200,
    complete: true,
    method: 'scan',
    ms: 4,
  });
  const c = await createComputer({
    desktop: 'current',
    connect: () => fake.connect(),
    settingsPath: join(home, 'settings3.json'),
    auditPath: join(home, 'audit3.jsonl'),
  });
  open.push(c);
  const r = await c.tools.find({ text: 'Person 199' });
  assert.match(r.text, /^1 match for "Person 199"/, r.text);
  assert.match(
    r.text,
    /^\[(e\d+)\] cell "Person 199" — (?:row|item) 200 of 200 in table \[e\d+\], off-screen \(an act on \1 scrolls it into view first\)$/m,
    r.text,
  );
});

test('find on an item view read as its first children (a Qt table ' +
    'of 500 rows: 200 of 3,006 cells) searches the rows it holds', async () => {
  // DB Browser's Browse Data grid: find "Widget 427" searched only a 2-row combo list and said so, never the table.
  const kids: RawNode[] = [];
  for (let i = 0; i < 200; i++)
    kids.push({
      id: `q${i}`,
      role: 'cell',
      nativeRole: 'table cell',
      name: `Widget ${i}`,
      states: [],
      actions: [],
      childCount: 0,
    });
  const root: RawNode = {
    id: 'w4',
    role: 'window',
    nativeRole: 'frame',
    name: 'DB',
    states: ['active'],
    actions: [],
    children: [
      {
        id: 'tab4',
        role: 'table',
        nativeRole: 'table',
        states: [],
        actions: [],
        table: { rows: 500, cols: 5 },
        childCount: 3006,
        children: kids,
      },
    ],
  };
  const fake = new FakeDriver([
    {
      info: {
        id: 'w4',
        title: 'DB',
        app: 'sqlitebrowser',
        pid: 4445,
        role: 'window',
        focused: true,
        bounds: [0, 0, 800, 600],
      },
      root,
    },
  ]);
  const asked: string[] = [];
  fake.extra['list.find'] = (p: unknown) => {
    asked.push((p as { container: string }).container);
    return {
      matches: [
        {
          node: { id: 'q2565', role: 'cell', nativeRole: 'table cell', name: 'Widget 427', states: [], actions: [] },
          index: 2565,
          row: 426,
        },
      ],
      total: 500,
      scanned: 500,
      next: 500,
      complete: true,
      method: 'scan',
      ms: 4,
      rows: true,
    };
  };
  const c = await createComputer({
    desktop: 'current',
    connect: () => fake.connect(),
    settingsPath: join(home, 'settings4.json'),
    auditPath: join(home, 'audit4.jsonl'),
  });
  open.push(c);
  const r = await c.tools.find({ text: 'Widget 427' });
  assert.deepEqual(asked, ['tab4']);
  assert.match(r.text, /^1 match for "Widget 427"/, r.text);
  assert.match(r.text, /cell "Widget 427" — row 427 of 500 in table \[e\d+\], off-screen/, r.text);
});

test('a scroll to the row find named goes to the row that holds it now, on a list whose rows moved since', async () => {
  // A live process table: find said row 114, three rows above it ended before the scroll, and "to 114" was refused.
  const kids: RawNode[] = [];
  for (let i = 0; i < 30; i++)
    kids.push({
      id: `s${i}`,
      role: 'cell',
      nativeRole: 'table cell',
      name: `proc ${i}`,
      states: [],
      actions: [],
      childCount: 0,
    });
  const root: RawNode = {
    id: 'w5',
    role: 'window',
    nativeRole: 'frame',
    name: 'Processes',
    states: ['active'],
    actions: [],
    children: [
      {
        id: 'tab5',
        role: 'table',
        nativeRole: 'table',
        states: [],
        actions: ['scroll'],
        table: { rows: 114, cols: 1 },
        childCount: 114,
        children: kids,
      },
    ],
  };
  const fake = new FakeDriver([
    {
      info: {
        id: 'w5',
        title: 'Processes',
        app: 'monitor',
        pid: 4446,
        role: 'window',
        focused: true,
        bounds: [0, 0, 800, 600],
      },
      root,
    },
  ]);
  let at: number | undefined = 113;
  fake.extra['list.find'] = () => ({
    matches:
      at === undefined
        ? []
        : [
            {
              node: {
                id: `s${at}`,
                role: 'cell',
                nativeRole: 'table cell',
                name: 'gnome-clocks',
                states: [],
                actions: [],
              },
              index: at,
              row: at,
            },
          ],
    total: 114,
    scanned: 114,
    next: 114,
    complete: true,
    method: 'scan',
    ms: 4,
    rows: true,
  });
  const scrolled: string[] = [];
  fake.extra['node.act'] = (p: unknown) => {
    scrolled.push(String((p as { value?: string }).value));
    return { method: 'pattern', detail: 'scrolled' };
  };
  const c = await createComputer({
    desktop: 'current',
    mode: 'bypass',
    allowApps: ['monitor'],
    connect: () => fake.connect(),
    settingsPath: join(home, 'settings5.json'),
    auditPath: join(home, 'audit5.jsonl'),
  });
  open.push(c);
  const r = await c.tools.find({ text: 'gnome-clocks' });
  const table =
    /— row 114 of 114 in table \[(e\d+)\], off-screen/.exec(
      r.text,
    )?.[1];
  assert.ok(table, r.text);
  at = 110;
  const moved = await c.tools.act({ actions: [{ ref: table, op: 'scroll', value: 'to 114' }] });
  assert.equal(moved.isError, false, moved.text);
  assert.deepEqual(scrolled, ['to 111']);
  // The row named as a grid's cell address ("to A111", the form a cell hint may use) is the same row.
  at = 108;
  const byCell = await c.tools.act({ actions: [{ ref: table, op: 'scroll', value: 'to A111' }] });
  assert.equal(byCell.isError, false, byCell.text);
  assert.deepEqual(scrolled, ['to 111', 'to 109']);
  // The row gone: the scroll says so and sends nothing.
  at = undefined;
  const gone = await c.tools.act({ actions: [{ ref: table, op: 'scroll', value: 'to 109' }] });
  assert.match(gone.text, /Row 109 held "gnome-clocks" when find looked; no row holds it now/, gone.text);
  assert.deepEqual(scrolled, ['to 111', 'to 109']);
});
