/**
 * A receipt that joins several steps' diffs (set_value then its Return) printed one element as added and then
 * removed: `+ [e69] scrollarea …` and `- [e69] scrollarea (+5 inside)` (a Save dialog's completion list).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { joinDiffs } from '../../src/engine/diff-join.js';

test('an element added by the first step and removed by the second nets out, with its subtree', () => {
  const first = [
    '~ [e12] textbox "Name" value "a" → "notes.txt"',
    '+ [e69] scrollarea',
    '+   [e70] list',
    '+     [e71] listitem "notes"',
    '+ [e80] label "Saved"',
  ];
  const second = ['- [e69] scrollarea (+2 inside)', '~ [e5] button "Save" enabled → disabled'];
  assert.deepEqual(joinDiffs(first, second), [
    '~ [e12] textbox "Name" value "a" → "notes.txt"',
    '+ [e80] label "Saved"',
    '~ [e5] button "Save" enabled → disabled',
  ]);
});

test('removed then back: not at all; a change to one removed after goes with it; one focus line', () => {
  const first = ['- [e7] label "Hint"', '~ [e9] label "x" name "a" → "b"', 'focus: e12'];
  const second = ['+ [e7] label "Hint"', '- [e9] label "b"', 'focus: e13'];
  assert.deepEqual(joinDiffs(first, second), ['- [e9] label "b"', 'focus: e13']);
});

test('diffs that share no ref are the first then the second', () => {
  assert.deepEqual(joinDiffs(['+ [e1] button "A"'], ['- [e2] button "B"']), ['+ [e1] button "A"', '- [e2] button "B"']);
});
