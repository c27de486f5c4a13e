/**
 * Thunar on a folder of 3,000 files: rename and delete a file far below the first screen (find reaches the
 * rows off screen and says which scroll brings one into view), and create a folder. Thunar's icon view exposes
 * no items, so the plan switches to the details view (ctrl+2) as a user would. The checkers read the folder.
 */
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CheckResult, EvalTask, PlanStep, TaskContext, TaskSetup } from '../task.js';

const COUNT = 3000;
const name = (i: number): string => `report-${String(i).padStart(4, '0')}.txt`;

/** A folder of 3,000 empty files report-0001.txt … report-3000.txt. */
async function makeFolder(ctx: TaskContext): Promise<TaskSetup> {
  const folder = join(ctx.dir, 'reports');
  await mkdir(folder);
  for (let i = 1; i <= COUNT; i++) await writeFile(join(folder, name(i)), '');
  return { vars: { folder } };
}

/** Polls the folder until `accept` holds for its listing (the app writes after the act returns). */
async function folderMatches(
  folder: string,
  accept: (names: Set<string>) => string | undefined,
  timeoutMs = 8000,
): Promise<CheckResult> {
  let why = '';
  for (const until = performance.now() + timeoutMs; ;) {
    const names = new Set(await readdir(folder).catch(() => []));
    const bad = accept(names);
    if (bad === undefined) return { ok: true, detail: `${names.size} entries as expected` };
    why = bad;
    if (performance.now() > until) return { ok: false, detail: why };
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Every original file but `except` is still there. */
function othersKept(names: Set<string>, except: string): string | undefined {
  for (let i = 1; i <= COUNT; i++) if (name(i) !== except && !names.has(name(i))) return `${name(i)} is gone too`;
  return undefined;
}

/** Thunar on the folder, in its details view (a table of rows), once the folder has loaded. */
const OPEN: PlanStep[] = [
  { do: 'launch', command: 'thunar', args: ['{{folder}}'] },
  { do: 'wait', until: 'disappears', text: 'Loading folder contents', timeoutMs: 15_000 },
  { do: 'keys', keys: 'ctrl+2' },
];

export const filesTasks: EvalTask[] = [
  {
    id: 'thunar-rename-far', app: 'thunar', appName: 'thunar',
    goal: 'In Thunar, in the reports folder, rename report-2345.txt to q3-summary.txt.',
    hard: 'scroll: row 2,345 of 3,000; a late dialog',
    setup: makeFolder,
    plan: [
      ...OPEN,
      { do: 'act', op: 'click', target: { role: 'cell', name: name(2345) } },
      { do: 'keys', keys: 'F2' },
      { do: 'wait', until: 'window_appears', text: 'Rename' },
      { do: 'act', op: 'set_value', target: { role: 'textbox', window: 'Rename' }, value: 'q3-summary.txt' },
      { do: 'act', op: 'click', target: { role: 'button', name: 'Rename', window: 'Rename' } },
    ],
    check: (_ctx, vars) => folderMatches(vars['folder'] ?? '', (names) =>
      names.has(name(2345)) ? `${name(2345)} is still there` : !names.has('q3-summary.txt') ? 'no q3-summary.txt' : othersKept(names, name(2345))),
  },
  {
    id: 'thunar-delete-far', app: 'thunar', appName: 'thunar',
    goal: 'In Thunar, in the reports folder, delete report-1618.txt and nothing else.',
    hard: 'scroll: row 1,618 of 3,000; a confirmation',
    setup: makeFolder,
    plan: [
      ...OPEN,
      { do: 'act', op: 'click', target: { role: 'cell', name: name(1618) } },
      { do: 'keys', keys: 'Delete' },
      // No trash on this desktop: Thunar asks before deleting for good.
      { do: 'wait', until: 'window_appears', text: 'Question' },
      { do: 'act', op: 'click', target: { role: 'button', name: 'Delete', window: 'Question' } },
    ],
    check: (_ctx, vars) => folderMatches(vars['folder'] ?? '', (names) =>
      names.has(name(1618)) ? `${name(1618)} is still there` : othersKept(names, name(1618)) ?? (names.size !== COUNT - 1 ? `${names.size} entries` : undefined)),
  },
  {
    id: 'thunar-new-folder', app: 'thunar', appName: 'thunar',
    goal: 'In Thunar, create a folder named "archive 2026" in the reports folder.',
    setup: makeFolder,
    plan: [
      ...OPEN,
      { do: 'keys', keys: 'ctrl+shift+n' },
      { do: 'wait', until: 'window_appears', text: 'New Folder' },
      { do: 'act', op: 'set_value', target: { role: 'textbox', window: 'New Folder' }, value: 'archive 2026' },
      { do: 'act', op: 'click', target: { role: 'button', name: 'Create', window: 'New Folder' } },
    ],
    check: async (_ctx, vars) => {
      const got = await folderMatches(vars['folder'] ?? '', (names) =>
        names.has('archive 2026') ? othersKept(names, '') : 'no "archive 2026"',
      );
      if (!got.ok) return got;
      const isDir = await stat(join(vars['folder'] ?? '', 'archive 2026')).then((s) => s.isDirectory(), () => false);
      return isDir ? got : { ok: false, detail: '"archive 2026" is not a folder' };
    },
  },
];
