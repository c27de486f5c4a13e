import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { Device } from '../../src/devices/manager.js';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import { countNodes } from '../../src/engine/node.js';
import { ComputerUseError, isComputerUseError } from '../../src/protocol/errors.js';
import { LineReader } from '../../src/protocol/framing.js';
import type { EventBatch, HelloResult, MethodName, SnapshotResult } from '../../src/protocol/methods.js';
import { methodSpec } from '../../src/protocol/methods.js';
import { protocolSchemaText } from '../../src/protocol/schema.js';
import { protocolMarkdown } from '../../src/protocol/spec.js';
import { validationError } from '../../src/protocol/validate.js';
import { checkAnswers, fuzzLines } from '../fuzz/lines.js';
import { Peer, type Handlers, type PeerOptions } from '../../src/protocol/peer.js';

const HELLO: HelloResult = {
  protocolVersion: '1.0.0',
  platform: 'fake',
  version: '0.0.1',
  methods: ['hello', 'windows.list'],
  capabilities: ['events'],
  permissions: { a11y_bus: true },
};

/** A client and a server peer linked in memory; `toServer`/`toClient` are the raw wires. */
function link(handlers: Handlers, clientOptions: PeerOptions = {}, serverOptions: PeerOptions = {}) {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const server = new Peer(toServer, toClient, handlers, serverOptions);
  const client = new Peer(toClient, toServer, {}, clientOptions);
  return { client, server, toServer, toClient };
}

/** Collects the messages written on a wire. */
function tap(wire: PassThrough): unknown[] {
  const seen: unknown[] = [];
  const reader = new LineReader();
  wire.on('data', (chunk: Buffer | string) => {
    for (const ev of reader.push(chunk.toString())) if (ev.kind === 'message') seen.push(ev.message);
  });
  return seen;
}

/** Polls until `probe` is true, failing after a deadline (no fixed sleeps). */
async function until(what: string, probe: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

const errorWith = (code: string, extra: (e: ComputerUseError) => void = () => undefined) => (e: unknown): boolean => {
  assert.ok(isComputerUseError(e), `expected a ComputerUseError, got ${String(e)}`);
  assert.equal(e.code, code, e.message);
  extra(e);
  return true;
};

test('request/response: params reach the handler, the result comes back', async () => {
  const seen: unknown[] = [];
  const { client } = link({
    hello: (p) => {
      seen.push(p);
      return HELLO;
    },
    'windows.list': async (p) => ({
      windows: [{ id: ':1.2/w', title: `pid ${p.pid}`, app: 'x', pid: p.pid ?? 0, role: 'window', focused: true }],
    }),
  });
  assert.deepEqual(await client.request('hello', { client: 'test' }), HELLO);
  assert.deepEqual(seen, [{ client: 'test' }]);
  // Concurrent requests are matched by id, whatever order they finish in.
  const [a, b] = await Promise.all([
    client.request('windows.list', { pid: 1 }),
    client.request('windows.list', { pid: 2 }),
  ]);
  assert.equal(a.windows[0]?.title, 'pid 1');
  assert.equal(b.windows[0]?.title, 'pid 2');
});

test('a handler returning undefined answers null: the response ' +
    'still arrives, and is refused as outside the protocol', async () => {
  const { client } = link({ 'events.subscribe': () => undefined as unknown as { ok: boolean } });
  await assert.rejects(
    client.request('events.subscribe', {}),
    errorWith('internal', (e) => assert.match(e.message, /answered events\.subscribe outside the protocol/)),
  );
});

test('typed errors round-trip: data.code becomes the same ComputerUseError code with its details', async () => {
  const details = { ref: 'e12', snapshot: '[e12] button "Save"', nested: { n: 3 } };
  const { client, toClient } = link({
    'node.act': () => { throw new ComputerUseError('stale_ref', 'Ref e12 moved.', details); },
    'tree.snapshot': async () => { throw new ComputerUseError('window_not_found', 'The window is gone.'); },
    'apps.list': () => { throw new TypeError('boom'); },
  });
  const wire = tap(toClient);
  await assert.rejects(client.request('node.act', { id: 'x', op: 'click' }), errorWith('stale_ref', (e) => {
    assert.equal(e.message, 'Ref e12 moved.');
    assert.deepEqual(e.details, details);
    assert.equal(e.name, 'ComputerUseError');
  }));
  await assert.rejects(client.request('tree.snapshot', { window: 'w' }), errorWith('window_not_found', (e) => {
    assert.deepEqual(e.details, {});
  }));
  // Any other exception crosses as `internal`, with its message.
  await assert.rejects(client.request('apps.list', {}), errorWith('internal', (e) => assert.equal(e.message, 'boom')));
  // On the wire: the JSON-RPC application error code, the string code in data.
  assert.deepEqual(wire[0], {
    jsonrpc: '2.0',
    id: 1,
    error: { code: -32000, message: 'Ref e12 moved.', data: { code: 'stale_ref', ...details } },
  });
});

test('an unexpected error with no text still says what ' +
    'failed and what to do (a D-Bus error may carry none)', async () => {
  const { client } = link({
    'node.act': () => { throw Object.assign(new Error(''), { type: 'org.freedesktop.DBus.Error.Failed' }); },
    'apps.list': () => { throw new Error('   '); },
  });
  await assert.rejects(client.request('node.act', { id: 'x', op: 'focus' }), errorWith('internal', (e) => {
    assert.match(
      e.message,
      /^node\.act failed with an error that gave no reason \(org\.freedesktop\.DBus\.Error\.Failed\); observe again/,
    );
  }));
  await assert.rejects(
    client.request('apps.list', {}),
    errorWith('internal', (e) => assert.match(e.message, /^apps\.list failed .*no reason/)),
  );
});

test('an unknown string code from the wire becomes internal, keeping the other data', async () => {
  const toClient = new PassThrough();
  const toServer = new PassThrough();
  const client = new Peer(toClient, toServer);
  const p = client.request('hello', {});
  toClient.write(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32000, message: 'odd', data: { code: 'martian', x: 1 } },
    }) + '\n',
  );
  await assert.rejects(p, errorWith('internal', (e) => assert.deepEqual(e.details, { x: 1 })));
});

