/** Act + settle measurements on gtk3-widget-factory and gedit: latency broken down by driver method, result tokens. */
import type { RawNode } from '../src/engine/node.js';
import { walk } from '../src/engine/node.js';
import type { SnapshotLine } from '../src/engine/snapshot.js';
import type { A11yBus } from '../src/drivers/linux/bus/bus.js';
import { targetOf } from '../src/drivers/linux/tree/reader.js';
import type { Session } from '../src/session/session.js';
import { toolByName } from '../src/tools/index.js';
import { runTool, type ToolResult } from '../src/tools/tool.js';
import { textTokens } from '../src/demo/tokens.js';
import { DUMP, RUNS, WARMUP, errText } from './config.js';
import { median, r1, summarize, type Summary } from './stats.js';
import { sumOf, timed, type Trace } from './trace.js';

export interface ActBench {
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
  /**
   * Median driver round trips (requests) the op waits for; a click should need 3 (act, settle, snapshot). The
   * visible agent's ui.highlight calls are not counted: they are sent without waiting (session/activity.ts).
   */
  roundTripsP50?: number;
  /** The requests of one run, in order (`apps.list node.act ui.settle …`, ui.highlight included), to see which ones an op pays for. */
  roundTripMethods?: string;
  sample?: string;
  failures: number;
  /** A post-condition read directly from the bus. */
  check?: string;
  /**
   * Which acting path the row measured: `proving` (the driver proves the process at dispatch and lists the windows
   * around the act: capabilities act_identity, act_windows) or `listed` (those capabilities hidden from the host:
   * apps.list and process.identify first, the path of drivers without them), interleaved run by run.
   */
  path?: 'proving' | 'listed';
  targetsApply: { tokens: boolean; latency: boolean };
}

type Apply = ActBench['targetsApply'];

/** The one driver call an act sends without waiting for it (the visible agent's frame and status). */
const NOT_AWAITED = 'ui.highlight';

async function callTool(session: Session, name: string, params: unknown): Promise<ToolResult> {
  const tool = toolByName(name);
  if (!tool) throw new Error(`no tool ${name}`);
  return runTool(tool, { session }, params);
}

/** The runs of one act, reduced to a row. Rows measured together may share the last error they report. */
class ActSamples {
  private readonly lat: number[] = [];
  private readonly settle: number[] = [];
  private readonly dispatch: number[] = [];
  private readonly rest: number[] = [];
  private readonly toks: number[] = [];
  private readonly trips: number[] = [];
  private methods = '';
  private sample = '';
  private failures = 0;

  constructor(private readonly lastError: { text: string } = { text: '' }) {}

  /** Records run `i`: failures count in warm-ups too (unless `countFailure` is false), timings only after them. */
  add(i: number, t: { value: ToolResult; ms: number; calls: Trace[] }, countFailure = true): void {
    if (countFailure && t.value.isError) { this.failures++; this.lastError.text = t.value.text.split('\n')[0] ?? ''; }
    if (i < WARMUP) return;
    const s = sumOf(t.calls, 'ui.settle');
    const d = sumOf(t.calls, 'node.act') + sumOf(t.calls, 'input.keys');
    this.lat.push(t.ms);
    this.settle.push(s);
    this.dispatch.push(d);
    this.rest.push(t.ms - s - d);
    this.toks.push(textTokens(t.value.text));
    this.trips.push(t.calls.filter((c) => c.method !== NOT_AWAITED).length);
    if (i === WARMUP) { this.sample = t.value.text; this.methods = t.calls.map((c) => c.method).join(' '); }
  }

  row(app: string, name: string, target: string, apply: Apply): ActBench {
    const out: ActBench = {
      app,
      name,
      target,
      latency: summarize(this.lat),
      settleP50: r1(median(this.settle)),
      dispatchP50: r1(median(this.dispatch)),
      restP50: r1(median(this.rest)),
      tokensP50: median(this.toks),
      tokensMax: Math.max(...this.toks),
      sample: this.sample,
      roundTripsP50: median(this.trips),
      roundTripMethods: this.methods,
      failures: this.failures,
      targetsApply: apply,
    };
    if (this.failures) out.error = `${this.failures} failed: ${this.lastError.text.slice(0, 140)}`;
    return out;
  }
}

/** The capabilities that let an act ride on the last snapshot; hidden from the host, it takes the listed path. */
const PROVING = new Set(['act_identity', 'act_windows']);

/** Runs `fn` with the driver's hello as a driver without act_identity and act_windows would send it. */
async function onListedPath<T>(session: Session, fn: () => Promise<T>): Promise<T> {
  const device = session.device;
  const own = Object.getOwnPropertyDescriptor(device, 'hello');
  const hello = device.hello.bind(device);
  device.hello = async () => {
    const h = await hello();
    return { ...h, capabilities: h.capabilities.filter((c) => !PROVING.has(c)) };
  };
  try {
    return await fn();
  } finally {
    if (own) Object.defineProperty(device, 'hello', own);
    else delete (device as Partial<typeof device>).hello;
  }
}

/**
 * Repeats one act (params may vary by run) WARMUP + RUNS times on each path, the two interleaved run by run (and
 * which goes first alternating), so both see the same machine: one row per path.
 */
async function benchAct(
  session: Session,
  app: string,
  name: string,
  target: string,
  step: (i: number) => Promise<ToolResult>,
  apply: Apply,
): Promise<ActBench[]> {
  const proving = new ActSamples();
  const listed = new ActSamples();
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const runs = [
      async () => proving.add(i, await timed(() => step(2 * i))),
      async () => listed.add(i, await timed(() => onListedPath(session, () => step(2 * i + 1)))),
    ];
    for (const r of i % 2 === 0 ? runs : runs.reverse()) await r();
  }
  return [
    { ...listed.row(app, name, target, apply), path: 'listed' },
    { ...proving.row(app, name, target, apply), path: 'proving' },
  ];
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

