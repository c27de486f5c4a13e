/**
 * The actionability check `editable` is about text: a slider or another element that takes no text passes it, so a
 * set_value on a slider is not refused as "read-only" (a driver written from the docs alone, and the Windows driver,
 * whose sliders carry no `editable` state, both refused it); a text field still needs `editable` and not `readonly`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unmetOnNode } from '../../src/drivers/common/actionable.js';

test('editable applies to elements that take text; a slider passes it', () => {
  assert.equal(unmetOnNode({ role: 'slider', states: [] }, ['editable']), undefined);
  assert.equal(unmetOnNode({ role: 'textbox', states: [] }, ['editable'])?.check, 'editable');
  assert.equal(unmetOnNode({ role: 'textbox', states: ['editable', 'readonly'] }, ['editable'])?.check, 'editable');
  assert.equal(unmetOnNode({ role: 'textbox', states: ['editable'] }, ['editable']), undefined);
  // A node read without its role is judged as text (the safe side: it must read editable).
  assert.equal(unmetOnNode({ states: [] }, ['editable'])?.check, 'editable');
});
