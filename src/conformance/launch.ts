/**
 * The kit's harnesses for one run (`harness.page`, `harness.native`): serves the page, opens it and starts the
 * native harness on this machine when it is the machine the driver reads (same OS, or a phone over adb), then waits
 * until the driver lists their windows. Elsewhere (a driver over ssh, a replay) each is a SKIP that says so.
 */
import { platform as hostOs } from 'node:os';
import { describeAnswer } from './connection.js';
import { harnessDir, serveHarnessPage, type ServedPage } from './harness-page.js';
import { LaunchedHarnesses, launchPlan } from './harness-launch.js';
import { NATIVE_HARNESSES, PAGE_TITLE } from './harnesses.js';
import type { Verdicts } from './report.js';
import type { KitContext } from './wire.js';

/** How long a harness window may take to be listed (a cold browser, a first csc build). */
const WINDOW_MS = 60_000;

/** The harnesses started for a run: the windows to wait for, and how to stop them. */
export interface HarnessLaunch {
  /** Rule name → the window title it waits for. */
  windows: Map<string, string>;
  /** The started processes that have exited, with what they said. */
  exited(): string[];
  stop(): Promise<void>;
}

/** The driver platforms this machine's OS shows. */
const HOST_PLATFORM: Record<string, string> = { linux: 'linux', win32: 'windows', darwin: 'macos' };

/** Serves the page and starts the harnesses for `platform`; each outcome is a verdict. */
export async function launchHarnesses(
  platform: string,
  v: Verdicts,
  facts?: unknown,
): Promise<HarnessLaunch | undefined> {
  const local = platform === 'android' || HOST_PLATFORM[hostOs()] === platform;
  if (!local) {
    const why =
      `the driver reads a ${JSON.stringify(platform)} desktop and the kit runs on ${hostOs()}: start the ` +
      `harnesses where the driver runs (docs/conformance.md, "Harnesses")`;
    v.skip('harness.page', why);
    v.skip('harness.native', why);
    return undefined;
  }
  let page: ServedPage | undefined;
  const started = new LaunchedHarnesses();
  const windows = new Map<string, string>();
  try {
    page = await serveHarnessPage();
    const serial = (facts as { serial?: unknown } | undefined)?.serial;
    const plan = launchPlan(
      platform,
      page.url,
      page.port,
      started.host(harnessDir(), typeof serial === 'string' ? serial : undefined),
    );
    const native = NATIVE_HARNESSES.find((n) => n.platform === platform);
    for (const [rule, steps, title] of [
      ['harness.page', plan.page, PAGE_TITLE],
      ['harness.native', plan.native, native?.harness.window.title],
    ] as const) {
      if (typeof steps === 'string' || title === undefined) {
        v.skip(rule, typeof steps === 'string' ? steps : 'no native harness for this platform');
        continue;
      }
      const problem = await started.run(steps);
      if (problem) v.fail(rule, `the kit could not start it: ${problem}`);
      else windows.set(rule, title);
    }
  } catch (e) {
    v.fail('harness.page', `the kit could not serve the page: ${(e as Error).message}`);
  }
  const served = page;
  return {
    windows,
    exited: () => started.exited(),
    stop: async () => {
      started.stop();
      await served?.close();
    },
  };
}

/** Fewer nodes than a harness's controls: the window is listed but its content is not read yet. */
const MIN_HARNESS_NODES = 12;

/** How many nodes a snapshot of the window holds (0 when it cannot be read). */
async function nodeCount(ctx: KitContext, window: string): Promise<number> {
  const a = await ctx.drv.call('tree.snapshot', { window }, 15_000);
  const count = (n: unknown): number => {
    const kids = (n as { children?: unknown } | null)?.children;
    return 1 + (Array.isArray(kids) ? kids.reduce((sum: number, k) => sum + count(k), 0) : 0);
  };
  return a.kind === 'result' ? count((a.value as { root?: unknown } | null)?.root) - 1 : 0;
}

/** Waits until the driver lists each started harness's window with its controls; one never listed fails its rule. */
export async function waitForHarnessWindows(ctx: KitContext, launched: HarnessLaunch): Promise<void> {
  if (launched.windows.size === 0) return;
  if (!ctx.methods.has('windows.list')) {
    for (const rule of launched.windows.keys()) ctx.v.skip(rule, 'the driver does not list windows.list');
    return;
  }
  const started = Date.now();
  const waiting = new Map(launched.windows);
  let last = '';
  while (waiting.size > 0 && Date.now() - started < WINDOW_MS) {
    const a = await ctx.drv.call('windows.list', {}, 15_000);
    const listed = a.kind === 'result' ? (a.value as { windows?: unknown } | null)?.windows : undefined;
    const windows = (Array.isArray(listed) ? listed : [])
      .map((w) => w as { title?: unknown; id?: unknown } | null)
      .filter((w): w is { title: string; id: string } => typeof w?.title === 'string' && typeof w.id === 'string');
    last = a.kind === 'result' ? `${windows.length} windows listed` : describeAnswer(a);
    for (const [rule, title] of waiting) {
      const w = windows.find((x) => x.title.includes(title));
      // A browser lists the page's title before its tree holds the page's controls: wait for them too.
      if (!w || (await nodeCount(ctx, w.id)) < MIN_HARNESS_NODES) continue;
      ctx.v.pass(rule, `window "${title}" listed after ${((Date.now() - started) / 1000).toFixed(1)} s`);
      waiting.delete(rule);
    }
    if (waiting.size > 0) await new Promise((r) => setTimeout(r, 500));
  }
  for (const [rule, title] of waiting) {
    const exited = launched.exited();
    ctx.v.fail(
      rule,
      `started, but the driver listed no window titled "${title}" within ${WINDOW_MS / 1000} s (last: ${last})` +
        `${exited.length ? `; ${exited.join('; ')}` : ''}`,
    );
  }
}
