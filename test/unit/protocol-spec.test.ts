/**
 * The protocol as one documented contract (docs/protocol.md): every declaration carries its meaning into the
 * schema, the acting guard and the link's resend rule read `acting` from the declarations, and the host holds a
 * driver to its handshake (major version, the methods it listed).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import { isComputerUseError } from '../../src/protocol/errors.js';
import { isActing, METHODS, PROTOCOL_VERSION } from '../../src/protocol/methods.js';
import type { Handlers } from '../../src/protocol/peer.js';
import { protocolSchema } from '../../src/protocol/schema.js';

type Json = Record<string, unknown>;

/** Every place under `s` that lacks a description, by path: properties, array items, tuple items, literals. */
function undocumented(s: unknown, path: string, out: string[], defs: Json): void {
  if (typeof s !== 'object' || s === null) return;
  const o = s as Json;
  if (typeof o['$ref'] === 'string') return;
  if (o['const'] !== undefined && !o['description']) out.push(`${path} = ${JSON.stringify(o['const'])}`);
  for (const [k, v] of Object.entries((o['properties'] ?? {}) as Json)) {
    const p = v as Json;
    if (!p['description'] && !(typeof p['$ref'] === 'string' && (defs['RawNode'] as Json)['description']))
      out.push(`${path}.${k}`);
    undocumented(v, `${path}.${k}`, out, defs);
  }
  for (const k of ['items', 'prefixItems', 'anyOf', 'additionalProperties', 'patternProperties']) {
    const v = o[k];
    if (Array.isArray(v))
      v.forEach((x, i) => {
        undocumented(x, `${path}.${k}[${i}]`, out, defs);
      });
    else if (k === 'patternProperties' && v)
      for (const x of Object.values(v as Json)) undocumented(x, `${path}.${k}`, out, defs);
    else undocumented(v, `${path}.${k}`, out, defs);
  }
}

test('every method, field, op, state, role, capability and error code carries a description into the schema', () => {
  const doc = protocolSchema();
  const defs = doc['$defs'] as Json;
  const missing: string[] = [];
  undocumented(defs['RawNode'], 'RawNode', missing, defs);
  for (const [name, m] of Object.entries(doc['methods'] as Record<string, Json>)) {
    if (!m['description']) missing.push(name);
    assert.equal(typeof m['acting'], 'boolean', name);
    assert.equal(typeof m['optional'], 'boolean', name);
    assert.match(String(m['since']), /^\d+\.\d+\.\d+$/, name);
    undocumented(m['params'], `${name}.params`, missing, defs);
    undocumented(m['result'], `${name}.result`, missing, defs);
  }
  for (const [name, n] of Object.entries(doc['notifications'] as Record<string, Json>)) {
    if (!n['description']) missing.push(name);
    undocumented(n['params'], `${name}.params`, missing, defs);
  }
  for (const [code, e] of Object.entries(doc['errors'] as Record<string, Json>))
    if (!e['description']) missing.push(`error ${code}`);
  assert.deepEqual(missing, []);
  // The vocabulary is documented value by value, not only as a list.
  const role = ((defs['RawNode'] as Json)['properties'] as Json)['role'] as Json;
  assert.ok((role['anyOf'] as Json[]).some((r) => r['const'] === 'page' && String(r['description']).includes('page')));
  assert.equal(doc['protocolVersion'], PROTOCOL_VERSION);
});

test('acting comes from the declarations: the methods that change the device, and any undeclared name', () => {
  assert.deepEqual(METHODS.filter((m) => m.acting).map((m) => m.method).sort(),
    ['apps.launch', 'apps.terminate', 'input.clipboard', 'input.keys', 'input.pointer', 'node.act', 'window.activate']);
  for (const m of METHODS) assert.equal(isActing(m.method), m.acting, m.method);
  assert.equal(isActing('process.kill'), true);
  assert.equal(isActing('toString'), true);
});

test('hello: every built-in fake sends protocolVersion and the methods its handler table serves', async () => {
  const device = new Device({ connect: () => new FakeDriver([]).connect() });
  const hello = await device.hello();
  assert.equal(hello.protocolVersion, PROTOCOL_VERSION);
  assert.ok(hello.methods.includes('node.act') && hello.methods.includes('tree.snapshot'), hello.methods.join());
  assert.ok(!hello.methods.includes('text.find'), 'the fake does not serve text.find, so it must not list it');
  await device.close();
});

/** A fake whose hello says what a test wants, whatever it serves. */
class Announcing extends FakeDriver {
  constructor(private readonly announce: { protocolVersion?: string; drop?: string[] }) { super([]); }
  override handlers(): Handlers {
    const base = super.handlers();
    return {
      ...base,
      'text.find': () => {
        this.calls.push({ method: 'text.find', params: {} });
        return { matches: [], length: 0, searched: 0 };
      },
      hello: async (p, ctx) => {
        const h = await base.hello!(p, ctx);
        return {
          ...h,
          ...(this.announce.protocolVersion ? { protocolVersion: this.announce.protocolVersion } : {}),
          methods: h.methods.filter((m) => !(this.announce.drop ?? []).includes(m)),
        };
      },
    };
  }
}

test('the host never calls a method the driver did not list: unsupported, and nothing reaches the driver', async () => {
  const fake = new Announcing({ drop: ['text.find'] });
  const device = new Device({ connect: () => fake.connect() });
  await assert.rejects(device.call('text.find', { id: 'n1', text: 'x' }), (e) => {
    assert.ok(isComputerUseError(e, 'unsupported'), String(e));
    assert.match(e.message, /fake driver does not implement text\.find/);
    return true;
  });
  assert.equal(fake.calls.filter((c) => c.method === 'text.find').length, 0);
  // Listed, it goes through.
  const listed = new Announcing({});
  const other = new Device({ connect: () => listed.connect() });
  await other.call('text.find', { id: 'n1', text: 'x' });
  assert.equal(listed.calls.filter((c) => c.method === 'text.find').length, 1);
  await device.close();
  await other.close();
});

test('the host refuses a driver of another major protocol version, with both versions and what to do', async () => {
  const fake = new Announcing({ protocolVersion: '2.0.0' });
  const device = new Device({ connect: () => fake.connect() });
  await assert.rejects(device.call('apps.list', {}), (e) => {
    assert.ok(isComputerUseError(e, 'protocol_mismatch'), String(e));
    assert.match(e.message, /speaks protocol 2\.0\.0; this host speaks 1\.1\.0/);
    assert.match(e.message, /Update the driver/);
    return true;
  });
  assert.equal(fake.calls.filter((c) => c.method === 'apps.list').length, 0);
  await device.close();
  // A newer minor version of the same major is fine.
  const minor = new Device({ connect: () => new Announcing({ protocolVersion: '1.7.0' }).connect() });
  assert.deepEqual((await minor.call('apps.list', {})).apps, []);
  await minor.close();
});
