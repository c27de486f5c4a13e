/**
 * The wire layer: what every driver must do with no app at all (framing, handshake, validation, cancellation,
 * concurrency, text beyond the BMP, end of input). Each rule sends what it needs, and judges only what it saw.
 */
import { DEFAULT_MAX_LINE_BYTES } from '../protocol/framing.js';
import { METHOD_NAMES, methodSpec } from '../protocol/methods.js';
import { describeAnswer, type Answer, type DriverProcess } from './connection.js';
import { cite, type Verdicts } from './report.js';

/** What the rules share: the driver, what its hello said, the verdicts. */
export interface KitContext {
  /** The driver process (a new one after a rule made the last one exit). */
  drv: DriverProcess;
  v: Verdicts;
  hello?: Record<string, unknown>;
  /** The methods the driver listed in hello. */
  methods: ReadonlySet<string>;
}

/** How long a driver may take to answer a request of these rules (they ask for no work). */
const ANSWER_MS = 10_000;
/** How long a cancelled request may stay unanswered. */
export const CANCEL_ANSWER_MS = 5_000;
/** How long a driver may take to exit once its stdin closed. */
export const EOF_EXIT_MS = 5_000;
/** A field no method declares: strict params refuse it. */
const UNKNOWN_FIELD = 'conformanceUnknownField';
/** Methods never called with made-up params: a driver that ignored the unknown field would act on it. */
const NOT_PROBED = new Set(['shutdown']);

const isError = (a: Answer, code: number): boolean => a.kind === 'error' && a.code === code;

/** `hello`: protocolVersion semver with major 1, a platform, the methods it implements. Returns the result. */
export async function helloRule(ctx: Omit<KitContext, 'methods'>): Promise<Record<string, unknown> | undefined> {
  const a = await ctx.drv.call('hello', { client: 'computer-use conformance' }, ANSWER_MS);
  if (a.kind !== 'result' || typeof a.value !== 'object' || a.value === null) {
    ctx.v.fail(
      'wire.hello',
      cite(
        'R-hello',
        `expected a hello result, got ${describeAnswer(a)}` +
          `${ctx.drv.exited ? ` (${ctx.drv.exitText}; stderr: ${ctx.drv.stderrTail})` : ''}`,
      ),
    );
    return undefined;
  }
  const r = a.value as Record<string, unknown>;
  const problems: string[] = [];
  const pv = r['protocolVersion'];
  if (typeof pv !== 'string' || !/^\d+\.\d+\.\d+([-+][0-9A-Za-z.-]+)?$/.test(pv))
    problems.push(`expected protocolVersion as semver (e.g. "1.0.0"), got ${JSON.stringify(pv) ?? 'nothing'}`);
  else if (!pv.startsWith('1.')) problems.push(`expected protocolVersion with major version 1, got "${pv}"`);
  if (typeof r['platform'] !== 'string' || r['platform'] === '')
    problems.push(`expected a platform, got ${JSON.stringify(r['platform']) ?? 'nothing'}`);
  const methods = r['methods'];
  if (!Array.isArray(methods) || !methods.every((m) => typeof m === 'string'))
    problems.push(
      `expected methods as a list of method names, got ${JSON.stringify(methods)?.slice(0, 80) ?? 'nothing'}`,
    );
  else {
    if (!methods.includes('hello')) problems.push('expected methods to list "hello"');
    const unknown = methods.filter((m) => !methodSpec(m));
    if (unknown.length)
      problems.push(`methods lists names the protocol does not declare: ${unknown.slice(0, 5).join(', ')}`);
  }
  ctx.v.check(
    'wire.hello',
    problems.map((p) => cite('R-hello', p)),
    `protocolVersion ${String(pv)}, platform ${String(r['platform'])}, ` +
      `${Array.isArray(methods) ? methods.length : 0} methods`,
  );
  return r;
}

/** Strict params: an unknown field is invalid params (-32602) for every method the driver lists. */
export async function strictParamsRule(ctx: KitContext): Promise<void> {
  const problems: string[] = [];
  const probed = [...ctx.methods].filter((m) => methodSpec(m) && !NOT_PROBED.has(m));
  for (const m of probed) {
    const a = await ctx.drv.call(m, { [UNKNOWN_FIELD]: true }, ANSWER_MS);
    if (!isError(a, -32602))
      problems.push(`${m} with an unknown field: expected error -32602 (invalid params), got ${describeAnswer(a)}`);
  }
  if (ctx.methods.has('windows.list')) {
    const a = await ctx.drv.call('windows.list', { pid: 'one' }, ANSWER_MS);
    if (!isError(a, -32602))
      problems.push(`windows.list with pid "one": expected error -32602, got ${describeAnswer(a)}`);
  }
  ctx.v.check(
    'wire.strict-params',
    problems.map((p) => cite('R-params-strict', p)),
    `${probed.length} methods refuse an unknown field with -32602`,
  );
}

