import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createDecider,
  parseDeciderConfig,
  testDecider,
  type Decider,
  type DeciderConfig,
} from '../../src/policy/decider/index.js';
import { completion, sendJson, startFakeServer } from './decider-fake-server.js';

test('createDecider: no config, off, incomplete or unreachable gateway → rules only (undefined)', () => {
  assert.equal(createDecider(undefined), undefined);
  assert.equal(createDecider({ mode: 'off' }), undefined);
  assert.equal(createDecider({ mode: 'openai', baseUrl: '', model: 'm' }), undefined);
  assert.equal(createDecider({ mode: 'openai', baseUrl: 'not a url', model: 'm' }), undefined);
  assert.equal(createDecider({ mode: 'openai', baseUrl: 'http://127.0.0.1:1/v1', model: '' }), undefined);
  assert.equal(createDecider({ mode: 'gateway', gateway: 'g', model: 'm' }), undefined);
  assert.equal(createDecider(JSON.parse('{"mode":"something-else"}') as DeciderConfig), undefined);
});

test('createDecider builds openai and gateway deciders from settings', async () => {
  const srv = await startFakeServer((_req, res) => sendJson(res, 200, completion('no', { no: 0.9, yes: 0.1 })));
  try {
    const d = createDecider(
      { mode: 'openai', baseUrl: srv.baseUrl, model: 'm', apiKeyEnv: 'TEST_API_KEY', timeoutMs: 1000 },
      { env: { TEST_API_KEY: 'sk-abc123' } },
    );
    assert.ok(d);
    const p = await d.irreversible({ app: 'a', role: 'button', name: 'Undo', op: 'click' });
    assert.ok(p !== null && Math.abs(p - 0.1) < 1e-6);
    assert.equal(srv.requests[0]!.headers['authorization'], 'Bearer sk-abc123');
  } finally {
    await srv.close();
  }
  const g = createDecider({ mode: 'gateway', gateway: 'g1', model: 'm' }, { gateway: async () => completion('A') });
  assert.ok(g);
  assert.equal(await g.choose('x', ['one', 'two']), 0);
  const g2 = createDecider({ mode: 'gateway', call: async () => completion('yes') });
  assert.equal(await g2?.irreversible({ app: 'a', role: 'button', name: 'Pay', op: 'click' }), 1);
});

