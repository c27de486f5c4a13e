/**
 * The `registry` decider mode in the pi host: `/computer decider registry [provider/model]` parsing
 * and saving, and the questions asked through a stub of the pi API surface it uses (`ctx.modelRegistry.find`,
 * `getAvailable`, `getApiKeyAndHeaders`, pi-ai's `completeSimple`).
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { completeSimple } from '@mariozechner/pi-ai';
import {
  AuthStorage,
  ModelRegistry,
  type ExtensionAPI,
  type ExtensionCommandContext,
} from '@mariozechner/pi-coding-agent';
import { createPiExtension } from '../../src/hosts/pi.js';
import { pickRegistryModel, piRegistryCall, type PiComplete, type PiModel } from '../../src/hosts/pi-registry.js';
import {
  createDecider,
  createRegistryDecider,
  parseDeciderConfig,
  testDecider,
} from '../../src/policy/decider/index.js';
import { loadSettings } from '../../src/policy/settings.js';

// pi-ai's own completeSimple fits the surface the host uses (checked by tsc).
const fits: typeof completeSimple extends PiComplete ? true : false = true;
assert.ok(fits);

const home = mkdtempSync(join(tmpdir(), 'cu-pi-decider-'));
process.env['COMPUTER_USE_HOME'] = home;

const model = (provider: string, id: string, input: number, reasoning = false): PiModel => ({
  id, name: id, api: 'openai-completions', provider, baseUrl: 'https://example.invalid/v1', reasoning, input: ['text'],
  cost: { input, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 8000, maxTokens: 1000,
}) as PiModel;

const MODELS = [model('openai', 'gpt-big', 5), model('openai', 'o-think', 0.1, true), model('groq', 'llama-8b', 0.05)];

interface Asked { model: string; system: string; user: string; options: Parameters<PiComplete>[2] }

function harness(
  opts: {
    answers?: string[];
    auth?: { ok: true; apiKey?: string } | { ok: false; error: string };
    fail?: string;
  } = {},
) {
  const settingsPath = join(mkdtempSync(join(home, 's-')), 'settings.json');
  const asked: Asked[] = [];
  const answers = [...(opts.answers ?? [])];
  const complete: PiComplete = (m, context, options) => {
    asked.push({
      model: `${m.provider}/${m.id}`,
      system: context.systemPrompt,
      user: context.messages[0]!.content,
      options,
    });
    if (opts.fail) return Promise.resolve({ content: [], stopReason: 'error', errorMessage: opts.fail });
    return Promise.resolve({ content: [{ type: 'text', text: answers.shift() ?? '?' }], stopReason: 'stop' });
  };
  let command: ((args: string, ctx: ExtensionCommandContext) => Promise<void>) | undefined;
  const pi = {
    registerFlag: () => undefined, getFlag: () => undefined, registerTool: () => undefined, on: () => undefined,
    registerCommand: (_name: string, c: { handler: typeof command }) => { command = c.handler; },
  } as unknown as ExtensionAPI;
  createPiExtension({ computer: { settingsPath }, complete: () => Promise.resolve(complete) })(pi);
  const notes: string[] = [];
  const ctx = {
    hasUI: false, model: undefined,
    ui: { notify: (m: string) => { notes.push(m); } },
    modelRegistry: {
      find: (p: string, id: string) => MODELS.find((m) => m.provider === p && m.id === id),
      getAvailable: () => MODELS,
      getApiKeyAndHeaders: () => Promise.resolve(opts.auth ?? { ok: true, apiKey: 'sk-from-pi-auth' }),
    },
  } as unknown as ExtensionCommandContext;
  const run = async (args: string): Promise<string> => { await command!(args, ctx); return notes.at(-1)!; };
  return { run, asked, settingsPath };
}

test('/computer decider registry [provider/model] saves the mode; a malformed model is refused', async () => {
  const h = harness();
  assert.match(
    await h.run('decider registry openai/gpt-big'),
    /^decider: registry openai\/gpt-big through pi's model registry/,
  );
  assert.deepEqual(loadSettings(h.settingsPath).settings.decider, { mode: 'registry', model: 'openai/gpt-big' });
  assert.match(await h.run('decider status'), /^decider: registry openai\/gpt-big/);
  assert.match(await h.run('decider registry'), /registry \(pi picks: the cheapest available model\)/);
  assert.deepEqual(loadSettings(h.settingsPath).settings.decider, { mode: 'registry' });
  assert.equal(await h.run('decider registry gpt-big'), 'usage: /computer decider registry [provider/model]');
  assert.equal(await h.run('decider registry a/b c'), 'usage: /computer decider registry [provider/model]');
  assert.deepEqual(
    loadSettings(h.settingsPath).settings.decider,
    { mode: 'registry' },
    'a refused command changes nothing',
  );
  assert.equal(parseDeciderConfig({ mode: 'registry', model: 'no slash' }), undefined);
});

test('decider test asks the registry model with pi\'s credentials and reads the answers from the text', async () => {
  const h = harness({ answers: ['yes', 'C'] });
  await h.run('decider registry openai/gpt-big');
  const report = await h.run('decider test');
  assert.match(report, /^decider: registry "openai\/gpt-big" \(answers read from the text/);
  assert.match(report, /p\(irreversible\) = 1\.00 from the answer text/);
  assert.match(report, /#3 button "Save" from the answer text/);
  assert.match(report, /\nOK$/);
  assert.equal(h.asked.length, 2);
  for (const a of h.asked) {
    assert.equal(a.model, 'openai/gpt-big');
    assert.equal(a.options.apiKey, 'sk-from-pi-auth');
    assert.equal(a.options.maxTokens, 1);
    assert.equal(a.options.temperature, 0);
    assert.ok(a.options.signal instanceof AbortSignal);
    assert.match(a.system, /untrusted/);
    assert.match(a.user, /^BEGIN DATA\n/);
  }
  assert.doesNotMatch(report, /sk-from-pi-auth/);
});

test('without a model pi picks the cheapest available ' +
    'non-reasoning model; a reasoning model gets room to think', async () => {
  const h = harness({ answers: ['no', 'A'] });
  await h.run('decider registry');
  await h.run('decider test');
  assert.equal(h.asked[0]!.model, 'groq/llama-8b');
  const ctx = { model: undefined, modelRegistry: { getAvailable: () => [MODELS[1]!], find: () => undefined } } as never;
  assert.equal(pickRegistryModel(ctx, undefined).id, 'o-think');
  const h2 = harness({ answers: ['no', 'A'] });
  await h2.run('decider registry openai/o-think');
  await h2.run('decider test');
  assert.ok(h2.asked[0]!.options.maxTokens >= 1024);
});

test('what is missing is said: an unknown model, no credentials, a provider error; never an API key', async () => {
  const h = harness();
  await h.run('decider registry openai/nope');
  assert.match(
    await h.run('decider test'),
    /no opinion \(registry decider: openai\/nope is not a model of pi's model registry/,
  );
  assert.equal(h.asked.length, 0);
  const h2 = harness({ auth: { ok: false, error: 'No API key for provider openai' } });
  await h2.run('decider registry openai/gpt-big');
  const r2 = await h2.run('decider test');
  assert.match(r2, /no credentials for openai\/gpt-big in pi: No API key for provider openai/);
  assert.match(r2, /FAILED: the decider gave no opinion/);
  const h3 = harness({ fail: '401 invalid key' });
  await h3.run('decider registry openai/gpt-big');
  assert.match(await h3.run('decider test'), /no opinion \(openai\/gpt-big: 401 invalid key\)/);
});

test('outside pi, registry mode is off with a warning that says why', () => {
  const warnings: string[] = [];
  assert.equal(
    createDecider({ mode: 'registry', model: 'openai/gpt-big' }, { warn: (m) => warnings.push(m) }),
    undefined,
  );
  assert.match(warnings[0]!, /registry mode asks the host's model registry, which only the pi extension has/);
});

test('through pi\'s real ModelRegistry and pi-ai\'s completeSimple ' +
    'to a local streaming chat-completions server', async () => {
  const seen: { auth: string | undefined; body: Record<string, unknown> }[] = [];
  const srv = createServer((req, res) => {
    let b = '';
    req.on('data', (c: Buffer) => { b += c.toString('utf8'); });
    req.on('end', () => {
      const body = JSON.parse(b) as { messages: { role: string; content: string }[] };
      seen.push({ auth: req.headers.authorization, body: body as unknown as Record<string, unknown> });
      const answer = /yes or no/.test(body.messages.find((m) => m.role === 'user')!.content) ? 'yes' : 'C';
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (d: unknown): void => { res.write(`data: ${JSON.stringify(d)}\n\n`); };
      chunk({
        id: 'x',
        object: 'chat.completion.chunk',
        created: 0,
        model: 'tiny',
        choices: [{ index: 0, delta: { role: 'assistant', content: answer }, finish_reason: null }],
      });
      chunk({
        id: 'x',
        object: 'chat.completion.chunk',
        created: 0,
        model: 'tiny',
        choices: [{ index: 0, delta: {}, finish_reason: 'length' }],
      });
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  try {
    const registry = ModelRegistry.inMemory(AuthStorage.inMemory());
    registry.registerProvider('local', {
      baseUrl: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/v1`,
      apiKey: 'sk-local-test',
      api: 'openai-completions',
      models: [
        {
          id: 'tiny',
          name: 'tiny',
          reasoning: false,
          input: ['text'],
          cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
          contextWindow: 4096,
          maxTokens: 16,
        },
      ],
    });
    const d = createRegistryDecider({
      model: 'local/tiny',
      call: piRegistryCall(() => ({ modelRegistry: registry, model: undefined }), 'local/tiny'),
    });
    const report = await testDecider(d);
    assert.equal(report.ok, true, report.text);
    assert.deepEqual(report.probes.map((p) => [p.value, p.source]), [[1, 'text'], [2, 'text']]);
    assert.equal(seen.length, 2);
    for (const s of seen) {
      assert.equal(s.auth, 'Bearer sk-local-test', 'the credentials pi holds for the provider');
      assert.equal(s.body['max_completion_tokens'] ?? s.body['max_tokens'], 1);
      assert.equal(s.body['temperature'], 0);
    }
  } finally {
    srv.closeAllConnections();
    await new Promise<void>((r) => srv.close(() => r()));
  }
});
