/**
 * The tool-argument fuzzer: calls generated from the tool schemas plus hostile mutations, through the real MCP
 * server (hosts/mcp.ts) and the SDK Client over an in-memory transport, on a computer over the fake driver.
 * Checks, per call: it answers within a bound (no hang), the answer is a valid MCP result, an error names its
 * code, and params outside the schema are refused with invalid_params before any acting driver method runs.
 * Used by test/unit/fuzz-tools.test.ts (CI-sized) and `npm run bench -- --fuzz N`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import { createMcpServer } from '../../src/hosts/mcp.js';
import { allowAllGate } from '../../src/policy/gate.js';
import { ERROR_CODES } from '../../src/protocol/errors.js';
import { METHODS } from '../../src/protocol/methods.js';
import { checkerOf } from '../../src/protocol/validate.js';
import { TOOLS } from '../../src/tools/index.js';
import { fullSchema } from '../../src/tools/tool.js';
import { widgetFactory } from '../fixtures/engine/widget-factory.js';
import { generate, mutate, Rng, type Hints, type JsonSchema, type MutationKind } from './generate.js';

/** The methods declared as acting (protocol/methods.ts): none may be sent for a refused call. */
export const ACTING_METHODS: ReadonlySet<string> = new Set(METHODS.filter((m) => m.acting).map((m) => m.method));

/** What a run found. */
export interface ToolFuzzReport {
  calls: number;
  valid: number;
  invalid: number;
  seed: number;
  ms: number;
  byTool: Record<string, number>;
  byMutation: Partial<Record<MutationKind, number>>;
  byCode: Record<string, number>;
  /** Calls refused by the SDK itself (arguments not an object): a JSON-RPC error, never reaching a tool. */
  protocolErrors: number;
  slowestMs: number;
  /** Acting driver calls the valid calls made (the fuzzer reaches the acting paths). */
  actingCalls: number;
  /** Property violations; empty when the run passed. */
  failures: string[];
}

const REFS = Array.from({ length: 60 }, (_, i) => `e${i + 1}`);
const HINTS: Hints = {
  ref: [...REFS, 'e99999', 'o1', 'c1', 'e0', 'E1'],
  scope: [...REFS, 'e99999'],
  capture: ['c1', 'c99'],
  app: ['gtk3-widget-factory', 'gtk3', 'no-such-app'],
  window: ['w1', 'w2', 'GTK+ Widget Factory', 'w99'],
  keys: [
    'ctrl+s',
    'Return',
    'a b C',
    'ctrl+alt+Delete',
    'shift+Tab',
    'exec',
    '$(touch /tmp/cu-fuzz-pwned)',
    'ctrl++',
    'F5 F13 F25',
  ],
  value: ['80', 'hello', 'up', 'into_view', 'Row 3', '', '-1e309'],
  text: ['Row', 'Bold', 'API key', 'never-there', ''],
  query: ['Row', 'button', ''],
  role: ['button', 'checkbox', 'nonsense'],
  command: ['gedit', 'true', 'sh -c "touch /tmp/cu-fuzz-pwned"'],
  timeoutMs: ['0', '50', '200'],
  quietMs: ['0', '10'],
  waitMs: ['0', '100'],
};

