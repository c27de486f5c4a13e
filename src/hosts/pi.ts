/**
 * The pi extension (`@mariozechner/pi-coding-agent`): the computer_* tools registered through
 * `pi.registerTool` with their TypeBox schemas, the usage guidance appended to the system prompt in
 * `before_agent_start`, the policy's questions asked through pi's dialogs (`ctx.ui.confirm`, `ctx.ui.select`),
 * and a `/computer` command over the policy's controls. It only translates: every decision is the policy's,
 * every action the tools'.
 *
 * pi loads it through the `pi.extensions` field of package.json (`pi install /path/to/computer-use`, or
 * `pi -e ./dist/src/hosts/pi.js`). The desktop is brought up on the first tool call, so pi starts instantly.
 */
import type { ExtensionAPI, ExtensionCommandContext, ExtensionContext } from '@mariozechner/pi-coding-agent';
import { createComputer, settingsAppControls, type Computer, type ComputerOptions } from '../index.js';
import type { ConfirmChoice, Confirmer, ConfirmRequest } from '../policy/confirm.js';
import {
  createDecider,
  parseDeciderConfig,
  REGISTRY_MODEL,
  testDecider,
  type DeciderConfig,
  type DeciderHost,
} from '../policy/decider/index.js';
import type { PolicyGate } from '../policy/gate.js';
import { defaultSettingsPath, loadSettings, updateSettings } from '../policy/settings.js';
import { pauseInfo, requestResume, requestStop } from '../policy/stop.js';
import type { McpServerOptions } from './mcp.js';
import { loadPiComplete, piRegistryCall, type PiComplete } from './pi-registry.js';
import { piFlags, piOptionsFrom } from './options.js';
import { GUIDANCE } from '../tools/guidance.js';
import { TOOLS } from '../tools/index.js';

/** Options of the extension factory, for callers that embed it (the default export uses none). */
export interface PiExtensionOptions {
  /** Options of the computer, merged over what the `--computer-desktop` flag and environment say. */
  computer?: ComputerOptions;
  /** Builds a gate of the caller's own (instead of the built-in policy) from the confirmer that asks through pi. */
  gate?: (confirmer: Confirmer) => PolicyGate;
  /** pi-ai's completeSimple for the `registry` decider (default: loaded from `@mariozechner/pi-ai`; tests stub it). */
  complete?: () => Promise<PiComplete>;
}

/** The answers offered in pi's select dialog, by choice. */
const CHOICE_LABELS: Record<ConfirmChoice, string> = {
  allow_once: 'Allow once',
  allow_session: 'Allow for this session',
  allow_always: 'Always allow',
  deny: 'Deny',
};

/**
 * A Confirmer over pi's dialogs. A yes/no question (allow once or deny) goes to `ctx.ui.confirm`: yes is the
 * allow choice, no or a dismissed dialog is 'deny'. A question with several ways to allow (an app's first use:
 * once, for this session, always) goes to `ctx.ui.select` with those choices, so a user is not asked again for
 * every step. The context is the one of the tool call in flight (pi hands it to `execute`).
 */
export class PiConfirmer implements Confirmer {
  private ctx: ExtensionContext | undefined;
  /** Remembers the context of the latest tool call or command: its `ui` is the human channel. */
  bind(ctx: ExtensionContext): void { this.ctx = ctx; }
  /** pi has a human channel in interactive and RPC mode; print and JSON modes have none. */
  get interactive(): boolean { return this.ctx?.hasUI ?? false; }
  async confirm(request: ConfirmRequest, signal?: AbortSignal): Promise<ConfirmChoice> {
    const ctx = this.ctx;
    if (!ctx?.hasUI || signal?.aborted) return 'deny';
    const opts = signal ? { signal } : undefined;
    const allows = request.choices.filter((c) => c !== 'deny');
    if (allows.length <= 1) {
      const yes = await ctx.ui.confirm(request.title, request.message, opts);
      return yes ? allows[0] ?? 'deny' : 'deny';
    }
    const labels = request.choices.map((c) => CHOICE_LABELS[c]);
    const picked = await ctx.ui.select(`${request.title}\n${request.message}`, labels, opts);
    return request.choices.find((c) => CHOICE_LABELS[c] === picked) ?? 'deny';
  }
}

