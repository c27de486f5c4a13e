/** The MCP server's human channel: elicitation when the client has it, else the panel; never both. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { mcpConfirmer } from '../../src/hosts/mcp.js';
import { PanelConfirmer } from '../../src/panel/confirmations.js';
import type { ConfirmRequest } from '../../src/policy/confirm.js';

async function link(elicit: boolean) {
  const server = new Server({ name: 't', version: '0' }, { capabilities: { tools: {} } });
  const client = new Client({ name: 'c', version: '0' }, { capabilities: elicit ? { elicitation: {} } : {} });
  let asked = 0;
  if (elicit)
    client.setRequestHandler(ElicitRequestSchema, async () => {
      asked++;
      return { action: 'accept', content: { approve: true } };
    });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  return { server, client, asked: () => asked };
}

const q: ConfirmRequest = {
  title: 'Confirm: click button "Delete"?',
  message: 'm',
  choices: ['allow_once', 'deny'],
  reason: 'irreversible',
};

test('with elicitation the client is asked, not the panel', async () => {
  const { server, client, asked } = await link(true);
  const panel = new PanelConfirmer(1000);
  panel.running = true;
  const c = mcpConfirmer(server, panel);
  assert.equal(await c.confirm(q), 'allow_once');
  assert.equal(asked(), 1);
  assert.equal(panel.pending().length, 0);
  await client.close();
});

test('without elicitation: not interactive unless the panel runs; then the panel answers', async () => {
  const { server, client } = await link(false);
  assert.equal(mcpConfirmer(server, undefined).interactive, false);
  const panel = new PanelConfirmer(1000);
  const c = mcpConfirmer(server, panel);
  assert.equal(c.interactive, false, 'the panel is not running yet');
  panel.running = true;
  assert.equal(c.interactive, true);
  const answer = c.confirm(q);
  await new Promise((r) => setImmediate(r));
  const [waiting] = panel.pending();
  assert.ok(waiting);
  assert.equal(panel.answer(waiting.id, 'deny'), true);
  assert.equal(await answer, 'deny');
  await client.close();
});

test('ignoreElicitation (--confirm-in panel): the panel asks even when the client advertises elicitation', async () => {
  const { server, client, asked } = await link(true);
  const panel = new PanelConfirmer(1000);
  panel.running = true;
  const c = mcpConfirmer(server, panel, { ignoreElicitation: true });
  const answer = c.confirm(q);
  await new Promise((r) => setImmediate(r));
  const [waiting] = panel.pending();
  assert.ok(waiting);
  panel.answer(waiting.id, 'allow_once');
  assert.equal(await answer, 'allow_once');
  assert.equal(asked(), 0);
  await client.close();
});
