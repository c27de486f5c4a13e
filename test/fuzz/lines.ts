/**
 * Protocol lines for the driver fuzzer: requests generated from the method schemas (protocol/methods.ts) and
 * mutated, plus broken lines (invalid JSON, wrong jsonrpc, unknown methods, odd ids, oversize lines). Each
 * line says what answer it expects, so the fuzzer can check "one valid response per request".
 */
import { DEFAULT_MAX_LINE_BYTES } from '../../src/protocol/framing.js';
import { methodSpec, METHOD_NAMES } from '../../src/protocol/methods.js';
import { checkerOf } from '../../src/protocol/validate.js';
import { generate, mutate, nested, ODD_TEXT, Rng, type Hints, type JsonSchema } from './generate.js';

/** One line to send and the answer it must get. */
export interface FuzzLine {
  line: string;
  /** The id the single response must carry; 'null' for lines answered with id null; 'none' for lines that get no answer. */
  expect: { id: string | number } | 'null' | 'none';
  /** What kind of line it is, for the report. */
  kind: string;
}

/** Methods that must not be sent with valid params (they would end the run). */
const NEVER_VALID = new Set(['shutdown']);

/**
 * Builds `count` lines. `marker` is a file path that hostile strings try to create through shell syntax; the
 * fuzzer checks it never appears.
 */
export function fuzzLines(
  count: number,
  seed: number,
  marker: string,
  maxLineBytes = DEFAULT_MAX_LINE_BYTES,
): FuzzLine[] {
  const rng = new Rng(seed);
  const shell = [
    `$(touch ${marker})`,
    `\`touch ${marker}\``,
    `; touch ${marker}`,
    `| touch ${marker}`,
    `&& touch ${marker}`,
    `sh -c 'touch ${marker}'`,
    `x\ntouch ${marker}`,
    `'; touch ${marker}; '`,
  ];
  const hints: Hints = {
    command: shell,
    args: shell,
    text: [...shell, ...ODD_TEXT],
    value: shell,
    key: ['exec', 'Return', 'a', 'sh', 'touch', 'U0041'],
    window: [':1.99999/org/a11y/atspi/accessible/1', 'bogus', ...shell],
    id: [':1.99999/org/a11y/atspi/accessible/7', ...shell],
    scope: ['bogus'],
    app: shell,
    client: ['fuzz'],
    timeoutMs: ['0', '50', '200'],
    quietMs: ['0', '20'],
    waitForWindowMs: ['0'],
  };
  const out: FuzzLine[] = [];
  let next = 1;
  const request = (method: string, params: unknown, kind: string): void => {
    const id = rng.chance(0.5) ? next++ : `s-${next++}`;
    let line: string;
    // Too deep for JSON.stringify (about 5000 levels): send a depth that still serializes.
    try {
      line = JSON.stringify({ jsonrpc: '2.0', id, method, params });
    } catch {
      line = JSON.stringify({ jsonrpc: '2.0', id, method, params: nested(2000) });
    }
    // A line over the reader's cap is refused as a whole, with one id-null error.
    out.push({ line, expect: line.length > maxLineBytes ? 'null' : { id }, kind });
  };
  while (out.length < count) {
    const r = rng.next();
    if (r < 0.6) {
      // A declared method: generated params, mutated most of the time.
      const method = rng.pick(METHOD_NAMES);
      const spec = methodSpec(method)!;
      let params = generate(JSON.parse(JSON.stringify(spec.params)) as JsonSchema, rng, hints);
      let kind = `${method} valid`;
      if (rng.chance(0.7)) { const m = mutate(params, rng); params = m.value; kind = `${method} ${m.kind}`; }
      const obj =
        params && typeof params === 'object' && !Array.isArray(params)
          ? (params as Record<string, unknown>)
          : undefined;
      // Valid calls that could wait long are kept short; a valid launch only ever names a hostile "command".
      if (obj && 'timeoutMs' in obj && typeof obj['timeoutMs'] === 'number' && obj['timeoutMs'] > 200)
        obj['timeoutMs'] = 200;
      if (obj && method === 'apps.launch') { obj['command'] = rng.pick(shell); obj['waitForWindowMs'] = 0; }
      if (NEVER_VALID.has(method) && checkerOf(spec.params).Check(params)) {
        request('hello', {}, 'hello valid');
        continue;
      }
      request(method, params, kind);
    } else if (r < 0.64) {
      // A wrong or missing jsonrpc version: refused under its id.
      const id = next++;
      const msg: Record<string, unknown> = { id, method: 'hello', params: {} };
      const version = rng.pick<unknown>(['1.0', '2', 2, null, undefined, '2.0 ']);
      if (version !== undefined) msg['jsonrpc'] = version;
      out.push({ line: JSON.stringify(msg), expect: { id }, kind: 'wrong jsonrpc' });
    } else if (r < 0.7) {
      request(
        rng.pick([
          'frobnicate',
          '__proto__',
          'constructor',
          'toString',
          'hasOwnProperty',
          'HELLO',
          'hello ',
          'tree.snapshot.x',
          '$/cancel',
          '',
          'rpc.discover',
        ]),
        { x: 1 },
        'unknown method',
      );
    } else if (r < 0.78) {
      out.push({
        line: rng.pick([
          '{not json',
          '{"jsonrpc":"2.0",',
          'null}',
          '\u0000\u0001',
          '[[[[',
          'hello',
          '{"a":1}}',
          '"unterminated',
        ]),
        expect: 'none',
        kind: 'invalid json',
      });
    } else if (r < 0.84) {
      out.push({
        line: rng.pick(['42', '"str"', '[1,2]', 'true', 'null', '[]']),
        expect: 'null',
        kind: 'not an object',
      });
    } else if (r < 0.9) {
      // Ids JSON-RPC does not allow (objects, fractions, huge numbers): refused with id null.
      const id = rng.pick<unknown>([{ a: 1 }, [1], 1.5, 1e300, 2 ** 60, true, 'x'.repeat(2000)]);
      out.push({
        line: JSON.stringify({ jsonrpc: '2.0', id, method: 'hello', params: {} }),
        expect: 'null',
        kind: 'bad id',
      });
    } else if (r < 0.95) {
      // No method: an invalid request, answered under its id.
      const id = next++;
      out.push({ line: JSON.stringify({ jsonrpc: '2.0', id, params: {} }), expect: { id }, kind: 'no method' });
    } else {
      // Notifications get no answer, whatever they carry (a $/cancel for nothing, a hostile log).
      out.push({
        line: JSON.stringify({
          jsonrpc: '2.0',
          method: rng.pick(['$/cancel', 'log', 'events.batch', 'input.keys']),
          params: { id: 12345, text: rng.pick(shell) },
        }),
        expect: 'none',
        kind: 'notification',
      });
    }
  }
  return out;
}