/** Builds the extension; `export default` is this with no options. */
export function createPiExtension(options: PiExtensionOptions = {}): (pi: ExtensionAPI) => void {
  return (pi) => {
    const confirmer = new PiConfirmer();
    let computer: Promise<Computer> | null = null;
    /** The context of the latest tool call or command: its model registry serves the `registry` decider. */
    let latest: ExtensionContext | undefined;
    const deciderHost: Pick<DeciderHost, 'registry'> = {
      registry: (model) => piRegistryCall(() => latest, model, options.complete ?? loadPiComplete),
    };

    // The flags of the hosts' option table that pi takes, as --computer-<flag>.
    for (const f of piFlags()) pi.registerFlag(f.name, { description: f.description, type: f.type });
    const hostOptions = (): McpServerOptions => piOptionsFrom((name) => pi.getFlag(name));
    const computerOptions = (): ComputerOptions => {
      const base: ComputerOptions = { ...hostOptions(), confirmer, deciderHost, ...options.computer };
      if (options.gate && !base.gate) base.gate = options.gate(confirmer);
      return base;
    };
    const getComputer = (): Promise<Computer> => {
      computer ??= Promise.resolve()
        .then(() => createComputer(computerOptions()))
        .catch((e: unknown) => {
          computer = null;
          throw e;
        });
      return computer;
    };

    for (const tool of TOOLS) {
      const { name, title, description } = tool.schema;
      pi.registerTool({
        name,
        label: title,
        description,
        promptSnippet: title,
        // The same TypeBox schema every host uses; pi validates arguments against it.
        parameters: tool.schema.inputSchema as never,
        async execute(_toolCallId, params, signal, _onUpdate, ctx) {
          confirmer.bind(ctx);
          latest = ctx;
          let c: Computer;
          try {
            c = await getComputer();
          } catch (e) {
            throw new Error(`error driver_unavailable: cannot reach a desktop: ${(e as Error).message}`);
          }
          const result = await c.call(name, params, signal);
          // pi reports a thrown error to the model as an error result with this text.
          if (result.isError) throw new Error(result.text);
          return {
            content: [
              { type: 'text' as const, text: result.text },
              ...(result.images ?? []).map((i) => ({ type: 'image' as const, data: i.data, mimeType: i.mimeType })),
            ],
            details: result.code ? { code: result.code } : {},
          };
        },
      });
    }

    pi.on('before_agent_start', (event) => ({ systemPrompt: `${event.systemPrompt}\n\n${GUIDANCE}` }));

    pi.on('session_shutdown', async () => {
      const c = computer;
      computer = null;
      if (c) await (await c.catch(() => null))?.close().catch(() => undefined);
    });

    pi.registerCommand('computer', {
      description: 'computer-use: status | stop | resume | allow <app> | deny <app> | decider [status|test|off|registry [provider/model]|openai <baseUrl> <model> [apiKeyEnv]]',
      getArgumentCompletions: (prefix) => {
        const items = ['status', 'stop', 'resume', 'allow ', 'deny ', 'decider '].filter((s) => s.startsWith(prefix));
        return items.length ? items.map((value) => ({ value, label: value.trim() })) : null;
      },
      handler: async (args, ctx) => {
        confirmer.bind(ctx);
        latest = ctx;
        try {
          ctx.ui.notify(await runCommand(args), 'info');
        } catch (e) {
          ctx.ui.notify(`/computer ${args}: ${(e as Error).message}`, 'error');
        }
      },
    });

    /** `/computer …`: the policy's own controls; before the first tool call, its settings and pause file. */
    const runCommand = async (args: string): Promise<string> => {
      const [sub = 'status', ...rest] = args.trim().split(/\s+/).filter(Boolean);
      const arg = rest.join(' ');
      const c = computer ? await computer.catch(() => null) : null;
      const settingsPath =
        c?.policy.settingsPath ?? options.computer?.settingsPath ?? hostOptions().settingsPath ?? defaultSettingsPath();
      switch (sub) {
        case 'status': {
          const lines = [`computer-use: ${TOOLS.length} tools (${TOOLS.map((t) => t.schema.name).join(', ')})`];
          if (c) {
            lines.push(
              `desktop: ${c.desktop.kind}${c.desktop.sandbox ? ` ${c.desktop.sandbox.display}` : ''}` +
                `${c.desktop.started ? ' (started by this session)' : ''}`,
            );
            lines.push(`policy: ${c.policy.status()}`);
            for (const w of c.policy.warnings) lines.push(`settings: ${w}`);
          } else {
            lines.push('desktop: not started (it starts on the first tool call)');
            lines.push(`policy: ${pauseInfo() ? 'PAUSED (/computer resume)' : 'running'} · settings ${settingsPath}`);
          }
          lines.push(
            `confirmations: ` +
              `${confirmer.interactive ? 'asked through pi' : 'no dialog in this mode: questions are refused'}`,
          );
          return lines.join('\n');
        }
        case 'stop':
          if (c) c.policy.stop(); else requestStop(undefined, 'pi /computer stop');
          return 'computer-use: stopped; acting tools refuse until /computer resume (every session of this home)';
        case 'resume':
          if (c) c.policy.resume(); else requestResume();
          return 'computer-use: resumed';
        case 'allow':
          if (!arg) return 'usage: /computer allow <app>';
          (c ? c.policy : settingsAppControls(settingsPath)).allowApp(arg);
          return `computer-use: ${arg} allowed (saved in ${settingsPath})`;
        case 'deny':
          if (!arg) return 'usage: /computer deny <app>';
          (c ? c.policy : settingsAppControls(settingsPath)).denyApp(arg);
          return `computer-use: ${arg} denied (saved in ${settingsPath})`;
        case 'decider': return deciderCommand(rest, settingsPath, deciderHost);
        default:
          return `unknown subcommand "${sub}"; use: status | stop | resume | allow <app> | deny <app> | decider …`;
      }
    };
  };
}

