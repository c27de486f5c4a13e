/**
 * Toolkit families beyond GTK: observe and act p50 on a Qt 5 app (featherpad) and a Java Swing app
 * (test/apps/Form.java), each started through computer_launch with the toolkit recipe. Runs on the desktop of
 * the process environment (bench/run.ts sets it to its sandbox). Prints a table; never asserts (noisy machine).
 */
import { join } from 'node:path';
import { createComputer, type Computer } from '../src/index.js';
import { RUNS, ROOT, WARMUP, errText } from './config.js';
import { summarize, type Summary } from './stats.js';

/** One app's numbers. */
export interface ToolkitRow {
  app: string;
  launchMs?: number;
  observe?: Summary;
  act?: Summary;
  actName?: string;
  tokens?: number;
  error?: string;
}

const FORM = join(ROOT, 'test', 'apps', 'Form.java');

async function timed(n: number, warm: number, fn: (i: number) => Promise<void>): Promise<Summary> {
  const xs: number[] = [];
  for (let i = 0; i < warm + n; i++) {
    const t = performance.now();
    await fn(i);
    if (i >= warm) xs.push(performance.now() - t);
  }
  return summarize(xs);
}

function refOn(text: string, pattern: RegExp): string {
  const line = text.split('\n').find((l) => pattern.test(l));
  const ref = line ? /\[(e\d+)\]/.exec(line)?.[1] : undefined;
  if (!ref) throw new Error(`no line matches ${pattern}`);
  return ref;
}

async function benchOne(
  c: Computer,
  app: string,
  command: string,
  args: string[],
  observeApp: string,
  actOn: RegExp,
  act: (ref: string, i: number) => { op: 'set_value' | 'toggle'; value?: string },
  actName: string,
): Promise<ToolkitRow> {
  const row: ToolkitRow = { app, actName };
  let pid = 0;
  try {
    const t0 = performance.now();
    const launched = await c.tools.launch({ command, args, waitMs: 30000 });
    if (launched.isError) throw new Error(launched.text);
    row.launchMs = Math.round(performance.now() - t0);
    pid = Number(/pid=(\d+)/.exec(launched.text)?.[1]);
    let text = '';
    row.observe = await timed(RUNS, WARMUP, async () => {
      const r = await c.tools.observe({ app: observeApp });
      if (r.isError) throw new Error(r.text);
      text = r.text;
    });
    row.tokens = Math.round(text.length / 4);
    const ref = refOn(text, actOn);
    row.act = await timed(RUNS, WARMUP, async (i) => {
      const r = await c.tools.act({ actions: [{ ref, ...act(ref, i) }] });
      if (r.isError) throw new Error(r.text);
    });
  } catch (e) { row.error = errText(e); } finally {
    if (pid > 0) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
  }
  return row;
}

/** Measures featherpad and the Swing form; prints and returns the rows. */
export async function benchToolkits(): Promise<ToolkitRow[]> {
  const c = await createComputer({ desktop: 'current', mode: 'bypass', allowApps: ['featherpad', `java ${FORM}`] });
  const rows: ToolkitRow[] = [];
  try {
    rows.push(await benchOne(c, 'featherpad (Qt 5)', 'featherpad', [], 'featherpad', /document editable/,
      (_r, i) => ({ op: 'set_value', value: `line ${i}` }), 'set_value document'));
    rows.push(await benchOne(c, 'Swing form (OpenJDK 17)', 'java', [FORM], 'Swing Form', /checkbox "Subscribe"/,
      () => ({ op: 'toggle' }), 'toggle checkbox'));
  } finally { await c.close(); }
  console.log('\ntoolkits: observe and act through the tools (ms)');
  console.log('app | launch | observe p50 | observe p95 | snapshot tokens (chars/4) | act | act p50 | act p95');
  for (const r of rows) {
    console.log(
      r.error
        ? `${r.app} | FAILED: ${r.error.split('\n')[0]}`
        : `${r.app} | ${r.launchMs} | ${r.observe?.p50} | ${r.observe?.p95} | ${r.tokens} | ${r.actName} | ` +
            `${r.act?.p50} | ${r.act?.p95}`,
    );
  }
  return rows;
}