test('testDecider reports latency, logprobs use and the answers', async () => {
  const srv = await startFakeServer((req, res) => {
    const user = (req.body['messages'] as { content: string }[])[1]!.content;
    if (/yes or no/.test(user)) sendJson(res, 200, completion('yes', { yes: 0.93, no: 0.07 }));
    else sendJson(res, 200, completion('C', { C: 0.8, D: 0.2 }));
  });
  try {
    const d = createDecider({ mode: 'openai', baseUrl: srv.baseUrl, model: 'judge' })!;
    const r = await testDecider(d);
    assert.equal(r.ok, true);
    assert.equal(r.logprobs, true);
    assert.equal(r.probes.length, 2);
    assert.ok(Math.abs(r.probes[0]!.value! - 0.93) < 1e-6);
    assert.equal(r.probes[1]!.value, 2);
    assert.ok(r.probes.every((p) => p.plausible && p.source === 'logprobs' && p.ms >= 0));
    assert.match(r.text, /model "judge"/);
    assert.match(r.text, /p\(irreversible\) = 0\.93 from logprobs/);
    assert.match(r.text, /#3 button "Save" from logprobs/);
    assert.match(r.text, /\[\d+ ms\]/);
    assert.match(r.text, /logprobs: used/);
    assert.match(r.text, /^OK$/m);
  } finally {
    await srv.close();
  }
});

test('testDecider on a text-only server, a wrong model and a broken one', async () => {
  const textOnly = createDecider({
    mode: 'gateway',
    call: async (body) => completion(body.messages[1]!.content.includes('yes or no') ? 'yes' : 'C'),
  })!;
  const r1 = await testDecider(textOnly);
  assert.equal(r1.ok, true);
  assert.equal(r1.logprobs, false);
  assert.match(r1.text, /from the answer text/);
  assert.match(r1.text, /not returned by the server/);

  const wrong = createDecider({
    mode: 'gateway',
    call: async (body) => completion(body.messages[1]!.content.includes('yes or no') ? 'no' : 'A'),
  })!;
  const r2 = await testDecider(wrong);
  assert.equal(r2.ok, true);
  assert.ok(r2.probes.every((p) => !p.plausible));
  assert.match(r2.text, /expected p ≥ 0\.5/);
  assert.match(r2.text, /an answer looks wrong/);

  const broken = createDecider({ mode: 'gateway', call: async () => { throw new Error('502 from upstream'); } })!;
  const r3 = await testDecider(broken);
  assert.equal(r3.ok, false);
  assert.match(r3.text, /no opinion \(502 from upstream\)/);
  assert.match(r3.text, /FAILED/);
});

test('testDecider works with any Decider, e.g. a stub', async () => {
  const stub: Decider = { irreversible: async () => 0.2, choose: async () => null };
  const r = await testDecider(stub);
  assert.equal(r.ok, false);
  assert.equal(r.probes[0]!.value, 0.2);
  assert.equal(r.probes[0]!.source, 'unknown');
  assert.match(r.text, /decider: custom/);
});

test('parseDeciderConfig reads settings.json values and rejects malformed ones', () => {
  assert.deepEqual(parseDeciderConfig({ mode: 'openai', baseUrl: 'http://h/v1', model: 'm', apiKeyEnv: 'K', extra: 1 }),
    { mode: 'openai', baseUrl: 'http://h/v1', model: 'm', apiKeyEnv: 'K' });
  assert.deepEqual(parseDeciderConfig({ mode: 'gateway', gateway: 'g', model: 'm', call: 'x', timeoutMs: 3000 }),
    { mode: 'gateway', gateway: 'g', model: 'm', timeoutMs: 3000 });
  assert.deepEqual(parseDeciderConfig({ mode: 'off' }), { mode: 'off' });
  assert.deepEqual(parseDeciderConfig({ mode: 'registry' }), { mode: 'registry' });
  assert.deepEqual(parseDeciderConfig({ mode: 'registry', model: 'openai/gpt-4o-mini', call: 'x' }), {
    mode: 'registry',
    model: 'openai/gpt-4o-mini',
  });
  for (const bad of [
    undefined,
    null,
    'openai',
    [],
    { mode: 'openai', model: 'm' },
    { mode: 'openai', baseUrl: 'x', model: 5 },
    { mode: 'registry', model: 'gpt' },
    { mode: 'registry', model: 5 },
    { mode: 'classify' },
  ]) {
    assert.equal(parseDeciderConfig(bad), undefined, JSON.stringify(bad));
  }
});

test('apiKeyEnv names only API-key variables, and a key goes only to https or a loopback http URL', () => {
  const warned: string[] = [];
  const warn = (m: string): void => { warned.push(m); };
  const make = (baseUrl: string, apiKeyEnv?: string) =>
    createDecider({ mode: 'openai', baseUrl, model: 'm', ...(apiKeyEnv ? { apiKeyEnv } : {}) }, { warn, env: {} });
  assert.ok(make('https://api.example.com/v1', 'OPENAI_API_KEY'));
  assert.ok(make('http://127.0.0.1:8080/v1', 'LOCAL_TOKEN'));
  assert.ok(make('http://localhost:8080/v1', 'MY_KEY'));
  assert.ok(make('http://[::1]:8080/v1', 'MY_KEY'));
  assert.ok(make('http://10.0.0.5:8080/v1'), 'no key: any http URL');
  assert.equal(warned.length, 0, warned.join('\n'));
  for (const env of ['HOME', 'AWS_SECRET_ACCESS_KEY_ID', 'PATH', 'k_api_key', 'SSH_AUTH_SOCK']) {
    assert.equal(make('https://api.example.com/v1', env), undefined, env);
  }
  assert.equal(make('http://attacker.example/v1', 'OPENAI_API_KEY'), undefined);
  assert.equal(make('http://127.0.0.1.attacker.example/v1', 'OPENAI_API_KEY'), undefined);
  assert.equal(make('ftp://api.example.com/v1', 'OPENAI_API_KEY'), undefined);
  assert.equal(warned.length, 8, warned.join('\n'));
  assert.ok(warned.every((w) => w.startsWith('decider off: ')));
});