/** An undeclared method is -32601, including the names every JavaScript object has. */
export async function unknownMethodRule(ctx: KitContext): Promise<void> {
  const problems: string[] = [];
  const names = ['conformance.noSuchMethod', 'toString', '__proto__', 'constructor', 'hasOwnProperty'];
  for (const m of names) {
    const a = await ctx.drv.call(m, {}, ANSWER_MS);
    if (!isError(a, -32601)) problems.push(`${m}: expected error -32601 (method not found), got ${describeAnswer(a)}`);
  }
  ctx.v.check(
    'wire.unknown-method',
    problems.map((p) => cite('R-method-unknown', p)),
    `${names.length} undeclared names answered -32601`,
  );
}

/**
 * Malformed lines never end the driver: a non-JSON line and a JSON value that is no object are skipped or answered
 * with an error (-32700 / -32600); a message without a method, and a request without `jsonrpc: "2.0"`, are
 * refused with -32600 under their id; the next request is answered.
 */
export async function malformedLinesRule(ctx: KitContext): Promise<void> {
  const problems: string[] = [];
  ctx.drv.sendLine('this is not JSON {');
  ctx.drv.sendLine('[1, 2, 3]');
  ctx.drv.sendLine('{"jsonrpc":"2.0","id":"no-method"}');
  ctx.drv.sendLine('{"id":"no-jsonrpc","method":"hello","params":{}}');
  const next = await ctx.drv.call('hello', {}, ANSWER_MS);
  if (next.kind !== 'result')
    problems.push(
      cite(
        'R-frame-junk',
        `after malformed lines, expected hello to be answered, got ${describeAnswer(next)}` +
          `${ctx.drv.exited ? ` (${ctx.drv.exitText})` : ''}`,
      ),
    );
  const noJsonrpc = await ctx.drv.answer('no-jsonrpc', 1000);
  if (!isError(noJsonrpc, -32600))
    problems.push(
      cite(
        'R-jsonrpc',
        `a request without "jsonrpc": "2.0" (id "no-jsonrpc"): expected error -32600 under its id, got ` +
          `${describeAnswer(noJsonrpc)}`,
      ),
    );
  const noMethod = ctx.drv.responses.find((r) => r.id === 'no-method' && r.error === undefined);
  if (noMethod)
    problems.push(
      cite('R-frame-junk', 'a message without a method was answered with a result: expected error -32600 or no answer'),
    );
  for (const r of ctx.drv.responses.filter((x) => x.error && (x.id === null || x.id === 'no-method'))) {
    if (r.error!.code !== -32700 && r.error!.code !== -32600)
      problems.push(cite('R-frame-junk', `expected -32700 or -32600 for a malformed line, got ${r.error!.code}`));
  }
  ctx.v.check(
    'wire.malformed-lines',
    problems,
    'the driver skipped or refused 4 malformed lines (-32600 for the one without jsonrpc) and answered the ' +
      'next request',
  );
}

/** Insignificant whitespace and escapes: a request written loosely, on one line, is served like a compact one. */
export async function whitespaceRule(ctx: KitContext): Promise<void> {
  ctx.drv.sendLine('{ "jsonrpc" : "2.0" ,\t"id" : "spaced" ,  "method" :\t"hello" , "params" : { "client" : "caf\\u00e9 \\u2028" } }\r');
  const a = await ctx.drv.answer('spaced', ANSWER_MS);
  ctx.v.check(
    'wire.whitespace',
    a.kind === 'result'
      ? []
      : [
          cite(
            'R-frame-whitespace',
            `a hello with spaces, tabs, a trailing \\r and \\u escapes: expected a result, got ${describeAnswer(a)}`,
          ),
        ],
    'a request with spaces, tabs, a trailing \\r and \\u escapes was served',
  );
}