test('unknown method: JSON-RPC -32601 with data.code unsupported', async () => {
  const { client, toServer, toClient } = link({ hello: () => HELLO });
  // Declared but not handled by this server, and not declared at all.
  await assert.rejects(
    client.request('screen.ocr', { window: 'w' }),
    errorWith('unsupported', (e) => assert.match(e.message, /screen\.ocr/)),
  );
  await assert.rejects(client.request('no.such.method' as MethodName, {} as never), errorWith('unsupported'));
  const wire = tap(toClient);
  toServer.write('{"jsonrpc":"2.0","id":"s-1","method":"toString","params":{}}\n');
  await until('the error response', () => wire.length === 1);
  assert.deepEqual(wire[0], {
    jsonrpc: '2.0',
    id: 's-1',
    error: { code: -32601, message: 'Method not found: toString', data: { code: 'unsupported' } },
  });
});

test('invalid requests get an error and the server keeps working; unmatched responses are not answered', async () => {
  const junk: string[] = [];
  const { client, toServer, toClient } = link({ hello: () => HELLO }, { onJunk: (l) => junk.push(l) });
  const wire = tap(toClient);
  toServer.write('42\n');
  toServer.write('"just a string"\n');
  toServer.write('[1,2]\n');
  toServer.write('{"jsonrpc":"2.0","id":9}\n');
  toServer.write('{"jsonrpc":"2.0","id":10,"params":{}}\n');
  toServer.write('{not json\n');
  await until('five error responses', () => wire.length === 5);
  assert.deepEqual(
    wire.map((m) => (m as { error: { code: number } }).error.code),
    [-32600, -32600, -32600, -32600, -32600],
  );
  assert.deepEqual(wire.map((m) => (m as { id: unknown }).id), [null, null, null, 9, 10]);
  // The client got error responses it never asked for: it reports them and does not answer back
  // (which would bounce errors between the two peers forever).
  assert.equal(junk.length, 5);
  assert.ok(junk.every((l) => l.startsWith('unmatched response')), junk.join('\n'));
  assert.deepEqual(await client.request('hello', {}), HELLO);
  assert.equal(wire.length, 6, 'exactly one more message: the hello answer');
});

test('a response for an unknown or late id is ignored', async () => {
  const toClient = new PassThrough();
  const client = new Peer(toClient, new PassThrough(), {}, { timeoutMs: 1000 });
  const p = client.request('hello', {});
  const answer = (id: number, version: string): string =>
    JSON.stringify({ jsonrpc: '2.0', id, result: { ...HELLO, version } }) + '\n';
  toClient.write(answer(99, 'stray'));
  toClient.write(answer(1, 'mine'));
  toClient.write(answer(1, 'again'));
  assert.equal((await p).version, 'mine');
});

