/**
 * Text content bench: a VTE terminal (xfce4-terminal) after 2,000 lines of output and a
 * 50-page PDF in Evince. Measures observe p50 and its tokens, `computer_find` p50 (a line on screen in the
 * terminal; a sentence on page 50 in the PDF) and a range read (`scope=eN from=K`). Runs when BENCH_APPS is
 * unset or names `text`; prints a table and writes bench/results/text-latest.json.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { textTokens } from '../src/demo/tokens.js';
import type { Session } from '../src/session/session.js';
import { runTool } from '../src/tools/tool.js';
import { toolByName } from '../src/tools/index.js';
import { writePdf } from '../test/apps/minipdf.js';
import { RESULTS, RUNS, WARMUP, errText, sleep } from './config.js';
import { summarize, type Summary } from './stats.js';

/** One row of the text bench. */
export interface TextRow {
  app: string;
  observe?: Summary;
  observeTokens?: number;
  find?: Summary;
  findText?: string;
  range?: Summary;
  rangeTokens?: number;
  error?: string;
}

/** Whether BENCH_APPS asks for this bench. */
export function wantsTextBench(): boolean {
  const only = process.env['BENCH_APPS']?.split(',').map((s) => s.trim()).filter(Boolean);
  return !only || only.includes('text');
}

async function call(session: Session, tool: string, params: Record<string, unknown>): Promise<string> {
  const r = await runTool(toolByName(tool)!, { session }, params);
  if (r.isError) throw new Error(r.text);
  return r.text;
}

async function timedRuns(fn: () => Promise<string>): Promise<{ summary: Summary; last: string }> {
  for (let i = 0; i < WARMUP; i++) await fn();
  const ms: number[] = [];
  let last = '';
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    last = await fn();
    ms.push(performance.now() - t0);
  }
  return { summary: summarize(ms), last };
}

async function waitFor(session: Session, app: string, pattern: RegExp): Promise<string> {
  let text = '';
  for (let i = 0; i < 120; i++) {
    text = await call(session, 'computer_observe', { app }).catch((e: unknown) => errText(e));
    if (pattern.test(text)) return text;
    await sleep(250);
  }
  throw new Error(`${app}: ${pattern} never showed`);
}

async function measure(session: Session, app: string, query: string, row: TextRow): Promise<void> {
  const obs = await timedRuns(() => call(session, 'computer_observe', { app }));
  row.observe = obs.summary;
  row.observeTokens = textTokens(obs.last);
  const find = await timedRuns(() => call(session, 'computer_find', { app, text: query }));
  row.find = find.summary;
  row.findText = find.last.split('\n').slice(0, 2).join(' | ');
  const hint = /scope=(e\d+) from=(\d+)/.exec(obs.last) ?? /\[(e\d+)\] terminal "Terminal"/.exec(obs.last);
  if (hint?.[1]) {
    const range = await timedRuns(() =>
      call(session, 'computer_observe', { app, scope: hint[1], from: Number(hint[2] ?? 0) }),
    );
    row.range = range.summary;
    row.rangeTokens = textTokens(range.last);
  }
}

/** Runs the text bench on `session`'s desktop; errors go into `errors`. */
export async function benchText(session: Session, errors: string[]): Promise<TextRow[]> {
  const rows: TextRow[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'cu-bench-text-'));
  const pids: number[] = [];
  const start = (cmd: string, args: string[]): void => {
    const c = spawn(cmd, args, { detached: true, stdio: 'ignore' });
    c.unref();
    if (c.pid) pids.push(c.pid);
  };
  try {
    const term: TextRow = { app: 'xfce4-terminal, 2,000 lines' };
    rows.push(term);
    try {
      start('xfce4-terminal', [
        '--disable-server',
        '--hide-menubar',
        '--hide-toolbar',
        '-x',
        'sh',
        '-c',
        'seq -f "row-%g" 2000; exec sh',
      ]);
      await waitFor(session, 'xfce4-terminal', /row-2000/);
      await measure(session, 'xfce4-terminal', 'row-1990', term);
    } catch (e) { term.error = errText(e); errors.push(`text bench terminal: ${term.error}`); }

    const pdf: TextRow = { app: 'Evince, 50-page PDF' };
    rows.push(pdf);
    try {
      const file = join(dir, 'long.pdf');
      writePdf(
        file,
        Array.from({ length: 50 }, (_, p) =>
          Array.from({ length: 40 }, (_, l) =>
            p === 49 && l === 20
              ? 'The closing sentence sits on the last page.'
              : `Page ${p + 1}, line ${l + 1}: the quick brown fox jumps over the lazy dog.`,
          ),
        ),
      );
      start('evince', [file]);
      await waitFor(session, 'evince', /Page 1, line 1/);
      await measure(session, 'evince', 'closing sentence', pdf);
    } catch (e) { pdf.error = errText(e); errors.push(`text bench pdf: ${pdf.error}`); }
  } finally {
    for (const pid of pids) { try { process.kill(pid, 'SIGTERM'); } catch { /* gone */ } }
    await sleep(300);
  }
  console.log('\ntext content');
  console.log('app                          observe p50  tokens  find p50  range p50  range tokens  find answer');
  for (const r of rows) {
    if (r.error) { console.log(`${r.app.padEnd(28)} error: ${r.error}`); continue; }
    console.log(
      `${r.app.padEnd(28)} ${String(r.observe?.p50 ?? '-').padStart(8)} ms ` +
        `${String(r.observeTokens ?? '-').padStart(7)} ${String(r.find?.p50 ?? '-').padStart(6)} ms ` +
        `${String(r.range?.p50 ?? '-').padStart(7)} ms ${String(r.rangeTokens ?? '-').padStart(12)}  ` +
        `${r.findText ?? ''}`,
    );
  }
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(
    join(RESULTS, 'text-latest.json'),
    `${JSON.stringify({ at: new Date().toISOString(), runs: RUNS, rows }, null, 2)}\n`,
  );
  return rows;
}
