/**
 * Find + click side by side with dogtail (python3-dogtail, Debian), in one run, on two windows: the "Agree" check
 * box of test/apps/act-lab.py (GTK3, a small window) and gtk3-widget-factory's "togglebutton" (a real window of
 * ~260 nodes), each found by name and role and clicked through its accessibility action (a check box shows its
 * effect at once; a button whose click changes nothing on screen makes our settle wait 400 ms for a first event,
 * which says more about that app than about either tool). dogtail runs with every delay off
 * (bench/dogtail_click.py); ours is computer_find then computer_act through the library, so it also pays for what
 * dogtail does not do: the policy and its audit, the settle, the re-read and the diff that make the receipt. The
 * check box is checked by what the app printed (one "agree on|off" per click); each row also gives computer_find
 * right after computer_observe of the same window (a window read in the last call), and the same find with the
 * window read afresh, interleaved in the same runs.
 */
import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Session } from '../src/session/session.js';
import { toolByName } from '../src/tools/index.js';
import { runTool, type ToolResult } from '../src/tools/tool.js';
import { ROOT, RUNS, WARMUP, errText, sleep } from './config.js';
import { median, r1, table } from './stats.js';
import { sumOf, timed } from './trace.js';

const APP = join(ROOT, 'test', 'apps', 'act-lab.py');
const SCRIPT = join(ROOT, 'bench', 'dogtail_click.py');

/** One side's medians (ms). */
export interface ClickSide {
  total: number; find: number; click: number; settle?: number; dispatch?: number; roundTrips?: number; runs: number[];
  /** Our click's time per driver method (p50 ms), and what is left in the host (policy, audit, engine, diff). */
  byMethod?: Record<string, number>; hostRest?: number;
}
export interface DogtailBench {
  app: string;
  target: string;
  runs: number;
  ours?: ClickSide;
  dogtail?: ClickSide;
  oursOverDogtail?: number;
  clicksSeen?: number;
  /** computer_find p50 right after a computer_observe of the same window (nothing changed between the two). */
  findAfterRead?: number;
  /** The same find, same run, with the driver's tree.changed answered "changed": the window read afresh. */
  findFresh?: number;
  /** Of the finds after a read: the tree.changed round trip's p50, and the driver reads (tree.snapshot, list.find). */
  findChangedMs?: number; findReads?: number;
  /** Receipts of our clicks that were not `confirmed`. */
  unconfirmed?: number;
  error?: string;
}

/** A window and the control both tools find and click in it. */
interface ClickCase {
  app: string; target: string;
  /** The program and its arguments. */
  argv: string[];
  /** Our window title and find query. */
  window: string; text: string; role: string;
  /** dogtail's application name, control name and role name. */
  dogtailApp: string; control: string; dogtailRole: string;
  /** Clicks the app printed, when it prints them (one line per click). */
  printedClick?: RegExp;
}

const CASES: ClickCase[] = [
  {
    app: 'act-lab (GTK3)',
    target: 'checkbox "Agree"',
    argv: ['/usr/bin/python3', APP],
    window: 'Act lab',
    text: 'Agree',
    role: 'checkbox',
    dogtailApp: 'act-lab',
    control: 'Agree',
    dogtailRole: 'check box',
    printedClick: /^agree (on|off)$/,
  },
  {
    app: 'gtk3-widget-factory',
    target: 'button "togglebutton"',
    argv: ['gtk3-widget-factory'],
    window: 'gtk3-widget-factory',
    text: 'togglebutton',
    role: 'button',
    dogtailApp: 'gtk3-widget-factory',
    control: 'togglebutton',
    dogtailRole: 'toggle button',
  },
];

const call = (session: Session, name: string, params: unknown): Promise<ToolResult> =>
  runTool(toolByName(name)!, { session }, params);

