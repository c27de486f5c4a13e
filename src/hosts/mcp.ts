/**
 * The MCP server: the computer_* tools over stdio with the official SDK. It only translates: listing tools
 * with their schemas and hints, calling them, returning text. The desktop is brought up on the first call,
 * so listing tools is instant.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createComputer, type Computer, type ComputerOptions } from '../index.js';
import { TOOLS } from '../tools/index.js';
import { GUIDANCE } from '../tools/guidance.js';

/** Builds the server around a lazily created computer. */
export function createMcpServer(options: ComputerOptions = {}): { server: Server; close: () => Promise<void> } {
  const server = new Server({ name: 'computer-use', version: '0.1.0' }, { capabilities: { tools: {} }, instructions: GUIDANCE });
  let computer: Promise<Computer> | null = null;
  const getComputer = (): Promise<Computer> => {
    computer ??= createComputer(options).catch((e: unknown) => { computer = null; throw e; });
    return computer;
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: TOOLS.map((t) => ({
      name: t.schema.name,
      title: t.schema.title,
      description: t.schema.description,
      // TypeBox schemas are JSON Schema; the round trip drops TypeBox's symbol keys.
      inputSchema: JSON.parse(JSON.stringify(t.schema.inputSchema)) as { type: 'object'; properties?: Record<string, object> },
      annotations: {
        title: t.schema.title,
        readOnlyHint: t.schema.type === 'readOnly',
        destructiveHint: t.schema.type === 'destructive',
        idempotentHint: t.schema.type === 'readOnly',
        openWorldHint: false,
      },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    let c: Computer;
    try {
      c = await getComputer();
    } catch (e) {
      return { content: [{ type: 'text' as const, text: `error driver_unavailable: cannot reach a desktop: ${(e as Error).message}` }], isError: true };
    }
    const result = await c.call(request.params.name, request.params.arguments ?? {}, extra.signal);
    return { content: [{ type: 'text' as const, text: result.text }], isError: result.isError };
  });

  return {
    server,
    close: async () => { if (computer) await (await computer).close().catch(() => undefined); await server.close(); },
  };
}

/** `computer-use mcp`: serves on stdio until the client disconnects. */
export async function runMcpServer(options: ComputerOptions = {}): Promise<void> {
  const { server, close } = createMcpServer(options);
  const transport = new StdioServerTransport();
  let closing = false;
  const shutdown = async (): Promise<void> => {
    if (closing) return;
    closing = true;
    await close();
    process.exit(0);
  };
  transport.onclose = () => { void shutdown(); };
  process.stdin.on('end', () => { void shutdown(); });
  process.on('SIGTERM', () => { void shutdown(); });
  process.on('SIGINT', () => { void shutdown(); });
  await server.connect(transport);
}