/**
 * A line over the framing cap (16 MiB of UTF-8) is dropped, never parsed: the request on it gets no answer (an
 * error with id null is fine), and the next request is answered. The line is of `é`: under the cap in characters,
 * over it in bytes, so a driver that counts characters parses and answers it.
 */
export async function oversizeLineRule(ctx: KitContext): Promise<void> {
  const problems: string[] = [];
  const filler = 'é'.repeat(Math.floor(DEFAULT_MAX_LINE_BYTES / 2) + 1024);
  const line = `{"jsonrpc":"2.0","id":"oversize","method":"hello","params":{"client":"${filler}"}}`;
  const bytes = Buffer.byteLength(line);
  ctx.drv.sendLine(line);
  const next = await ctx.drv.call('hello', {}, 30_000);
  if (next.kind !== 'result')
    problems.push(
      `after a ${bytes}-byte line, expected hello to be answered, got ${describeAnswer(next)}` +
        `${ctx.drv.exited ? ` (${ctx.drv.exitText})` : ''}`,
    );
  if (ctx.drv.responses.some((r) => r.id === 'oversize')) {
    problems.push(
      `the request on a line of ${line.length} characters and ${bytes} bytes was answered: expected the line ` +
        `to be dropped unparsed (the cap counts bytes)`,
    );
  }
  ctx.v.check(
    'wire.oversize-line',
    problems.map((p) => cite('R-frame-oversize', p)),
    `a line of ${line.length} characters, ${bytes} bytes was dropped and the driver went on`,
  );
}

/** `$/cancel {id}` ends a request being served: a long ui.settle is answered soon after it is cancelled. */
export async function cancelRule(ctx: KitContext): Promise<void> {
  if (!ctx.methods.has('ui.settle')) {
    ctx.v.skip('wire.cancel', 'the driver does not list ui.settle, the long request this rule cancels');
    return;
  }
  const id = ctx.drv.send('ui.settle', { quietMs: 60_000, timeoutMs: 60_000 }, 'cancel-me');
  const early = await ctx.drv.waitFor(() => ctx.drv.responses.find((r) => r.id === id), 200);
  ctx.drv.notify('$/cancel', { id });
  const a = await ctx.drv.answer(id, CANCEL_ANSWER_MS);
  if (a.kind === 'none') {
    ctx.v.fail(
      'wire.cancel',
      cite(
        'R-cancel',
        `expected the cancelled ui.settle {quietMs: 60000} to be answered within ${CANCEL_ANSWER_MS} ms of ` +
          `$/cancel, got ${describeAnswer(a)}`,
      ),
    );
    return;
  }
  const after = await ctx.drv.call('hello', {}, ANSWER_MS);
  if (after.kind !== 'result') {
    ctx.v.fail(
      'wire.cancel',
      cite('R-cancel', `after a cancel, expected hello to be answered, got ${describeAnswer(after)}`),
    );
    return;
  }
  ctx.v.pass(
    'wire.cancel',
    early
      ? 'ui.settle answered before the cancel arrived (nothing to cancel)'
      : `the cancelled ui.settle was answered: ${describeAnswer(a)}`,
  );
}

/** Concurrent requests: each is answered once, by its own id, with a result of its own method. */
export async function outOfOrderRule(ctx: KitContext): Promise<void> {
  const sent: { id: string | number; method: string }[] = [];
  if (ctx.methods.has('ui.settle'))
    sent.push({ method: 'ui.settle', id: ctx.drv.send('ui.settle', { quietMs: 300, timeoutMs: 2000 }, 'slow-settle') });
  sent.push({ method: 'hello', id: ctx.drv.send('hello', {}, 'quick-hello') });
  for (const m of ['windows.list', 'apps.list', 'screen.displays'])
    if (ctx.methods.has(m)) sent.push({ method: m, id: ctx.drv.send(m, {}, `quick-${m}`) });
  const order: string[] = [];
  const problems: string[] = [];
  const before = ctx.drv.violations.length;
  await Promise.all(sent.map(async (s) => {
    const a = await ctx.drv.answer(s.id, ANSWER_MS);
    if (a.kind === 'none') problems.push(`${s.method} (id ${JSON.stringify(s.id)}): ${describeAnswer(a)}`);
    else order.push(s.method);
  }));
  for (const s of sent) {
    const n = ctx.drv.responses.filter((r) => r.id === s.id).length;
    if (n > 1) problems.push(`${s.method} (id ${JSON.stringify(s.id)}) was answered ${n} times`);
  }
  const mixed = ctx.drv.violations.slice(before);
  if (mixed.length)
    problems.push(
      `answers do not fit the method of their id: ${mixed.map((x) => `${x.method}: ${x.problem}`).join(', ')}`,
    );
  ctx.v.check(
    'wire.out-of-order',
    problems.map((p) => cite('R-id', p)),
    `${sent.length} concurrent requests answered by id (in order ${order.join(', ')})`,
  );
}

