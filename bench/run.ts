/**
 * The benchmark: starts its own sandbox desktop, launches each app through the library and measures
 *   1. observe (driver read + engine) latency, driver read alone, node counts, snapshot tokens (o200k and the
 *      engine's estimate) against screenshot-equivalent tokens;
 *   2. a libatspi (python3-gi) full-tree walk of the same window, side by side;
 *   3. act + settle latency and act result tokens on gtk3-widget-factory and gedit.
 * Prints plain tables with PASS/FAIL columns against the issue's targets (never asserted: the machine is
 * noisy) and writes bench/results/bench-<date>.json and bench/results/latest.json.
 *
 * Env: BENCH_RUNS (default 10), BENCH_WARMUP (2), BENCH_APPS (comma list of app keys to run), BENCH_KEEP=1
 * (leave the sandbox running).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import type { RawNode, WindowInfo } from '../src/engine/node.js';
import { walk } from '../src/engine/node.js';
import type { SnapshotLine } from '../src/engine/snapshot.js';
import { A11yBus } from '../src/drivers/linux/bus.js';
import { readTreeCached } from '../src/drivers/linux/cache.js';
import { targetOf } from '../src/drivers/linux/reader.js';
import { Device } from '../src/devices/manager.js';
import { sandboxEnv, startSandbox, stopSandbox, type SandboxInfo } from '../src/sandbox/sandbox.js';
import { Session } from '../src/session/session.js';
import { toolByName } from '../src/tools/index.js';
import { runTool, type ToolResult } from '../src/tools/tool.js';
import { SCREENSHOT_FORMULA, screenshotTokens } from './screenshot.js';
import { median, r1, summarize, table, verdict, type Summary } from './stats.js';

const RUNS = Math.max(1, Number(process.env['BENCH_RUNS'] ?? 10));
const WARMUP = Math.max(0, Number(process.env['BENCH_WARMUP'] ?? 2));
const BASELINE_RUNS = 5;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BASELINE_SCRIPT = join(ROOT, 'bench', 'atspi_baseline.py');
const PAGE = join(ROOT, 'bench', 'pages', 'form.html');
const RESULTS = join(ROOT, 'bench', 'results');

const TARGETS = {
  gtk4ObserveP50Ms: 100,
  gtk4SpeedupVsLibatspi: 5,
  snapshotTokensMedian: 600,
  actResultTokens: 150,
  actSettleP50Ms: 250,
};

const tokens = (text: string): number => encode(text).length;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const errText = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0]!.slice(0, 160);

// ---------------------------------------------------------------------------------------------------------
// Driver call tracing: every device.call is timed, so a measurement can be broken down per method.

interface Trace { method: string; ms: number }
let trace: Trace[] | null = null;

function instrument(device: Device): void {
  const orig = device.call.bind(device);
  const timed: typeof device.call = async (method, params, timeoutMs) => {
    const t0 = performance.now();
    try {
      return await orig(method, params, timeoutMs);
    } finally {
      trace?.push({ method, ms: performance.now() - t0 });
    }
  };
  device.call = timed;
}

/** Runs `fn` and returns its wall time plus the time spent in each driver method. */
async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; calls: Trace[] }> {
  trace = [];
  const t0 = performance.now();
  try {
    const value = await fn();
    return { value, ms: performance.now() - t0, calls: trace };
  } finally {
    trace = null;
  }
}

const sumOf = (calls: Trace[], method: string): number => calls.filter((c) => c.method === method).reduce((a, c) => a + c.ms, 0);

// ---------------------------------------------------------------------------------------------------------
// Apps

interface AppSpec {
  key: string;
  label: string;
  command: string;
  args: string[];
  /** A name that must appear in the raw tree before measuring (content loaded). */
  readyName?: string;
  /** Minimum raw nodes before the tree counts as loaded. */
  minNodes: number;
  snapshotTarget: boolean;
  /** Also read the whole unpruned tree in-process (off for Chromium: its window vanished from the bus after one). */
  fullTree?: false;
}