/** dogtail's runs, from its script's JSON line. */
function runDogtail(env: NodeJS.ProcessEnv, c: ClickCase): Promise<ClickSide> {
  return new Promise((resolve, reject) => {
    execFile('/usr/bin/python3', [SCRIPT, '--app', c.dogtailApp, '--control', c.control, '--role', c.dogtailRole, '--runs', String(RUNS), '--warmup', String(WARMUP)],
      { env, timeout: 120_000, maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
        let out: { runs_ms?: number[]; median_ms?: number; find_median_ms?: number; click_median_ms?: number; error?: string } | undefined;
        try { out = JSON.parse(stdout.trim().split('\n').pop() ?? '') as typeof out; } catch { /* below */ }
        if (out?.error) return reject(new Error(`dogtail: ${out.error}`));
        if (err || out?.median_ms === undefined)
          return reject(
            new Error(`dogtail: ${err?.message ?? 'no output'} ${stderr.trim().split('\n').slice(-2).join(' ')}`),
          );
        resolve({
          total: out.median_ms,
          find: out.find_median_ms ?? Number.NaN,
          click: out.click_median_ms ?? Number.NaN,
          runs: out.runs_ms ?? [],
        });
      });
  });
}

/**
 * computer_find right after computer_observe of the same window, p50 over the runs, and the same find in the same
 * runs with the window read afresh (the driver's tree.changed answered "changed", as after any event of the app).
 */
async function findAfterRead(session: Session, c: ClickCase, row: DogtailBench): Promise<void> {
  const kept: number[] = [];
  const fresh: number[] = [];
  const changed: number[] = [];
  const reads: number[] = [];
  const find = (): Promise<{ value: ToolResult; ms: number; calls: { method: string; ms: number }[] }> =>
    timed(() => call(session, 'computer_find', { window: c.window, text: c.text, role: c.role }));
  for (let i = 0; i < WARMUP + RUNS; i++) {
    for (const reuse of [true, false]) {
      await sleep(100);
      const seen = await call(session, 'computer_observe', { window: c.window });
      if (seen.isError) throw new Error(`computer_observe: ${seen.text.split('\n')[0] ?? ''}`);
      const f = reuse ? await find() : await changedEverywhere(session, find);
      if (f.value.isError) throw new Error(`computer_find: ${f.value.text.split('\n')[0] ?? ''}`);
      if (i < WARMUP) continue;
      if (!reuse) { fresh.push(f.ms); continue; }
      kept.push(f.ms);
      changed.push(sumOf(f.calls, 'tree.changed'));
      reads.push(f.calls.filter((x) => x.method === 'tree.snapshot' || x.method === 'list.find').length);
    }
  }
  row.findAfterRead = r1(median(kept));
  row.findFresh = r1(median(fresh));
  row.findChangedMs = r1(median(changed));
  row.findReads = median(reads);
}

/** Runs `fn` with the driver's tree.changed answered "changed" (no kept read is good). */
async function changedEverywhere<T>(session: Session, fn: () => Promise<T>): Promise<T> {
  const device = session.device as unknown as { call: (method: string, ...rest: unknown[]) => Promise<unknown> };
  const call = device.call;
  device.call = (method, ...rest) =>
    method === 'tree.changed' ? Promise.resolve({ changed: true, windows: true }) : call.call(device, method, ...rest);
  try { return await fn(); } finally { device.call = call; }
}

/** Our find + click runs on one case: the find comes after the previous run's act (which read the window). */
async function ourClicks(session: Session, c: ClickCase, row: DogtailBench): Promise<ClickSide> {
  const total: number[] = [];
  const find: number[] = [];
  const click: number[] = [];
  const settle: number[] = [];
  const dispatch: number[] = [];
  const trips: number[] = [];
  const byMethod = new Map<string, number[]>();
  const hostRest: number[] = [];
  const found = new RegExp(`\\[(e\\d+)\\] ${c.role} "${c.text}"`);
  row.unconfirmed = 0;
  for (let i = 0; i < WARMUP + RUNS; i++) {
    await sleep(250);
    const f = await timed(() => call(session, 'computer_find', { window: c.window, text: c.text, role: c.role }));
    const ref = found.exec(f.value.text)?.[1];
    if (!ref) throw new Error(`computer_find did not find ${c.target}: ${f.value.text.split('\n')[0] ?? ''}`);
    const a = await timed(() => call(session, 'computer_act', { actions: [{ ref, op: 'click' }] }));
    if (a.value.isError) throw new Error(`computer_act: ${a.value.text.split('\n')[0] ?? ''}`);
    if (!/\bconfirmed\b/.test(a.value.text.split('\n')[0] ?? '')) row.unconfirmed++;
    if (i < WARMUP) continue;
    find.push(f.ms);
    click.push(a.ms);
    total.push(f.ms + a.ms);
    settle.push(sumOf(a.calls, 'ui.settle'));
    dispatch.push(sumOf(a.calls, 'node.act'));
    trips.push([...f.calls, ...a.calls].filter((c) => c.method !== 'ui.highlight').length);
    for (const m of new Set(a.calls.map((x) => x.method)))
      byMethod.set(m, [...(byMethod.get(m) ?? []), sumOf(a.calls, m)]);
    // The activity frame's call runs beside the others, not between them: left out of the host's share.
    hostRest.push(a.ms - a.calls.filter((x) => x.method !== 'ui.highlight').reduce((sum, x) => sum + x.ms, 0));
  }
  return {
    total: r1(median(total)),
    find: r1(median(find)),
    click: r1(median(click)),
    settle: r1(median(settle)),
    dispatch: r1(median(dispatch)),
    roundTrips: median(trips),
    runs: total.map(r1),
    byMethod: Object.fromEntries([...byMethod].map(([m, v]) => [m, r1(median(v))])),
    hostRest: r1(median(hostRest)),
  };
}

