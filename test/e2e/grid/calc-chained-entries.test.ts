/**
 * Several cells entered in one call, on LibreOffice Calc: `type` into F1, G1 and H1, each with submit (and the same
 * without submit). A model's one CLI call typed all three values into F1: the CLI gave --submit to the last action
 * only, and a typed cell entry left open took the next action's keys, so G1 and H1 were never reached.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Computer } from '../../../src/index.js';
import { E2E_APPS, killApp, ok, openComputer, refOn } from '../helpers.js';
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

const CELLS = 'Calc: type into three cells of one call, with submit on each and without, enters each in its own cell';
test(CELLS, { timeout: 180_000 }, async () => {
  const { table } = await observeSheet(computer);
  const r = await computer.tools.act({ actions: [
    { ref: `${table}:F1`, op: 'type', value: 'Apple', submit: true },
    { ref: `${table}:G1`, op: 'type', value: 'Pear', submit: true },
    { ref: `${table}:H1`, op: 'type', value: 'Plum', submit: true },
  ] });
  assert.ok(!r.isError, r.text);
  assert.equal((r.text.match(/ · confirmed \(/g) ?? []).length, 3, r.text);
  const plain = await computer.tools.act({ actions: [
    { ref: `${table}:F3`, op: 'type', value: 'Kiwi' },
    { ref: `${table}:G3`, op: 'type', value: 'Lime' },
  ] });
  assert.ok(!plain.isError, plain.text);
  const grid = ok(await computer.tools.observe({ app: 'soffice', full: true }));
  assert.match(grid, /^\s+1 \| Apple \| Pear \| Plum$/m, grid);
  assert.match(grid, /^\s+3 \| Kiwi \| Lime \|/m, grid);
});
