/**
 * The doctor's smoke task finds a calculator's "7" in the launch's first print, which folds a keypad's alike buttons
 * to one line keeping each ref beside its name: the task pressed ref e0 ("Ref e0 was never given") before.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { foldedRefOn } from '../../src/doctor/smoke-tasks.js';

const PRINT = [
  '[e1] window "Calculator"',
  '  [e2] panel',
  '    [e3] … [e22] 20 buttons: e3 "17", e4 "8", e5 "7", e6 "C (clear)", e7 "1.5"',
  '    [e30] … [e31] 9 labels: e30 "7"',
].join('\n');

test('a button inside a folded run is found by its exact name, not by a name that holds it', () => {
  assert.equal(foldedRefOn(PRINT, 'button', '7'), 'e5');
  assert.equal(foldedRefOn(PRINT, 'button', '1'), undefined);
  assert.equal(foldedRefOn(PRINT, 'button', 'C (clear)'), 'e6');
  assert.equal(foldedRefOn(PRINT, 'button', '9'), undefined);
});
