/**
 * The GTK file chooser: zenity --file-selection (setup starts it and keeps what it prints: the chosen path) in a
 * folder of 200 files where the wanted one is off-screen, and Mousepad's Open dialog (the file's bytes after an
 * edit prove it was opened).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileEquals } from '../checks.js';
import type { EvalTask } from '../task.js';
import { printedAndExited, startCaptured, type Captured } from './proc.js';

const FILES = 200;
const WANTED = 173;
const name = (i: number): string => `report-${String(i).padStart(3, '0')}.txt`;
const running = new Map<string, Captured>();

export const filechooserTasks: EvalTask[] = [
  {
    id: 'filechooser-offscreen', app: 'filechooser', appName: 'zenity',
    goal: `In the "Attach a report" file dialog, pick ${name(WANTED)} and confirm.`,
    hard: 'folded long list: the file is row 173 of 200, off-screen (find, then scroll)',
    setup: async (ctx) => {
      const dir = join(ctx.dir, 'reports');
      await mkdir(dir);
      for (let i = 1; i <= FILES; i++) await writeFile(join(dir, name(i)), `report ${i}\n`);
      const p = startCaptured(ctx, 'zenity', ['--file-selection', '--title=Attach a report', `--filename=${dir}/`]);
      running.set(ctx.dir, p);
      // Names sort as numbers here (zero-padded), so the wanted file is row WANTED of the list.
      return {
        vars: { file: name(WANTED), row: String(WANTED), path: join(dir, name(WANTED)) },
        teardown: () => p.stop(),
      };
    },
    plan: [
      { do: 'wait', until: 'window_appears', text: 'Attach a report', timeoutMs: 15_000 },
      { do: 'find', text: '{{file}}' },
      { do: 'act', op: 'scroll', target: { role: 'table', name: 'Files' }, value: 'to {{row}}' },
      { do: 'act', op: 'click', target: { role: 'cell', name: name(WANTED) } },
      { do: 'act', op: 'click', target: { role: 'button', name: 'OK', window: 'Attach a report' } },
    ],
    check: async (ctx, vars) => {
      const p = running.get(ctx.dir);
      running.delete(ctx.dir);
      return p ? printedAndExited(p, vars['path'] ?? '') : { ok: false, detail: 'the dialog was never started' };
    },
  },
  {
    id: 'filechooser-open-mousepad', app: 'filechooser', appName: 'mousepad',
    goal: 'In Mousepad, open minutes.txt from the task folder with File › Open, replace its text with "approved", and save.',
    hard: 'the Open dialog appears late; its location field opens with ctrl+L',
    setup: async (ctx) => {
      const path = join(ctx.dir, 'minutes.txt');
      await writeFile(path, 'draft\n');
      return { vars: { path } };
    },
    plan: [
      { do: 'launch', command: 'mousepad' },
      { do: 'keys', keys: 'ctrl+o' },
      { do: 'wait', until: 'window_appears', text: 'Open File' },
      { do: 'keys', keys: 'ctrl+l', window: 'Open File' },
      { do: 'act', op: 'set_value', target: { role: 'textbox', window: 'Open File' }, value: '{{path}}' },
      { do: 'act', op: 'click', target: { role: 'button', name: 'Open', window: 'Open File' } },
      { do: 'wait', until: 'appears', text: 'draft' },
      { do: 'act', op: 'set_value', target: { role: 'document' }, value: 'approved' },
      { do: 'keys', keys: 'ctrl+s' },
    ],
    check: (_ctx, vars) => fileEquals(vars['path'] ?? '', 'approved'),
  },
];