async function appSpecs(): Promise<{ specs: AppSpec[]; cleanup: () => Promise<void> }> {
  const profile = await mkdtemp(join(tmpdir(), 'cu-bench-chromium-'));
  const specs: AppSpec[] = [
    { key: 'gedit', label: 'gedit', command: 'gedit', args: ['--new-window'], minNodes: 50, snapshotTarget: true },
    { key: 'gtk3-widget-factory', label: 'gtk3-widget-factory', command: 'gtk3-widget-factory', args: [], minNodes: 100, snapshotTarget: true },
    { key: 'mousepad', label: 'mousepad', command: 'mousepad', args: [], minNodes: 50, snapshotTarget: false },
    { key: 'gtk4-widget-factory', label: 'gtk4-widget-factory', command: 'gtk4-widget-factory', args: [], minNodes: 200, snapshotTarget: true },
    {
      key: 'chromium', label: 'chromium (form page)', command: '/usr/bin/chromium', minNodes: 100, snapshotTarget: false, fullTree: false,
      readyName: 'Fifty items',
      args: ['--force-renderer-accessibility', '--no-sandbox', '--no-first-run', '--no-default-browser-check', '--disable-gpu',
        '--password-store=basic', '--disable-background-networking', '--disable-component-update', '--disable-sync',
        '--disable-quic', `--user-data-dir=${profile}`, `file://${PAGE}`],
    },
  ];
  const only = process.env['BENCH_APPS']?.split(',').map((s) => s.trim()).filter(Boolean);
  return {
    specs: only?.length ? specs.filter((s) => only.includes(s.key)) : specs,
    cleanup: () => rm(profile, { recursive: true, force: true }),
  };
}

function hasName(root: RawNode, name: string): boolean {
  let found = false;
  walk(root, (n) => { if (n.name === name) found = true; return undefined; });
  return found;
}

/**
 * Launches the app through the driver and waits until its window's tree stops growing. Readiness is judged on
 * the whole tree (read in-process without pruning hidden subtrees) as well as on the driver's snapshot, so a
 * driver that prunes too much (GTK4) is measured and reported rather than waited on forever.
 */
async function launchAndWait(session: Session, bus: A11yBus, spec: AppSpec):
  Promise<{ pid: number; window: WindowInfo; loadMs: number; snapshotNodes: number; fullNodes: number }> {
  const t0 = performance.now();
  const res = await session.device.call('apps.launch', { command: spec.command, args: spec.args, waitForWindowMs: 40_000 }, 60_000);
  if (!res.window) throw new Error(`${spec.command}: no window`);
  let window = res.window;
  let last = '';
  let stable = 0;
  let snapNodes = 0;
  let fullNodes = 0;
  let fullError = '';
  let snapError = '';
  const deadline = performance.now() + 30_000;
  while (performance.now() < deadline) {
    // One after the other: Chromium answers concurrent whole-tree reads from two connections badly.
    const snap = await session.device.call('tree.snapshot', { window: window.id }).catch((e: unknown) => { snapError = errText(e); return null; });
    const full = spec.fullTree === false ? null : await readTreeCached(bus, targetOf(window.id), { pruneHidden: false, maxNodes: 20_000 }).catch((e: unknown) => { fullError = errText(e); return null; });
    if (!snap) {
      // The first window handle can die while the app starts (Chromium): look the app's window up again.
      const apps = await session.device.call('apps.list', { withWindows: true }).catch(() => ({ apps: [] }));
      const app = apps.apps.find((a) => a.pid === res.pid && a.windows.length);
      const w = app?.windows.find((x) => x.focused && x.title) ?? app?.windows.find((x) => x.title) ?? app?.windows[0];
      if (w) window = w;
    } else {
      window = snap.window;
      snapNodes = snap.stats.nodes;
      fullNodes = full?.nodes ?? -1;
      const nodes = Math.max(snapNodes, fullNodes);
      const ready = nodes >= spec.minNodes && (!spec.readyName || hasName(snap.root, spec.readyName) || (full !== null && hasName(full.root, spec.readyName)));
      const key = `${snapNodes}/${fullNodes}`;
      stable = ready && key === last ? stable + 1 : 0;
      last = key;
      if (stable >= 2) break;
    }
    await sleep(400);
  }
  if (stable < 2) throw new Error(`${spec.label}: the tree did not settle within 30 s (snapshot/full nodes ${last}${snapError ? `; snapshot: ${snapError}` : ''}${fullError ? `; full read: ${fullError}` : ''})`);
  return { pid: res.pid, window, loadMs: performance.now() - t0, snapshotNodes: snapNodes, fullNodes };
}

