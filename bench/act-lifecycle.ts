/**
 * The act lifecycle on test/apps/act-lab.py (GTK3): what the actionability wait costs when there is nothing to
 * wait for (an enabled check box in a quiet app), node.act with and without it, interleaved; and the full act
 * p50 of a toggle, a set_value (its settle lasts at least EDIT_SETTLE_MS) and a click that waits for a button an
 * app timer enables.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { ActParams } from '../src/protocol/methods.js';
import { ActingRun } from '../src/session/pipeline.js';
import type { Session } from '../src/session/session.js';
import { toolByName } from '../src/tools/index.js';
import { runTool, type ToolResult } from '../src/tools/tool.js';
import { textTokens } from '../src/demo/tokens.js';
import type { ActBench } from './act.js';
import { ROOT, RUNS, WARMUP, errText, sleep } from './config.js';
import { median, r1, summarize } from './stats.js';
import { sumOf, timed } from './trace.js';

const APP = join(ROOT, 'test', 'apps', 'act-lab.py');
const call = (session: Session, name: string, params: unknown): Promise<ToolResult> =>
  runTool(toolByName(name)!, { session }, params);
const refOn = (text: string, re: RegExp): string => {
  const line = text.split('\n').find((l) => re.test(l));
  const m = line ? /\[(e\d+)\]/.exec(line) : null;
  if (!m?.[1]) throw new Error(`no line matches ${re}`);
  return m[1];
};

/** One node.act through the acting pipeline (gate → dispatch), no settle: the dispatch alone is timed. */
async function nodeAct(session: Session, params: ActParams): Promise<number> {
  const run = new ActingRun(session);
  const t0 = performance.now();
  await run.call({
    request: { kind: 'element', tool: 'computer_act', ref: 'bench', op: params.op, role: 'unknown' },
    call: { method: 'node.act', params },
    receipt: { status: 'unknown', detail: 'bench' },
  });
  const ms = performance.now() - t0;
  await run.finish(async () => undefined);
  return ms;
}

/** Measures the act lifecycle on a fresh act-lab window; returns rows for the act table. */
export async function benchActLifecycle(session: Session): Promise<ActBench[]> {
  const app = 'act-lab (GTK3)';
  const child = spawn('/usr/bin/python3', [APP], { stdio: 'ignore' });
  const rows: ActBench[] = [];
  const apply = { tokens: false, latency: true };
  try {
    const snap = (await call(session, 'computer_wait', { until: 'window_appears', text: 'Act lab', timeoutMs: 20000 }))
      .text;
    if (!/\[e\d+\]/.test(snap)) throw new Error(`no window: ${snap.split('\n')[0] ?? ''}`);
    const agree = refOn(snap, /checkbox "Agree"/);
    const entry = session.refs.lookup(agree)!;
    const base: ActParams = { id: entry.id, op: 'toggle', expect: { role: entry.fingerprint.role, name: 'Agree' } };
    const withWait: ActParams = {
      ...base,
      actionable: { timeoutMs: session.actionTimeoutMs, checks: ['visible', 'enabled', 'stable'] },
    };
    const off: number[] = [];
    const on: number[] = [];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      // Interleaved, with a quiet pause: the common case is an app at rest when the model acts.
      await sleep(250);
      const a = await nodeAct(session, base);
      await sleep(250);
      const b = await nodeAct(session, withWait);
      if (i >= WARMUP) { off.push(a); on.push(b); }
    }
    rows.push({
      app,
      name: 'node.act toggle, no actionability (before)',
      target: 'checkbox "Agree"',
      latency: summarize(off),
      dispatchP50: r1(median(off)),
      failures: 0,
      targetsApply: apply,
    });
    rows.push({
      app,
      name: 'node.act toggle, actionability checks (after)',
      target: 'checkbox "Agree"',
      latency: summarize(on),
      dispatchP50: r1(median(on)),
      failures: 0,
      targetsApply: apply,
    });

    const full = async (
      name: string,
      target: string,
      step: (i: number) => Promise<ToolResult>,
      prepare?: () => Promise<unknown>,
    ): Promise<void> => {
      const lat: number[] = []; const settle: number[] = []; const dispatch: number[] = []; const toks: number[] = [];
      let failures = 0; let sample = ''; let error = '';
      for (let i = 0; i < WARMUP + RUNS; i++) {
        await prepare?.();
        await sleep(250);
        const t = await timed(() => step(i));
        if (t.value.isError) {
          failures++;
          error = t.value.text.split('\n')[0] ?? '';
        }
        if (i < WARMUP) continue;
        lat.push(t.ms);
        settle.push(sumOf(t.calls, 'ui.settle'));
        dispatch.push(sumOf(t.calls, 'node.act'));
        toks.push(textTokens(t.value.text));
        if (!sample) sample = t.value.text;
      }
      rows.push({
        app,
        name,
        target,
        latency: summarize(lat),
        settleP50: r1(median(settle)),
        dispatchP50: r1(median(dispatch)),
        restP50: r1(median(lat) - median(settle) - median(dispatch)),
        tokensP50: median(toks),
        tokensMax: Math.max(...toks),
        sample,
        failures,
        ...(failures ? { error: `${failures} failed: ${error.slice(0, 140)}` } : {}),
        targetsApply: apply,
      });
    };
    const name = refOn(snap, /textbox "Name"/);
    const save = refOn(snap, /button "Save"/);
    await full('computer_act toggle (enabled, no wait)', 'checkbox "Agree"', () =>
      call(session, 'computer_act', { actions: [{ ref: agree, op: 'toggle' }] }),
    );
    await full('computer_act set_value (settle ≥ 300 ms)', 'textbox "Name"', (i) =>
      call(session, 'computer_act', { actions: [{ ref: name, op: 'set_value', value: `bench ${i}` }] }),
    );
    // Cleared first (Save disabled at once), then set and clicked in one call: the click waits for the app's
    // 500 ms timer to enable Save.
    await full(
      'computer_act set_value + click Save (waits for the 500 ms timer)',
      'button "Save"',
      (i) =>
        call(session, 'computer_act', {
          actions: [
            { ref: name, op: 'set_value', value: `file ${i}` },
            { ref: save, op: 'click' },
          ],
        }),
      () => call(session, 'computer_act', { actions: [{ ref: name, op: 'clear' }] }),
    );
  } catch (e) {
    rows.push({ app, name: 'act lifecycle', error: errText(e), failures: 1, targetsApply: apply });
  } finally {
    child.kill();
  }
  return rows;
}
