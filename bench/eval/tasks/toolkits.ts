/**
 * Tasks on the other toolkit families: a Qt 5 editor (FeatherPad), a Qt 6 form (PyQt6) and a
 * Java Swing form (through the ATK wrapper). The forms write their result line to a file the checker reads.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fileEquals } from '../checks.js';
import type { EvalTask } from '../task.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const FORM = join(root, 'test', 'apps', 'Form.java');
const QT6_FORM = join(root, 'test', 'apps', 'qt6-form.py');
// Debian's interpreter: the one that has python3-pyqt6 (a python3 earlier on PATH may not).
const PYTHON = '/usr/bin/python3';

export const toolkitTasks: EvalTask[] = [
  {
    id: 'featherpad-save', app: 'featherpad (Qt 5)', appName: 'FeatherPad', allowApps: ['featherpad'],
    goal: 'In FeatherPad, write "shopping: 2 kg rice, 牛奶" and save it as list.txt in the task folder.',
    hard: 'Qt 5 save dialog; Chinese text',
    setup: async (ctx) => ({ vars: { path: join(ctx.dir, 'list.txt') } }),
    plan: [
      { do: 'launch', command: 'featherpad' },
      { do: 'act', op: 'type', target: { role: 'document' }, value: 'shopping: 2 kg rice, 牛奶' },
      { do: 'keys', keys: 'ctrl+s' },
      { do: 'wait', until: 'window_appears', text: 'Save as' },
      { do: 'act', op: 'set_value', target: { role: 'textbox', name: 'File name:' }, value: '{{path}}' },
      { do: 'act', op: 'click', target: { role: 'button', name: 'Save' } },
    ],
    check: (_ctx, vars) => fileEquals(vars['path'] ?? '', 'shopping: 2 kg rice, 牛奶'),
  },
  {
    id: 'qt6-form', app: 'Qt 6 form', appName: 'qt6-form.py', allowApps: [`${PYTHON} ${QT6_FORM}`],
    goal: 'In the Qt 6 form, enter "order 42" in the text field and press Go.',
    setup: async (ctx) => ({ vars: { out: join(ctx.dir, 'result.txt'), app: QT6_FORM, python: PYTHON } }),
    plan: [
      { do: 'launch', command: '{{python}}', args: ['{{app}}', '{{out}}'] },
      { do: 'act', op: 'set_value', target: { role: 'textbox', name: 'Text' }, value: 'order 42' },
      { do: 'act', op: 'click', target: { role: 'button', name: 'Go' } },
    ],
    check: (_ctx, vars) => fileEquals(vars['out'] ?? '', 'got order 42'),
  },
  {
    id: 'swing-form', app: 'Java Swing form', appName: 'Swing Form', allowApps: [`java ${FORM}`],
    goal: 'In the Swing form, enter the name Ada, subscribe, choose size Large and submit.',
    hard: 'Java accessibility bridge; a combo box',
    setup: async (ctx) => ({ vars: { out: join(ctx.dir, 'result.txt'), form: FORM } }),
    plan: [
      { do: 'launch', command: 'java', args: ['{{form}}', '{{out}}'] },
      { do: 'act', op: 'set_value', target: { role: 'textbox', name: 'Name' }, value: 'Ada' },
      { do: 'act', op: 'toggle', target: { role: 'checkbox', name: 'Subscribe' } },
      { do: 'act', op: 'select', target: { role: 'combobox' }, value: 'Large' },
      { do: 'act', op: 'click', target: { role: 'button', name: 'Submit' } },
    ],
    check: (_ctx, vars) => fileEquals(vars['out'] ?? '', 'Result: Ada / subscribed / Large'),
  },
];