const usable = (f: Found): boolean =>
  !f.raw.states.some((s) => s === 'disabled' || s === 'offscreen' || s === 'invisible');
const describe = (f: Found): string =>
  `${f.line.ref} ${f.raw.nativeRole ?? f.line.role}${f.line.name ? ` "${f.line.name.slice(0, 30)}"` : ''}`;

export async function actsWidgetFactory(session: Session, winRef: string, bus?: A11yBus): Promise<ActBench[]> {
  const app = 'gtk3-widget-factory';
  const els = (await elements(session, winRef)).filter(usable);
  if (DUMP) {
    for (const f of els)
      if (/toggle|spin|slider|check|^text$/.test(f.raw.nativeRole ?? ''))
        console.log(
          `  ${describe(f)} [${f.raw.states.join(',')}] {${f.raw.actions.join(',')}} ` +
            `${JSON.stringify(f.raw.range ?? null)} v=${f.raw.value ?? ''}`,
        );
  }
  const out: ActBench[] = [];
  const run = async (
    name: string,
    pick: Found | undefined,
    step: (f: Found, i: number) => Promise<ToolResult>,
    apply: Apply,
  ): Promise<void> => {
    if (!pick) {
      out.push({ app, name, error: 'no suitable element found', failures: 0, targetsApply: apply });
      return;
    }
    try {
      out.push(...await benchAct(session, app, name, describe(pick), (i) => step(pick, i), apply));
    } catch (e) {
      out.push({ app, name, target: describe(pick), error: errText(e), failures: 1, targetsApply: apply });
    }
  };
  const act = (ref: string, op: string, value?: string): Promise<ToolResult> =>
    callTool(session, 'computer_act', { actions: [{ ref, op, ...(value !== undefined ? { value } : {}) }] });

  await run(
    'toggle check button',
    els.find(
      (f) => f.raw.nativeRole === 'check box' && f.raw.actions.includes('toggle') && !f.raw.states.includes('mixed'),
    ),
    (f) => act(f.line.ref, 'toggle'),
    { tokens: true, latency: true },
  );
  await run(
    'set_value entry',
    els.find(
      (f) => f.raw.nativeRole === 'text' && f.raw.actions.includes('set_value') && !f.raw.states.includes('multiline'),
    ),
    (f, i) => act(f.line.ref, 'set_value', `bench text ${i}`),
    { tokens: true, latency: true },
  );
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
    if (pick && last && bus && !last.error) {
      // Which interface did it go through, and does the numeric Value agree with what was set?
      const v = await bus.getProp(targetOf(pick.raw.id), 'org.a11y.atspi.Value', 'CurrentValue').catch(() => undefined);
      const text = await bus
        .call(targetOf(pick.raw.id), 'org.a11y.atspi.Text', 'GetText', 'ii', [0, 40])
        .then((r) => String(r[0]))
        .catch(() => undefined);
      last.check =
        `after: Value.CurrentValue=${String(v)}${text !== undefined ? ` text="${text}"` : ''}; method: ` +
        `${/\(([^;)]*)/.exec(last.sample ?? '')?.[1] ?? '?'}`;
    }
  }
  const toggles = els.filter((f) => f.raw.nativeRole === 'toggle button' && f.raw.actions.includes('click'));
  await run('click toggle button', toggles.find((f) => f.line.name && !/menu/i.test(f.line.name)) ?? toggles[0],
    (f) => act(f.line.ref, 'click'), { tokens: false, latency: true });
  return out;
}

export async function actsGedit(session: Session, winRef: string): Promise<ActBench[]> {
  const app = 'gedit';
  const els = (await elements(session, winRef)).filter(usable);
  const menu =
    els.find((f) => f.line.role === 'button' && /^(menu|main menu|application menu)$/i.test(f.line.name ?? '')) ??
    els.find(
      (f) => f.line.role === 'button' && /menu/i.test(f.line.name ?? '') && f.raw.nativeRole === 'toggle button',
    );
  const apply = { tokens: false, latency: true };
  if (!menu) {
    const names = els.filter((f) => f.line.role === 'button').map((f) => f.line.name ?? '?').join(', ');
    return [
      {
        app,
        name: 'open app menu',
        error: `no Menu button (buttons: ${names.slice(0, 100)})`,
        failures: 0,
        targetsApply: apply,
      },
    ];
  }
  const clickMenu = (): Promise<ToolResult> =>
    callTool(session, 'computer_act', { actions: [{ ref: menu.line.ref, op: 'click' }] });
  const lastError = { text: '' };
  const open = new ActSamples(lastError);
  const close = new ActSamples(lastError);
  let closeWith = 'computer_keys Escape';
  for (let i = 0; i < WARMUP + RUNS; i++) {
    open.add(i, await timed(clickMenu));
    let c = await timed(() => callTool(session, 'computer_keys', { keys: 'Escape', window: winRef }));
    let counts = true;
    if (c.value.isError && i === 0) {
      // No synthetic keyboard: close by clicking the button again.
      closeWith = 'computer_act click Menu again';
      c = await timed(clickMenu);
      counts = false;
    }
    close.add(i, c, counts);
  }
  return [open.row(app, 'open app menu (click Menu)', describe(menu), apply),
    close.row(app, `close app menu (${closeWith})`, describe(menu), apply)];
}
