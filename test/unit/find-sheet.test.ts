/**
 * Find on a window with a sheet: the sheet's cells off screen are never searched (Calc reads only the cells in view
 * of 2³¹−1; gnumeric's sheet exposes no cell at all), so every find answer there says so in one short line, and how
 * to reach them (the app's own Find & Replace, the cell-address box to jump), unless the scroll bars say the whole
 * used area is on screen. A model that found 1 match on screen believed it had found all. Trees in the measured
 * shapes (Calc 7.4 gtk3, gnumeric 1.12), through createComputer and the fake driver.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import type { RawNode } from '../../src/engine/node.js';
import { createComputer, type Computer } from '../../src/index.js';

const home = mkdtempSync(join(tmpdir(), 'cu-find-sheet-'));
process.env['COMPUTER_USE_HOME'] = home;
const open: Computer[] = [];
after(async () => { await Promise.all(open.map((c) => c.close())); });

async function computerOf(root: RawNode, title: string): Promise<Computer> {
  const fake = new FakeDriver();
  fake.windows.push({
    info: { id: 'w', title, app: 'soffice', pid: 4343, role: 'window', focused: true, bounds: [0, 0, 800, 600] },
    root,
  });
  const c = await createComputer({
    desktop: 'current',
    connect: () => fake.connect(),
    settingsPath: join(home, 'settings.json'),
    auditPath: join(home, 'audit.jsonl'),
  });
  open.push(c);
  return c;
}

const VALUES = [['id', 'fruit'], ['1', 'apple'], ['2', 'pear']];

/** Calc's window: the Name Box, and a sheet of 2³¹−1 cells of which A1:B3 are read, beside its scroll bars. */
function calc(opts: { vertical?: [number, number]; sheetName?: string; cellText?: string } = {}): RawNode {
  const cells: RawNode[] = VALUES.flatMap((row, r) => row.map((v, c) => ({
    id: `c${r}${c}`, role: 'cell' as const, nativeRole: 'table cell', name: `${'AB'[c]}${r + 1}`,
    value: r === 2 && c === 1 && opts.cellText !== undefined ? opts.cellText : v,
    states: [], actions: ['focus'], cell: { row: r, col: c },
  })));
  const [min, max] = opts.vertical ?? [0, 347];
  return {
    id: 'w', role: 'window', nativeRole: 'frame', name: 'data.csv - LibreOffice Calc', states: ['active'], actions: [],
    children: [
      { id: 'tb', role: 'toolbar', nativeRole: 'tool bar', name: 'Formula Tool Bar', states: [], actions: [],
        children: [
        { id: 'nb', role: 'textbox', nativeRole: 'text', value: 'A1', states: ['editable'], actions: ['set_value'] },
      ] },
      { id: 'sa', role: 'scrollarea', nativeRole: 'scroll pane', states: [], actions: [], children: [
        { id: 'vb', role: 'scrollbar', nativeRole: 'scroll bar', name: 'Vertical scroll bar', value: '0',
          range: { min, max }, states: [], actions: ['set_value'] },
        { id: 'hb', role: 'scrollbar', nativeRole: 'scroll bar', name: 'Horizontal scroll bar', value: '0',
          range: { min: 0, max: 0 }, states: [], actions: ['set_value'] },
        { id: 'doc', role: 'document', nativeRole: 'document spreadsheet', name: 'data.csv', states: ['editable'],
          actions: [], children: [
            { id: 'sheet', role: 'table', nativeRole: 'table', name: opts.sheetName ?? 'Sheet Sheet1',
              states: ['editable', 'focused'], actions: ['focus'], table: { rows: 1_048_576, cols: 16_384 },
              childCount: 2_147_483_647, children: cells },
          ] },
      ] },
    ],
  };
}

/** The lines of a find answer that speak of the sheet's unsearched cells. */
const sheetLines = (text: string): string[] => text.split('\n').filter((l) => /searched|Find & Replace/.test(l));

