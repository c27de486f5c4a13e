/**
 * zenity dialogs started by setup, their stdout and exit code captured (the user's choice, outside the tool
 * layer): a list of 400 rows with the wanted one off-screen, a form in Chinese with an entry and a combo box,
 * and a question that appears seconds after the task starts.
 */
import type { EvalTask } from '../task.js';
import { printedAndExited, startCaptured, type Captured } from './proc.js';

const CITIES = ['Aachen', 'Bergen', 'Cork', 'Dijon', 'Esbjerg', 'Faro', 'Graz', 'Haarlem', 'Izmir', 'Jena'];
const DEPOTS = 400;
const WANTED = 377;
const depot = (i: number): string => `Depot-${String(i).padStart(3, '0')}`;
const running = new Map<string, Captured>();

/** The checker of a task whose dialog setup started: what it printed and how it exited. */
function dialogCheck(expected: string, code = 0) {
  return async (ctx: { dir: string }): Promise<{ ok: boolean; detail: string }> => {
    const p = running.get(ctx.dir);
    running.delete(ctx.dir);
    return p ? printedAndExited(p, expected, code) : { ok: false, detail: 'the dialog was never started' };
  };
}

export const dialogsTasks: EvalTask[] = [
  {
    id: 'dialogs-long-list', app: 'dialogs', appName: 'zenity',
    goal: `In the "Choose a depot" dialog, select ${depot(WANTED)} and press OK.`,
    hard: 'folded long list: row 377 of 400, off-screen (find, then scroll)',
    setup: async (ctx) => {
      const rows = Array.from({ length: DEPOTS }, (_v, k) => [depot(k + 1), CITIES[k % CITIES.length] ?? '']).flat();
      const p = startCaptured(ctx, 'zenity', ['--list', '--title=Choose a depot', '--text=Ship from which depot?',
        '--width=420', '--height=360', '--column=Depot', '--column=City', ...rows]);
      running.set(ctx.dir, p);
      return { vars: { depot: depot(WANTED), row: String(WANTED) }, teardown: () => p.stop() };
    },
    plan: [
      { do: 'wait', until: 'window_appears', text: 'Choose a depot', timeoutMs: 15_000 },
      { do: 'find', text: '{{depot}}' },
      { do: 'act', op: 'scroll', target: { role: 'table', window: 'Choose a depot' }, value: 'to {{row}}' },
      { do: 'act', op: 'click', target: { role: 'cell', name: depot(WANTED) } },
      { do: 'act', op: 'click', target: { role: 'button', name: 'OK', window: 'Choose a depot' } },
    ],
    check: dialogCheck(depot(WANTED)),
  },
  {
    id: 'dialogs-chinese-form', app: 'dialogs', appName: 'zenity',
    goal: 'In the 报名表 form, enter the name 张伟, choose the course 物理, and press OK.',
    hard: 'Chinese labels and text; the entry has no name of its own (its label sits beside it)',
    setup: async (ctx) => {
      const p = startCaptured(ctx, 'zenity', ['--forms', '--title=报名表', '--text=请填写报名信息',
        '--add-entry=姓名', '--add-combo=课程', '--combo-values=数学|物理|化学']);
      running.set(ctx.dir, p);
      return { vars: {}, teardown: () => p.stop() };
    },
    plan: [
      { do: 'wait', until: 'window_appears', text: '报名表', timeoutMs: 15_000 },
      { do: 'act', op: 'type', target: { role: 'textbox', window: '报名表' }, value: '张伟' },
      { do: 'act', op: 'select', target: { role: 'combobox', window: '报名表' }, value: '物理' },
      { do: 'act', op: 'click', target: { role: 'button', name: 'OK', window: '报名表' } },
    ],
    check: dialogCheck('张伟|物理'),
  },
  {
    id: 'dialogs-late-question', app: 'dialogs', appName: 'zenity',
    goal: 'A "Replace file?" question will pop up in a few seconds: answer Yes.',
    hard: 'the dialog appears late (3 s after the task starts)',
    setup: async (ctx) => {
      const p = startCaptured(
        ctx,
        'zenity',
        ['--question', '--title=Replace file?', '--text=report.pdf already exists. Replace it?'],
        3000,
      );
      running.set(ctx.dir, p);
      return { vars: {}, teardown: () => p.stop() };
    },
    plan: [
      { do: 'wait', until: 'window_appears', text: 'Replace file?', timeoutMs: 20_000 },
      { do: 'act', op: 'click', target: { role: 'button', name: 'Yes', window: 'Replace file?' } },
    ],
    // zenity --question exits 0 for Yes, 1 for No, and prints nothing.
    check: dialogCheck('', 0),
  },
];