// ---------------------------------------------------------------------------------------------------------
// Measurements

interface ObserveResult {
  app: string;
  error?: string;
  window?: { title: string; bounds?: [number, number, number, number] };
  observe?: Summary;
  driverRead?: Summary;
  /** Time in apps.list (window resolution) per observe. */
  appsListP50?: number;
  /** observe minus the two driver calls: engine (redact, distill, refs, budget render) + host work. */
  engineP50?: number;
  /** tree.snapshot round trip minus the driver's own stats.ms: JSON-RPC encode/transfer/decode. */
  rpcP50?: number;
  rawNodes?: number;
  /** The snapshot text of the last run (what the model reads). */
  snapshotText?: string;
  snapshotTokensO200k?: number;
  snapshotTokensEstimate?: number;
  shownLines?: number;
  screenshotTokens?: number;
  ratio?: number;
  fullTree?: { nodes: number; ms: number; error?: string };
  libatspi?: { nodes: number; medianMs: number; runs: number[]; error?: string };
  speedup?: number;
  /** Set when the measurement ran but does not mean what it should (e.g. the snapshot lost most of the tree). */
  warning?: string;
  /** libatspi ms / our in-process full-tree read ms (same node set). */
  speedupFullTree?: number;
  loadMs?: number;
}

async function measureObserve(session: Session, spec: AppSpec, winRef: string): Promise<Omit<ObserveResult, 'app' | 'libatspi' | 'fullTree' | 'speedup'>> {
  const obs: number[] = [];
  const reads: number[] = [];
  const appsList: number[] = [];
  const engine: number[] = [];
  const rpc: number[] = [];
  const toks: number[] = [];
  const est: number[] = [];
  let nodes = 0;
  let lines = 0;
  let window: WindowInfo | undefined;
  let text = '';
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const t = await timed(() => session.observe({ window: winRef }));
    if (i < WARMUP) continue;
    const { raw, snapshot } = t.value;
    obs.push(t.ms);
    reads.push(raw.stats.ms);
    appsList.push(sumOf(t.calls, 'apps.list'));
    engine.push(t.ms - sumOf(t.calls, 'apps.list') - sumOf(t.calls, 'tree.snapshot'));
    rpc.push(sumOf(t.calls, 'tree.snapshot') - raw.stats.ms);
    toks.push(tokens(snapshot.text));
    est.push(snapshot.tokens);
    nodes = raw.stats.nodes;
    lines = snapshot.stats.shownNodes;
    window = raw.window;
    text = snapshot.text;
  }
  const bounds = window?.bounds;
  const shot = bounds ? screenshotTokens(bounds[2], bounds[3]) : Number.NaN;
  const tokMed = median(toks);
  return {
    ...(window ? { window: { title: window.title, ...(bounds ? { bounds } : {}) } } : {}),
    observe: summarize(obs), driverRead: summarize(reads), appsListP50: r1(median(appsList)), engineP50: r1(median(engine)), rpcP50: r1(median(rpc)),
    rawNodes: nodes, snapshotText: text, snapshotTokensO200k: tokMed, snapshotTokensEstimate: median(est), shownLines: lines,
    screenshotTokens: shot, ratio: r1(shot / tokMed),
  };
}

/** Our own reader in this process, whole tree without pruning hidden subtrees: the same node set libatspi walks. */
async function measureFullTree(bus: A11yBus, window: WindowInfo): Promise<{ nodes: number; ms: number }> {
  const ms: number[] = [];
  let nodes = 0;
  for (let i = 0; i < 1 + BASELINE_RUNS; i++) {
    const t0 = performance.now();
    const r = await readTreeCached(bus, targetOf(window.id), { pruneHidden: false, maxNodes: 20_000 });
    if (i > 0) ms.push(performance.now() - t0);
    nodes = r.nodes;
  }
  return { nodes, ms: r1(median(ms)) };
}

