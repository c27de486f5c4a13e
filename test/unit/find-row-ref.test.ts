/**
 * A row find located off screen in a long list (Thunar's detailed list, a file chooser, a process list) gets a ref
 * of its own, and an act on that ref scrolls the list to the row first (an action of its own, with its receipt),
 * then acts on the row as it shows on screen (a toolkit gives it another handle there). Find answered with the
 * table's ref and a scroll hint; a ref of the row read by the search stayed unusable ("the element is gone"),
 * since the act's re-read holds only the rows on screen. Through createComputer and the fake driver.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import type { RawNode } from '../../src/engine/node.js';
import { createComputer, type Computer } from '../../src/index.js';

const home = mkdtempSync(join(tmpdir(), 'cu-find-row-ref-'));
process.env['COMPUTER_USE_HOME'] = home;
const open: Computer[] = [];
after(async () => { await Promise.all(open.map((c) => c.close())); });

/** The cells of rows `from`..`from + 2` (0-based), each under its own handle (`prefix` tells two reads apart). */
function rowsAt(from: number, names: (i: number) => string, prefix: string): RawNode[] {
  return [0, 1, 2].map((k) => ({
    id: `${prefix}${from + k}`, role: 'cell' as const, nativeRole: 'table cell', name: names(from + k),
    states: [], actions: ['select'], cell: { row: from + k, col: 0 },
  }));
}

/** A window with a table of 400 rows of which 3 are read (on screen); list.find finds `target` at row `at`. */
function setup(names: (i: number) => string, at: number[], gone = (): boolean => false): { fake: FakeDriver } {
  const table: RawNode = {
    id: 'list', role: 'table', nativeRole: 'tree table', states: ['focused'], actions: ['focus'],
    table: { rows: 400, cols: 1 }, childCount: 400, children: rowsAt(0, names, 'read'),
  };
  const fake = new FakeDriver();
  fake.windows.push({
    info: { id: 'w', title: 'many - Files', app: 'files', pid: 4545, role: 'window', focused: true,
      bounds: [0, 0, 800, 600] },
    root: { id: 'w', role: 'window', nativeRole: 'frame', name: 'many - Files', states: ['active'], actions: [],
      children: [table] },
  });
  fake.extra['list.find'] = () => ({
    matches: (gone() ? [] : at).map((i) => ({
      node: { id: `search${i}`, role: 'cell', nativeRole: 'table cell', name: names(i), states: [], actions: [] },
      index: i, row: i,
    })),
    total: 400, scanned: 400, next: 400, complete: !gone(), method: 'scan', ms: 2, rows: true,
  });
  // The "app" scrolls: the rows around row N read under new handles.
  fake.onAct = (p) => {
    const to = p.op === 'scroll' ? /^to (\d+)$/.exec(p.value ?? '')?.[1] : undefined;
    if (to !== undefined) table.children = rowsAt(Number(to) - 2, names, 'shown');
  };
  return { fake };
}

async function computerOf(fake: FakeDriver): Promise<Computer> {
  const c = await createComputer({
    desktop: 'current', mode: 'bypass', allowApps: ['files'], connect: () => fake.connect(),
    settingsPath: join(home, 'settings.json'), auditPath: join(home, 'audit.jsonl'),
  });
  open.push(c);
  return c;
}

const plain = (i: number): string => (i === 250 ? 'zebra.txt' : `file-${i}.txt`);

