/**
 * Observe and act p50 on Wayland: a headless Weston sandbox of its own (no X server), gtk3-widget-factory with
 * GDK_BACKEND=wayland, driven through the library like a model would (observe; toggle and set_value, each act
 * counted only when its receipt is `confirmed`). Prints one line and returns the numbers. Run alone with
 * `BENCH_APPS=weston npm run bench`, or `node dist/bench/weston.js`.
 */
import { createComputer } from '../src/index.js';
import { errText } from './config.js';
import { summarize, type Summary } from './stats.js';

/** The Weston row of the benchmark. */
export interface WestonBench {
  sandboxStartMs: number;
  launchMs: number;
  observe: Summary;
  /** toggle + settle + receipt, confirmed ones only. */
  toggle: Summary;
  /** set_value on an entry + settle + receipt, confirmed ones only. */
  setValue: Summary;
  /** Acts whose receipt was not `confirmed`. */
  unconfirmed: number;
  snapshotLines: number;
  error?: string;
}

const RUNS = Math.max(1, Number(process.env['BENCH_RUNS'] ?? 10));

/**
 * Measures gtk3-widget-factory under Weston (or, with `kind` xvfb, the same steps under Xvfb for a side-by-side
 * on the same machine); never throws (an error lands in the result).
 */
export async function benchWeston(runs = RUNS, kind: 'weston' | 'xvfb' = 'weston'): Promise<WestonBench> {
  const empty = summarize([]);
  const out: WestonBench = {
    sandboxStartMs: 0,
    launchMs: 0,
    observe: empty,
    toggle: empty,
    setValue: empty,
    unconfirmed: 0,
    snapshotLines: 0,
  };
  let t = performance.now();
  const computer = await createComputer({ desktop: 'sandbox', sandboxKind: kind, mode: 'bypass', allowApps: ['gtk3-widget-factory'] })
    .catch((e: unknown) => { out.error = `${kind} sandbox: ${errText(e)}`; return undefined; });
  if (!computer) return out;
  let pid = 0;
  try {
    out.sandboxStartMs = Math.round(performance.now() - t);
    t = performance.now();
    const launched = await computer.tools.launch({ command: 'gtk3-widget-factory', waitMs: 20000 });
    if (launched.isError) throw new Error(launched.text);
    pid = Number(/pid=(\d+)/.exec(launched.text)?.[1] ?? 0);
    out.launchMs = Math.round(performance.now() - t);
    const observeMs: number[] = [];
    let text = '';
    for (let i = 0; i < runs + 1; i++) {
      t = performance.now();
      text = (await computer.tools.observe({ app: 'gtk3-widget-factory', maxTokens: 20000 })).text;
      if (i > 0) observeMs.push(performance.now() - t); // the first read fills the caches
    }
    out.observe = summarize(observeMs);
    out.snapshotLines = text.split('\n').length;
    const refOf = (re: RegExp): string => {
      const line = text.split('\n').find((l) => re.test(l));
      const ref = line ? /\[(e\d+)\]/.exec(line)?.[1] : undefined;
      if (!ref) throw new Error(`no element matches ${re}`);
      return ref;
    };
    const check = refOf(/\] checkbox "checkbutton"$/);
    const entry = refOf(/\] textbox value="entry" editable$/);
    const timed = async (ref: string, op: 'toggle' | 'set_value', value?: string): Promise<number | undefined> => {
      const t0 = performance.now();
      const r = await computer.tools.act({ actions: [{ ref, op, ...(value !== undefined ? { value } : {}) }] });
      const ms = performance.now() - t0;
      if (!new RegExp(`ok ${op} ${ref} · confirmed`).test(r.text)) { out.unconfirmed++; return undefined; }
      return ms;
    };
    const toggles: number[] = [];
    const sets: number[] = [];
    for (let i = 0; i < runs; i++) {
      const a = await timed(check, 'toggle');
      if (a !== undefined) toggles.push(a);
      const b = await timed(entry, 'set_value', `run ${i}`);
      if (b !== undefined) sets.push(b);
    }
    out.toggle = summarize(toggles);
    out.setValue = summarize(sets);
  } catch (e) {
    out.error = errText(e);
  } finally {
    if (pid > 0) { try { process.kill(pid); } catch { /* gone */ } }
    await computer.close();
  }
  return out;
}

/** The one line the benchmark prints. */
export function westonLine(r: WestonBench, label = 'weston (Wayland, gtk3-widget-factory)'): string {
  if (r.error) return `${label}: FAILED ${r.error}`;
  return `${label}: observe p50 ${Math.round(r.observe.p50)} ms (${r.snapshotLines} lines) · ` +
    `toggle p50 ${Math.round(r.toggle.p50)} ms · set_value p50 ${Math.round(r.setValue.p50)} ms · ` +
    `${r.unconfirmed} unconfirmed · sandbox up ${r.sandboxStartMs} ms, launch ${r.launchMs} ms`;
}

if (process.argv[1]?.endsWith('/bench/weston.js')) {
  // With --compare, the same steps on an Xvfb sandbox afterwards (same machine, same load).
  void (async () => {
    const w = await benchWeston();
    console.log(westonLine(w));
    if (process.argv.includes('--compare'))
      console.log(westonLine(await benchWeston(RUNS, 'xvfb'), 'xvfb (X11, gtk3-widget-factory)  '));
    process.exitCode = w.error ? 1 : 0;
  })();
}
