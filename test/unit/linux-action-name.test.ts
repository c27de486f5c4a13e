/**
 * The action a receipt names (drivers/linux/act/action-name.ts): Gecko's action names are key bindings, and a
 * receipt read `Action.DoAction(0) ";;"`; the description, then the op asked for, name the action instead.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { actionName } from '../../src/drivers/linux/act/action-name.js';
import { doNamedAction } from '../../src/drivers/linux/act/actions.js';
import type { ElementInfo } from '../../src/drivers/linux/tree/reader.js';
import { busAnswering, type Msg } from './fake-bus.js';

test('an action named by its key binding is named by its description, else by the op', () => {
  assert.equal(actionName(['click', 'Clicks the button', ''], 'click'), 'click');
  assert.equal(actionName(['<alt><shift>n;', 'Open a new window', '<alt><shift>n;'], 'click'), 'Open a new window');
  assert.equal(actionName([';;', '', ';;'], 'click'), 'click');
  assert.equal(actionName(['a;<Alt>f:a;<Control>o', ';;', ''], 'toggle'), 'toggle');
  assert.equal(actionName(['  ', '<control>q', ''], 'expand'), 'expand');
  assert.equal(actionName(undefined, 'click'), 'click');
  assert.equal(actionName(['x'.repeat(100), '', ''], 'click'), `${'x'.repeat(40)}…`);
});

test('a click on a Gecko element whose only action is named ";;" reports the op, not ";;"', async () => {
  const calls: string[] = [];
  const bus = busAnswering((m: Msg) => {
    calls.push(m.member);
    if (m.member === 'GetActions') return [[[';;', '', ';;']]];
    if (m.member === 'DoAction') return [true];
    throw new Error(`unexpected ${m.member}`);
  });
  const info = {
    target: { dest: ':1.9', path: '/a/1' },
    atspiRole: 'push button',
    name: 'New',
    description: '',
    accessibleId: '',
    states: new Set(['enabled', 'showing', 'visible']),
    interfaces: new Set(['org.a11y.atspi.Action']),
    children: [],
    childCount: 0,
  } as ElementInfo;
  const r = await doNamedAction(bus, info, ['click', 'press'], true, 'click');
  assert.deepEqual(calls, ['GetActions', 'DoAction']);
  assert.equal(r?.detail, 'Action.DoAction(0) "click"');
});

test('a GTK 3 check box cell of a tree\'s expander column: expand ' +
    'runs the action its description names, never Toggle', async () => {
  const done: unknown[] = [];
  // Recorded from a GTK 3 tree view (a font list): the check box cell names its inherited actions by their
  // descriptions.
  const bus = busAnswering((m: Msg) => {
    if (m.member === 'GetActions') {
      return [
        [
          ['Toggle', 'Toggles the cell', ''],
          [
            'Expands or contracts the row in the tree view containing this cell',
            'Expands or contracts the row in the tree view containing this cell',
            '',
          ],
          [
            'Creates a widget in which the contents of the cell can be edited',
            'Creates a widget in which the contents of the cell can be edited',
            '',
          ],
          ['Activates the cell', 'Activates the cell', ''],
        ],
      ];
    }
    if (m.member === 'DoAction') { done.push(m.body?.[0]); return [true]; }
    throw new Error(`unexpected ${m.member}`);
  });
  const info = {
    target: { dest: ':1.9', path: '/a/2' },
    atspiRole: 'table cell',
    name: '',
    description: '',
    accessibleId: '',
    states: new Set(['enabled', 'showing', 'visible', 'expandable', 'checked']),
    interfaces: new Set(['org.a11y.atspi.Action']),
    children: [],
    childCount: 0,
  } as ElementInfo;
  const r = await doNamedAction(
    bus,
    info,
    ['expand or contract', 'expand', 'open', 'press', 'click', 'activate'],
    true,
    'expand',
  );
  assert.deepEqual(done, [1]);
  assert.equal(r?.detail, 'Action.DoAction(1) "expand or contract"');
});
