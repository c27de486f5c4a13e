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
import type { ConfirmChoice, Confirmer } from '../policy/confirm.js';

const CHOICE_LABELS: Record<ConfirmChoice, string> = {
  allow_once: 'Allow once', allow_session: 'Allow for this session', allow_always: 'Always allow this app', deny: 'Deny',
};

/**
 * Asks the user through the client's elicitation capability (a form with one boolean or one choice). Without
 * the capability it is not interactive, so the policy answers `confirmation_required` instead of asking.
 */
export function elicitationConfirmer(server: Server): Confirmer {
  return {
    get interactive() { return Boolean(server.getClientCapabilities()?.elicitation); },
    async confirm(request, signal) {
      const yesNo = request.choices.length === 2 && request.choices.includes('deny');
      const allow = request.choices.find((c) => c !== 'deny') ?? 'deny';
      const result = await server.elicitInput({
        message: `${request.title}\n\n${request.message}`,
        requestedSchema: yesNo
          ? { type: 'object', properties: { approve: { type: 'boolean', title: CHOICE_LABELS[allow], description: 'Leave unchecked or decline to refuse', default: false } }, required: ['approve'] }
          : { type: 'object', properties: { choice: { type: 'string', title: 'Your answer', oneOf: request.choices.map((c) => ({ const: c, title: CHOICE_LABELS[c] })), default: 'deny' } }, required: ['choice'] },
      }, signal ? { signal } : undefined);
      if (result.action !== 'accept' || !result.content) return 'deny';
      if (yesNo) return result.content['approve'] === true ? allow : 'deny';
      const choice = result.content['choice'];
      return request.choices.find((c) => c === choice) ?? 'deny';
    },
  };
}

/** How often a long call reports progress to clients that asked for it. */
const PROGRESS_INTERVAL_MS = 1000;

/** Builds the server around a lazily created computer. */
export function createMcpServer(options: ComputerOptions = {}): { server: Server; close: () => Promise<void> } {
  const server = new Server({ name: 'computer-use', version: '0.1.0' }, { capabilities: { tools: {} }, instructions: GUIDANCE });
  let computer: Promise<Computer> | null = null;
  const withConfirmer: ComputerOptions = options.confirmer ? options : { ...options, confirmer: elicitationConfirmer(server) };
  const getComputer = (): Promise<Computer> => {
    computer ??= createComputer(withConfirmer).then((c) => {
      // Ignored settings (unsafe file, unconfirmed lowering fields, decider off) are told to the user's log.
      for (const w of c.policy.warnings) process.stderr.write(`computer-use: ${w}\n`);
      return c;
    }).catch((e: unknown) => { computer = null; throw e; });
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
    // A client that asked for progress (a progressToken) hears every second that a long call (a wait, a launch,
    // the first call bringing up a desktop) is still working, so it does not time out on silence.
    const token = request.params._meta?.progressToken;
    let beats = 0;
    const started = Date.now();
    const heartbeat = token === undefined ? undefined : setInterval(() => {
      beats++;
      void extra.sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: beats, message: `${request.params.name} running for ${Math.round((Date.now() - started) / 1000)} s` },
      }).catch(() => undefined);
    }, PROGRESS_INTERVAL_MS);
    try {
      let c: Computer;
      try {
        c = await getComputer();
      } catch (e) {
        return { content: [{ type: 'text' as const, text: `error driver_unavailable: cannot reach a desktop: ${(e as Error).message}` }], isError: true };
      }
      const result = await c.call(request.params.name, request.params.arguments ?? {}, extra.signal);
    return {
      content: [{ type: 'text' as const, text: result.text }, ...(result.images ?? []).map((i) => ({ type: 'image' as const, data: i.data, mimeType: i.mimeType }))],
      isError: result.isError,
    };
    } finally {
      if (heartbeat) clearInterval(heartbeat);
    }
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