/** A JSON-RPC 2.0 response as it must look: jsonrpc "2.0", an id, exactly one of result and error. */
export function responseProblem(m: unknown): string | undefined {
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return 'not an object';
  const r = m as Record<string, unknown>;
  if (r['jsonrpc'] !== '2.0') return 'jsonrpc is not "2.0"';
  if (!('id' in r)) return 'no id';
  if (('result' in r) === ('error' in r)) return 'not exactly one of result and error';
  if ('error' in r) {
    const e = r['error'] as Record<string, unknown> | null;
    if (!e || typeof e !== 'object' || !Number.isInteger(e['code']) || typeof e['message'] !== 'string')
      return 'malformed error';
  }
  const extra = Object.keys(r).filter((k) => !['jsonrpc', 'id', 'result', 'error'].includes(k));
  return extra.length ? `extra fields ${extra.join(', ')}` : undefined;
}

/** Checks the answers to `lines`: one valid response per request id, the expected number of id-null errors. */
export function checkAnswers(lines: readonly FuzzLine[], received: readonly unknown[], extraNullAnswers = 0): string[] {
  const failures: string[] = [];
  const byId = new Map<string, unknown[]>();
  let nulls = 0;
  for (const m of received) {
    const why = responseProblem(m);
    if (why) { failures.push(`invalid response (${why}): ${JSON.stringify(m).slice(0, 200)}`); continue; }
    const id = (m as { id: unknown }).id;
    if (id === null) { nulls++; continue; }
    const key = JSON.stringify(id);
    byId.set(key, [...(byId.get(key) ?? []), m]);
  }
  let expectedNulls = extraNullAnswers;
  for (const l of lines) {
    if (l.expect === 'null') { expectedNulls++; continue; }
    if (l.expect === 'none') continue;
    const key = JSON.stringify(l.expect.id);
    const got = byId.get(key) ?? [];
    if (got.length !== 1)
      failures.push(`${l.kind}: ${got.length} responses for id ${key} (line ${l.line.slice(0, 120)})`);
    byId.delete(key);
  }
  for (const [id] of byId) failures.push(`a response for id ${id} that no request carried`);
  if (nulls !== expectedNulls) failures.push(`${nulls} responses with id null, expected ${expectedNulls}`);
  return failures;
}