/** Text beyond the BMP (surrogate pairs in UTF-16) crosses intact: ids and params, raw UTF-8 or \u-escaped. */
export async function nonBmpRule(ctx: KitContext): Promise<void> {
  const problems: string[] = [];
  const text = '𝒳 😀 Zoë';
  const rawId = `id-${text}`;
  const a = await ctx.drv.answer(ctx.drv.send('hello', { client: text }, rawId), ANSWER_MS);
  if (a.kind !== 'result')
    problems.push(
      `hello {client: ${JSON.stringify(text)}} with id ${JSON.stringify(rawId)}: expected a result echoing the ` +
        `id, got ${describeAnswer(a)}`,
    );
  // The same characters as JSON escapes of their surrogate pairs (what Python's json.dumps writes by default).
  ctx.drv.sendLine('{"jsonrpc":"2.0","id":"esc-\\ud835\\udcb3-\\ud83d\\ude00","method":"hello","params":{"client":"\\ud835\\udcb3"}}');
  const esc = await ctx.drv.answer('esc-𝒳-😀', ANSWER_MS);
  if (esc.kind !== 'result')
    problems.push(
      `hello with an id of escaped surrogate pairs: expected the id back as "esc-𝒳-😀", got ` +
        `${describeAnswer(esc)}`,
    );
  if (ctx.methods.has('tree.find')) {
    const f = await ctx.drv.call('tree.find', { window: 'no-such-window-😀', text: '𝒳' }, ANSWER_MS);
    if (f.kind === 'none') problems.push(`tree.find with non-BMP text: expected an answer, got ${describeAnswer(f)}`);
  }
  if (ctx.drv.exited) problems.push(`the driver exited (${ctx.drv.exitText}; stderr: ${ctx.drv.stderrTail})`);
  ctx.v.check(
    'wire.non-bmp',
    problems.map((p) => cite('R-id', p)),
    'ids and params with 𝒳 and 😀 round-trip, raw and escaped',
  );
}

/** Every result the kit received fits its method's declared schema; every error has a protocol code. */
export function schemaRule(ctx: KitContext, processes: readonly DriverProcess[]): void {
  const seen = new Map<string, string>();
  for (const x of processes.flatMap((p) => p.violations)) if (!seen.has(x.method)) seen.set(x.method, x.problem);
  const checked = processes.reduce((n, p) => n + p.checked, 0);
  ctx.v.check(
    'wire.schema',
    [...seen].map(([m, p]) => cite('R-result-schema', `${m} answered outside its schema: ${p}`)),
    `${checked} results fit their methods' schemas (${METHOD_NAMES.length} methods declared)`,
  );
}

/** Over the whole run: stdout held only JSON-RPC messages with `jsonrpc: "2.0"`, answering ids that were sent, once. */
export function framingRule(ctx: KitContext, processes: readonly DriverProcess[]): void {
  const lines = processes.reduce((n, p) => n + p.responses.length + p.notifications.length, 0);
  ctx.v.check(
    'wire.framing',
    [...new Set(processes.flatMap((p) => p.framing))],
    `${lines} messages, each one JSON object on its own line with "jsonrpc": "2.0", answering an id the kit ` + `sent`,
  );
}

/** End of input ends the driver: stdin closed → the process exits. */
export async function eofRule(ctx: KitContext): Promise<void> {
  if (ctx.drv.exited) {
    ctx.v.fail(
      'wire.eof-exit',
      cite('R-eof', `the driver had already exited (${ctx.drv.exitText}) before its input was closed`),
    );
    return;
  }
  const exited = await ctx.drv.endInput(EOF_EXIT_MS);
  if (exited) ctx.v.pass('wire.eof-exit', `the driver exited (${ctx.drv.exitText}) when its stdin closed`);
  else
    ctx.v.fail(
      'wire.eof-exit',
      cite('R-eof', `expected the driver to exit within ${EOF_EXIT_MS} ms of its stdin closing; it kept running`),
    );
}