function runBaseline(env: Record<string, string>, pid: number, title: string): Promise<{ nodes: number; medianMs: number; runs: number[] }> {
  return new Promise((resolve, reject) => {
    execFile('/usr/bin/python3', [BASELINE_SCRIPT, '--pid', String(pid), '--title', title, '--runs', String(BASELINE_RUNS)],
      { env, timeout: 240_000, maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
        const line = stdout.trim().split('\n').pop() ?? '';
        let parsed: { nodes?: number; median_ms?: number; runs_ms?: number[]; error?: string } | undefined;
        try { parsed = JSON.parse(line) as typeof parsed; } catch { /* below */ }
        if (parsed?.error) return reject(new Error(parsed.error));
        if (err || !parsed || parsed.nodes === undefined || parsed.median_ms === undefined) {
          return reject(new Error(`${err ? err.message : 'no output'} ${stderr.trim().split('\n').slice(-2).join(' ')}`.trim()));
        }
        resolve({ nodes: parsed.nodes, medianMs: parsed.median_ms, runs: parsed.runs_ms ?? [] });
      });
  });
}

// ---------------------------------------------------------------------------------------------------------
// Acts

interface ActBench {
  app: string;
  name: string;
  target?: string;
  error?: string;
  latency?: Summary;
  /** Median time inside ui.settle. */
  settleP50?: number;
  /** Median time inside node.act. */
  dispatchP50?: number;
  /** Median rest: apps.list ×2, re-read, engine, diff. */
  restP50?: number;
  tokensP50?: number;
  tokensMax?: number;
  sample?: string;
  failures: number;
  /** A post-condition read directly from the bus. */
  check?: string;
  targetsApply: { tokens: boolean; latency: boolean };
}

async function callTool(session: Session, name: string, params: unknown): Promise<ToolResult> {
  const tool = toolByName(name);
  if (!tool) throw new Error(`no tool ${name}`);
  return runTool(tool, { session }, params);
}

/** Repeats one act (params may vary by run) WARMUP + RUNS times. */
async function benchAct(session: Session, app: string, name: string, target: string,
  step: (i: number) => Promise<ToolResult>, apply: ActBench['targetsApply']): Promise<ActBench> {
  const lat: number[] = [];
  const settle: number[] = [];
  const dispatch: number[] = [];
  const rest: number[] = [];
  const toks: number[] = [];
  let sample = '';
  let failures = 0;
  let lastError = '';
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const t = await timed(() => step(i));
    if (t.value.isError) { failures++; lastError = t.value.text.split('\n')[0] ?? ''; }
    if (i < WARMUP) continue;
    lat.push(t.ms);
    const s = sumOf(t.calls, 'ui.settle');
    const d = sumOf(t.calls, 'node.act') + sumOf(t.calls, 'input.keys');
    settle.push(s);
    dispatch.push(d);
    rest.push(t.ms - s - d);
    toks.push(tokens(t.value.text));
    if (i === WARMUP) sample = t.value.text;
  }
  const out: ActBench = {
    app, name, target, latency: summarize(lat), settleP50: r1(median(settle)), dispatchP50: r1(median(dispatch)),
    restP50: r1(median(rest)), tokensP50: median(toks), tokensMax: Math.max(...toks), sample, failures, targetsApply: apply,
  };
  if (failures) out.error = `${failures} failed: ${lastError.slice(0, 140)}`;
  return out;
}

interface Found { line: SnapshotLine; raw: RawNode }

/** Elements of the current full snapshot joined with their raw nodes (for native role, range, actions). */
async function elements(session: Session, winRef: string): Promise<Found[]> {
  const { full, raw } = await session.observe({ window: winRef });
  const byId = new Map<string, RawNode>();
  walk(raw.root, (n) => { byId.set(n.id, n); return undefined; });
  const out: Found[] = [];
  for (const line of full.elements) {
    const id = session.refs.lookup(line.ref)?.id;
    const node = id ? byId.get(id) : undefined;
    if (node) out.push({ line, raw: node });
  }
  return out;
}

