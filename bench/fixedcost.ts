/**
 * The fixed cost: what every conversation pays before the first call, measured as a client sees it. A raw
 * JSON-RPC client talks to the real MCP server over an in-memory transport: the `instructions` of its
 * initialize result and the `result` of `tools/list`, as the JSON the server sends, counted with o200k.
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { textTokens } from '../src/demo/tokens.js';
import { createMcpServer } from '../src/hosts/mcp.js';

/** Tool list plus instructions in at most this many o200k tokens. */
export const FIXED_COST_BUDGET = 1500;

export interface FixedCost {
  /** o200k tokens of the JSON of the tools/list result. */
  tools: number;
  /** o200k tokens of the server instructions. */
  instructions: number;
  total: number;
  budget: number;
  /** Tokens per tool (its JSON entry in the list). */
  perTool: Record<string, number>;
  toolCount: number;
}

/** Lists the tools and reads the instructions from a fresh MCP server, as a client would, and counts them. */
export async function measureFixedCost(): Promise<FixedCost> {
  const { server, close } = createMcpServer({});
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const pending = new Map<number, (result: Record<string, unknown>) => void>();
  clientSide.onmessage = (m: JSONRPCMessage) => {
    if ('id' in m && 'result' in m) pending.get(Number(m.id))?.(m.result as Record<string, unknown>);
  };
  await server.connect(serverSide);
  await clientSide.start();
  const request = (id: number, method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${method}: no answer`)), 10_000);
      pending.set(id, (r) => { clearTimeout(timer); resolve(r); });
      void clientSide.send({ jsonrpc: '2.0', id, method, params }).catch(reject);
    });
  try {
    const init = await request(1, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'fixed-cost', version: '1' },
    });
    await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const list = await request(2, 'tools/list');
    const instructions = typeof init['instructions'] === 'string' ? init['instructions'] : '';
    const toolList = (list['tools'] ?? []) as { name: string }[];
    const tools = textTokens(JSON.stringify(list));
    const inst = textTokens(instructions);
    return {
      tools, instructions: inst, total: tools + inst, budget: FIXED_COST_BUDGET, toolCount: toolList.length,
      perTool: Object.fromEntries(toolList.map((t) => [t.name, textTokens(JSON.stringify(t))])),
    };
  } finally {
    await clientSide.close();
    await close();
  }
}
