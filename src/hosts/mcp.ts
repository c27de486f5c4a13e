/**
 * The MCP server: the computer_* tools over stdio with the official SDK. It only translates: listing tools
 * with their schemas and hints, calling them, returning text. The desktop is brought up on the first call,
 * so listing tools is instant.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createComputer, type Computer, type ComputerOptions } from '../index.js';
import { TOOLS } from '../tools/index.js';
import { withDeviceField } from '../tools/tool.js';
import { defaultDevicesPath, loadDevices } from '../devices/registry.js';
import { GUIDANCE } from '../tools/guidance.js';
import type { ConfirmChoice, Confirmer } from '../policy/confirm.js';
import { defaultSettingsPath, loadSettings } from '../policy/settings.js';
import { cuHome } from '../paths.js';
import { defaultAuditPath } from '../policy/audit.js';
import { PanelConfirmer } from '../panel/confirmations.js';
import { LiveView } from '../panel/live.js';
import { onActivity } from '../session/activity.js';
import type { Panel } from '../panel/server.js';

const CHOICE_LABELS: Record<ConfirmChoice, string> = {
  allow_once: 'Allow once',
  allow_session: 'Allow for this session',
  allow_always: 'Always allow this app',
  deny: 'Deny',
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
      const result = await server.elicitInput(
        {
          message: `${request.title}\n\n${request.message}`,
          requestedSchema: yesNo
            ? {
                type: 'object',
                properties: {
                  approve: {
                    type: 'boolean',
                    title: CHOICE_LABELS[allow],
                    description: 'Leave unchecked or decline to refuse',
                    default: false,
                  },
                },
                required: ['approve'],
              }
            : {
                type: 'object',
                properties: {
                  choice: {
                    type: 'string',
                    title: 'Your answer',
                    oneOf: request.choices.map((c) => ({ const: c, title: CHOICE_LABELS[c] })),
                    default: 'deny',
                  },
                },
                required: ['choice'],
              },
        },
        signal ? { signal } : undefined,
      );
      if (result.action !== 'accept' || !result.content) return 'deny';
      if (yesNo) return result.content['approve'] === true ? allow : 'deny';
      const choice = result.content['choice'];
      return request.choices.find((c) => c === choice) ?? 'deny';
    },
  };
}

/** What a tool call in progress lets a confirmer say while it waits (sent as MCP progress). */
interface CallContext { waiting(message: string | undefined): void; signal: AbortSignal }
const calls = new AsyncLocalStorage<CallContext>();

/**
 * The MCP server's human channel: elicitation when the client has it, else the panel (when it runs). While a
 * question waits in the panel, the tool call's progress notifications tell the model that it waits; the panel's
 * URL goes to the human only (stderr, a desktop notification: notify.ts), since a model holding it could answer
 * its own question. After the timeout the call ends with `confirmation_timeout`.
 */
export function mcpConfirmer(
  server: Server,
  panel: PanelConfirmer | undefined,
  opts: { ignoreElicitation?: boolean } = {},
): Confirmer {
  const elicit = elicitationConfirmer(server);
  const elicits = (): boolean => !opts.ignoreElicitation && elicit.interactive;
  return {
    get interactive() { return elicits() || Boolean(panel?.interactive); },
    async confirm(request, signal) {
      if (elicits() || !panel?.interactive) return elicit.confirm(request, signal);
      const ctx = calls.getStore();
      try {
        // A call the client cancelled takes its question off the panel (and nothing is sent).
        const both = ctx ? (signal ? AbortSignal.any([signal, ctx.signal]) : ctx.signal) : signal;
        return await panel.confirm(request, both, {
          onWaiting: () =>
            ctx?.waiting(
              `Waiting for the user to answer in the computer-use panel (${request.title}). The user was told ` +
                `where; tell them a question waits there.`,
            ),
        });
      } finally { ctx?.waiting(undefined); }
    },
  };
}