const usable = (f: Found): boolean => !f.raw.states.some((s) => s === 'disabled' || s === 'offscreen' || s === 'invisible');
const describe = (f: Found): string => `${f.line.ref} ${f.raw.nativeRole ?? f.line.role}${f.line.name ? ` "${f.line.name.slice(0, 30)}"` : ''}`;

async function actsWidgetFactory(session: Session, winRef: string, bus?: A11yBus): Promise<ActBench[]> {
  const app = 'gtk3-widget-factory';
  const els = (await elements(session, winRef)).filter(usable);
  if (process.env['BENCH_DUMP'] === '1') {
    for (const f of els) if (/toggle|spin|slider|check|^text$/.test(f.raw.nativeRole ?? '')) console.log(`  ${describe(f)} [${f.raw.states.join(',')}] {${f.raw.actions.join(',')}} ${JSON.stringify(f.raw.range ?? null)} v=${f.raw.value ?? ''}`);
  }
  const out: ActBench[] = [];
  const run = async (name: string, pick: Found | undefined, step: (f: Found, i: number) => Promise<ToolResult>, apply: ActBench['targetsApply']): Promise<void> => {
    if (!pick) { out.push({ app, name, error: 'no suitable element found', failures: 0, targetsApply: apply }); return; }
    try {
      out.push(await benchAct(session, app, name, describe(pick), (i) => step(pick, i), apply));
    } catch (e) {
      out.push({ app, name, target: describe(pick), error: errText(e), failures: 1, targetsApply: apply });
    }
  };
  const act = (ref: string, op: string, value?: string): Promise<ToolResult> =>
    callTool(session, 'computer_act', { actions: [{ ref, op, ...(value !== undefined ? { value } : {}) }] });

  await run('toggle check button', els.find((f) => f.raw.nativeRole === 'check box' && f.raw.actions.includes('toggle') && !f.raw.states.includes('mixed')),
    (f) => act(f.line.ref, 'toggle'), { tokens: true, latency: true });
  await run('set_value entry', els.find((f) => f.raw.nativeRole === 'text' && f.raw.actions.includes('set_value') && !f.raw.states.includes('multiline')),
    (f, i) => act(f.line.ref, 'set_value', `bench text ${i}`), { tokens: true, latency: true });
  const numeric = (role: string) => els.find((f) => f.raw.nativeRole === role && f.raw.actions.includes('set_value'));
  for (const role of ['slider', 'spin button']) {
    const pick = numeric(role);
    await run(`set_value ${role}`, pick, (f, i) => {
      // The driver drops `range` when the widget also has text (spin buttons): fall back to 0..100.
      const range = f.raw.range ?? { min: 0, max: 100, step: 1 };
      const v = range.min + (range.max - range.min) * (i % 2 === 0 ? 0.25 : 0.75);
      const step = range.step && range.step > 0 ? range.step : 1;
      return act(f.line.ref, 'set_value', String(Math.round(v / step) * step));
    }, { tokens: true, latency: true });
    const last = out[out.length - 1];
    if (pick && last && bus) {
      // Which interface did it go through, and does the numeric Value agree with what was set?
      const v = await bus.getProp(targetOf(pick.raw.id), 'org.a11y.atspi.Value', 'CurrentValue').catch(() => undefined);
      const text = await bus.call(targetOf(pick.raw.id), 'org.a11y.atspi.Text', 'GetText', 'ii', [0, 40]).then((r) => String(r[0])).catch(() => undefined);
      last.check = `after: Value.CurrentValue=${String(v)}${text !== undefined ? ` text="${text}"` : ''}; method: ${/\(([^;)]*)/.exec(last.sample ?? '')?.[1] ?? '?'}`;
    }
  }
  const toggles = els.filter((f) => f.raw.nativeRole === 'toggle button' && f.raw.actions.includes('click'));
  await run('click toggle button', toggles.find((f) => f.line.name && !/menu/i.test(f.line.name)) ?? toggles[0],
    (f) => act(f.line.ref, 'click'), { tokens: false, latency: true });
  return out;
}

