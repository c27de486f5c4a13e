/**
 * Names as the trial's apps printed them and a user reads them (drivers/common/names.ts), and the Linux driver
 * reporting them cleaned: kcalc's Qt rich text, GTK 4's class names, doubled labels.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cleanName } from '../../src/drivers/common/names.js';
import { toRawNode, type ElementInfo } from '../../src/drivers/linux/reader.js';

test('Qt rich text reads as its text: x², <i>…</i> without tags, entities decoded', () => {
  assert.equal(cleanName('x<sup>2</sup>'), 'x²');
  assert.equal(cleanName('x<sup>y</sup>'), 'x^y');
  assert.equal(cleanName('H<sub>2</sub>O'), 'H₂O');
  assert.equal(cleanName('<i>Rich Text</i> Format'), 'Rich Text Format');
  assert.equal(cleanName('<html><body><p>Tom &amp; Jerry</p></body></html>'), 'Tom & Jerry');
  // Text that only looks like markup is left alone.
  assert.equal(cleanName('a < b > c'), 'a < b > c');
  assert.equal(cleanName('<unknown-tag>'), '<unknown-tag>');
});

test('GTK 4 class names are no names; doubled labels are said once', () => {
  for (const c of ['AdwTabBar', 'AdwGizmo', 'GtkBox', 'GtkToggleButton']) assert.equal(cleanName(c), undefined, c);
  assert.equal(cleanName('Save Save'), 'Save');
  assert.equal(cleanName('_Retry Retry'), 'Retry');
  assert.equal(cleanName('Places Places'), 'Places');
  assert.equal(cleanName('Go Back Go Back'), 'Go Back');
  assert.equal(cleanName('New York'), 'New York');
  assert.equal(cleanName(''), undefined);
});

test('the Linux driver reports the cleaned name (and checks an act\'s expect against it)', () => {
  const info = (name: string): ElementInfo => ({ target: { dest: ':1.5', path: '/o/1' }, name, description: '', accessibleId: '', atspiRole: 'push button',
    states: new Set(['enabled', 'visible', 'showing']), interfaces: new Set(['org.a11y.atspi.Action']), actions: [], children: [], childCount: 0 } as unknown as ElementInfo);
  assert.equal(toRawNode(info('_Retry Retry')).name, 'Retry');
  assert.equal(toRawNode(info('AdwGizmo')).name, undefined);
  assert.equal(toRawNode(info('x<sup>2</sup>')).name, 'x²');
});

test('a name padded with blanks reads trimmed; blanks alone are no name (mousepad\'s menu items, seen by a model in the loop)', () => {
  assert.equal(cleanName('Preferences...      '), 'Preferences...');
  assert.equal(cleanName('  Save\t'), 'Save');
  assert.equal(cleanName('   '), undefined);
});