test('timeout rejects with code timeout; the peer keeps working and ignores the late answer', async () => {
  let release: (v: HelloResult) => void = () => undefined;
  let calls = 0;
  const { client } = link({
    hello: () => (++calls === 1 ? new Promise<HelloResult>((r) => { release = r; }) : HELLO),
  }, { timeoutMs: 60 });
  const t0 = Date.now();
  await assert.rejects(client.request('hello', {}), errorWith('timeout', (e) => {
    assert.match(e.message, /hello did not answer within 60 ms/);
    assert.deepEqual(e.details, { method: 'hello', unanswered: true });
  }));
  assert.ok(Date.now() - t0 < 1000);
  release(HELLO);
  // A per-call timeout overrides the default.
  assert.deepEqual(await client.request('hello', {}, 5000), HELLO);
  assert.equal(client.isClosed, false);
});

test('closing the connection rejects every pending request ' +
    'with driver_unavailable, and later ones at once', async () => {
  const { client, toClient } = link({ hello: () => new Promise<HelloResult>(() => undefined) }, { timeoutMs: 10_000 });
  const why: string[] = [];
  client.onClose((w) => why.push(w));
  const pending = [client.request('hello', {}), client.request('hello', {})];
  toClient.end();
  for (const p of pending) {
    await assert.rejects(
      p,
      errorWith('driver_unavailable', (e) => assert.match(e.message, /while running hello \(connection closed\)/)),
    );
  }
  assert.equal(client.isClosed, true);
  assert.deepEqual(why, ['connection closed']);
  await assert.rejects(client.request('hello', {}), errorWith('driver_unavailable'));
});

test('a stream error closes the peer the same way', async () => {
  const { client, toClient } = link({ hello: () => new Promise<HelloResult>(() => undefined) });
  const p = client.request('hello', {});
  toClient.destroy(new Error('EPIPE'));
  await assert.rejects(p, errorWith('driver_unavailable', (e) => assert.match(e.message, /EPIPE/)));
});

test('notifications go both ways, need no answer, and unknown ones are ignored', async () => {
  const batches: EventBatch[] = [];
  const logs: string[] = [];
  const { client, server, toServer, toClient } = link({ hello: () => HELLO });
  const fromServer = tap(toClient);
  client.onNotification('events.batch', (b) => batches.push(b));
  server.onNotification('log', (l) => logs.push(`${l.level}: ${l.message}`));
  server.notify('events.batch', { events: [{ type: 'object:state-changed:focused', source: ':1.2/a', detail: '1' }] });
  server.notify('log', { level: 'info', message: 'not subscribed on the client' });
  client.notify('log', { level: 'warn', message: 'from the host' });
  toServer.write('{"jsonrpc":"2.0","method":"no.such.notification","params":{}}\n');
  await until('notifications', () => batches.length === 1 && logs.length === 1);
  assert.deepEqual(batches[0], { events: [{ type: 'object:state-changed:focused', source: ':1.2/a', detail: '1' }] });
  assert.deepEqual(logs, ['warn: from the host']);
  // The server answered none of the notifications.
  assert.deepEqual(await client.request('hello', {}), HELLO);
  assert.equal(fromServer.filter((m) => 'id' in (m as object)).length, 1);
});

test('an oversize line is refused with one error and the connection recovers', async () => {
  const { client, toServer, toClient } = link({ hello: () => HELLO }, {}, { maxLineBytes: 1000 });
  const wire = tap(toClient);
  toServer.write('{"jsonrpc":"2.0","id":500,"method":"hello","params":{"pad":"');
  for (let i = 0; i < 20; i++) toServer.write('p'.repeat(1000));
  toServer.write('"}}\n');
  assert.deepEqual(await client.request('hello', {}), HELLO);
  await until('the answers', () => wire.length === 2);
  const first = wire[0] as { id: unknown; error: { code: number; message: string } };
  assert.equal(first.id, null);
  assert.equal(first.error.code, -32600);
  assert.match(first.error.message, /exceeds the limit/);
});

// ---- Validation at the boundary ----

/** The recorded gtk4-widget-factory tree as a tree.snapshot result. */
function bigSnapshot(): SnapshotResult {
  const recorded = JSON.parse(
    readFileSync(new URL('../../../test/fixtures/linux/gtk4-widget-factory.json', import.meta.url), 'utf8'),
  ) as Omit<SnapshotResult, 'stats'>;
  return { ...recorded, stats: { nodes: countNodes(recorded.root), ms: 40, truncated: false } };
}

