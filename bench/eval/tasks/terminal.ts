/**
 * xfce4-terminal (VTE): the model types a command into the terminal (the text is data for the app, never a
 * command line of ours) and presses Enter. computer_launch refuses terminals (they run any program named in
 * their arguments), so the setup opens one in the task's folder, as a user who has a terminal open.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { answerEquals, fileEquals } from '../checks.js';
import type { EvalTask, TaskContext } from '../task.js';
import { startApp } from './spawn.js';

const WORDS = ['pear', 'apple', 'fig', 'kiwi', 'plum', 'lime', 'date', 'grape', 'melon', 'peach', 'mango', 'cherry'];
/** What only the checker may know (the vars are shown to a model solver). */
const truth = new WeakMap<TaskContext, string>();

/** A terminal in `dir`, its own process (no server shared with other windows), once its shell shows a prompt. */
async function openTerminal(ctx: TaskContext): Promise<() => Promise<void>> {
  const started = await startApp(ctx, 'xfce4-terminal', ['--disable-server', `--working-directory=${ctx.dir}`], {
    app: 'xfce4-terminal',
    title: 'Terminal',
    ready: /[$#] $/m,
  });
  return started.stop;
}

export const terminalTasks: EvalTask[] = [
  {
    id: 'terminal-sort-file', app: 'terminal', appName: 'xfce4-terminal', ci: true,
    goal: 'In the open terminal, write the lines of fruits.txt sorted and without duplicates to sorted.txt (in the same folder).',
    setup: async (ctx) => {
      const lines = Array.from({ length: 40 }, () => WORDS[Math.floor(Math.random() * WORDS.length)] ?? 'fig');
      await writeFile(join(ctx.dir, 'fruits.txt'), `${lines.join('\n')}\n`);
      // Lower-case ASCII words: byte order and the locale's order agree.
      truth.set(ctx, [...new Set(lines)].sort().join('\n'));
      return { vars: { path: join(ctx.dir, 'sorted.txt') }, teardown: await openTerminal(ctx) };
    },
    plan: [
      { do: 'act', op: 'type', target: { role: 'terminal', name: 'Terminal' }, value: 'sort -u fruits.txt > sorted.txt' },
      { do: 'keys', keys: 'Return' },
    ],
    check: (ctx, vars) => fileEquals(vars['path'] ?? '', truth.get(ctx) ?? ''),
  },
  {
    id: 'terminal-count-lines', app: 'terminal', appName: 'xfce4-terminal',
    goal: 'In the open terminal, find out how many lines of log.txt contain "ERROR", and answer with the number.',
    hard: 'read: the answer is in the terminal\'s output',
    setup: async (ctx) => {
      const levels = ['INFO', 'WARN', 'ERROR', 'DEBUG'];
      const lines = Array.from(
        { length: 300 },
        (_, i) =>
          `2026-11-30T12:${String(i % 60).padStart(2, '0')} ` +
          `${levels[Math.floor(Math.random() * levels.length)] ?? 'INFO'} job ${i} done`,
      );
      await writeFile(join(ctx.dir, 'log.txt'), `${lines.join('\n')}\n`);
      truth.set(ctx, String(lines.filter((l) => l.includes('ERROR')).length));
      return { vars: {}, teardown: await openTerminal(ctx) };
    },
    plan: [
      { do: 'act', op: 'type', target: { role: 'terminal', name: 'Terminal' }, value: 'grep -c ERROR log.txt' },
      { do: 'keys', keys: 'Return' },
      { do: 'observe' },
      { do: 'read', target: { role: 'terminal', name: 'Terminal' }, pattern: 'grep -c ERROR log\\.txt\\\\n(\\d+)\\\\n', into: 'count' },
    ],
    check: async (ctx, _vars, answers) => answerEquals(answers, 'count', truth.get(ctx) ?? '?'),
  },
];
