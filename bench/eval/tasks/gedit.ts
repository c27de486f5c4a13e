/** gedit tasks: typing (with Chinese), Save As through the dialog that appears late, open a file, replace. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileEquals } from '../checks.js';
import type { EvalTask } from '../task.js';

const CHINESE = '会议纪要：明天上午十点在三楼开会。Bring the Q3 report.';

export const geditTasks: EvalTask[] = [
  {
    id: 'gedit-save-chinese', app: 'gedit', appName: 'gedit', ci: true,
    goal: 'In gedit, write a Chinese meeting note and save it as notes.txt in the task folder.',
    hard: 'Chinese text; the Save As dialog appears late',
    setup: async (ctx) => ({ vars: { path: join(ctx.dir, 'notes.txt'), text: CHINESE } }),
    plan: [
      { do: 'launch', command: 'gedit', args: ['--new-window'] },
      { do: 'act', op: 'type', target: { role: 'document' }, value: '{{text}}' },
      { do: 'keys', keys: 'ctrl+s' },
      { do: 'wait', until: 'window_appears', text: 'Save As' },
      { do: 'act', op: 'set_value', target: { role: 'textbox', window: 'Save As' }, value: '{{path}}' },
      { do: 'act', op: 'click', target: { role: 'button', name: 'Save', window: 'Save As' } },
    ],
    check: (_ctx, vars) => fileEquals(vars['path'] ?? '', CHINESE),
  },
  {
    id: 'gedit-edit-existing', app: 'gedit', appName: 'gedit',
    goal: 'Open todo.txt in gedit, replace its text with "done: ship the release", and save it.',
    setup: async (ctx) => {
      const path = join(ctx.dir, 'todo.txt');
      await writeFile(path, 'todo: ship the release\n');
      return { vars: { path } };
    },
    plan: [
      { do: 'launch', command: 'gedit', args: ['{{path}}'] },
      { do: 'act', op: 'set_value', target: { role: 'document' }, value: 'done: ship the release' },
      { do: 'keys', keys: 'ctrl+s' },
    ],
    check: (_ctx, vars) => fileEquals(vars['path'] ?? '', 'done: ship the release'),
  },
];
