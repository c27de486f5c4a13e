/**
 * LibreOffice Calc tasks (gtk3 VCL plugin): a formula saved to CSV, a price in a far row of a 2,000-row sheet
 * (the app's Find & Replace brings it into view), and a sum read off the status bar. Setup starts Calc itself
 * on a private profile under the task's folder (no shared state, no first-start dialogs): computer_launch
 * waits for a window of the pid it started, and soffice's window belongs to soffice.bin, not to the launcher.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { CheckResult, EvalTask, TaskContext, TaskSetup } from '../task.js';
import { startApp } from './spawn.js';
import { answerNumberIs } from '../checks.js';

/** Import options for a CSV: comma, double quote, UTF-8, from line 1 (no Text Import dialog). */
const CSV_FILTER = '--infilter=CSV:44,34,76,1';
/** The Calc table of the sheet, as the snapshot prints it (`table "Sheet <name>"`). */
const SHEET = { role: 'table', name: { re: '^Sheet ' } } as const;

/** Opens `file` in Calc on a fresh profile in the task's folder; the teardown stops it. */
async function openInCalc(ctx: TaskContext, file: string): Promise<() => Promise<void>> {
  const profile = `file://${join(ctx.dir, 'lo-profile')}`;
  const started = await startApp(
    ctx,
    'soffice',
    ['--calc', '--norestore', '--nologo', '--nofirststartwizard', `-env:UserInstallation=${profile}`, CSV_FILTER, file],
    // A fresh profile makes soffice restart once: the first start is slow.
    {
      app: 'soffice',
      title: `${basename(file)} - LibreOffice Calc`,
      timeoutMs: 60_000,
      env: { SAL_USE_VCLPLUGIN: 'gtk3' },
    },
  );
  return started.stop;
}

/** Rows of a CSV text (double-quoted fields as Calc writes text; no quotes inside values here). */
export function parseCsv(text: string): string[][] {
  return text.replace(/\n$/, '').split('\n').map((line) => line.split(',').map((f) => f.replace(/^"(.*)"$/, '$1')));
}

