/**
 * An element with the keyboard focus that its toolkit reports as not showing (a help dialog's Close button, focused,
 * with bounds 0,0,0,0 and the offscreen state): the refusal said "open or scroll to what holds it", which does not
 * apply, while Return in its window pressed it. The refusal names the keys that reach it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { notActionable } from '../../src/drivers/common/actionable.js';

test('a focused element that reads as not showing (bounds 0,0,0,0): the keys that reach it, not "scroll to it"', () => {
  const e = notActionable(
    { what: 'push button "Close"', states: ['focused', 'focusable', 'offscreen'], bounds: [0, 0, 0, 0] },
    { check: 'visible', why: 'it is not showing' },
    2000,
  );
  assert.equal(e.code, 'not_visible');
  assert.match(e.message, /keyboard focus.*Return \(or space\)/);
  assert.ok(!/Open or scroll to/.test(e.message), e.message);
  const hidden = notActionable(
    { what: 'button "Save"', states: ['offscreen'] },
    { check: 'visible', why: 'it is not showing' },
    2000,
  );
  assert.match(hidden.message, /Open or scroll to what holds it/);
});
