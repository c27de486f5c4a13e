/**
 * Calc in a big window, as a model met it: the Name Box (a tool bar field) takes an address on submit with no
 * question (its window has "Delete Decimal Place" in another tool bar, which is no form's button; the field sits seven
 * nameless levels under its tool bar). Before: "rejected … confirmation_required (submits the form, which has
 * "delete")" right after an "ok set_value … Return was not sent".
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Computer } from '../../../src/index.js';
import { E2E_APPS, killApp, ok, openComputer, refOn } from '../helpers.js';
import { CALC_APPS, observeSheet, startCalc } from './calc.js';

let computer: Computer;
let pids: number[] = [];

before(async () => {
  // Default mode with nobody to ask: a Return the policy took for a form submit would be refused.
  computer = await openComputer({ mode: 'default', allowApps: [...E2E_APPS, ...CALC_APPS] });
  pids = (await startCalc(computer)).pids;
});
after(async () => {
  await computer?.close();
  for (const pid of pids) await killApp(pid);
});

test('Calc: the Name Box takes an address on ' +
    'submit, with one outcome and no question', { timeout: 180_000 }, async () => {
  const { text } = await observeSheet(computer);
  const box = refOn(text, /textbox value="A1" editable/);
  const r = await computer.tools.act({ actions: [{ ref: box, op: 'set_value', value: 'C40', submit: true }] });
  assert.doesNotMatch(r.text, /confirmation_required|Return was not sent/, r.text);
  assert.match(r.text, /^ok set_value .* · confirmed \(.*Return pressed in the field .*: taken/m, r.text);
  assert.match(r.text, /cursor C40/, r.text);
});