test('Calc: a find with a match on screen says in one line that the cells off screen were not searched, ' +
    'and how to reach them', async () => {
  const c = await computerOf(calc(), 'data.csv - LibreOffice Calc');
  const o = await c.tools.observe({});
  const table = /\[(e\d+)\] table "Sheet Sheet1"/.exec(o.text)?.[1];
  const box = /\[(e\d+)\] textbox value="A1"/.exec(o.text)?.[1];
  assert.ok(table && box, o.text);
  for (const params of [{ text: 'apple' }, { text: 'apple', role: 'cell' as const }, { text: 'no such thing' }]) {
    const f = await c.tools.find(params);
    const lines = sheetLines(f.text);
    assert.equal(lines.length, 1, f.text);
    const line = lines[0]!;
    assert.match(line, new RegExp(`^\\(table "Sheet Sheet1" \\[${table}\\]: only its cells on screen \\(A1:B3\\) ` +
      `were searched`), f.text);
    assert.match(line, /computer_keys keys="ctrl\+h" \(the app's Find & Replace\)/, f.text);
    assert.ok(line.includes(`[${box}]`), f.text);
    // One short line: the old note said the same in ~70 tokens beside a wrong count of unsearched parts.
    assert.ok(line.length <= 240, `${line.length}: ${line}`);
    if (params.text === 'apple') assert.match(f.text, /^1 match for "apple"/, f.text);
  }
  // A find by another role cannot match a cell: no line about cells.
  const buttons = await c.tools.find({ text: 'apple', role: 'button' });
  assert.equal(sheetLines(buttons.text).length, 0, buttons.text);
});

test('Calc: no line when the scroll bars say the whole used area is on screen', async () => {
  const c = await computerOf(calc({ vertical: [0, 0] }), 'data.csv - LibreOffice Calc');
  await c.tools.observe({});
  const f = await c.tools.find({ text: 'apple' });
  assert.match(f.text, /^1 match for "apple"/, f.text);
  assert.equal(sheetLines(f.text).length, 0, f.text);
});

test('Calc: a hostile sheet name or cell text stays one escaped line', async () => {
  const c = await computerOf(calc({ sheetName: 'Sheet\nA\u2028B\u001b[31mred', cellText: 'pear\nx\u2028y\u001b[2J' }),
    'data.csv - LibreOffice Calc');
  await c.tools.observe({});
  for (const text of ['pear', 'red', 'apple']) {
    const f = await c.tools.find({ text });
    assert.doesNotMatch(f.text, /[\u2028\u001b]/, f.text);
    const lines = sheetLines(f.text);
    assert.equal(lines.length, 1, f.text);
    assert.match(lines[0]!, /^\(table "Sheet\\nA\\nB\[?3?1?m?red" \[e\d+\]: only its cells on screen/, f.text);
  }
});

/** gnumeric's window: the cell-address box, the edit line, and the sheet as a focused empty panel. */
function gnumeric(): RawNode {
  return {
    id: 'w', role: 'window', nativeRole: 'frame', name: 'data.csv - Gnumeric', states: ['active'], actions: [],
    children: [
      { id: 'box', role: 'textbox', nativeRole: 'text', value: 'A1', states: ['editable'], actions: ['set_value'] },
      { id: 'edit', role: 'textbox', nativeRole: 'text', value: 'id', states: ['editable'], actions: ['set_value'] },
      { id: 'tab', role: 'tab', nativeRole: 'page tab', states: ['selected'], actions: [], children: [
        { id: 'p1', role: 'pane', nativeRole: 'panel', states: [], actions: [], children: [
          { id: 'hb', role: 'scrollbar', nativeRole: 'scroll bar', value: '0', states: [],
            actions: ['set_value'] },
        ] },
        { id: 'p2', role: 'pane', nativeRole: 'panel', states: [], actions: [], children: [
          { id: 'vb', role: 'scrollbar', nativeRole: 'scroll bar', value: '0', range: { min: 0, max: 272 },
            states: [], actions: ['set_value'] },
        ] },
        { id: 'cells', role: 'group', nativeRole: 'panel', states: ['focused'], actions: ['focus'] },
      ] },
    ],
  };
}

test('gnumeric: a find that matched the edit line says the sheet\'s cells were not searched, every time', async () => {
  const c = await computerOf(gnumeric(), 'data.csv - Gnumeric');
  const o = await c.tools.observe({});
  const box = /\[(e\d+)\] textbox value="A1"/.exec(o.text)?.[1];
  const sheet = /\[(e\d+)\] group focused/.exec(o.text)?.[1];
  assert.ok(box && sheet, o.text);
  for (let i = 0; i < 2; i++) {
    const f = await c.tools.find({ text: 'id' });
    assert.match(f.text, /^1 match for "id"/, f.text);
    const lines = sheetLines(f.text);
    assert.equal(lines.length, 1, f.text);
    assert.match(lines[0]!, new RegExp(`^\\(sheet \\[${sheet}\\] draws its cells without exposing them: none ` +
      'was searched'), f.text);
    assert.match(lines[0]!, /computer_keys keys="ctrl\+h" \(the app's Find & Replace\)/, f.text);
    assert.ok(lines[0]!.includes(`[${box}]`), f.text);
  }
});
