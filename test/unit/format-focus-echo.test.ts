import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withoutEchoedFocus } from '../../src/tools/format.js';

test('a receipt leaves out the focus line when a line above already says where the focus went or that it left', () => {
  // Recorded receipts (the eval's mousepad and abiword tasks): the focus line repeated the line above it.
  assert.deepEqual(withoutEchoedFocus([
    '~ [e4] menu "Edit" selected → unselected',
    '~ [e13] document value "a" → "A", (unfocused) → focused',
    'focus: e13',
  ]), ['~ [e4] menu "Edit" selected → unselected', '~ [e13] document value "a" → "A", (unfocused) → focused']);
  assert.deepEqual(withoutEchoedFocus(['~ [e40] canvas focused → (unfocused)', 'focus: (none)']),
    ['~ [e40] canvas focused → (unfocused)']);
  assert.deepEqual(withoutEchoedFocus(['+ [e4] generic focused (exposes no items)', 'focus: e4']),
    ['+ [e4] generic focused (exposes no items)']);
});

test('the focus line stays when no line says it, and app text that reads like a focus change does not count', () => {
  assert.deepEqual(withoutEchoedFocus(['~ [e2] label name "a" → "b"', 'focus: e9']), [
    '~ [e2] label name "a" → "b"',
    'focus: e9',
  ]);
  const forged = ['~ [e9] label name "x" → "→ focused"', '+ [e9] label "y focused"', 'focus: e9'];
  assert.deepEqual(withoutEchoedFocus(forged), forged);
  assert.deepEqual(withoutEchoedFocus(['~ [e3] label name "focused → (unfocused)" → "b"', 'focus: (none)']),
    ['~ [e3] label name "focused → (unfocused)" → "b"', 'focus: (none)']);
});
