/**
 * A read task's checker takes the value a scripted `read` step stored under its key, or, from a model, the value
 * inside its final sentence: a model answers "The total is 207,435.29 (400 rows).", never a bare value.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { answerEquals, answerNumberIs, answerValues } from '../../bench/eval/checks.js';

test('a scripted read is compared exactly, under its own key', () => {
  assert.equal(answerEquals({ count: ' 80 ' }, 'count', '80').ok, true);
  assert.equal(answerEquals({ count: '81' }, 'count', '80').ok, false);
});

test("a model's final sentence holds the value among other words and numbers", () => {
  const model = { answer: 'The total of the amount column is 207435.29 (400 expenses, rows 2–401).' };
  assert.equal(answerNumberIs(model, 'total', 207435.29).ok, true);
  assert.equal(answerNumberIs({ answer: 'It is 207,435.29.' }, 'total', 207435.29).ok, true);
  assert.equal(answerNumberIs({ answer: 'About 207435 in all.' }, 'total', 207435.29).ok, false);
  assert.equal(answerEquals({ answer: 'The product is 5535.' }, 'answer', '5535').ok, true);
  assert.equal(answerEquals({ answer: 'The product is 55350.' }, 'answer', '5535').ok, false);
  assert.equal(answerEquals({ answer: 'In hex that is CAFE.' }, 'answer', 'CAFE').ok, true);
  assert.equal(answerEquals({ answer: 'The order total is $4,657.60.' }, 'answer', '$4,657.60').ok, true);
  assert.deepEqual(answerValues({ answer: 'Page 2, the west gate.' }, 'gate'), ['Page 2, the west gate.']);
});

test('a scripted answer under the key wins over the final text', () => {
  assert.equal(answerEquals({ answer: 'done, 5535', count: '7' }, 'count', '5535').ok, false);
});
