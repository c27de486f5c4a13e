import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PassThrough } from 'node:stream';
import { ComputerUseError, isComputerUseError } from '../../src/protocol/errors.js';
import { LineReader } from '../../src/protocol/framing.js';
import type { EventBatch, HelloResult, MethodName } from '../../src/protocol/methods.js';
import { Peer, type Handlers, type PeerOptions } from '../../src/protocol/peer.js';

const HELLO: HelloResult = { platform: 'fake', version: '0.0.1', capabilities: ['events'], permissions: { a11y_bus: true } };

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
    hello: (p) => { seen.push(p); return HELLO; },
    'windows.list': async (p) => ({ windows: [{ id: ':1.2/w', title: `pid ${p.pid}`, app: 'x', pid: p.pid ?? 0, role: 'window', focused: true }] }),
  });
  assert.deepEqual(await client.request('hello', { client: 'test' }), HELLO);
  assert.deepEqual(seen, [{ client: 'test' }]);
  // Concurrent requests are matched by id, whatever order they finish in.
  const [a, b] = await Promise.all([client.request('windows.list', { pid: 1 }), client.request('windows.list', { pid: 2 })]);
  assert.equal(a.windows[0]?.title, 'pid 1');
  assert.equal(b.windows[0]?.title, 'pid 2');
});

test('a handler returning undefined answers null (the response still arrives)', async () => {
  const { client } = link({ 'events.subscribe': () => undefined as unknown as { ok: boolean } });
  assert.equal(await client.request('events.subscribe', {}), null);
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
  assert.deepEqual(wire[0], { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'Ref e12 moved.', data: { code: 'stale_ref', ...details } } });
});

test('an unknown string code from the wire becomes internal, keeping the other data', async () => {
  const toClient = new PassThrough();
  const toServer = new PassThrough();
  const client = new Peer(toClient, toServer);
  const p = client.request('hello', {});
  toClient.write(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'odd', data: { code: 'martian', x: 1 } } }) + '\n');
  await assert.rejects(p, errorWith('internal', (e) => assert.deepEqual(e.details, { x: 1 })));
});

test('unknown method: JSON-RPC -32601 with data.code unsupported', async () => {
  const { client, toServer, toClient } = link({ hello: () => HELLO });
  // Declared but not handled by this server, and not declared at all.
  await assert.rejects(client.request('screen.ocr', { window: 'w' }), errorWith('unsupported', (e) => assert.match(e.message, /screen\.ocr/)));
  await assert.rejects(client.request('no.such.method' as MethodName, {} as never), errorWith('unsupported'));
  const wire = tap(toClient);
  toServer.write('{"jsonrpc":"2.0","id":"s-1","method":"toString","params":{}}\n');
  await until('the error response', () => wire.length === 1);
  assert.deepEqual(wire[0], { jsonrpc: '2.0', id: 's-1', error: { code: -32601, message: 'Method not found: toString', data: { code: 'unsupported' } } });
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
  assert.deepEqual(wire.map((m) => (m as { error: { code: number } }).error.code), [-32600, -32600, -32600, -32600, -32600]);
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
  toClient.write('{"jsonrpc":"2.0","id":99,"result":"stray"}\n');
  toClient.write('{"jsonrpc":"2.0","id":1,"result":"mine"}\n');
  toClient.write('{"jsonrpc":"2.0","id":1,"result":"again"}\n');
  assert.equal(await p, 'mine');
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
    assert.deepEqual(e.details, { method: 'hello' });
  }));
  assert.ok(Date.now() - t0 < 1000);
  release(HELLO);
  // A per-call timeout overrides the default.
  assert.deepEqual(await client.request('hello', {}, 5000), HELLO);
  assert.equal(client.isClosed, false);
});

test('closing the connection rejects every pending request with driver_unavailable, and later ones at once', async () => {
  const { client, toClient } = link({ hello: () => new Promise<HelloResult>(() => undefined) }, { timeoutMs: 10_000 });
  const why: string[] = [];
  client.onClose((w) => why.push(w));
  const pending = [client.request('hello', {}), client.request('hello', {})];
  toClient.end();
  for (const p of pending) {
    await assert.rejects(p, errorWith('driver_unavailable', (e) => assert.match(e.message, /while running hello \(connection closed\)/)));
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
