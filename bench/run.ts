/**
 * The benchmark: starts its own sandbox desktop, launches each app through the library and measures
 *   1. observe (driver read + engine) latency, driver read alone, node counts, snapshot tokens (o200k and the
 *      engine's estimate) against screenshot-equivalent tokens (observe.ts);
 *   2. a libatspi (python3-gi) full-tree walk of the same window, side by side (baseline.ts);
 *   3. act + settle latency and act result tokens on gtk3-widget-factory and gedit (act.ts);
 *   4. the fixed cost: tool list + server instructions in o200k tokens, as an MCP client receives them (fixedcost.ts);
 *   5. find + click side by side with dogtail, delays off (dogtail.ts).
 * Prints plain tables with PASS/FAIL columns against the targets (never asserted: the machine is
 * noisy) and writes bench/results/bench-<date>.json and bench/results/latest.json (report.ts).
 * Env: BENCH_RUNS (default 10), BENCH_WARMUP (2), BENCH_APPS (comma list of app keys to run), BENCH_KEEP=1
 * (leave the sandbox running), BENCH_DUMP=1 (print each snapshot).
 */
import { cpus } from 'node:os';
import { A11yBus } from '../src/drivers/linux/bus/bus.js';
import { Device } from '../src/devices/manager.js';
import { sandboxEnv, startSandbox, stopSandbox, type SandboxInfo } from '../src/drivers/linux/sandbox/sandbox.js';
import { Session } from '../src/session/session.js';
import { actsGedit, actsWidgetFactory } from './act.js';
import { benchGecko } from './gecko.js';
import { benchActLifecycle } from './act-lifecycle.js';
import { benchDogtail, dogtailTable } from './dogtail.js';
import { benchGrid } from './grid.js';
import { benchLists } from './lists.js';
import { measureFixedCost } from './fixedcost.js';
import { benchDevices } from './devices.js';
import { androidTable, benchAndroid } from './android.js';
import { appSpecs, killApp, launchAndWait, type AppSpec } from './apps.js';
import { runBaseline } from './baseline.js';
import { BASELINE_RUNS, DUMP, RUNS, TARGETS, WARMUP, errText, sleep } from './config.js';
import { measureFullTree, measureObserve, type ObserveResult } from './observe.js';
import { printFixedCost, printReport, writeReport, type Report } from './report.js';
import { SCREENSHOT_FORMULA } from './screenshot.js';
import { r1 } from './stats.js';
import { instrument } from './trace.js';
import { benchWeston, westonLine } from './weston.js';
import { benchToolkits } from './toolkits.js';
import { benchText, wantsTextBench } from './text.js';

