/** The MCP confirmer: asks through the client's elicitation capability, and is not interactive without it. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { elicitationConfirmer } from '../../src/hosts/mcp.js';
import type { ConfirmRequest } from '../../src/policy/confirm.js';

async function link(
  elicit?: (params: Record<string, unknown>) => {
    action: 'accept' | 'decline' | 'cancel';
    content?: Record<string, unknown>;
  },
) {
  const server = new Server({ name: 't', version: '0' }, { capabilities: { tools: {} } });
  const client = new Client({ name: 'c', version: '0' }, { capabilities: elicit ? { elicitation: {} } : {} });
  if (elicit)
    client.setRequestHandler(ElicitRequestSchema, async (req) => elicit(req.params as Record<string, unknown>));
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  return { server, client };
}

const firstUse: ConfirmRequest = {
  title: 'Allow computer-use to act in gedit?',
  message: 'm',
  choices: ['allow_once', 'allow_session', 'allow_always', 'deny'],
  reason: 'app_first_use',
};
const irreversible: ConfirmRequest = {
  title: 'Confirm: click button "Send"?',
  message: 'm',
  choices: ['allow_once', 'deny'],
  reason: 'irreversible',
};

test('elicitation: a choice form for first use, a yes/no form for one action; decline is deny', async () => {
  const seen: Record<string, unknown>[] = [];
  let answer: { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> } = {
    action: 'accept',
    content: { choice: 'allow_session' },
  };
  const { server, client } = await link((p) => { seen.push(p); return answer; });
  const confirmer = elicitationConfirmer(server);
  assert.equal(confirmer.interactive, true);
  assert.equal(await confirmer.confirm(firstUse), 'allow_session');
  assert.match(String(seen[0]!['message']), /Allow computer-use to act in gedit/);
  answer = { action: 'accept', content: { approve: true } };
  assert.equal(await confirmer.confirm(irreversible), 'allow_once');
  assert.deepEqual(Object.keys((seen[1]!['requestedSchema'] as { properties: object }).properties), ['approve']);
  answer = { action: 'decline' };
  assert.equal(await confirmer.confirm(irreversible), 'deny');
  answer = { action: 'accept', content: { approve: false } };
  assert.equal(await confirmer.confirm(irreversible), 'deny');
  await client.close();
});

test('without the elicitation capability the MCP confirmer is not interactive (the policy then refuses)', async () => {
  const { server, client } = await link();
  assert.equal(elicitationConfirmer(server).interactive, false);
  await client.close();
});