async function benchCase(session: Session, c: ClickCase): Promise<DogtailBench> {
  const row: DogtailBench = { app: c.app, target: c.target, runs: RUNS };
  const [cmd, ...args] = c.argv;
  const child = spawn(cmd!, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  let printed = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => { printed += d; });
  try {
    const seen = await call(session, 'computer_wait', { until: 'window_appears', text: c.window, timeoutMs: 20000 });
    if (seen.isError) throw new Error(seen.text.split('\n')[0] ?? 'no window');
    await findAfterRead(session, c, row);
    row.ours = await ourClicks(session, c, row);
    row.dogtail = await runDogtail(process.env, c);
    row.oursOverDogtail = Math.round((row.ours.total / row.dogtail.total) * 100) / 100;
    await sleep(300);
    if (c.printedClick) {
      row.clicksSeen = printed.split('\n').filter((l) => c.printedClick!.test(l)).length;
      if (row.clicksSeen !== 2 * (WARMUP + RUNS))
        row.error = `the app printed ${row.clicksSeen} clicks of ${2 * (WARMUP + RUNS)}`;
    }
  } catch (e) {
    row.error = errText(e);
  } finally {
    child.kill();
    await sleep(300);
  }
  return row;
}

/** Each case's row, measured one after the other in this run. */
export async function benchDogtail(session: Session): Promise<DogtailBench[]> {
  const rows: DogtailBench[] = [];
  for (const c of CASES) rows.push(await benchCase(session, c));
  return rows;
}

/** The side-by-side table of one case. */
export function dogtailTable(r: DogtailBench): string {
  const side = (name: string, s: ClickSide | undefined): (string | number | undefined)[] =>
    [name, s?.total, s?.find, s?.click, s?.dispatch, s?.settle, s?.roundTrips];
  return (
    `${r.app}, ${r.target}\n` +
    `${table(
      ['find + click', 'p50 total', 'find p50', 'click p50', 'node.act p50', 'settle p50', 'round trips'],
      [
        side('computer_find + computer_act (receipt, settle, diff)', r.ours),
        side('dogtail (delays off, no wait, no check)', r.dogtail),
      ],
    )}\n` +
    `ours/dogtail p50: ${r.oursOverDogtail ?? '?'}; receipts not confirmed: ${r.unconfirmed ?? '?'}\n` +
    `${table(
      [
        'computer_find right after computer_observe',
        'p50 ms',
        'tree.changed p50 (calls summed)',
        'driver reads p50',
        '≤15 ms',
      ],
      [
        [
          'the window read in the last call',
          r.findAfterRead,
          r.findChangedMs,
          r.findReads,
          r.findAfterRead === undefined ? '?' : r.findAfterRead <= 15 ? 'PASS' : 'FAIL',
        ],
        ['read afresh (tree.changed answered "changed")', r.findFresh, '-', '-', '-'],
      ],
    )}\n` +
    `our click by driver method, p50 ms: ${Object.entries(r.ours?.byMethod ?? {})
      .map(([m, v]) => `${m} ${v}`)
      .join(', ')}; ` +
    (`host between calls (policy, audit, engine, diff): ${r.ours?.hostRest ?? '?'}` +
      `${r.clicksSeen !== undefined ? `; clicks the app printed: ${r.clicksSeen}` : ''}`) +
    `${r.error ? `; error: ${r.error}` : ''}`
  );
}