/** Launches one app, measures it into a new row of `report` and kills it; failures become row errors. */
async function benchApp(
  session: Session,
  bus: A11yBus,
  env: Record<string, string>,
  spec: AppSpec,
  report: Report,
): Promise<void> {
  const row: ObserveResult = { app: spec.label };
  report.observe.push(row);
  let pid: number | undefined;
  try {
    process.stdout.write(`\n[${spec.label}] launching… `);
    const launched = await launchAndWait(session, bus, spec);
    if (launched.snapshotNodes < spec.minNodes && launched.fullNodes >= spec.minNodes) {
      row.warning =
        `the driver's snapshot holds ${launched.snapshotNodes} of the window's ${launched.fullNodes} nodes ` +
        `(hidden-subtree pruning)`;
      report.errors.push(`${spec.label}: ${row.warning}`);
    }
    pid = launched.pid;
    row.loadMs = Math.round(launched.loadMs);
    const winRef = session.windows.refOf(launched.window);
    process.stdout.write(`window "${launched.window.title}" after ${row.loadMs} ms; observing… `);
    Object.assign(row, await measureObserve(session, winRef));
    if (DUMP) console.log(`\n${row.snapshotText}`);
    process.stdout.write(`p50 ${row.observe?.p50} ms; full-tree read… `);
    if (spec.fullTree === false)
      row.fullTree = { nodes: 0, ms: Number.NaN, error: 'in-process full read skipped (it made the window vanish)' };
    else
      try {
        row.fullTree = await measureFullTree(bus, launched.window);
      } catch (e) {
        row.fullTree = { nodes: 0, ms: Number.NaN, error: errText(e) };
      }
    process.stdout.write('libatspi… ');
    try {
      row.libatspi = await runBaseline(env, launched.pid, launched.window.title);
      if (row.observe) row.speedup = r1(row.libatspi.medianMs / row.observe.p50);
      if (row.fullTree && row.fullTree.ms > 0) row.speedupFullTree = r1(row.libatspi.medianMs / row.fullTree.ms);
      process.stdout.write(`${row.libatspi.medianMs} ms (${row.libatspi.nodes} nodes)`);
    } catch (e) {
      row.libatspi = { nodes: 0, medianMs: Number.NaN, runs: [], error: errText(e) };
      process.stdout.write(`failed: ${errText(e)}`);
    }
    if (spec.key === 'gtk3-widget-factory' || spec.key === 'gedit') {
      process.stdout.write('; acts… ');
      try {
        const acts =
          spec.key === 'gedit' ? await actsGedit(session, winRef) : await actsWidgetFactory(session, winRef, bus);
        report.acts.push(...acts);
        process.stdout.write('done');
      } catch (e) {
        report.acts.push({
          app: spec.label,
          name: 'acts',
          error: errText(e),
          failures: 1,
          targetsApply: { tokens: false, latency: false },
        });
        process.stdout.write(`failed: ${errText(e)}`);
      }
    }
  } catch (e) {
    row.error = errText(e);
    report.errors.push(`${spec.label}: ${row.error}`);
    process.stdout.write(`FAILED: ${row.error}`);
  } finally {
    if (pid !== undefined) killApp(pid);
    await sleep(500);
  }
}

