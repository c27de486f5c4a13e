/**
 * Fields named by the label beside them (test/apps/composite.py): pluma's Find/Replace dialog has nameless
 * entries whose labels ("Search for:") are siblings in the same GtkGrid row, not linked, and a model read
 * `[e7] textbox editable` twice and had to guess. Such a field prints `beside="Search for:"`, find matches it, and
 * acting on what find returned fills the right field. A label two fields could claim names neither.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lineOf, ok, refOn } from '../helpers.js';
import { COMPOSITE, startLab } from '../act/lab.js';

test('nameless fields print the label beside them: grid rows (listed ' +
    'in reverse), a box row; not a second field, not a named one', async () => {
  const lab = await startLab({}, COMPOSITE);
  try {
    const snap = ok(await lab.computer.tools.observe({ full: true, window: 'Composite lab' }));
    // The combo's entry takes the text, so it carries the label; the grid lists "Replace with:" first.
    assert.match(snap, /\] combobox\n\s+\[e\d+\] textbox beside="Search for:" editable/, snap);
    assert.match(snap, /\] textbox beside="Replace with:" editable/, snap);
    assert.match(snap, /\] textbox beside="Name:" editable/, snap);
    assert.match(snap, /\] textbox beside="Range:" editable/, snap);
    assert.equal(snap.match(/beside="Range:"/g)?.length, 1, snap);
    assert.match(
      lineOf(snap, refOn(snap, /textbox "Own name"/)) ?? '',
      /^\s*\[e\d+\] textbox "Own name" editable$/,
      snap,
    );
  } finally { await lab.close(); }
});

test('find matches a field by the label beside it, and set_value on what it found fills that field', async () => {
  const lab = await startLab({}, COMPOSITE);
  try {
    for (const [label, key] of [['Search for', 'search'], ['Replace with', 'replace']] as const) {
      const found = ok(await lab.computer.tools.find({ text: label, role: 'textbox', app: 'composite' }));
      assert.match(found, /^1 match/, found);
      const field = refOn(found, new RegExp(`textbox beside="${label}:"`));
      ok(await lab.computer.tools.act({ actions: [{ ref: field, op: 'set_value', value: `${key} text` }] }));
      await lab.printed(`${key}=${key} text`, 5000);
    }
  } finally { await lab.close(); }
});
