/**
 * The device-result fuzzer: a driver (or paired device) that lies. For every method the tools call it answers,
 * at random, with a coherent answer full of hostile text (test/fixtures/hostile.ts), a result generated from
 * the method's schema with hostile strings planted, a result outside the schema, or a wire error with a
 * hostile message and any code (unknown ones and Object.prototype names too). Valid tool calls run through
 * the real tools; per call: no crash, an answer within a bound, an error names a known code, and no line of
 * any answer starts like a planted line or holds a raw control (forgedLines). Used by
 * test/unit/fuzz-devices.test.ts (CI-sized).
 */
import { Device } from '../../src/devices/manager.js';
import { ComputerUseError, ERROR_CODES, type ErrorCode } from '../../src/protocol/errors.js';
import { METHOD_NAMES, methodSpec } from '../../src/protocol/methods.js';
import type { Handlers } from '../../src/protocol/peer.js';
import { Session } from '../../src/session/session.js';
import { TOOLS } from '../../src/tools/index.js';
import { fullSchema, runTool } from '../../src/tools/tool.js';
import { forgedLines, HOSTILE, HostileDriver } from '../fixtures/hostile.js';
import { generate, mutate, Rng, type Hints, type JsonSchema } from './generate.js';

/** What a run found. */
export interface DeviceFuzzReport {
  calls: number;
  seed: number;
  ms: number;
  /** Answers the lying driver gave, by kind. */
  answers: Record<'coherent' | 'generated' | 'invalid' | 'error', number>;
  byCode: Record<string, number>;
  slowestMs: number;
  /** Property violations; empty when the run passed. */
  failures: string[];
}

/**
 * Tools the fuzz calls. computer_launch is left out: its answer names a pid the host acts on, and the checks
 * here are about text, not about which process a lying device may name.
 */
const FUZZED = TOOLS.filter((t) => t.schema.name !== 'computer_launch');

const REFS = Array.from({ length: 40 }, (_, i) => `e${i + 1}`);
const HINTS: Hints = {
  ref: REFS, scope: REFS, capture: ['c1'], app: [HOSTILE[0]!, 'x'], window: ['w1', 'w2', 'w3', 'w9'],
  keys: ['ctrl+s', 'Return', 'a b'], value: ['v', 'up', 'Row 3'], text: ['o', 'x', 'row'], query: ['o'],
  role: ['button', 'listitem'], timeoutMs: ['0', '20'], quietMs: ['0'], waitMs: ['0'],
};

const CODES = [...Object.keys(ERROR_CODES), 'constructor', 'toString', '__proto__', 'bogus', ''];

/** Every string in `v` replaced, half the time, by a hostile one (lengths and patterns may no longer fit). */
function plant(v: unknown, rng: Rng): unknown {
  if (typeof v === 'string') return rng.chance(0.5) ? rng.pick(HOSTILE) : v;
  if (Array.isArray(v)) return v.map((x) => plant(x, rng));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plant(x, rng)]));
  return v;
}

/** The lying driver: HostileDriver's coherent answers, mixed with generated, invalid and failing ones. */
class LyingDriver extends HostileDriver {
  constructor(private readonly rng: Rng, private readonly answers: DeviceFuzzReport['answers']) { super(); }

  override handlers(): Handlers {
    const base = super.handlers() as Record<string, ((p: unknown, ctx: unknown) => unknown) | undefined>;
    const out: Record<string, (p: unknown, ctx: unknown) => Promise<unknown>> = {};
    for (const method of METHOD_NAMES) {
      const spec = methodSpec(method)!;
      out[method] = async (p, ctx) => {
        this.text = this.rng.pick(HOSTILE);
        this.channel = this.rng.chance(0.5) ? this.text : undefined as unknown as string;
        const own = base[method];
        // hello stays mostly coherent: without it no tool call reaches the other methods.
        const roll = method === 'hello' && own ? this.rng.next() * 0.6 : this.rng.next();
        if (roll < 0.5 && own) { this.answers.coherent++; return own(p, ctx); }
        if (roll < 0.75) {
          this.answers.generated++;
          return plant(generate(fullSchema(spec.result) as JsonSchema, this.rng), this.rng);
        }
        if (roll < 0.87) {
          this.answers.invalid++;
          const bad = mutate(generate(fullSchema(spec.result) as JsonSchema, this.rng), this.rng).value;
          // A line over the framing cap is dropped unread, so its request waits for its timeout (up to 60 s for
          // screen.ocr): the bounded-answer rule holds, but the run would crawl. Oversize answers are the line fuzzer's
          // part.
          return (JSON.stringify(bad) ?? '').length > 100_000 ? { oversize: true } : bad;
        }
        this.answers.error++;
        throw new ComputerUseError(this.rng.pick(CODES) as ErrorCode, `${method} failed: ${this.rng.pick(HOSTILE)}`);
      };
    }
    return out as Handlers;
  }
}

/** Runs `calls` tool calls against a lying driver; never throws for a property violation (they go to `failures`). */
export async function fuzzDeviceResults(
  calls: number,
  seed = 2_028,
  perCallBoundMs = 15_000,
): Promise<DeviceFuzzReport> {
  const rng = new Rng(seed);
  const report: DeviceFuzzReport = {
    calls: 0,
    seed,
    ms: 0,
    answers: { coherent: 0, generated: 0, invalid: 0, error: 0 },
    byCode: {},
    slowestMs: 0,
    failures: [],
  };
  const fail = (what: string): void => { if (report.failures.length < 50) report.failures.push(what); };
  const driver = new LyingDriver(rng, report.answers);
  const session = new Session({
    device: new Device({ connect: () => driver.connect() }),
    settle: { quietMs: 0, timeoutMs: 20 },
  });
  const schemas = FUZZED.map((t) => ({ tool: t, schema: fullSchema(t.schema.inputSchema) as JsonSchema }));
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) {
    const { tool, schema } = rng.pick(schemas);
    const args = generate(schema, rng, HINTS) as Record<string, unknown>;
    if (tool.schema.name === 'computer_wait') args['timeoutMs'] = rng.int(0, 50);
    const what = `call ${i} ${tool.schema.name} ${JSON.stringify(args).slice(0, 120)}`;
    report.calls++;
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      const bound = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${perCallBoundMs} ms`)), perCallBoundMs);
      });
      const r = await Promise.race([runTool(tool, { session }, args), bound]);
      report.slowestMs = Math.max(report.slowestMs, performance.now() - started);
      const forged = forgedLines(r.text);
      if (forged.length) fail(`${what}: forged or raw lines ${JSON.stringify(forged.slice(0, 3))}`);
      if (r.isError) {
        if (!r.code || !Object.hasOwn(ERROR_CODES, r.code))
          fail(`${what}: an error without a known code (${String(r.code)}): ${r.text.slice(0, 200)}`);
        else report.byCode[r.code] = (report.byCode[r.code] ?? 0) + 1;
      }
    } catch (e) {
      fail(`${what}: ${(e as Error).message.slice(0, 200)}`);
    } finally {
      clearTimeout(timer);
    }
  }
  report.ms = Math.round(performance.now() - t0);
  report.slowestMs = Math.round(report.slowestMs);
  await session.close();
  return report;
}