test('params outside the protocol are refused with -32602 invalid_params and the handler is never called', async () => {
  let calls = 0;
  const { client, toServer, toClient } = link({
    'node.act': () => { calls++; return { method: 'pattern' }; },
    'input.keys': () => { calls++; return { method: 'synthetic', focusedFirst: false, sent: 1 }; },
  });
  const wire = tap(toClient);
  const bad: [MethodName, unknown, RegExp][] = [
    ['node.act', { id: 'x', op: 'explode' }, /\/op: expected one of "click"/],
    ['node.act', { id: 'x', op: 'click', extra: 1 }, /\/extra: unknown field/],
    ['node.act', JSON.parse('{"id":"x","op":"click","__proto__":{"polluted":true}}'), /\/__proto__: unknown field/],
    ['node.act', { id: 'x', op: 'set_value', value: 'v'.repeat(10_001) }, /\/value: .*maxLength 10000/],
    ['node.act', { id: 7, op: 'click' }, /\/id: expected string/],
    ['input.keys', { window: 'w', chords: [{ mods: ['Control'], key: 'exec; rm -rf /' }] }, /\/chords\/0\/key: /],
    [
      'input.keys',
      { window: 'w', chords: Array.from({ length: 65 }, () => ({ mods: [], key: 'a' })) },
      /\/chords: .*maxItems 64/,
    ],
    ['input.keys', { window: 'w', text: 't'.repeat(10_001) }, /\/text: .*maxLength 10000/],
    [
      'input.keys',
      { window: 'w', chords: [{ mods: ['hyper'], key: 'a' }] },
      /\/chords\/0\/mods\/0: expected one of "Primary", "Control", "Alt", "Shift", "Meta"/,
    ],
    ['input.keys', { window: 'w', chords: [{ mods: ['ctrl'], key: 's' }] }, /\/chords\/0\/mods\/0: expected one of/],
    ['input.keys', { window: 'w', chords: [{ mods: [], key: 'Return' }] }, /\/chords\/0\/key: /],
    ['input.keys', { window: 'w', chords: [{ mods: [], key: '\n' }] }, /\/chords\/0\/key: /],
  ];
  for (const [method, params, why] of bad) {
    await assert.rejects(
      client.request(method, params as never),
      errorWith('invalid_params', (e) => assert.match(e.message, why)),
    );
  }
  assert.equal(calls, 0, 'no handler ran');
  const first = wire[0] as { error: { code: number; data: { code: string } } };
  assert.equal(first.error.code, -32602);
  assert.deepEqual(first.error.data, { code: 'invalid_params' });
  // The refused value is never echoed back (it may be typed text or a secret).
  toServer.write(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 'secret',
      method: 'input.keys',
      params: { window: 'w', text: 'hunter2', bogus: 'hunter2' },
    }) + '\n',
  );
  await until('the answer', () => wire.some((m) => (m as { id: unknown }).id === 'secret'));
  assert.doesNotMatch(JSON.stringify(wire.at(-1)), /hunter2/);
  // Valid params still reach the handler.
  assert.deepEqual(await client.request('input.keys', { window: 'w', chords: [{ mods: ['Primary'], key: 's' }] }), {
    method: 'synthetic',
    focusedFirst: false,
    sent: 1,
  });
  assert.equal(calls, 1);
});

