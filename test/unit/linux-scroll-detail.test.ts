/**
 * A scroll's detail says the bar's values as a person reads them: a step of a tenth of a 509-wide range printed
 * `scroll bar Value 0 → 50.900000000000006` beside the receipt's own `scroll bar 0 → 50.9`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { barNumber } from '../../src/drivers/linux/act/scrollbars.js';

test('a scroll bar value in a detail is rounded to two decimals; whole values stay whole', () => {
  assert.equal(barNumber(0 + 509 / 10), '50.9');
  assert.equal(barNumber(50.900000000000006), '50.9');
  assert.equal(barNumber(1748), '1748');
  assert.equal(barNumber(12.345678), '12.35');
});
