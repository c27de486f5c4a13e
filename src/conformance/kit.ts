/**
 * The conformance kit (`computer-use doctor --conformance --driver "<command>"`): starts the driver, runs the
 * wire layer, the semantic layer on whatever harness windows it shows, and the end-of-input rule, and returns
 * one verdict per rule. A rule that made the driver exit fails, and the driver is started again for the next
 * rule so one defect does not hide the others. With `record`, everything said is written as a transcript.
 */
import { platform, release } from 'node:os';
import { DriverProcess } from './connection.js';
import { splitCommand } from './command.js';
import { Verdicts, type ConformanceReport } from './report.js';
import { loadScenarios, type Scenarios } from './scenarios.js';
import { builtinScenariosFor } from './builtin-scenarios.js';
import { launchHarnesses, waitForHarnessWindows, type HarnessLaunch } from './launch.js';
import { handlesRule, listedWindows, snapshotsRule } from './behaviour.js';
import { semanticLayer } from './semantic.js';
import { TRANSCRIPT_FORMAT, TRANSCRIPT_VERSION, TranscriptRecorder } from '../protocol/transcript.js';
import {
  cancelRule,
  eofRule,
  framingRule,
  helloRule,
  malformedLinesRule,
  nonBmpRule,
  outOfOrderRule,
  oversizeLineRule,
  schemaRule,
  strictParamsRule,
  unknownMethodRule,
  whitespaceRule,
  type KitContext,
} from './wire.js';
import { identityRule } from './identity.js';

/** Options of one kit run. */
export interface ConformanceOptions {
  /** The driver command line, split like a shell's words and run without one. */
  driver: string;
  /** The scenarios file; the built-in harnesses when absent, none when `false`. */
  scenarios?: string | false;
  /** Write the session as a transcript here. */
  record?: string;
  /** Extra environment for the driver. */
  env?: Record<string, string>;
  /** Serve and open the harness page and start the native harness of the driver's platform (with the built-in scenarios). */
  launch?: boolean;
}

const WIRE_RULES = [
  strictParamsRule,
  unknownMethodRule,
  malformedLinesRule,
  whitespaceRule,
  cancelRule,
  outOfOrderRule,
  nonBmpRule,
  oversizeLineRule,
  identityRule,
];

/** Runs the kit against one driver. */
export async function runConformance(opts: ConformanceOptions): Promise<ConformanceReport> {
  const argv = splitCommand(opts.driver);
  const recorder = opts.record ? new TranscriptRecorder() : undefined;
  const v = new Verdicts();
  const processes: DriverProcess[] = [];
  const start = (): DriverProcess => {
    const d = new DriverProcess(argv, recorder, opts.env);
    processes.push(d);
    return d;
  };
  let scenarios: Scenarios | undefined;
  let launched: HarnessLaunch | undefined;
  try {
    if (opts.scenarios) scenarios = loadScenarios(opts.scenarios);
  } catch (e) {
    v.fail('semantic.scenarios', (e as Error).message);
  }

  const ctx: KitContext = { drv: start(), v, methods: new Set() };
  try {
    const hello = await helloRule(ctx);
    if (hello) ctx.hello = hello;
    const platform = typeof hello?.['platform'] === 'string' ? hello['platform'] : '';
    if (opts.scenarios === undefined) scenarios = builtinScenariosFor(platform);
    // Started now, so the harness windows come up while the wire rules run.
    if (opts.launch && opts.scenarios === undefined) launched = await launchHarnesses(platform, v, hello?.['facts']);
    ctx.methods = new Set(
      Array.isArray(hello?.['methods'])
        ? (hello['methods'] as unknown[]).filter((m): m is string => typeof m === 'string')
        : [],
    );
    for (const rule of WIRE_RULES) {
      await rule(ctx);
      if (ctx.drv.exited) {
        recorder?.add({ type: 'restart', why: `the driver exited (${ctx.drv.exitText})` });
        ctx.drv = start();
        await ctx.drv.call('hello', {}, 10_000);
      }
    }
    if (launched) await waitForHarnessWindows(ctx, launched);
    const windows = await listedWindows(ctx);
    await snapshotsRule(ctx, windows);
    await handlesRule(ctx, windows);
    if (scenarios) await semanticLayer(ctx, scenarios);
    else if (opts.scenarios)
      v.skip('semantic', `no harness ran: the scenarios file ${opts.scenarios} did not load (see semantic.scenarios)`);
    else v.skip('semantic', 'no scenarios (--no-scenarios)');
    schemaRule(ctx, processes);
    framingRule(ctx, processes);
    await eofRule(ctx);
  } finally {
    for (const p of processes) p.kill();
    await launched?.stop();
  }
  const report: ConformanceReport = {
    driver: opts.driver,
    results: v.results,
    ok: !v.results.some((r) => r.verdict === 'FAIL'),
  };
  if (ctx.hello)
    report.hello = {
      platform: ctx.hello['platform'],
      version: ctx.hello['version'],
      protocolVersion: ctx.hello['protocolVersion'],
    };
  if (recorder && opts.record) {
    const h = ctx.hello ?? {};
    const driver = Object.fromEntries(
      ['platform', 'version', 'protocolVersion', 'facts'].filter((k) => k in h).map((k) => [k, h[k]]),
    );
    const apps = [...new Set(processes.flatMap((p) => [...p.windowApps]))].map((name) => ({ name }));
    recorder.write(opts.record, {
      type: 'header', format: TRANSCRIPT_FORMAT, version: TRANSCRIPT_VERSION, recordedAt: new Date().toISOString(),
      host: { os: platform(), release: release() }, driver, apps, note: 'computer-use doctor --conformance',
    });
  }
  return report;
}