test('a result outside the protocol fails the call with ' +
    'internal (the driver answered outside the protocol)', async () => {
  const { client } = link({
    hello: () => ({ ...HELLO, protocolVersion: 'one' }) as unknown as HelloResult,
    'windows.list': () => ({ windows: [{ id: 'w', title: 't', app: 'a', pid: -1, role: 'window', focused: true }] }),
    'node.act': () =>
      ({ method: 'pattern', after: { id: 'n', role: 'button', states: ['on-fire'], actions: [] } }) as never,
  });
  await assert.rejects(
    client.request('hello', {}),
    errorWith('internal', (e) =>
      assert.match(e.message, /answered hello outside the protocol \(\/protocolVersion: expected/),
    ),
  );
  await assert.rejects(
    client.request('windows.list', {}),
    errorWith('internal', (e) => assert.match(e.message, /\/windows\/0\/pid/)),
  );
  await assert.rejects(
    client.request('node.act', { id: 'n', op: 'click' }),
    errorWith('internal', (e) => assert.match(e.message, /\/after\/states\/0/)),
  );
});

test('recursive snapshots validate, and a node deep in the tree that breaks the protocol is found', async () => {
  const fixture = bigSnapshot();
  const { client } = link({ 'tree.snapshot': () => fixture });
  const ok = await client.request('tree.snapshot', { window: fixture.window.id });
  assert.equal(ok.root.id, fixture.root.id);
  let deepest = fixture.root;
  while (deepest.children?.[0]) deepest = deepest.children[0];
  (deepest as { role: string }).role = 'space-station';
  await assert.rejects(
    client.request('tree.snapshot', { window: fixture.window.id }),
    errorWith('internal', (e) => assert.match(e.message, /\/root\/children\/0\/.*\/role/)),
  );
});

test('validation cost on a big snapshot result (gtk4-widget-factory) is small', (t) => {
  const fixture = bigSnapshot();
  const spec = methodSpec('tree.snapshot')!;
  assert.equal(validationError(spec.result, fixture), undefined, 'the fixture is a valid result');
  const runs = 50;
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) validationError(spec.result, fixture);
  const ms = (performance.now() - t0) / runs;
  // Reported, never asserted (the machine is shared and noisy).
  t.diagnostic(`tree.snapshot result validation: ${countNodes(fixture.root)} nodes, ${ms.toFixed(3)} ms per check`);
});

// ---- Cancellation ($/cancel) ----

test('an aborted request rejects with the signal reason, ' +
    'sends $/cancel, and the handler sees its signal abort', async () => {
  let handlerSignal: AbortSignal | undefined;
  let release: () => void = () => undefined;
  const junk: string[] = [];
  const { client, toServer } = link({
    'input.keys': (_p, ctx) => {
      handlerSignal = ctx.signal;
      return new Promise((resolve) => {
        release = () => resolve({ method: 'synthetic', focusedFirst: false, sent: 1 });
      });
    },
    hello: () => HELLO,
  }, { onJunk: (l) => junk.push(l) });
  const toServerWire = tap(toServer);
  const controller = new AbortController();
  const reason = new ComputerUseError('paused', 'Stopped by the user.');
  const call = client.request('input.keys', { window: 'w', text: 'abc' }, 10_000, controller.signal);
  await until('the handler runs', () => handlerSignal !== undefined);
  assert.equal(handlerSignal!.aborted, false);
  controller.abort(reason);
  await assert.rejects(call, (e) => e === reason);
  await until('the handler signal aborts', () => handlerSignal!.aborted);
  assert.deepEqual(toServerWire.at(-1), { jsonrpc: '2.0', method: '$/cancel', params: { id: 1 } });
  // The late answer of the cancelled request is expected: dropped quietly, and the peer keeps working.
  release();
  assert.deepEqual(await client.request('hello', {}), HELLO);
  assert.deepEqual(junk, []);
});

test('an already aborted signal rejects at once and sends ' +
    'nothing; a signal string reason becomes an error', async () => {
  let calls = 0;
  const { client, toServer } = link({ hello: () => { calls++; return HELLO; } });
  const wire = tap(toServer);
  const c = new AbortController();
  c.abort(new ComputerUseError('paused', 'stopped'));
  await assert.rejects(client.request('hello', {}, 1000, c.signal), errorWith('paused'));
  const d = new AbortController();
  const p = client.request('hello', {}, 1000, d.signal);
  d.abort('gone');
  await assert.rejects(p, (e) => e instanceof Error);
  await client.request('hello', {});
  assert.equal(
    wire.filter((m) => (m as { method?: string }).method === 'hello').length,
    2,
    'the pre-aborted call was never sent',
  );
});

test('$/cancel for an unknown id or with bad params is ' +
    'ignored; closing the connection aborts handlers in flight', async () => {
  let signal: AbortSignal | undefined;
  const { client, toServer } = link({
    'ui.settle': (_p, ctx) => {
      signal = ctx.signal;
      return new Promise(() => undefined);
    },
    hello: () => HELLO,
  });
  const p = client.request('ui.settle', { quietMs: 10, timeoutMs: 100 }, 10_000);
  await until('the handler runs', () => signal !== undefined);
  toServer.write('{"jsonrpc":"2.0","method":"$/cancel","params":{"id":999}}\n');
  toServer.write('{"jsonrpc":"2.0","method":"$/cancel","params":{"id":{"__proto__":1}}}\n');
  assert.deepEqual(await client.request('hello', {}), HELLO);
  assert.equal(signal!.aborted, false);
  toServer.end();
  await until('the handler signal aborts', () => signal!.aborted);
  p.catch(() => undefined);
});