const DECIDER_USAGE =
  'usage: /computer decider [status | test | off | registry [provider/model] | openai <baseUrl> <model> ' +
  '[apiKeyEnv]]';

/** `/computer decider …`: the decider settings; `registry` asks a model of pi's own registry. */
async function deciderCommand(
  args: string[],
  settingsPath: string,
  host: Pick<DeciderHost, 'registry'>,
): Promise<string> {
  const [sub = 'status', ...rest] = args;
  const config = (): DeciderConfig | undefined => parseDeciderConfig(loadSettings(settingsPath).settings.decider);
  const describe = (d: DeciderConfig | undefined): string =>
    !d
      ? 'none (rules only)'
      : d.mode === 'openai'
        ? `openai ${d.model} at ${d.baseUrl}${d.apiKeyEnv ? ` (key from $${d.apiKeyEnv})` : ''}`
        : d.mode === 'gateway'
          ? `gateway${d.model ? ` ${d.model}` : ''}`
          : d.mode === 'registry'
            ? `registry ${d.model ?? '(pi picks: the cheapest available model)'} through pi's model registry and ` +
              `credentials`
            : 'off';
  switch (sub) {
    case 'status': return `decider: ${describe(config())} · ${settingsPath}`;
    case 'off':
      updateSettings(settingsPath, (s) => { s['decider'] = { mode: 'off' }; });
      return 'decider: off (rules only)';
    case 'openai': {
      const [baseUrl, model, apiKeyEnv] = rest;
      if (!baseUrl || !model) return 'usage: /computer decider openai <baseUrl> <model> [apiKeyEnv]';
      const next = parseDeciderConfig({ mode: 'openai', baseUrl, model, ...(apiKeyEnv ? { apiKeyEnv } : {}) });
      if (!next) return `decider: ${baseUrl} ${model} is not a valid openai decider`;
      updateSettings(settingsPath, (s) => { s['decider'] = next; });
      return `decider: ${describe(next)} (saved; /computer decider test checks it)`;
    }
    case 'registry': {
      const [model, extra] = rest;
      if (extra !== undefined || (model !== undefined && !REGISTRY_MODEL.test(model)))
        return 'usage: /computer decider registry [provider/model]';
      const next = parseDeciderConfig({ mode: 'registry', ...(model !== undefined ? { model } : {}) });
      if (!next) return 'usage: /computer decider registry [provider/model]';
      updateSettings(settingsPath, (s) => { s['decider'] = next; });
      return (
        `decider: ${describe(next)} (saved; /computer decider test checks it; answers are read from the ` +
        `text, pi gives no logprobs)`
      );
    }
    case 'test': {
      const decider = createDecider(config(), host);
      if (!decider) return `decider: ${describe(config())}: nothing to test`;
      return (await testDecider(decider)).text;
    }
    default: return DECIDER_USAGE;
  }
}

/** The extension pi loads. */
export default createPiExtension();
