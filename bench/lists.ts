/**
 * Long lists: a GTK3 TreeView and ListBox of 1k / 5k / 20k rows (test/apps/long-lists.py)
 * and Thunar showing a folder of 3,000 files. Per case: observe p50 and tokens, find of an off-screen row
 * p50, scroll-into-view + select of it (verified by the receipt), and the app's RSS before and after 100
 * observes. Targets: observe ≤ 300 ms and find ≤ 200 ms, flat in N. Runs on the desktop the
 * process environment names (bench/run.ts sets it). Env: BENCH_LIST_SIZES (default "1000,5000,20000").
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createComputer, type Computer } from '../src/index.js';
import { textTokens } from '../src/demo/tokens.js';
import { sleep } from './config.js';
import { summarize, table, type Summary } from './stats.js';

const SCRIPT = join(import.meta.dirname, '..', '..', 'test', 'apps', 'long-lists.py');

/** One measured case. */
export interface ListCase {
  case: string;
  observe?: Summary;
  tokens?: number;
  range?: string;
  find?: Summary;
  findScanned?: string;
  scrollSelectMs?: number;
  selected?: boolean;
  rssMb?: [number, number];
  error?: string;
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m?.[1] ? Math.round(Number(m[1]) / 1024) : 0;
}

async function timedMs<T>(f: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const r = await f();
  return [performance.now() - t0, r];
}

async function waitApp(c: Computer, app: string, pid?: number): Promise<number> {
  for (let i = 0; i < 240; i++) {
    const m = new RegExp(`^${app} pid=(${pid ?? '\\d+'})\\n  `, 'm').exec((await c.tools.apps({})).text);
    if (m?.[1]) return Number(m[1]);
    await sleep(500);
  }
  throw new Error(`${app} never showed a window`);
}

/** Observe ×runs, find ×3, scroll to + select once, then RSS around 100 observes. */
async function measure(
  c: Computer,
  label: string,
  app: string,
  pid: number,
  text: string,
  runs: number,
  rssObserves: number,
): Promise<ListCase> {
  const out: ListCase = { case: label };
  const obs: number[] = [];
  let snap = '';
  for (let i = 0; i < runs + 1; i++) {
    const [ms, r] = await timedMs(() => c.tools.observe({ app }));
    if (r.isError) throw new Error(r.text);
    if (i > 0) obs.push(ms);
    snap = r.text;
  }
  out.observe = summarize(obs);
  out.tokens = textTokens(snap);
  out.range = /… (rows [\d,–]+ of [\d,]+)/.exec(snap)?.[1] ?? 'no range line';
  const finds: number[] = [];
  let found = '';
  for (let i = 0; i < 3; i++) {
    const [ms, r] = await timedMs(() => c.tools.find({ app, text }));
    finds.push(ms);
    found = r.text;
  }
  out.find = summarize(finds);
  const hit = new RegExp(`"${text}" — \\w+ ([\\d,]+) of .*op=scroll value="(to \\d+)"`).exec(found);
  const ref = /computer_act ref=(e\d+)/.exec(found)?.[1];
  out.findScanned = hit ? `row ${hit[1]}` : (/\(searched [^)]*\)/.exec(found)?.[0] ?? 'not found');
  if (hit?.[2] && ref) {
    const [ms, sel] = await timedMs(async () => {
      await c.tools.act({ actions: [{ ref, op: 'scroll', value: hit[2]! }] });
      const now = (await c.tools.observe({ app })).text;
      // A ListBox row is a nameless listitem around its label: select the row.
      const row = new RegExp(`\\[(e\\d+)\\] listitem\\n\\s+\\[e\\d+\\] label "${text}"|\\[(e\\d+)\\] cell "${text}"`)
        .exec(now)
        ?.slice(1)
        .find(Boolean);
      if (!row) return 'row not in the snapshot after the scroll';
      return (await c.tools.act({ actions: [{ ref: row, op: 'select' }] })).text;
    });
    out.scrollSelectMs = Math.round(ms);
    out.selected = /confirmed|selected/.test(sel);
  }
  const before = rssMb(pid);
  for (let i = 0; i < rssObserves; i++) await c.tools.observe({ app });
  out.rssMb = [before, rssMb(pid)];
  return out;
}

/** Runs every case; prints a table and returns the rows. */
export async function benchLists(runs = 10): Promise<ListCase[]> {
  const sizes = (process.env['BENCH_LIST_SIZES'] ?? '1000,5000,20000').split(',').map(Number).filter((n) => n > 0);
  const python = realpathSync('/usr/bin/python3');
  const script = realpathSync(SCRIPT);
  const c = await createComputer({
    desktop: 'current',
    mode: 'bypass',
    allowApps: ['thunar', `${basename(python)} ${script}`],
  });
  const rows: ListCase[] = [];
  try {
    for (const n of sizes) {
      const child = spawn(python, [script, String(n)], { detached: true, stdio: 'ignore' });
      try {
        const pid = await waitApp(c, 'long-lists', child.pid);
        await sleep(1000);
        const target = Math.round(n * 0.87);
        for (const [what, text] of [['TreeView', `item-${target}`], ['ListBox', `entry-${target}`]] as const) {
          try {
            rows.push(
              await measure(
                c,
                `${what} ${n.toLocaleString('en-US')}`,
                'long-lists',
                pid,
                text,
                runs,
                what === 'TreeView' ? 100 : 0,
              ),
            );
          } catch (e) {
            rows.push({ case: `${what} ${n}`, error: (e as Error).message.slice(0, 200) });
          }
        }
      } finally { if (child.pid) try { process.kill(child.pid, 'SIGKILL'); } catch { /* gone */ } }
    }
    const dir = mkdtempSync(join(tmpdir(), 'cu-bench-files-'));
    try {
      for (let i = 1; i <= 3000; i++) writeFileSync(join(dir, `file-${i}.txt`), '');
      spawnSync('xfconf-query', ['-c', 'thunar', '-p', '/last-view', '-n', '-t', 'string', '-s', 'ThunarDetailsView']);
      const child = spawn('thunar', [dir], { detached: true, stdio: 'ignore' });
      let pid: number | undefined;
      try {
        pid = await waitApp(c, 'thunar');
        await sleep(2000);
        rows.push(await measure(c, 'Thunar 3,000 files', 'thunar', pid, 'file-2345.txt', runs, 100));
      } catch (e) { rows.push({ case: 'Thunar 3,000 files', error: (e as Error).message.slice(0, 200) }); }
      finally {
        for (const p of [child.pid, pid]) if (p) try { process.kill(p, 'SIGKILL'); } catch { /* gone */ }
      }
    } finally { rmSync(dir, { recursive: true, force: true }); }
  } finally { await c.close(); }
  console.log('\nLong lists (targets: observe ≤ 300 ms, find ≤ 200 ms, flat in N)');
  console.log(
    table(
      [
        'case',
        'observe p50',
        'tokens',
        'range shown',
        'find p50',
        'found',
        'scroll+select ms',
        'selected',
        'RSS MB before→after 100 observes',
      ],
      rows.map((r) => [
        r.case,
        r.observe?.p50 ?? r.error ?? '',
        r.tokens ?? '',
        r.range ?? '',
        r.find?.p50 ?? '',
        r.findScanned ?? '',
        r.scrollSelectMs ?? '',
        r.selected === undefined ? '' : String(r.selected),
        r.rssMb ? `${r.rssMb[0]} → ${r.rssMb[1]}` : '',
      ]),
    ),
  );
  return rows;
}
