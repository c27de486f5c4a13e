import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createGatewayDecider, type GatewayCall } from '../../src/policy/decider/gateway.js';
import { createOpenAIDecider } from '../../src/policy/decider/openai.js';
import type { ChatRequest } from '../../src/policy/decider/protocol.js';
import type { ActionContext } from '../../src/policy/decider/types.js';
import { completion, sendJson, startFakeServer } from './decider-fake-server.js';

const DELETE: ActionContext = { app: 'Files', role: 'button', name: 'Delete Permanently', op: 'click' };

test('gateway mode sends the same request body as openai mode through the host function', async () => {
  const srv = await startFakeServer((_req, res) => sendJson(res, 200, completion('yes', { yes: 0.7, no: 0.3 })));
  try {
    await createOpenAIDecider({ baseUrl: srv.baseUrl, model: 'clf' }).irreversible(DELETE);
    const bodies: ChatRequest[] = [];
    const call: GatewayCall = async (body) => { bodies.push(body); return completion('yes', { yes: 0.7, no: 0.3 }); };
    const d = createGatewayDecider({ call, model: 'clf', gateway: 'edge' });
    const p = await d.irreversible(DELETE);
    assert.ok(p !== null && Math.abs(p - 0.7) < 1e-6);
    assert.deepEqual(JSON.parse(JSON.stringify(bodies[0])), srv.requests[0]!.body);
    assert.equal(d.description, 'gateway "edge" model "clf"');
  } finally {
    await srv.close();
  }
});

test('gateway mode without a model leaves it to the gateway; text answers work', async () => {
  const bodies: ChatRequest[] = [];
  const d = createGatewayDecider({ call: async (body) => { bodies.push(body); return completion('B'); } });
  assert.equal(await d.choose('open', ['Save', 'Open', 'Close']), 1);
  assert.equal('model' in bodies[0]!, false);
});

test('gateway errors, junk and a host that ignores the AbortSignal all give no opinion in time', async () => {
  assert.equal(
    await createGatewayDecider({
      call: async () => {
        throw new Error('gateway down');
      },
    }).irreversible(DELETE),
    null,
  );
  assert.equal(await createGatewayDecider({ call: async () => 'not json' }).irreversible(DELETE), null);
  assert.equal(await createGatewayDecider({ call: async () => ({ choices: [] }) }).choose('x', ['a']), null);

  let sawSignal: AbortSignal | undefined;
  const hang: GatewayCall = (_body, signal) => { sawSignal = signal; return new Promise(() => undefined); };
  const d = createGatewayDecider({ call: hang, timeoutMs: 100 });
  const start = performance.now();
  const out = await d.explainIrreversible(DELETE);
  assert.equal(out.value, null);
  assert.match(out.error ?? '', /no answer within 100 ms/);
  assert.ok(performance.now() - start < 300);
  assert.equal(sawSignal?.aborted, true, 'the host is told to stop');
});