/** Options of the MCP server beyond the computer's. */
export interface McpServerOptions extends ComputerOptions {
  /** Serve the local panel (approvals, apps, audit, stop) and ask through it when the client cannot elicit. */
  panel?: boolean;
  /** Keep the per-app first-use question even when the host approves each call (settings `strictFirstUse`). */
  strictFirstUse?: boolean;
  /** How long a question waits in the panel (ms, default 120000). */
  confirmTimeoutMs?: number;
  /**
   * 'panel': ask in the panel even when the client advertises elicitation (for clients that advertise it but
   * decline every form); implies `panel`. Default 'auto': elicitation when the client has it.
   */
  confirmIn?: 'auto' | 'panel';
  /** Start the desktop's browser on the panel (a one-time ticket URL) when a question waits and no page is open. */
  openPanel?: boolean;
}

/** How often a long call reports progress to clients that asked for it. */
const PROGRESS_INTERVAL_MS = 1000;

/** Builds the server around a lazily created computer. */
export function createMcpServer(options: McpServerOptions = {}): {
  server: Server;
  close: () => Promise<void>;
  startPanel: () => Promise<Panel>;
} {
  const server = new Server(
    { name: 'computer-use', version: '0.1.0' },
    { capabilities: { tools: {} }, instructions: GUIDANCE },
  );
  let computer: Promise<Computer> | null = null;
  const { panel: wantPanel, strictFirstUse, confirmTimeoutMs, confirmIn, openPanel, ...computerOptions } = options;
  const inPanel = confirmIn === 'panel';
  const panelConfirmer = wantPanel || inPanel ? new PanelConfirmer(confirmTimeoutMs) : undefined;
  const live = new LiveView();
  const watched = new WeakSet<Computer>();
  const settingsPath = options.settingsPath ?? defaultSettingsPath();
  const getComputer = (): Promise<Computer> => {
    // Created on the first call, after initialize: the client's capabilities are known. A client that cannot
    // elicit approves each destructive call itself, which stands in for the per-app question.
    computer ??= createComputer({
      ...computerOptions,
      confirmer: options.confirmer ?? mcpConfirmer(server, panelConfirmer, { ignoreElicitation: inPanel }),
      hostApprovesFirstUse: !strictFirstUse && (inPanel || !server.getClientCapabilities()?.elicitation),
    }).then((c) => {
      // Ignored settings (unsafe file, unconfirmed lowering fields, decider off) are told to the user's log.
      for (const w of c.policy.warnings) process.stderr.write(`computer-use: ${w}\n`);
      return c;
    }).catch((e: unknown) => { computer = null; throw e; });
    return computer;
  };
  let panel: Promise<Panel> | undefined;
  let hotkey: string | undefined;
  const startPanel = (): Promise<Panel> => {
    if (!panelConfirmer) return Promise.reject(new Error('the panel is off (start the server with --panel)'));
    panel ??= (async () => {
      const { startPanel: start } = await import('../panel/server.js');
      const settings = loadSettings(settingsPath).settings;
      const p = await start({
        home: cuHome(), auditPath: options.auditPath ?? defaultAuditPath(), confirmer: panelConfirmer, live,
        computer: getComputer,
        mode: () => computerOptions.mode ?? settings.mode ?? 'default',
        hotkey: () => hotkey || undefined,
      });
      const { humanAnnouncer } = await import('../panel/notify.js');
      panelConfirmer.announce = humanAnnouncer(p, { open: openPanel === true });
      // The stop hotkey on this process's display, else on the computer's (a sandbox) once it is up.
      const grab = async (display: string): Promise<void> => {
        if (hotkey !== undefined) return;
        hotkey = '';
        const { grabStopHotkey, DEFAULT_STOP_HOTKEY } = await import('../panel/hotkey.js');
        const { requestStop } = await import('../policy/stop.js');
        await grabStopHotkey(display, settings.stopHotkey ?? DEFAULT_STOP_HOTKEY, () => {
          requestStop(cuHome(), 'stop hotkey');
        }).then(
          (g) => {
            hotkey = g.chord;
            const close = p.close;
            p.close = async () => {
              g.close();
              await close();
            };
          },
          (e: unknown) => {
            process.stderr.write(`computer-use panel: no stop hotkey: ${(e as Error).message}\n`);
          },
        );
      };
      const display = process.env['DISPLAY'];
      if (display) await grab(display);
      else
        void getComputer().then(
          (c) => (c.desktop.env['DISPLAY'] ? grab(c.desktop.env['DISPLAY']) : undefined),
          () => undefined,
        );
      return p;
    })();
    return panel;
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    // The `device` field is listed only when there is more than one device: one device costs no tokens.
    const manyDevices =
      (options.devices ?? loadDevices(options.devicesPath ?? defaultDevicesPath()).devices).length > 0;
    return { tools: TOOLS.map((t) => ({
      name: t.schema.name,
      title: t.schema.title,
      description: t.schema.description,
      // TypeBox schemas are JSON Schema; the round trip drops TypeBox's symbol keys.
      inputSchema: ((listed) => (manyDevices ? withDeviceField(listed) : listed))(
        JSON.parse(JSON.stringify(t.schema.inputSchema)) as { type: 'object'; properties?: Record<string, object> },
      ),
      annotations: {
        title: t.schema.title,
        readOnlyHint: t.schema.type === 'readOnly',
        destructiveHint: t.schema.type === 'destructive',
        idempotentHint: t.schema.type === 'readOnly',
        openWorldHint: false,
      },
    })), };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    // A client that asked for progress (a progressToken) hears every second that a long call (a wait, a launch,
    // the first call bringing up a desktop) is still working, so it does not time out on silence.
    const token = request.params._meta?.progressToken;
    let beats = 0;
    let waitingFor: string | undefined;
    const started = Date.now();
    const heartbeat = token === undefined ? undefined : setInterval(() => {
      beats++;
      void extra
        .sendNotification({
          method: 'notifications/progress',
          params: {
            progressToken: token,
            progress: beats,
            message: waitingFor ?? `${request.params.name} running for ${Math.round((Date.now() - started) / 1000)} s`,
          },
        })
        .catch(() => undefined);
    }, PROGRESS_INTERVAL_MS);
    try {
      let c: Computer;
      try {
        c = await getComputer();
      } catch (e) {
        return {
          content: [
            {
              type: 'text' as const,
              text: `error driver_unavailable: cannot reach a desktop: ${(e as Error).message}`,
            },
          ],
          isError: true,
        };
      }
      if (!watched.has(c)) { // the live view shows what the agent does now
        watched.add(c);
        onActivity(c.session, (status) => {
          live.setActivity(c.policy.policy?.session ?? 'custom gate', c.policy.policy?.mode ?? 'custom', status);
        });
      }
      const result = await calls.run({ waiting: (message) => {
        waitingFor = message;
        if (message && token !== undefined) {
          void extra
            .sendNotification({
              method: 'notifications/progress',
              params: { progressToken: token, progress: ++beats, message },
            })
            .catch(() => undefined);
        }
      }, signal: extra.signal }, () => c.call(request.params.name, request.params.arguments ?? {}, extra.signal));
      if (!result.isError)
        live.record(
          c.policy.policy?.session ?? 'custom gate',
          c.policy.policy?.mode ?? 'custom',
          request.params.name,
          result.text,
        );
      if (result.code === 'confirmation_required' && !panelConfirmer) {
        result.text += '\n(The server can ask the user in a local panel instead: add --panel to its command line.)';
      }
    return {
      content: [
        { type: 'text' as const, text: result.text },
        ...(result.images ?? []).map((i) => ({ type: 'image' as const, data: i.data, mimeType: i.mimeType })),
      ],
      isError: result.isError,
    };
    } finally {
      if (heartbeat) clearInterval(heartbeat);
    }
  });

  return {
    server, startPanel,
    close: async () => {
      if (panel) await (await panel.catch(() => undefined))?.close();
      if (computer) await (await computer).close().catch(() => undefined);
      await server.close();
    },
  };
}

/** `computer-use mcp`: serves on stdio until the client disconnects. */
export async function runMcpServer(options: McpServerOptions = {}): Promise<void> {
  const { server, close, startPanel } = createMcpServer(options);
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
  if (options.panel || options.confirmIn === 'panel') {
    // stdout is the MCP channel: the URL goes to stderr (clients show it in their server log), for the human.
    const p = await startPanel();
    process.stderr.write(`computer-use panel: ${p.url}\n`);
  }
}