async function main(): Promise<number> {
  const t0 = performance.now();
  const report: Report = {
    startedAt: new Date().toISOString(),
    host: { cpus: cpus().length, node: process.version, runs: RUNS, warmup: WARMUP, baselineRuns: BASELINE_RUNS },
    screenshotFormula: SCREENSHOT_FORMULA, targets: TARGETS, observe: [], acts: [], errors: [],
  };
  // No desktop needed: the tool list and instructions as an MCP client receives them.
  try { report.fixedCost = await measureFixedCost(); } catch (e) { report.errors.push(`fixed cost: ${errText(e)}`); }
  const { specs, cleanup } = await appSpecs();
  let info: SandboxInfo | undefined;
  let session: Session | undefined;
  let bus: A11yBus | undefined;
  const stop = async (): Promise<void> => {
    await session?.close().catch(() => undefined);
    bus?.disconnect();
    if (info && process.env['BENCH_KEEP'] !== '1')
      await stopSandbox(info.display).catch((e: unknown) => console.error(`stopSandbox: ${errText(e)}`));
    await cleanup().catch(() => undefined);
  };
  const onSignal = (): void => { void stop().finally(() => process.exit(130)); };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    info = await startSandbox();
    report.sandbox = info.display;
    const env = sandboxEnv(info);
    // The library's 'current' desktop and the in-process reader use the process environment.
    for (const [k, v] of Object.entries(env)) process.env[k] = v;
    for (const k of ['NO_AT_BRIDGE', 'GTK_MODULES']) delete process.env[k];
    console.log(
      `sandbox ${info.display} up; ${RUNS} runs after ${WARMUP} warm-ups; libatspi median of ${BASELINE_RUNS}`,
    );
    const device = new Device({ platform: 'linux', env, timeoutMs: 30_000 });
    instrument(device);
    session = new Session({ device });
    await device.hello();
    bus = await A11yBus.connect();
    for (const spec of specs) await benchApp(session, bus, env, spec, report);
    // gecko: Firefox ESR
    if (process.env['BENCH_APPS']?.split(',').includes('gecko'))
      Object.assign(report, { gecko: await benchGecko(session) });
    if (!process.env['BENCH_APPS'] || process.env['BENCH_APPS'].split(',').includes('toolkits'))
      await benchToolkits().catch((e: unknown) => report.errors.push(`toolkits: ${errText(e)}`));
    if (!process.env['BENCH_APPS'] || process.env['BENCH_APPS'].split(',').includes('act-lab'))
      report.acts.push(...(await benchActLifecycle(session)));
    // Find + click side by side with dogtail (python3-dogtail), same window, same run.
    if (!process.env['BENCH_APPS'] || process.env['BENCH_APPS'].split(',').includes('dogtail')) {
      const d = await benchDogtail(session);
      (report as unknown as Record<string, unknown>)['dogtail'] = d;
      process.stdout.write(
        `\nFind + click, ours and dogtail's (${RUNS} runs after ${WARMUP} warm-ups, ms)\n` +
          `${d.map(dogtailTable).join('\n\n')}\n`,
      );
    }
    // Observe and act latency over ssh against local (BENCH_APPS=devices to run it alone).
    if (!process.env['BENCH_APPS'] || process.env['BENCH_APPS'].split(',').includes('devices'))
      (report as unknown as Record<string, unknown>)['devices'] = await benchDevices(info.display);
    // Calc grid: only when asked for by BENCH_APPS=calc-grid (it takes minutes).
    if ((process.env['BENCH_APPS'] ?? '').split(',').includes('calc-grid'))
      Object.assign(report, { grid: await benchGrid() });
    // Long lists: with BENCH_APPS unset or naming "lists".
    if (!process.env['BENCH_APPS'] || process.env['BENCH_APPS'].split(',').includes('lists'))
      await benchLists(RUNS).catch((e: unknown) => {
        report.errors.push(`lists: ${errText(e)}`);
      });
    // Android (docs/platforms.md, "Verified on"): parse + render per node of an assembled 300-row dump; no phone
    // needed.
    if (!process.env['BENCH_APPS'] || process.env['BENCH_APPS'].split(',').includes('android')) {
      const a = benchAndroid(RUNS);
      (report as unknown as Record<string, unknown>)['android'] = a;
      process.stdout.write(`\nAndroid: parse + render of a long list\n${androidTable(a)}\n`);
    }
    if (wantsTextBench()) await benchText(session, report.errors);
    process.stdout.write('\n\n');
    // Wayland: its own Weston sandbox; BENCH_APPS=weston runs it (alone or with others).
    if (!process.env['BENCH_APPS'] || process.env['BENCH_APPS'].split(',').map((a) => a.trim()).includes('weston')) {
      const w = await benchWeston();
      console.log(westonLine(w));
      if (w.error) report.errors.push(`weston: ${w.error}`);
    }
  } catch (e) {
    report.errors.push(`bench: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
    console.error(`bench failed: ${errText(e)}`);
  } finally {
    await stop();
    report.durationMs = Math.round(performance.now() - t0);
  }
  printReport(report);
  await writeReport(report);
  return report.errors.length ? 1 : 0;
}

/** `npm run bench -- --fuzz N`: the tool-argument fuzzer at size N instead of the desktop benchmark. */
async function fuzz(calls: number): Promise<number> {
  const { fuzzTools } = await import('../test/fuzz/tools.js');
  const r = await fuzzTools(calls, Number(process.env['FUZZ_SEED'] ?? 8_014));
  console.log(
    `tool-argument fuzz: ${r.calls} calls (valid ${r.valid}, invalid ${r.invalid}, refused by the SDK ` +
      `${r.protocolErrors}), seed ${r.seed}, ` +
      `${r.ms} ms, slowest call ${r.slowestMs} ms, acting driver calls ${r.actingCalls}`,
  );
  console.log(`mutations ${JSON.stringify(r.byMutation)}\nerror codes ${JSON.stringify(r.byCode)}`);
  for (const f of r.failures) console.log(`FAIL ${f}`);
  console.log(r.failures.length ? 'FAIL' : 'PASS');
  return r.failures.length ? 1 : 0;
}

/** `npm run bench -- --fixed-cost`: only the fixed-cost table (no desktop), exit 1 over budget. */
async function fixedCost(): Promise<number> {
  const c = await measureFixedCost();
  printFixedCost(c);
  return c.total <= c.budget ? 0 : 1;
}

const fuzzAt = process.argv.indexOf('--fuzz');
(fuzzAt >= 0 ? fuzz(Number(process.argv[fuzzAt + 1] ?? 100_000) || 100_000) : process.argv.includes('--fixed-cost') ? fixedCost() : main())
  .then((code) => { process.exitCode = code; }, (e: unknown) => { console.error(e); process.exitCode = 1; });