test('an off-screen row found by find has a ref; an act ' +
    'on it scrolls the list to it first, then acts on it', async () => {
  const { fake } = setup(plain, [250]);
  const c = await computerOf(fake);
  await c.tools.observe({});
  const f = await c.tools.find({ text: 'zebra' });
  assert.match(f.text, /^1 match for "zebra"/, f.text);
  const m = new RegExp('^\\[(e\\d+)\\] cell "zebra\\.txt" — row 251 of 400 in table \\[(e\\d+)\\], off-screen ' +
    '\\(an act on (e\\d+) scrolls it into view first\\)$', 'm').exec(f.text);
  assert.ok(m && m[1] === m[3], f.text);
  const act = await c.tools.act({ actions: [{ ref: m[1]!, op: 'click' }] });
  assert.equal(act.isError, false, act.text);
  assert.match(act.text, new RegExp(`^ok scroll ${m[2]} `, 'm'), act.text);
  assert.match(act.text, new RegExp(`^ok click ${m[1]} `, 'm'), act.text);
  // The scroll went to the list, then the click to the row's handle on screen (not the search's).
  assert.deepEqual(fake.dispatched.map((p) => [p.id, p.op, p.value]), [
    ['list', 'scroll', 'to 251'],
    ['shown250', 'click', undefined],
  ]);
  // Once on screen, the ref is an ordinary one: a second act scrolls nothing.
  const again = await c.tools.act({ actions: [{ ref: m[1]!, op: 'click' }] });
  assert.equal(again.isError, false, again.text);
  assert.deepEqual(fake.dispatched.slice(2).map((p) => [p.id, p.op]), [['shown250', 'click']]);
});

test('several off-screen rows: one ref each and the scroll said once; a hostile name stays one escaped line',
  async () => {
    const hostile = (i: number): string => (i === 120 ? 'bad\nrow\u2028two\u001b[31m.txt' : `file-${i}.txt`);
    const { fake } = setup(hostile, [120, 300]);
    const c = await computerOf(fake);
    await c.tools.observe({});
    const f = await c.tools.find({ text: '.txt' });
    assert.doesNotMatch(f.text, /[\u2028\u001b]/, f.text);
    const lines = f.text.split('\n');
    const rows = lines.filter((l) => /off-screen$/.test(l));
    assert.equal(rows.length, 2, f.text);
    assert.match(rows[0]!, /^\[e\d+\] cell "bad\\nrow\\n?t?w?o?.*" — row 121 of 400/, f.text);
    assert.equal(lines.filter((l) => l === '(an act on one of these rows scrolls it into view first)').length, 1,
      f.text);
  });

test('a row that holds something else once scrolled to: the act fails as stale, after the scroll only', async () => {
  let moved = false;
  const names = (i: number): string => (i === 250 && !moved ? 'zebra.txt' : `file-${i}.txt`);
  const { fake } = setup(names, [250], () => moved);
  const c = await computerOf(fake);
  await c.tools.observe({});
  const f = await c.tools.find({ text: 'zebra' });
  const ref = /^\[(e\d+)\] cell "zebra\.txt"/m.exec(f.text)?.[1];
  assert.ok(ref, f.text);
  moved = true;
  const act = await c.tools.act({ actions: [{ ref, op: 'click' }] });
  assert.match(act.text, new RegExp(`failed click ${ref} · stale_ref: Row 251 of e\\d+ held "zebra\\.txt" when ` +
    'find looked; after the scroll no row on screen holds it'), act.text);
  assert.deepEqual(fake.dispatched.map((p) => p.op), ['scroll']);
});

test('a row the model brought on screen itself and saw there is acted on as it is: no second scroll', async () => {
  const { fake } = setup(plain, [250]);
  // A toolkit that keeps a row's handle when it scrolls in (GTK's ListBox).
  fake.onAct = (p) => {
    const to = p.op === 'scroll' ? /^to (\d+)$/.exec(p.value ?? '')?.[1] : undefined;
    const table = fake.node('list');
    if (to !== undefined && table) table.children = rowsAt(Number(to) - 2, plain, 'search');
  };
  const c = await computerOf(fake);
  await c.tools.observe({});
  const f = await c.tools.find({ text: 'zebra' });
  const m = /^\[(e\d+)\] cell "zebra\.txt" — row 251 of 400 in table \[(e\d+)\]/m.exec(f.text);
  assert.ok(m, f.text);
  await c.tools.act({ actions: [{ ref: m[2]!, op: 'scroll', value: 'to 251' }] });
  // The snapshot holds the row under the handle find read (printed as a grid's row here).
  const o = await c.tools.observe({});
  assert.match(o.text, /251 \| zebra\.txt/, o.text);
  const act = await c.tools.act({ actions: [{ ref: m[1]!, op: 'click' }] });
  assert.equal(act.isError, false, act.text);
  assert.deepEqual(fake.dispatched.map((p) => [p.id, p.op]), [['list', 'scroll'], ['search250', 'click']]);
});