/** Runs `calls` calls; never throws for a property violation (they go to `failures`). */
export async function fuzzTools(calls: number, seed = 8_014, perCallBoundMs = 15_000): Promise<ToolFuzzReport> {
  const home = mkdtempSync(join(tmpdir(), 'cu-fuzz-'));
  process.env['COMPUTER_USE_HOME'] = home;
  const f = widgetFactory();
  const fake = new FakeDriver([{ info: f.window, root: f.root }]);
  const { server, close } = createMcpServer({
    desktop: 'current', connect: () => fake.connect(), gate: allowAllGate, settingsPath: join(home, 'settings.json'),
    auditPath: join(home, 'audit.jsonl'), settle: { quietMs: 0, timeoutMs: 50 },
  });
  const client = new Client({ name: 'fuzz', version: '0' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  const rng = new Rng(seed);
  const report: ToolFuzzReport = {
    calls: 0,
    valid: 0,
    invalid: 0,
    seed,
    ms: 0,
    byTool: {},
    byMutation: {},
    byCode: {},
    protocolErrors: 0,
    slowestMs: 0,
    actingCalls: 0,
    failures: [],
  };
  const fail = (what: string): void => { if (report.failures.length < 50) report.failures.push(what); };
  const acting = (): number => fake.calls.filter((c) => ACTING_METHODS.has(c.method)).length;
  const schemas = TOOLS.map((t) => ({
    name: t.schema.name,
    schema: fullSchema(t.schema.inputSchema) as JsonSchema,
    check: checkerOf(t.schema.inputSchema),
  }));
  const t0 = performance.now();
  // Refs exist for the valid calls to reach the acting paths.
  await client.callTool({ name: 'computer_observe', arguments: { app: 'gtk3-widget-factory', maxTokens: 20000 } });
  for (let i = 0; i < calls; i++) {
    const tool = rng.pick(schemas);
    let args = generate(tool.schema, rng, HINTS);
    // A valid wait for a condition that never holds runs to its timeout: keep valid waits short.
    if (tool.name === 'computer_wait') (args as Record<string, unknown>)['timeoutMs'] = rng.int(0, 100);
    let mutation: MutationKind | undefined;
    if (rng.chance(0.7)) {
      const m = mutate(args, rng);
      args = m.value;
      mutation = m.kind;
      report.byMutation[m.kind] = (report.byMutation[m.kind] ?? 0) + 1;
    }
    // A mutation that dropped the short timeout would wait the default 10 s: bound it again.
    if (
      tool.name === 'computer_wait' &&
      args &&
      typeof args === 'object' &&
      !Array.isArray(args) &&
      !Object.hasOwn(args, 'timeoutMs')
    )
      (args as Record<string, unknown>)['timeoutMs'] = 50;
    // What the tool will see: the arguments as the SDK hands them on, as plain JSON data (own fields; NaN becomes
    // null).
    let asJson: unknown;
    try { asJson = JSON.parse(JSON.stringify(sdkView(args) ?? {})) as unknown; } catch { asJson = undefined; }
    const valid = asJson !== undefined && tool.check.Check(asJson);
    report.calls++;
    report.byTool[tool.name] = (report.byTool[tool.name] ?? 0) + 1;
    if (valid) report.valid++; else report.invalid++;
    const before = acting();
    const started = performance.now();
    const what = `call ${i} ${tool.name}${mutation ? ` (${mutation})` : ''}`;
    let result: unknown;
    try {
      result = await client.callTool(
        { name: tool.name, arguments: args as Record<string, unknown> },
        CallToolResultSchema,
        { timeout: perCallBoundMs },
      );
    } catch (e) {
      const err = e as { code?: number; message?: string };
      const notObject = args === null || typeof args !== 'object' || Array.isArray(args);
      // The SDK refuses `arguments` that are not an object with a JSON-RPC error before any tool runs.
      if (notObject && (err.code === -32602 || err.code === -32603)) {
        report.protocolErrors++;
        if (acting() !== before) fail(`${what}: an acting driver method ran for arguments the SDK refused`);
        continue;
      }
      fail(`${what}: the call threw ${String(err.code)} ${err.message?.slice(0, 200)}`);
      continue;
    }
    const ms = performance.now() - started;
    report.slowestMs = Math.max(report.slowestMs, ms);
    const parsed = CallToolResultSchema.safeParse(result);
    if (!parsed.success) { fail(`${what}: not a valid MCP result: ${parsed.error.message.slice(0, 200)}`); continue; }
    const text = parsed.data.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    let code: string | undefined;
    if (parsed.data.isError) {
      const m = /(?:^|\n)(?:error ([a-z_]+):|(?:failed|rejected) [^\n]*? · ([a-z_]+):)/.exec(text);
      code = m?.[1] ?? m?.[2];
      if (!code || !Object.hasOwn(ERROR_CODES, code))
        fail(`${what}: an error without a known code: ${text.slice(0, 200)}`);
      else report.byCode[code] = (report.byCode[code] ?? 0) + 1;
    }
    if (!valid) {
      if (!parsed.data.isError || code !== 'invalid_params')
        fail(`${what}: params outside the schema were not refused with invalid_params: ${text.slice(0, 200)}`);
      if (acting() !== before) fail(`${what}: an acting driver method ran for params outside the schema`);
    }
  }
  report.ms = Math.round(performance.now() - t0);
  report.slowestMs = Math.round(report.slowestMs);
  report.actingCalls = acting();
  await client.close();
  await close();
  return report;
}

/**
 * The arguments as the SDK's request parsing passes them to the server: it copies the top-level object, so an
 * own "__proto__" key there becomes the copy's prototype (never an own field, and never read by the tool,
 * which takes own fields only). Deeper levels are passed as they are.
 */
function sdkView(args: unknown): unknown {
  if (!args || typeof args !== 'object' || Array.isArray(args) || !Object.hasOwn(args, '__proto__')) return args;
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) if (k !== '__proto__') copy[k] = v;
  return copy;
}
