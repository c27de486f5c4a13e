/** The benchmark report: its JSON shape, the printed tables (PASS/FAIL against the targets) and the result files. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ActBench } from './act.js';
import type { FixedCost } from './fixedcost.js';
import { RESULTS, TARGETS } from './config.js';
import type { ObserveResult } from './observe.js';
import { table, verdict } from './stats.js';

export interface Report {
  startedAt: string;
  host: { cpus: number; node: string; runs: number; warmup: number; baselineRuns: number };
  sandbox?: string;
  screenshotFormula: string;
  targets: typeof TARGETS;
  observe: ObserveResult[];
  acts: ActBench[];
  /** Tool list + server instructions, o200k tokens, as an MCP client receives them (fixedcost.ts). */
  fixedCost?: FixedCost;
  errors: string[];
  durationMs?: number;
}

export function printReport(r: Report): void {
  if (r.fixedCost) printFixedCost(r.fixedCost);
  const o = r.observe;
  console.log(`== Observe (${r.host.runs} runs after ${r.host.warmup} warm-ups; ms) ==`);
  console.log(
    table(
      [
        'app',
        'nodes',
        'observe p50',
        'p95',
        'driver read p50',
        'p95',
        'apps.list p50',
        'rpc p50',
        'engine p50',
        'lines',
        'error',
      ],
      o.map((x) => [
        x.app,
        x.rawNodes,
        x.observe?.p50,
        x.observe?.p95,
        x.driverRead?.p50,
        x.driverRead?.p95,
        x.appsListP50,
        x.rpcP50,
        x.engineP50,
        x.shownLines,
        x.error ?? x.warning,
      ]),
    ),
  );
  console.log(`\n== Tokens: snapshot vs screenshot ==\nscreenshot tokens = ${r.screenshotFormula}`);
  console.log(table(
    ['app', 'window w×h', 'snapshot o200k p50', 'engine estimate', 'screenshot', 'ratio', `≤${TARGETS.snapshotTokensMedian}`],
    o.map((x) => {
      const spec = /gedit|widget-factory/.test(x.app);
      return [
        x.app,
        x.window?.bounds ? `${x.window.bounds[2]}×${x.window.bounds[3]}` : undefined,
        x.snapshotTokensO200k,
        x.snapshotTokensEstimate,
        x.screenshotTokens,
        x.ratio === undefined ? undefined : `${x.ratio}×`,
        spec && x.snapshotTokensO200k !== undefined
          ? `${verdict(x.snapshotTokensO200k <= TARGETS.snapshotTokensMedian)}` +
            `${x.warning ? ' (snapshot incomplete)' : ''}`
          : 'n/a',
      ];
    }),
  ));
  console.log('\n== libatspi (python3-gi, full walk, median of 5) vs ours ==');
  console.log(table(
    ['app', 'libatspi ms', 'libatspi nodes', 'our observe p50', 'observe nodes', 'libatspi/observe', 'our full-tree read', 'full-tree nodes', 'libatspi/full', 'target', 'error'],
    o.map((x) => {
      const gtk4 = x.app === 'gtk4-widget-factory';
      const target = !gtk4
        ? 'n/a'
        : x.warning || !x.observe || x.speedup === undefined
          ? 'FAIL (snapshot incomplete)'
          : `${verdict(x.observe.p50 <= TARGETS.gtk4ObserveP50Ms)} p50≤${TARGETS.gtk4ObserveP50Ms} / ` +
            `${verdict(x.speedup >= TARGETS.gtk4SpeedupVsLibatspi)} ≥${TARGETS.gtk4SpeedupVsLibatspi}×`;
      return [
        x.app,
        x.libatspi?.medianMs,
        x.libatspi?.nodes,
        x.observe?.p50,
        x.rawNodes,
        x.speedup === undefined || Number.isNaN(x.speedup) ? undefined : `${x.speedup}×`,
        x.fullTree?.ms,
        x.fullTree?.nodes,
        x.speedupFullTree === undefined ? undefined : `${x.speedupFullTree}×`,
        target,
        x.libatspi?.error ?? x.fullTree?.error ?? x.error ?? x.warning,
      ];
    }),
  ));
  console.log(
    `\n== Act + settle (${r.host.runs} runs after ${r.host.warmup} warm-ups; ms; tokens = o200k of the tool ` +
      `result) ==`,
  );
  console.log(
    table(
      [
        'app',
        'action',
        'target',
        'p50',
        'p95',
        'settle p50',
        'dispatch p50',
        'rest p50',
        'round trips',
        'tokens p50',
        'max',
        `p50≤${TARGETS.actSettleP50Ms}`,
        `tok≤${TARGETS.actResultTokens}`,
        'error',
      ],
      r.acts.map((a) => [
        a.app,
        a.path === 'listed' ? `${a.name} (listed path)` : a.name,
        a.target,
        a.latency?.p50,
        a.latency?.p95,
        a.settleP50,
        a.dispatchP50,
        a.restP50,
        a.roundTripsP50,
        a.tokensP50,
        a.tokensMax,
        a.targetsApply.latency && a.latency ? verdict(a.latency.p50 <= TARGETS.actSettleP50Ms) : 'n/a',
        a.targetsApply.tokens && a.tokensP50 !== undefined ? verdict(a.tokensP50 <= TARGETS.actResultTokens) : 'n/a',
        a.error,
      ]),
    ),
  );
  const paths = actPaths(r.acts);
  if (paths.length) {
    console.log('\n== Acting paths, same run (listed: apps.list + process.identify first, as drivers without act_identity/act_windows; proving: the driver proves at dispatch) ==');
    console.log(
      table(
        [
          'app',
          'action',
          'round trips listed → proving',
          'p50 listed',
          'p50 proving',
          'proving/listed p50',
          'settle p50 listed → proving',
        ],
        paths.map((p) => [
          p.app,
          p.name,
          `${p.roundTrips[0]} → ${p.roundTrips[1]}`,
          p.p50[0],
          p.p50[1],
          p.ratio,
          `${p.settleP50[0]} → ${p.settleP50[1]}`,
        ]),
      ),
    );
  }
  const samples = r.acts.filter((a) => a.sample);
  if (samples.length) {
    console.log('\n== Sample act results ==');
    for (const a of samples)
      console.log(
        `-- ${a.app} / ${a.name}${a.path === 'listed' ? ' (listed path)' : ''}:\n${a.sample}` +
          `${a.check ? `\n   [check] ${a.check}` : ''}` +
          `${a.roundTripMethods ? `\n   [round trips] ${a.roundTripMethods}` : ''}`,
      );
  }
  if (r.errors.length) console.log(`\nerrors:\n${r.errors.map((e) => `  ${e}`).join('\n')}`);
}

