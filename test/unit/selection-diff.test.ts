import assert from 'node:assert/strict';
import { test } from 'node:test';
import { onlySelectionMoved } from '../../src/session/selection-diff.js';

test('diff lines that only move selection or focus (a double click\'s first click) are told from real changes', () => {
  // Lines as mousepad's Open dialog printed them after a double_click on a file's row.
  assert.ok(onlySelectionMoved('~ [e406] cell "A1" selected → unselected, focused → (unfocused)'));
  assert.ok(onlySelectionMoved('~ [e430] cell "A4" unselected → selected, (unfocused) → focused'));
  assert.ok(onlySelectionMoved('~ 5 cells ([e409] "B1", [e410] "C1") selected → unselected'));
  assert.ok(!onlySelectionMoved('~ [e62] label name "Untitled" → "*Untitled"'));
  assert.ok(!onlySelectionMoved('~ [e71] document value "" → "abc", (unfocused) → focused'));
  assert.ok(!onlySelectionMoved('+ [e401] button "target-notes" checked'));
  // A name holding an arrow changes nothing; asked twice, the same answer (no state kept between calls).
  assert.ok(onlySelectionMoved('~ [e5] cell "a → b" unselected → selected'));
  assert.ok(onlySelectionMoved('~ [e5] cell "a → b" unselected → selected'));
});
