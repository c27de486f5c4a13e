/**
 * Firefox ESR (Gecko) on the offline order form: start-up until the form is in the tree, observe p50 with its
 * tokens and node count, and act p50 (set_value through the typing fallback, select through the dropdown,
 * toggle), each act to a verified receipt. Firefox's resident memory (all its processes) is reported beside.
 * BENCH_APPS=gecko runs it.
 */
import { readFileSync, readdirSync } from 'node:fs';
import type { Session } from '../src/session/session.js';
import { toolByName } from '../src/tools/index.js';
import { runTool, type ToolResult } from '../src/tools/tool.js';
import { textTokens } from '../src/demo/tokens.js';
import { startBrowser, stopBrowser } from '../test/e2e/browsers.js';
import { RUNS, WARMUP, sleep } from './config.js';
import { summarize, table, type Summary } from './stats.js';

/** What the Gecko scenario measured. */
export interface GeckoBench {
  startupMs?: number;
  observe?: Summary;
  observeTokens?: number;
  driverNodes?: number;
  acts: { name: string; latency: Summary; tokensP50: number; confirmed: number; runs: number; sample: string }[];
  rssMb?: number;
  error?: string;
}

async function call(session: Session, name: string, params: unknown): Promise<ToolResult> {
  const tool = toolByName(name);
  if (!tool) throw new Error(`no tool ${name}`);
  return runTool(tool, { session }, params);
}

function refOf(text: string, pattern: RegExp): string {
  for (const line of text.split('\n'))
    if (pattern.test(line)) {
      const m = /\[(e\d+)\]/.exec(line);
      if (m?.[1]) return m[1];
    }
  throw new Error(`no line matches ${pattern}`);
}

/** Resident memory of every process in a process group, in MB (Firefox runs several). */
function groupRssMb(pgid: number): number {
  let kb = 0;
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== pgid) continue;
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${d}/status`, 'utf8'))?.[1] ?? 0);
    } catch { /* the process ended meanwhile */ }
  }
  return Math.round(kb / 1024);
}

/** Runs the Gecko scenario on the session's desktop; prints a table and returns the figures. */
export async function benchGecko(session: Session): Promise<GeckoBench> {
  const out: GeckoBench = { acts: [] };
  const t0 = performance.now();
  const browser = startBrowser('firefox');
  try {
    let snap = '';
    while (!/button "Place order"/.test(snap)) {
      if (performance.now() - t0 > 60_000) throw new Error('the form never appeared in Firefox\'s tree');
      await sleep(100);
      snap = (await call(session, 'computer_observe', { app: 'firefox' })).text;
    }
    out.startupMs = Math.round(performance.now() - t0);
    const obs: number[] = [];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const s = performance.now();
      const r = await call(session, 'computer_observe', { app: 'firefox' });
      if (i >= WARMUP) obs.push(performance.now() - s);
      snap = r.text;
    }
    out.observe = summarize(obs);
    out.observeTokens = textTokens(snap);
    const raw = [...session.last.values()].find((x) => x.window.app.toLowerCase() === 'firefox');
    if (raw) out.driverNodes = raw.elements.length;
    const name = refOf(snap, /textbox "Name"/);
    const size = refOf(snap, /combobox "Size"/);
    const gift = refOf(snap, /checkbox "Gift wrap"/);
    const plans: { name: string; action: (i: number) => { ref: string; op: string; value?: string } }[] = [
      {
        name: 'set_value (typed: SetTextContents ignored)',
        action: (i) => ({ ref: name, op: 'set_value', value: `Customer ${i}` }),
      },
      {
        name: 'select in combo (dropdown item)',
        action: (i) => ({ ref: size, op: 'select', value: i % 2 ? 'Medium' : 'Large' }),
      },
      { name: 'toggle check box', action: () => ({ ref: gift, op: 'toggle' }) },
    ];
    for (const plan of plans) {
      const lat: number[] = [];
      const toks: number[] = [];
      let confirmed = 0;
      let sample = '';
      for (let i = 0; i < WARMUP + RUNS; i++) {
        const s = performance.now();
        const r = await call(session, 'computer_act', { actions: [plan.action(i)] });
        const ms = performance.now() - s;
        if (i < WARMUP) continue;
        lat.push(ms);
        toks.push(textTokens(r.text));
        if (/ · confirmed/.test(r.text)) confirmed++;
        sample = r.text.split('\n')[0] ?? '';
      }
      out.acts.push({
        name: plan.name,
        latency: summarize(lat),
        tokensP50: summarize(toks).p50,
        confirmed,
        runs: lat.length,
        sample,
      });
    }
    if (browser.pid !== undefined) out.rssMb = groupRssMb(browser.pid);
  } catch (e) {
    out.error = e instanceof Error ? e.message : String(e);
  } finally {
    await stopBrowser(browser);
  }
  console.log(
    `\nFirefox ESR (order form): start-up ${out.startupMs ?? '?'} ms; observe p50 ${out.observe?.p50 ?? '?'} ` +
      `ms, ` +
      (`${out.observeTokens ?? '?'} tokens, ${out.driverNodes ?? '?'} snapshot lines; RSS ` +
        `${out.rssMb ?? '?'} MB${out.error ? `; ERROR ${out.error}` : ''}`),
  );
  console.log(
    table(
      ['act', 'p50 ms', 'p95 ms', 'tokens p50', 'confirmed'],
      out.acts.map((a) => [a.name, a.latency.p50, a.latency.p95, a.tokensP50, `${a.confirmed}/${a.runs}`]),
    ),
  );
  return out;
}
