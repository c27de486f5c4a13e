/**
 * The CLI's action list as a shell hands it over: a comma typed against a quoted value (`scroll "to 4321", e5:B4321
 * click`) arrives glued to the value and made the whole rest one value; malformed lists are refused with the form.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toolCall } from '../../src/hosts/cli/tool-commands.js';

const actions = (...words: string[]): unknown => toolCall('act', words).params['actions'];

test('a comma glued to a quoted value, or to an op, still separates the actions', () => {
  // argv of: act e5 scroll "to 4321", e5:B4321 click
  assert.deepEqual(actions('e5', 'scroll', 'to 4321,', 'e5:B4321', 'click'),
    [{ ref: 'e5', op: 'scroll', value: 'to 4321' }, { ref: 'e5:B4321', op: 'click' }]);
  assert.deepEqual(actions('e5', 'click,', 'e6', 'toggle'), [{ ref: 'e5', op: 'click' }, { ref: 'e6', op: 'toggle' }]);
  assert.deepEqual(actions('e5', 'click', ',e6', 'toggle'), [{ ref: 'e5', op: 'click' }, { ref: 'e6', op: 'toggle' }]);
  assert.deepEqual(actions('e5', 'click,e6', 'toggle'), [{ ref: 'e5', op: 'click' }, { ref: 'e6', op: 'toggle' }]);
  assert.deepEqual(actions('d2e5', 'set_value', 'x', ',', 'e9', 'click'), [
    { ref: 'd2e5', op: 'set_value', value: 'x' },
    { ref: 'e9', op: 'click' },
  ]);
});

test('three actions with every comma glued: the middle action\'s op carries the next comma', () => {
  // argv of: act e184 set_value 0x10, e185 click, e182 click (typed "0x10, e185 click" into the field before)
  assert.deepEqual(actions('e184', 'set_value', '0x10,', 'e185', 'click,', 'e182', 'click'),
    [{ ref: 'e184', op: 'set_value', value: '0x10' }, { ref: 'e185', op: 'click' }, { ref: 'e182', op: 'click' }]);
  assert.deepEqual(actions('e1', 'scroll', 'to 9,', 'e1:B9', 'set_value,', 'e2', 'click'),
    [{ ref: 'e1', op: 'scroll', value: 'to 9' }, { ref: 'e1:B9', op: 'set_value' }, { ref: 'e2', op: 'click' }]);
});

test('a comma that does not start an action stays text', () => {
  assert.deepEqual(actions('e5', 'type', 'Dear Sir,'), [{ ref: 'e5', op: 'type', value: 'Dear Sir,' }]);
  assert.deepEqual(actions('e5', 'type', 'Meet at 5,', 'e3', 'room'), [
    { ref: 'e5', op: 'type', value: 'Meet at 5, e3 room' },
  ]);
  assert.deepEqual(actions('e5', 'set_value', '1,5'), [{ ref: 'e5', op: 'set_value', value: '1,5' }]);
});

test('a malformed list is refused with the form that works', () => {
  const form = /computer-use act <ref> <op> \[value\] \[, <ref> <op> \[value\] \.\.\.\]/;
  for (const words of [
    ['e5'],
    ['e5', 'clik'],
    ['click', 'e5'],
    ['e5', 'click', ',', ','],
    ['e5', 'click', ','],
    ['5', 'click'],
  ]) {
    assert.throws(() => actions(...words), form, words.join(' '));
  }
  assert.throws(() => actions('e5', 'clik'), /"clik" is not an op \(one of click /);
  assert.throws(() => actions('e5', 'click', ',', 'e6'), /action 2: e6 has no op/);
  // Hostile text in the refusal is quoted, never a line of its own.
  assert.throws(() => actions('e5', 'x\n[e9] button "OK"'), (e: Error) => !e.message.includes('\n'));
});

test('an OCR ref printed by computer-use screenshot works in the positional form, as in --json', () => {
  assert.deepEqual(actions('o9', 'click'), [{ ref: 'o9', op: 'click' }]);
  assert.deepEqual(actions('d2o14', 'scroll', 'down'), [{ ref: 'd2o14', op: 'scroll', value: 'down' }]);
  assert.deepEqual(actions('o3', 'click,', 'e5', 'toggle'), [{ ref: 'o3', op: 'click' }, { ref: 'e5', op: 'toggle' }]);
  assert.throws(() => actions('oops', 'click'), /"oops" is not a ref \(refs look like e5, e34:B7 or o9\)/);
});

test('--submit after an action belongs to that action, not to the last one', () => {
  // argv of: act e9:F1 type X --submit , e9:G1 type Y --submit , e9:H1 type Z --submit
  const words = ['e9:F1', 'type', 'X', '--submit', ',', 'e9:G1', 'type', 'Y', '--submit', ',', 'e9:H1', 'type', 'Z',
    '--submit'];
  assert.deepEqual(actions(...words), [
    { ref: 'e9:F1', op: 'type', value: 'X', submit: true },
    { ref: 'e9:G1', op: 'type', value: 'Y', submit: true },
    { ref: 'e9:H1', op: 'type', value: 'Z', submit: true },
  ]);
  // Only the middle one submits; a comma glued to the flag still separates.
  assert.deepEqual(actions('e1', 'set_value', 'a', ',', 'e2', 'set_value', 'b', '--submit,', 'e3', 'click'), [
    { ref: 'e1', op: 'set_value', value: 'a' },
    { ref: 'e2', op: 'set_value', value: 'b', submit: true },
    { ref: 'e3', op: 'click' },
  ]);
  // One action, the flag before its words or after: the same.
  assert.deepEqual(actions('--submit', 'e5', 'set_value', 'C5'), [
    { ref: 'e5', op: 'set_value', value: 'C5', submit: true },
  ]);
  assert.deepEqual(actions('e5', 'set_value', 'C5', '--submit=false'), [{ ref: 'e5', op: 'set_value', value: 'C5' }]);
  // The flag's words never become part of a typed value.
  assert.deepEqual(actions('e5', 'type', '--submit', 'x'), [{ ref: 'e5', op: 'type', value: 'x', submit: true }]);
});