/** Compares a CSV file with the rows expected, trailing empty fields ignored; quotes the first difference. */
async function csvEquals(path: string, expected: string[][], timeoutMs = 8000): Promise<CheckResult> {
  const trim = (r: string[]): string => {
    const c = [...r];
    while (c.length && c[c.length - 1] === '') c.pop();
    return c.join(',');
  };
  let last = '';
  for (const until = performance.now() + timeoutMs; ;) {
    const text = await readFile(path, 'utf8').catch(() => '');
    const got = parseCsv(text).map(trim);
    const want = expected.map(trim);
    const at = want.findIndex((w, i) => got[i] !== w);
    if (at < 0 && got.length === want.length) return { ok: true, detail: `CSV has the ${want.length} rows expected` };
    last =
      at < 0
        ? `${got.length} rows, expected ${want.length}`
        : `row ${at + 1}: got ${JSON.stringify(got[at] ?? null)}, expected ${JSON.stringify(want[at])}`;
    if (performance.now() > until) return { ok: false, detail: `CSV ${basename(path)}: ${last}` };
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** What only the checker may know (the vars are shown to a model solver): kept per task run. */
const truth = new WeakMap<TaskContext, string[][] | number>();

function int(lo: number, hi: number): number { return lo + Math.floor(Math.random() * (hi - lo + 1)); }

/** After ctrl+s on a CSV: Calc asks whether to keep the format. */
const KEEP_CSV = [
  { do: 'keys', keys: 'ctrl+s' },
  { do: 'wait', until: 'window_appears', text: 'Question', timeoutMs: 15_000 },
  { do: 'act', op: 'click', target: { role: 'button', name: 'Use Text CSV Format', window: 'Question' } },
] as const;

export const calcTasks: EvalTask[] = [
  {
    id: 'calc-formula-csv', app: 'calc', appName: 'soffice', allowApps: ['soffice.bin'],
    goal: 'In sales.csv, open in Calc, put the formula =SUM(B2:B5) in B6 and save the file, keeping the CSV format.',
    setup: async (ctx): Promise<TaskSetup> => {
      const rows = [
        ['region', 'q1', 'q2'],
        ...['north', 'south', 'east', 'west'].map((r) => [r, String(int(50, 400)), String(int(50, 400))]),
      ];
      const path = join(ctx.dir, 'sales.csv');
      await writeFile(path, `${rows.map((r) => r.join(',')).join('\n')}\n`);
      const total = rows.slice(1).reduce((a, r) => a + Number(r[1]), 0);
      truth.set(ctx, [...rows, ['', String(total)]]);
      return { vars: { path }, teardown: await openInCalc(ctx, path) };
    },
    plan: [
      { do: 'observe' },
      { do: 'act', op: 'set_value', target: { ...SHEET, cell: 'B6' }, value: '=SUM(B2:B5)' },
      ...KEEP_CSV,
    ],
    check: (ctx, vars) => csvEquals(vars['path'] ?? '', truth.get(ctx) as string[][]),
  },
  {
    id: 'calc-far-row-price', app: 'calc', appName: 'soffice', allowApps: ['soffice.bin'],
    goal: 'In inventory.csv, open in Calc, change the price of the item widget-1873 to the given price and save the file as CSV.',
    hard: 'scroll: the row is 1,874 of 2,001; the app\'s Find & Replace dialog',
    setup: async (ctx): Promise<TaskSetup> => {
      const rows = [
        ['item', 'price', 'qty'],
        ...Array.from({ length: 2000 }, (_, i) => [
          `widget-${i + 1}`,
          String(int(100, 9999) / 100),
          String(int(1, 40)),
        ]),
      ];
      const path = join(ctx.dir, 'inventory.csv');
      await writeFile(path, `${rows.map((r) => r.join(',')).join('\n')}\n`);
      const price = String(int(1000, 9999) / 100);
      truth.set(ctx, rows.map((r) => (r[0] === 'widget-1873' ? [r[0], price, r[2] ?? ''] : r)));
      return { vars: { path, price }, teardown: await openInCalc(ctx, path) };
    },
    plan: [
      { do: 'keys', keys: 'ctrl+h' },
      { do: 'wait', until: 'window_appears', text: 'Find and Replace' },
      { do: 'act', op: 'set_value', target: { role: 'textbox', window: 'Find and Replace' }, value: 'widget-1873' },
      { do: 'act', op: 'click', target: { role: 'button', name: 'Find Next', window: 'Find and Replace' } },
      { do: 'act', op: 'click', target: { role: 'button', name: 'Close', window: 'Find and Replace' } },
      { do: 'observe' },
      // The cursor is on the item's name; its price is the next column of that row.
      { do: 'read', target: SHEET, pattern: 'cursor A(\\d+)', into: 'row' },
      { do: 'act', op: 'set_value', target: { ...SHEET, cell: 'B{{row}}' }, value: '{{price}}' },
      ...KEEP_CSV,
    ],
    check: (ctx, vars) => csvEquals(vars['path'] ?? '', truth.get(ctx) as string[][]),
  },
  {
    id: 'calc-read-sum', app: 'calc', appName: 'soffice', allowApps: ['soffice.bin'],
    goal: 'What is the total of the amount column of expenses.csv, open in Calc?',
    hard: 'read: 400 rows, most of them off screen',
    setup: async (ctx): Promise<TaskSetup> => {
      const cents = Array.from({ length: 400 }, () => int(100, 99_999));
      const path = join(ctx.dir, 'expenses.csv');
      await writeFile(
        path,
        `item,amount\n${cents.map((c, i) => `expense-${i + 1},${(c / 100).toFixed(2)}`).join('\n')}\n`,
      );
      truth.set(ctx, cents.reduce((a, c) => a + c, 0));
      return { vars: { path }, teardown: await openInCalc(ctx, path) };
    },
    plan: [
      { do: 'observe' },
      // The Name Box (the textbox holding the cursor's address) selects the whole column; the status bar sums it.
      { do: 'act', op: 'focus', target: { role: 'textbox', value: { re: '^[A-Z]{1,3}[1-9]\\d*$' } } },
      { do: 'act', op: 'set_value', target: { role: 'textbox', value: { re: '^[A-Z]{1,3}[1-9]\\d*$' } }, value: 'B:B' },
      { do: 'keys', keys: 'Return' },
      { do: 'observe' },
      // Calc updates its status bar on an idle timer: "Sum: 0" right after the selection is not the answer yet.
      { do: 'read', target: { role: 'label', value: { re: 'Sum: ' } }, pattern: 'Sum: ([1-9][\\d,.]*)', into: 'total' },
    ],
    check: async (ctx, _vars, answers) => answerNumberIs(answers, 'total', (truth.get(ctx) as number) / 100),
  },
];