async function actsGedit(session: Session, winRef: string): Promise<ActBench[]> {
  const app = 'gedit';
  const els = (await elements(session, winRef)).filter(usable);
  const menu = els.find((f) => f.line.role === 'button' && /^(menu|main menu|application menu)$/i.test(f.line.name ?? ''))
    ?? els.find((f) => f.line.role === 'button' && /menu/i.test(f.line.name ?? '') && f.raw.nativeRole === 'toggle button');
  const apply = { tokens: false, latency: true };
  if (!menu) {
    const names = els.filter((f) => f.line.role === 'button').map((f) => f.line.name ?? '?').join(', ');
    return [{ app, name: 'open app menu', error: `no Menu button (buttons: ${names.slice(0, 100)})`, failures: 0, targetsApply: apply }];
  }
  const open: number[] = []; const close: number[] = [];
  const openSettle: number[] = []; const closeSettle: number[] = [];
  const openDispatch: number[] = []; const closeDispatch: number[] = [];
  const openTok: number[] = []; const closeTok: number[] = [];
  let openSample = ''; let closeSample = '';
  let openFail = 0; let closeFail = 0; let lastErr = '';
  let closeWith = 'computer_keys Escape';
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const o = await timed(() => callTool(session, 'computer_act', { actions: [{ ref: menu.line.ref, op: 'click' }] }));
    if (o.value.isError) { openFail++; lastErr = o.value.text.split('\n')[0] ?? ''; }
    let c = await timed(() => callTool(session, 'computer_keys', { keys: 'Escape', window: winRef }));
    if (c.value.isError && i === 0) {
      // No synthetic keyboard: close by clicking the button again.
      closeWith = 'computer_act click Menu again';
      c = await timed(() => callTool(session, 'computer_act', { actions: [{ ref: menu.line.ref, op: 'click' }] }));
    } else if (c.value.isError) {
      closeFail++; lastErr = c.value.text.split('\n')[0] ?? '';
    }
    if (i < WARMUP) continue;
    open.push(o.ms); close.push(c.ms);
    openSettle.push(sumOf(o.calls, 'ui.settle')); closeSettle.push(sumOf(c.calls, 'ui.settle'));
    openDispatch.push(sumOf(o.calls, 'node.act') + sumOf(o.calls, 'input.keys'));
    closeDispatch.push(sumOf(c.calls, 'node.act') + sumOf(c.calls, 'input.keys'));
    openTok.push(tokens(o.value.text)); closeTok.push(tokens(c.value.text));
    if (i === WARMUP) { openSample = o.value.text; closeSample = c.value.text; }
  }
  const mk = (name: string, lat: number[], st: number[], dp: number[], tk: number[], sample: string, fails: number): ActBench => ({
    app, name, target: describe(menu), latency: summarize(lat), settleP50: r1(median(st)), dispatchP50: r1(median(dp)),
    restP50: r1(median(lat.map((l, i) => l - (st[i] ?? 0) - (dp[i] ?? 0)))), tokensP50: median(tk), tokensMax: Math.max(...tk),
    sample, failures: fails, targetsApply: apply, ...(fails ? { error: `${fails} failed: ${lastErr.slice(0, 140)}` } : {}),
  });
  return [mk('open app menu (click Menu)', open, openSettle, openDispatch, openTok, openSample, openFail),
    mk(`close app menu (${closeWith})`, close, closeSettle, closeDispatch, closeTok, closeSample, closeFail)];
}

// ---------------------------------------------------------------------------------------------------------
// Main

interface Report {
  startedAt: string;
  host: { cpus: number; node: string; runs: number; warmup: number; baselineRuns: number };
  sandbox?: string;
  screenshotFormula: string;
  targets: typeof TARGETS;
  observe: ObserveResult[];
  acts: ActBench[];
  errors: string[];
  durationMs?: number;
}

function killApp(pid: number): void {
  for (const target of [-pid, pid]) {
    try { process.kill(target, 'SIGTERM'); } catch { /* not a group leader / already gone */ }
  }
}

