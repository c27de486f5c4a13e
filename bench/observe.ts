/** Observe measurements: latency broken down by driver method, node counts and tokens against a screenshot. */
import type { WindowInfo } from '../src/engine/node.js';
import type { A11yBus } from '../src/drivers/linux/bus/bus.js';
import { readTreeCached } from '../src/drivers/linux/bus/cache.js';
import { targetOf } from '../src/drivers/linux/tree/reader.js';
import type { Session } from '../src/session/session.js';
import { textTokens } from '../src/demo/tokens.js';
import type { Baseline } from './baseline.js';
import { BASELINE_RUNS, RUNS, WARMUP } from './config.js';
import { screenshotTokens } from './screenshot.js';
import { median, r1, summarize, type Summary } from './stats.js';
import { sumOf, timed } from './trace.js';

export interface ObserveResult {
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
  libatspi?: Baseline & { error?: string };
  speedup?: number;
  /** Set when the measurement ran but does not mean what it should (e.g. the snapshot lost most of the tree). */
  warning?: string;
  /** libatspi ms / our in-process full-tree read ms (same node set). */
  speedupFullTree?: number;
  loadMs?: number;
}

/** WARMUP + RUNS observes of one window through the library. */
export async function measureObserve(
  session: Session,
  winRef: string,
): Promise<Omit<ObserveResult, 'app' | 'libatspi' | 'fullTree' | 'speedup'>> {
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
    toks.push(textTokens(snapshot.text));
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
    observe: summarize(obs),
    driverRead: summarize(reads),
    appsListP50: r1(median(appsList)),
    engineP50: r1(median(engine)),
    rpcP50: r1(median(rpc)),
    rawNodes: nodes,
    snapshotText: text,
    snapshotTokensO200k: tokMed,
    snapshotTokensEstimate: median(est),
    shownLines: lines,
    screenshotTokens: shot,
    ratio: r1(shot / tokMed),
  };
}

/** Our own reader in this process, whole tree without pruning hidden subtrees: the same node set libatspi walks. */
export async function measureFullTree(bus: A11yBus, window: WindowInfo): Promise<{ nodes: number; ms: number }> {
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