test('a find for another role (a button in a web table) ' +
    'gets the row and the scroll, not a ref for the cell', async () => {
  // The eval's web table: find "Archive row 437" role=button matched the cell holding the button; a ref of the cell
  // would click the cell, not its button.
  const { fake } = setup(plain, [250]);
  const c = await computerOf(fake);
  await c.tools.observe({});
  const f = await c.tools.find({ text: 'zebra', role: 'button' });
  assert.match(f.text, /^1 match for "zebra" role=button/, f.text);
  assert.match(
    f.text,
    /^cell "zebra\.txt" — row 251 of 400 in table \[(e\d+)\], off-screen; bring it into view: computer_act ref=\1 op=scroll value="to 251"$/m,
    f.text,
  );
  assert.doesNotMatch(f.text, /scrolls it into view first/, f.text);
});

test('a list re-sorted between find and act (a process list sorted by CPU): the act goes to the row where it ' +
    'is now, never to the one that took its old place', async () => {
  let moved = false;
  // Row 251 held "zebra.txt" when find looked; then the list re-sorts: it is row 260, and row 251 holds another.
  const names = (i: number): string => (i === (moved ? 259 : 250) ? 'zebra.txt' : `file-${i}.txt`);
  const at = [250];
  const { fake } = setup(names, at);
  const c = await computerOf(fake);
  await c.tools.observe({});
  const f = await c.tools.find({ text: 'zebra' });
  const ref = /^\[(e\d+)\] cell "zebra\.txt" — row 251 of 400/m.exec(f.text)?.[1];
  assert.ok(ref, f.text);
  moved = true;
  at[0] = 259;
  const act = await c.tools.act({ actions: [{ ref, op: 'click' }] });
  assert.equal(act.isError, false, act.text);
  // The scroll was aimed again by the row's text, and the click went to the row that holds it.
  assert.deepEqual(fake.dispatched.map((p) => [p.id, p.op, p.value]), [
    ['list', 'scroll', 'to 260'],
    ['shown259', 'click', undefined],
  ]);
});

test('a list re-sorted after the scroll: the row that took the old place is not acted on (stale, nothing sent)',
  async () => {
    let moved = false;
    const names = (i: number): string => (i === (moved ? 390 : 250) ? 'zebra.txt' : `file-${i}.txt`);
    const { fake } = setup(names, [250]);
    const c = await computerOf(fake);
    await c.tools.observe({});
    const f = await c.tools.find({ text: 'zebra' });
    const ref = /^\[(e\d+)\] cell "zebra\.txt"/m.exec(f.text)?.[1];
    assert.ok(ref, f.text);
    // The scroll goes to row 251 while it still holds the row; the re-sort lands between the scroll and the act.
    const scroll = fake.onAct;
    fake.onAct = (p, node) => {
      scroll?.(p, node);
      moved = true;
      const t = fake.node('list');
      if (t) t.children = rowsAt(249, names, 'shown');
    };
    const act = await c.tools.act({ actions: [{ ref, op: 'click' }] });
    assert.match(
      act.text,
      new RegExp(`failed click ${ref} · stale_ref: Row 251 of e\\d+ held "zebra\\.txt"`),
      act.text,
    );
    assert.deepEqual(fake.dispatched.map((p) => p.op), ['scroll']);
  });