test('Device.call forwards the signal to the driver connection', async () => {
  const fake = new FakeDriver();
  let handlerSignal: AbortSignal | undefined;
  const handlers = fake.handlers();
  fake.handlers = () => ({
    ...handlers,
    'ui.settle': (_p, ctx) => {
      handlerSignal = ctx.signal;
      return new Promise(() => undefined);
    },
  });
  const device = new Device({ connect: () => fake.connect() });
  const c = new AbortController();
  const call = device.call('ui.settle', { quietMs: 10, timeoutMs: 1000 }, 1500, c.signal);
  await until('the handler runs', () => handlerSignal !== undefined);
  c.abort(new ComputerUseError('paused', 'stop'));
  await assert.rejects(call, errorWith('paused'));
  await until('the driver handler is aborted', () => handlerSignal!.aborted);
  await device.close();
});

test('docs/protocol.schema.json and docs/protocol.md are up to date with the declarations (run npm run schema)', () => {
  const committed = readFileSync(new URL('../../../docs/protocol.schema.json', import.meta.url), 'utf8');
  assert.equal(
    committed,
    protocolSchemaText(),
    'docs/protocol.schema.json is out of date: run `npm run schema` and commit it',
  );
  const spec = readFileSync(new URL('../../../docs/protocol.md', import.meta.url), 'utf8');
  assert.equal(spec, protocolMarkdown(), 'docs/protocol.md is out of date: run `npm run schema` and commit it');
});

test('a request with a wrong or missing jsonrpc version is refused under its id', async () => {
  const { toServer, toClient } = link({ hello: () => HELLO });
  const wire = tap(toClient);
  toServer.write('{"jsonrpc":"1.0","id":1,"method":"hello","params":{}}\n');
  toServer.write('{"id":2,"method":"hello","params":{}}\n');
  await until('two answers', () => wire.length === 2);
  assert.deepEqual(
    wire.map((m) => [(m as { id: unknown }).id, (m as { error: { code: number } }).error.code]),
    [
      [1, -32600],
      [2, -32600],
    ],
  );
});

test('protocol-line fuzz on an in-memory driver: one valid response per request, the peer keeps serving', async (t) => {
  const fake = new FakeDriver();
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const server = new Peer(toServer, toClient, fake.handlers(), { maxLineBytes: 100_000 });
  const received = tap(toClient);
  const lines = fuzzLines(3000, 8_014, '/nonexistent/cu-fuzz-marker', 100_000);
  for (const l of lines) toServer.write(`${l.line}\n`);
  // An oversize line (over this server's cap) answered once with id null.
  toServer.write(`{"jsonrpc":"2.0","id":"big","method":"hello","params":{"pad":"${'p'.repeat(200_000)}"}}\n`);
  const answers = lines.filter((l) => l.expect !== 'none').length + 1;
  await until('every answer', () => received.length >= answers, 20_000);
  const failures = checkAnswers(lines, received, 1);
  assert.deepEqual(failures.slice(0, 10), []);
  assert.equal(server.isClosed, false);
  const acting = fake.calls.filter((c) => c.method === 'node.act' || c.method === 'input.keys').length;
  t.diagnostic(`${lines.length} lines, ${received.length} answers, ${acting} acting calls reached the fake driver`);
});

test('Device.close with a read in flight starts no new driver: the read fails, nothing is left running', async () => {
  const fake = new FakeDriver();
  let running = false;
  const handlers = fake.handlers();
  fake.handlers = () => ({ ...handlers, 'ui.settle': () => { running = true; return new Promise(() => undefined); } });
  let connects = 0;
  const device = new Device({ connect: () => { connects++; return fake.connect(); } });
  const read = device.call('ui.settle', { quietMs: 10, timeoutMs: 1000 }, 5000);
  read.catch(() => undefined);
  await until('the read runs', () => running);
  await device.close();
  await assert.rejects(read, (e) => e instanceof Error);
  assert.equal(connects, 1, 'a read that met the closed link must not start another driver');
  await assert.rejects(device.call('hello', {}), errorWith('driver_unavailable'));
  assert.equal(connects, 1);
});
