/** Mousepad tasks: commands that sit in submenus of the menubar change the document, then it is saved. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileMatches } from '../checks.js';
import type { EvalTask, TaskContext, TaskSetup } from '../task.js';

const LINES = ['Quarterly numbers', 'north: 120', 'south: 95', ''];

/** Both tasks start from the same report.txt in the task folder. */
async function writeReport(ctx: TaskContext): Promise<TaskSetup> {
  const path = join(ctx.dir, 'report.txt');
  await writeFile(path, LINES.join('\n'));
  return { vars: { path } };
}

export const mousepadTasks: EvalTask[] = [
  {
    id: 'mousepad-dos-line-endings',
    app: 'mousepad',
    appName: 'mousepad',
    goal: 'Open report.txt in Mousepad, switch its line endings to DOS / Windows (CR LF) from the Document menu, and save it.',
    hard: 'nested menu (Document › Line Ending › DOS / Windows)',
    setup: writeReport,
    plan: [
      { do: 'launch', command: 'mousepad', args: ['{{path}}'] },
      { do: 'act', op: 'click', target: { role: 'menu', name: 'Document' } },
      { do: 'act', op: 'click', target: { role: 'menu', name: 'Line Ending' } },
      { do: 'act', op: 'click', target: { role: 'menuitem', name: 'DOS / Windows' } },
      { do: 'keys', keys: 'ctrl+s' },
    ],
    check: (_ctx, vars) => fileMatches(vars['path'] ?? '', (c) => c === LINES.join('\r\n'), 'CR LF line endings'),
  },
  {
    id: 'mousepad-uppercase',
    app: 'mousepad',
    appName: 'mousepad',
    goal: 'Open report.txt in Mousepad, convert all of its text to upper case with the Edit menu, and save it.',
    hard: 'nested menu (Edit › Convert › To Uppercase) after Edit › Select All',
    setup: writeReport,
    plan: [
      { do: 'launch', command: 'mousepad', args: ['{{path}}'] },
      { do: 'act', op: 'click', target: { role: 'menu', name: 'Edit' } },
      { do: 'act', op: 'click', target: { role: 'menuitem', name: 'Select All' } },
      { do: 'act', op: 'click', target: { role: 'menu', name: 'Edit' } },
      { do: 'act', op: 'click', target: { role: 'menu', name: 'Convert' } },
      { do: 'act', op: 'click', target: { role: 'menuitem', name: 'To Uppercase' } },
      { do: 'keys', keys: 'ctrl+s' },
    ],
    check: (_ctx, vars) =>
      fileMatches(vars['path'] ?? '', (c) => c === LINES.join('\n').toUpperCase(), 'upper-case text'),
  },
];