/** One act measured on both acting paths in the same run (bench/act.ts `path`). */
export interface ActPathPair { app: string; name: string; roundTrips: Pair; p50: Pair; settleP50: Pair; ratio?: number }
/** A value on the listed path, then on the proving path (undefined when not measured). */
type Pair = [number | undefined, number | undefined];

/** Pairs the listed and proving rows of each act. */
export function actPaths(acts: ActBench[]): ActPathPair[] {
  const out: ActPathPair[] = [];
  for (const after of acts.filter((a) => a.path === 'proving')) {
    const before = acts.find((a) => a.path === 'listed' && a.app === after.app && a.name === after.name);
    if (!before) continue;
    const ratio =
      before.latency && after.latency && before.latency.p50 > 0
        ? Math.round((after.latency.p50 / before.latency.p50) * 100) / 100
        : undefined;
    out.push({
      app: after.app,
      name: after.name,
      roundTrips: [before.roundTripsP50, after.roundTripsP50],
      p50: [before.latency?.p50, after.latency?.p50],
      settleP50: [before.settleP50, after.settleP50],
      ...(ratio !== undefined ? { ratio } : {}),
    });
  }
  return out;
}

/** The fixed cost table: what every conversation pays before the first call. */
export function printFixedCost(c: FixedCost): void {
  console.log('== Fixed cost per conversation (o200k tokens: tools/list JSON + server instructions, as an MCP client gets them) ==');
  console.log(table(['tools', 'tool list', 'instructions', 'total', `≤${c.budget}`],
    [[c.toolCount, c.tools, c.instructions, c.total, verdict(c.total <= c.budget)]]));
  console.log(`per tool: ${Object.entries(c.perTool).map(([k, v]) => `${k} ${v}`).join(', ')}\n`);
}

/** Writes bench/results/bench-<date>.json and bench/results/latest.json. */
export async function writeReport(r: Report): Promise<void> {
  await mkdir(RESULTS, { recursive: true });
  const json = JSON.stringify({ ...r, actPaths: actPaths(r.acts) }, null, 2) + '\n';
  const stamp = r.startedAt.replace(/:/g, '-').replace(/\.\d+Z$/, 'Z');
  await writeFile(join(RESULTS, `bench-${stamp}.json`), json);
  await writeFile(join(RESULTS, 'latest.json'), json);
  console.log(
    `\nwrote bench/results/bench-${stamp}.json and bench/results/latest.json (` +
      `${Math.round((r.durationMs ?? 0) / 1000)} s)`,
  );
}
