/**
 * Spreadsheet grid bench: LibreOffice Calc with 10,000 filled cells (500 rows × 20 columns).
 *   - observe p50 and tokens (the window snapshot, the sheet as a grid);
 *   - find of an off-screen cell (T480): the find tool, and going there through the Name Box + observe;
 *   - act on it once in view (set_value on e<table>:T480, read back);
 *   - soffice.bin RSS before and after 100 observes.
 * Runs inside the bench's sandbox (process env); prints a table and returns the figures. Targets (not asserted):
 * observe ≤ 300 ms, find ≤ 200 ms.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { estimateTokens } from '../src/engine/measure.js';
import { createComputer, type Computer } from '../src/index.js';
import { CALC_APPS, startCalc } from '../test/e2e/grid/calc.js';
import { RUNS, WARMUP, errText } from './config.js';

/** What the grid bench measured. */
export interface GridBench {
  cells: number;
  observe?: { p50: number; p90: number; runs: number; tokens: number; rawNodes?: number };
  find?: { ms: number; matches: string };
  goTo?: { ms: number; visible: boolean };
  act?: { ms: number; receipt: string };
  rss?: { beforeMb: number; afterMb: number; observes: number; p50: number };
  error?: string;
}

const ROWS = 500;
const COLS = 20;

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m?.[1] ? Math.round(Number(m[1]) / 1024) : 0;
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((s.length - 1) * p))] ?? Number.NaN);
}

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const r = await f();
  return [r, performance.now() - t0];
}

/** Writes the 10,000-cell sheet (CSV converted to .ods by a headless soffice, so no import dialog). */
async function makeSheet(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cu-grid-bench-'));
  const rows: string[] = [];
  for (let r = 1; r <= ROWS; r++) rows.push(Array.from({ length: COLS }, (_, c) => String(r * 100 + c)).join(','));
  const csv = join(dir, 'cells.csv');
  await writeFile(csv, `${rows.join('\n')}\n`);
  await promisify(execFile)(
    'soffice',
    ['--headless', `-env:UserInstallation=file://${dir}/profile`, '--convert-to', 'ods', '--outdir', dir, csv],
    { timeout: 120_000 },
  );
  return join(dir, 'cells.ods');
}

/** Runs the Calc grid bench on the current desktop; never throws (errors go into the result). */
export async function benchGrid(): Promise<GridBench> {
  const out: GridBench = { cells: ROWS * COLS };
  let computer: Computer | undefined;
  let pids: number[] = [];
  try {
    process.stdout.write('\n[calc grid] converting 10,000 cells… ');
    const file = await makeSheet();
    computer = await createComputer({ desktop: 'current', mode: 'bypass', allowApps: CALC_APPS });
    const started = await startCalc(computer, file);
    pids = started.pids;
    let text = '';
    for (let i = 0; i < 30 && !/cells A1:/.test(text); i++) {
      text = (await computer.tools.observe({ app: 'soffice' })).text;
      if (!/cells A1:/.test(text)) await new Promise((r) => setTimeout(r, 500));
    }
    const table = /\[(e\d+)\] table "Sheet [^"]*" .*cells /.exec(text)?.[1];
    if (!table) throw new Error('no sheet grid in the snapshot');
    process.stdout.write('observing… ');
    const times: number[] = [];
    let tokens = 0;
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const [r, ms] = await timed(() => computer!.tools.observe({ app: 'soffice' }));
      if (i >= WARMUP) { times.push(ms); tokens = estimateTokens(r.text); }
    }
    out.observe = { p50: pct(times, 0.5), p90: pct(times, 0.9), runs: times.length, tokens };

    // Off screen: the sheet shows ~A1:O46; T480 is far below and to the right.
    const [found, findMs] = await timed(() => computer!.tools.find({ app: 'soffice', text: 'T480' }));
    out.find = { ms: Math.round(findMs), matches: found.text.split('\n')[0]?.slice(0, 80) ?? '' };
    const nameBox = /\[(e\d+)\] textbox value="[A-Z]+\d+(:[A-Z]+\d+)?" editable/.exec(text)?.[1];
    if (!nameBox) throw new Error('no Name Box in the snapshot');
    const [, goMs] = await timed(async () => {
      await computer!.tools.act({
        actions: [
          { ref: nameBox, op: 'focus' },
          { ref: nameBox, op: 'set_value', value: 'T480' },
        ],
      });
      await computer!.tools.keys({ app: 'soffice', keys: 'Return' });
      text = (await computer!.tools.observe({ app: 'soffice' })).text;
    });
    out.goTo = { ms: Math.round(goMs), visible: /cursor T480/.test(text) };
    const [acted, actMs] = await timed(() =>
      computer!.tools.act({ actions: [{ ref: `${table}:T480`, op: 'set_value', value: '=T479+1' }] }),
    );
    out.act = { ms: Math.round(actMs), receipt: acted.text.split('\n')[0]?.slice(0, 140) ?? '' };

    process.stdout.write('100 observes for RSS… ');
    const before = rssMb(started.pid);
    const many: number[] = [];
    for (let i = 0; i < 100; i++) many.push((await timed(() => computer!.tools.observe({ app: 'soffice' })))[1]);
    out.rss = { beforeMb: before, afterMb: rssMb(started.pid), observes: 100, p50: pct(many, 0.5) };
    process.stdout.write('done');
  } catch (e) {
    out.error = errText(e);
    process.stdout.write(`FAILED: ${out.error}`);
  } finally {
    await computer?.close().catch(() => undefined);
    for (const pid of pids) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } }
  }
  printGrid(out);
  return out;
}

/** Prints the grid bench as a small table with the targets. */
export function printGrid(b: GridBench): void {
  const mark = (ok: boolean | undefined): string => (ok === undefined ? '' : ok ? 'PASS' : 'FAIL');
  console.log(`\nCalc grid, ${b.cells.toLocaleString('en-US')} filled cells${b.error ? ` — error: ${b.error}` : ''}`);
  if (b.observe)
    console.log(
      `  observe p50 ${b.observe.p50} ms (p90 ${b.observe.p90}, ${b.observe.runs} runs), ${b.observe.tokens} ` +
        `tokens   target ≤ 300 ms ${mark(b.observe.p50 <= 300)}`,
    );
  if (b.find)
    console.log(
      `  find "T480" (off screen) ${b.find.ms} ms: ${b.find.matches}   target ≤ 200 ms ` + `${mark(b.find.ms <= 200)}`,
    );
  if (b.goTo) console.log(`  go to T480 via the Name Box + observe ${b.goTo.ms} ms, in view: ${b.goTo.visible}`);
  if (b.act) console.log(`  act set_value e<table>:T480 ${b.act.ms} ms: ${b.act.receipt}`);
  if (b.rss)
    console.log(
      `  soffice.bin RSS ${b.rss.beforeMb} → ${b.rss.afterMb} MB over ${b.rss.observes} observes (p50 ` +
        `${Math.round(b.rss.p50)} ms)`,
    );
}