async function main(): Promise<number> {
  const t0 = performance.now();
  const { cpus } = await import('node:os');
  const report: Report = {
    startedAt: new Date().toISOString(),
    host: { cpus: cpus().length, node: process.version, runs: RUNS, warmup: WARMUP, baselineRuns: BASELINE_RUNS },
    screenshotFormula: SCREENSHOT_FORMULA, targets: TARGETS, observe: [], acts: [], errors: [],
  };
  const { specs, cleanup } = await appSpecs();
  let info: SandboxInfo | undefined;
  let session: Session | undefined;
  let bus: A11yBus | undefined;
  const stop = async (): Promise<void> => {
    await session?.close().catch(() => undefined);
    bus?.disconnect();
    if (info && process.env['BENCH_KEEP'] !== '1') await stopSandbox(info.display).catch((e: unknown) => console.error(`stopSandbox: ${errText(e)}`));
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
    console.log(`sandbox ${info.display} up; ${RUNS} runs after ${WARMUP} warm-ups; libatspi median of ${BASELINE_RUNS}`);
    const device = new Device({ platform: 'linux', env, timeoutMs: 30_000 });
    instrument(device);
    session = new Session({ device });
    await device.hello();
    bus = await A11yBus.connect();

    for (const spec of specs) {
      const row: ObserveResult = { app: spec.label };
      report.observe.push(row);
      let pid: number | undefined;
      try {
        process.stdout.write(`\n[${spec.label}] launching… `);
        const launched = await launchAndWait(session, bus, spec);
        if (launched.snapshotNodes < spec.minNodes && launched.fullNodes >= spec.minNodes) {
          row.warning = `the driver's snapshot holds ${launched.snapshotNodes} of the window's ${launched.fullNodes} nodes (hidden-subtree pruning)`;
          report.errors.push(`${spec.label}: ${row.warning}`);
        }
        pid = launched.pid;
        row.loadMs = Math.round(launched.loadMs);
        const winRef = session.windows.refOf(launched.window);
        process.stdout.write(`window "${launched.window.title}" after ${row.loadMs} ms; observing… `);
        Object.assign(row, await measureObserve(session, spec, winRef));
        if (process.env['BENCH_DUMP'] === '1') console.log(`\n${row.snapshotText}`);
        process.stdout.write(`p50 ${row.observe?.p50} ms; full-tree read… `);
        if (spec.fullTree === false) row.fullTree = { nodes: 0, ms: Number.NaN, error: 'in-process full read skipped (it made the window vanish)' };
        else try { row.fullTree = await measureFullTree(bus, launched.window); } catch (e) { row.fullTree = { nodes: 0, ms: Number.NaN, error: errText(e) }; }
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
            const acts = spec.key === 'gedit' ? await actsGedit(session, winRef) : await actsWidgetFactory(session, winRef, bus);
            report.acts.push(...acts);
            process.stdout.write('done');
          } catch (e) {
            report.acts.push({ app: spec.label, name: 'acts', error: errText(e), failures: 1, targetsApply: { tokens: false, latency: false } });
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
    process.stdout.write('\n\n');
  } catch (e) {
    report.errors.push(`bench: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
    console.error(`bench failed: ${errText(e)}`);
  } finally {
    await stop();
    report.durationMs = Math.round(performance.now() - t0);
  }
  printReport(report);
  await mkdir(RESULTS, { recursive: true });
  const json = JSON.stringify(report, null, 2) + '\n';
  const stamp = report.startedAt.replace(/:/g, '-').replace(/\.\d+Z$/, 'Z');
  await writeFile(join(RESULTS, `bench-${stamp}.json`), json);
  await writeFile(join(RESULTS, 'latest.json'), json);
  console.log(`\nwrote bench/results/bench-${stamp}.json and bench/results/latest.json (${Math.round((report.durationMs ?? 0) / 1000)} s)`);
  return report.errors.length ? 1 : 0;
}

function printReport(r: Report): void {
  const o = r.observe;
  console.log(`== Observe (${r.host.runs} runs after ${r.host.warmup} warm-ups; ms) ==`);
  console.log(table(
    ['app', 'nodes', 'observe p50', 'p95', 'driver read p50', 'p95', 'apps.list p50', 'rpc p50', 'engine p50', 'lines', 'error'],
    o.map((x) => [x.app, x.rawNodes, x.observe?.p50, x.observe?.p95, x.driverRead?.p50, x.driverRead?.p95, x.appsListP50, x.rpcP50, x.engineP50, x.shownLines, x.error ?? x.warning]),
  ));
  console.log(`\n== Tokens: snapshot vs screenshot ==\nscreenshot tokens = ${r.screenshotFormula}`);
  console.log(table(
    ['app', 'window w×h', 'snapshot o200k p50', 'engine estimate', 'screenshot', 'ratio', `≤${TARGETS.snapshotTokensMedian}`],
    o.map((x) => {
      const spec = /gedit|widget-factory/.test(x.app);
      return [x.app, x.window?.bounds ? `${x.window.bounds[2]}×${x.window.bounds[3]}` : undefined, x.snapshotTokensO200k,
        x.snapshotTokensEstimate, x.screenshotTokens, x.ratio === undefined ? undefined : `${x.ratio}×`,
        spec && x.snapshotTokensO200k !== undefined ? `${verdict(x.snapshotTokensO200k <= TARGETS.snapshotTokensMedian)}${x.warning ? ' (snapshot incomplete)' : ''}` : 'n/a'];
    }),
  ));
  console.log('\n== libatspi (python3-gi, full walk, median of 5) vs ours ==');
  console.log(table(
    ['app', 'libatspi ms', 'libatspi nodes', 'our observe p50', 'observe nodes', 'libatspi/observe', 'our full-tree read', 'full-tree nodes', 'libatspi/full', 'target', 'error'],
    o.map((x) => {
      const gtk4 = x.app === 'gtk4-widget-factory';
      const target = !gtk4 ? 'n/a' : x.warning || !x.observe || x.speedup === undefined ? 'FAIL (snapshot incomplete)'
        : `${verdict(x.observe.p50 <= TARGETS.gtk4ObserveP50Ms)} p50≤${TARGETS.gtk4ObserveP50Ms} / ${verdict(x.speedup >= TARGETS.gtk4SpeedupVsLibatspi)} ≥${TARGETS.gtk4SpeedupVsLibatspi}×`;
      return [x.app, x.libatspi?.medianMs, x.libatspi?.nodes, x.observe?.p50, x.rawNodes,
        x.speedup === undefined || Number.isNaN(x.speedup) ? undefined : `${x.speedup}×`,
        x.fullTree?.ms, x.fullTree?.nodes, x.speedupFullTree === undefined ? undefined : `${x.speedupFullTree}×`, target,
        x.libatspi?.error ?? x.fullTree?.error ?? x.error ?? x.warning];
    }),
  ));
  console.log(`\n== Act + settle (${r.host.runs} runs after ${r.host.warmup} warm-ups; ms; tokens = o200k of the tool result) ==`);
  console.log(table(
    ['app', 'action', 'target', 'p50', 'p95', 'settle p50', 'dispatch p50', 'rest p50', 'tokens p50', 'max', `p50≤${TARGETS.actSettleP50Ms}`, `tok≤${TARGETS.actResultTokens}`, 'error'],
    r.acts.map((a) => [a.app, a.name, a.target, a.latency?.p50, a.latency?.p95, a.settleP50, a.dispatchP50, a.restP50, a.tokensP50, a.tokensMax,
      a.targetsApply.latency && a.latency ? verdict(a.latency.p50 <= TARGETS.actSettleP50Ms) : 'n/a',
      a.targetsApply.tokens && a.tokensP50 !== undefined ? verdict(a.tokensP50 <= TARGETS.actResultTokens) : 'n/a', a.error]),
  ));
  const samples = r.acts.filter((a) => a.sample);
  if (samples.length) {
    console.log('\n== Sample act results ==');
    for (const a of samples) console.log(`-- ${a.app} / ${a.name}:\n${a.sample}${a.check ? `\n   [check] ${a.check}` : ''}`);
  }
  if (r.errors.length) console.log(`\nerrors:\n${r.errors.map((e) => `  ${e}`).join('\n')}`);
}

main().then((code) => { process.exitCode = code; }, (e: unknown) => { console.error(e); process.exitCode = 1; });
