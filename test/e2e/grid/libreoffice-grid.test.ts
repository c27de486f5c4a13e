/**
 * LibreOffice Calc as a grid: the sheet's visible range renders as rows of values with the
 * table's full size, a cell is set by address (a formula), its computed value is read from the grid, a range
 * is selected, and the sheet is saved as CSV through the app's own dialogs; the file's bytes are checked.
 */
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Computer } from '../../../src/index.js';
import { E2E_APPS, killApp, lineOf, ok, openComputer, refOn } from '../helpers.js';
import { CALC_APPS, observeSheet, startCalc } from './calc.js';

let computer: Computer;
let pids: number[] = [];

before(async () => {
  computer = await openComputer({ allowApps: [...E2E_APPS, ...CALC_APPS] });
  pids = (await startCalc(computer)).pids;
});
after(async () => {
  await computer?.close();
  for (const pid of pids) await killApp(pid);
});

test('Calc: the sheet is a grid with its size; a formula set by ' +
    'cell address shows its computed value; a range selects', { timeout: 180_000 }, async () => {
  const first = await observeSheet(computer);
  const table = first.table;
  // The visible range of a 1,048,576 × 16,384 sheet, not one line per cell, and not 2³¹−1 "children".
  assert.match(
    lineOf(first.text, table) ?? '',
    /cells A1:[A-Z]+\d+ of 1,048,576 × 16,384 · cursor A1 · all empty/,
    first.text,
  );
  assert.doesNotMatch(first.text, /\] cell "/, 'cells are printed as a grid, not as element lines');
  // The Name Box is there with the cursor's address.
  assert.match(first.text, /textbox value="A1" editable/);

  const set = ok(await computer.tools.act({ actions: [
    { ref: `${table}:B1`, op: 'set_value', value: '1' },
    { ref: `${table}:B2`, op: 'set_value', value: '2' },
    { ref: `${table}:b3`, op: 'set_value', value: '3.5' },
    { ref: `${table}:A1`, op: 'set_value', value: '=SUM(B1:B3)' },
  ] }));
  assert.equal(set.match(/· confirmed/g)?.length, 4, set);
  assert.match(set, /A1 shows "6.5", formula =SUM\(B1/, set);

  const now = ok(await computer.tools.observe({ app: 'soffice', full: true }));
  const grid = now.split('\n');
  const at = grid.findIndex((l) => l.includes(`[${table}]`));
  assert.match(grid[at] ?? '', /cursor A1 "=SUM\(B1…" · filled part A1:B3 shown/, now);
  assert.match(grid[at + 1] ?? '', /^\s+\| A \| B$/, now);
  assert.match(grid[at + 2] ?? '', /^\s+1 \| 6\.5 \| 1$/, now);
  assert.match(grid[at + 3] ?? '', /^\s+2 \| {2}\| 2$/, now);
  assert.match(grid[at + 4] ?? '', /^\s+3 \| {2}\| 3\.5$/, now);

  // A range selection by coordinate: the cells report selected and the Name Box names the range.
  const sel = ok(await computer.tools.act({ actions: [{ ref: table, op: 'select', value: 'B1:B3' }] }));
  assert.match(sel, /the table reports 3 selected/, sel);
  assert.match(sel, /textbox value "A1" → "B1:B3"/, sel);
  const selected = ok(await computer.tools.observe({ app: 'soffice', full: true }));
  assert.match(lineOf(selected, table) ?? '', /selected B1:B3/, selected);

  // A cell off screen cannot be acted on blind: the error says which range is shown and what to do.
  const far = await computer.tools.act({ actions: [{ ref: `${table}:Z900`, op: 'set_value', value: '1' }] });
  assert.equal(far.isError, true, far.text);
  assert.match(far.text, /Cell Z900 of e\d+ is not on screen \(the snapshot shows A1:[A-Z]+\d+\)/, far.text);
  // A malformed cell ref never reaches the app.
  const bad = await computer.tools.act({ actions: [{ ref: `${table}:B0`, op: 'set_value', value: '1' }] });
  assert.equal(bad.isError, true, bad.text);
});

test('Calc: Save As "Text CSV" through the ' +
    'app\'s dialogs writes the computed values', { timeout: 180_000 }, async () => {
  const file = join(tmpdir(), `cu-grid-${process.pid}.csv`);
  await rm(file, { force: true });
  const opened = ok(await computer.tools.keys({ app: 'soffice', keys: 'ctrl+shift+s' }));
  const name = refOn(opened, /textbox beside="Name:" value="Untitled 1" editable/);
  const type = refOn(opened, /combobox "ODF Spreadsheet \(\.ods\)"/);
  const save = refOn(opened, /button "Save"$/);
  const items = ok(await computer.tools.act({ actions: [{ ref: type, op: 'expand' }] }));
  const csv = refOn(items, /menuitem "Text CSV \(\.csv\)"/);
  ok(await computer.tools.act({ actions: [{ ref: csv, op: 'click' }] }));
  ok(await computer.tools.act({ actions: [{ ref: name, op: 'set_value', value: file }] }));
  const keep = ok(await computer.tools.act({ actions: [{ ref: save, op: 'click' }] }));
  const useCsv = refOn(keep, /button "Use Text CSV Format!?"/);
  const options = ok(await computer.tools.act({ actions: [{ ref: useCsv, op: 'click' }] }));
  assert.match(options, /dialog "Export Text File"/, options);
  ok(await computer.tools.act({ actions: [{ ref: refOn(options, /button "OK"/), op: 'click' }] }));
  let bytes = '';
  for (let i = 0; i < 40 && !bytes; i++) {
    bytes = await readFile(file, 'utf8').catch(() => '');
    if (!bytes) await new Promise((r) => setTimeout(r, 250));
  }
  assert.equal(bytes, '6.5,1\n,2\n,3.5\n');
  await rm(file, { force: true });
});

test('Calc: find of an off-screen cell address answers ' +
    'with the cell and the act that brings it into view', { timeout: 180_000 }, async () => {
  const { text, table } = await observeSheet(computer);
  assert.doesNotMatch(lineOf(text, table) ?? '', /cells [A-Z]+\d+:[A-Z]+\d+ of .*T480/, 'T480 starts off screen');
  // An address is a coordinate: no reading of a million rows (on main this searched for ~10 s and said 0 matches).
  const found = ok(await computer.tools.find({ app: 'soffice', text: 'T480' }));
  assert.match(found, /^1 match for "T480"/, found);
  const how = new RegExp(
    `cell "T480" of table "Sheet Sheet1" \\[${table}\\], off-screen \\(the snapshot shows A1:[A-Z]+\\d+\\); ` +
      `bring it into view: computer_act ` +
      `actions=\\[\\{ref:"(e\\d+)",op:"focus"\\},\\{ref:"e\\d+",op:"set_value",value:"T480"\\}\\] \\(the Name ` +
      `Box\\), computer_keys keys="Return"`,
  ).exec(found);
  assert.ok(how?.[1], found);
  // The acts it names bring the cell into view; then the cell is addressable.
  const typed = ok(
    await computer.tools.act({
      actions: [
        { ref: how[1], op: 'focus' },
        { ref: how[1], op: 'set_value', value: 'T480' },
      ],
    }),
  );
  // The Name Box holds the address until Return: the receipt says so (a model took `confirmed` as the cursor moved).
  assert.match(
    typed,
    new RegExp(`ok set_value ${how[1]} · confirmed \\(.*; not applied yet: a toolbar field takes its text on Return`),
    typed,
  );
  ok(await computer.tools.keys({ app: 'soffice', keys: 'Return' }));
  let now = '';
  let range: RegExpExecArray | null = null;
  // The app scrolls after the act returns: observe until it shows (bounded).
  for (let i = 0; i < 20 && !(range && Number(range[2]) <= 480 && Number(range[4]) >= 480); i++) {
    if (i) await new Promise((r) => setTimeout(r, 250));
    now = ok(await computer.tools.observe({ app: 'soffice', full: true }));
    range = /cells ([A-Z]+)(\d+):([A-Z]+)(\d+) of/.exec(lineOf(now, table) ?? '');
  }
  assert.match(lineOf(now, table) ?? '', /cursor T480/, now);
  assert.ok(range && Number(range[2]) <= 480 && Number(range[4]) >= 480, now);
  // A value (not an address) beyond the view is not searched, and the answer says so and what to do.
  const value = ok(await computer.tools.find({ app: 'soffice', text: 'no such value 42' }));
  assert.match(value, /only its cells on screen \([A-Z]+\d+:[A-Z]+\d+\) were searched; .*Find & Replace/, value);
});

/** The first and last row of the cells a sheet's line says are on screen. */
function rowsShown(text: string, table: string): [number, number] | undefined {
  const m = /cells [A-Z]+(\d+):[A-Z]+(\d+) of/.exec(lineOf(text, table) ?? '');
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

test('Calc: scroll "to N" / "to C2500" brings a row or cell of the sheet ' +
    'on screen, far past the used area, and back; too far says what works', { timeout: 180_000 }, async () => {
  // A new spreadsheet: after the CSV round trip above the sheet sometimes read with no cells (2 runs of 5 here).
  ok(await computer.tools.keys({ app: 'soffice', keys: 'ctrl+n' }));
  const { table } = await observeSheet(computer);
  // The bar counts the used area's rows (0..94 here), the table 1,048,576: row 2,500 is far beyond the bar's range.
  const down = ok(await computer.tools.act({ actions: [{ ref: table, op: 'scroll', value: 'to 2,500' }] }));
  assert.match(down, /ok scroll e\d+ · confirmed \(.*row 2,500 on screen/, down);
  const thereText = ok(await computer.tools.observe({ full: true, app: 'soffice' }));
  const there = rowsShown(thereText, table);
  assert.ok(there && there[0] <= 2500 && there[1] >= 2500, thereText);
  // A cell off screen (its column too, once the view is moved right): the error's act, sent as it says, reaches it.
  ok(await computer.tools.act({ actions: [{ ref: table, op: 'scroll', value: 'to T2500' }] }));
  const off = await computer.tools.act({ actions: [{ ref: `${table}:C2600`, op: 'set_value', value: '42' }] });
  assert.equal(off.isError, true, off.text);
  const hint = /Bring it into view first: scroll (e\d+) value="(to C2600)" \(in this call, before this action\)/.exec(
    off.text,
  );
  assert.ok(hint?.[1] && hint[2], off.text);
  const set = ok(
    await computer.tools.act({
      actions: [
        { ref: hint[1], op: 'scroll', value: hint[2] },
        { ref: `${table}:C2600`, op: 'set_value', value: '42' },
      ],
    }),
  );
  assert.match(set, /ok scroll e\d+ · confirmed \(.*C2600 on screen/, set);
  assert.match(set, /ok set_value e\d+:C2600 \(e\d+\) · confirmed .*C2600 shows "42"/, set);
  const up = ok(await computer.tools.act({ actions: [{ ref: table, op: 'scroll', value: 'to 3' }] }));
  assert.match(up, /· confirmed \(.*row 3 on screen/, up);
  const back = rowsShown(ok(await computer.tools.observe({ full: true, app: 'soffice' })), table);
  assert.ok(back && back[0] <= 3 && back[1] >= 3, String(back));
  // Row 900,000 is thousands of pages away: the answer names the Name Box acts that go there, and nothing moved.
  const far = await computer.tools.act({ actions: [{ ref: table, op: 'scroll', value: 'to 900000' }] });
  assert.equal(far.isError, true, far.text);
  assert.match(
    far.text,
    /nothing moved\. Bring it into view: computer_act actions=\[\{ref:"e\d+",op:"focus"\},\{ref:"e\d+",op:"set_value",value:"A900000"\}\] \(the Name Box\), computer_keys keys="Return"/,
    far.text,
  );
  assert.deepEqual(
    rowsShown(ok(await computer.tools.observe({ full: true, app: 'soffice' })), table),
    back,
    'a refused scroll leaves the view where it was',
  );
});
