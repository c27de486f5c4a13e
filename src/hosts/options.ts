/**
 * The hosts' options, in one table: each option's flag, its environment variable (MCP clients often only let a
 * user set the environment), which hosts take it, and how its value is read. Flags win over the environment.
 *
 * - `computer-use mcp` and `computer-use panel` read `--<flag>` from their argv (`mcpOptionsFrom`);
 * - the pi extension registers `--computer-<flag>` with pi and reads it through `pi.getFlag` (`piOptionsFrom`);
 * - the CLI's tool commands read the policy flags (`--mode`, `--allow-app`, `--deny-app`) out of their argv,
 *   leaving the rest to the command (`cliOptionsFrom`).
 */
import type { McpServerOptions } from './mcp.js';
import { parseMode } from '../policy/modes.js';
import { splitCommand } from '../conformance/command.js';

export type Host = 'mcp' | 'pi' | 'cli';

/** One option: a string, a boolean (`--flag`, env `1`/`true`) or a list (repeatable and comma-separated). */
export interface HostOption {
  flag: string;
  env: string;
  kind: 'string' | 'boolean' | 'list';
  hosts: readonly Host[];
  description: string;
  /** Sets the option from its value; throws on a value it cannot use. */
  apply(out: McpServerOptions, value: string | string[]): void;
}

const oneOf = <T extends string>(flag: string, allowed: readonly T[], v: string): T => {
  if (!(allowed as readonly string[]).includes(v))
    throw new Error(`--${flag} takes ${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}, not "${v}"`);
  return v as T;
};
const str = (v: string | string[]): string => (Array.isArray(v) ? v.join(',') : v);
const list = (v: string | string[]): string[] =>
  (Array.isArray(v) ? v : [v])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
const ALL: readonly Host[] = ['mcp', 'pi', 'cli'];
const MCP_PI: readonly Host[] = ['mcp', 'pi'];

/**
 * `--driver`: a built-in name, or the command line of a driver of the user's own. This is a person's configuration
 * (a flag, the environment of the host): no tool call reaches it.
 */
function applyDriver(o: McpServerOptions, v: string): void {
  const text = v.trim();
  if (text === 'native' || text === 'cdp') { o.driver = text; return; }
  const words = splitCommand(text);
  // A bare word is more likely a misspelt name than a program: a command is given by its path or with its arguments.
  if (words.length === 0 || words[0] === '' || (words.length === 1 && !words[0]!.includes('/'))) {
    throw new Error(
      `--driver takes native or cdp, or a driver command given by its path or with its arguments (./` +
        `${text}), not "${text}"`,
    );
  }
  o.driverCommand = words;
}

/** Every host option. */
export const HOST_OPTIONS: readonly HostOption[] = [
  {
    flag: 'desktop',
    env: 'COMPUTER_USE_DESKTOP',
    kind: 'string',
    hosts: MCP_PI,
    description: 'desktop: auto (default), current or sandbox',
    apply: (o, v) => {
      o.desktop = oneOf('desktop', ['auto', 'current', 'sandbox'], str(v));
    },
  },
  {
    flag: 'mode',
    env: 'COMPUTER_USE_MODE',
    kind: 'string',
    hosts: ALL,
    description:
      'permission mode: plan, default, accept-edits, bypass or unattended (default: settings.json, else ' +
      'default)',
    apply: (o, v) => {
      o.mode = parseMode(str(v));
    },
  },
  {
    flag: 'allow-app',
    env: 'COMPUTER_USE_ALLOW_APPS',
    kind: 'list',
    hosts: ALL,
    description: 'apps acted on without a first-use question (comma-separated)',
    apply: (o, v) => {
      const a = list(v);
      if (a.length) o.allowApps = a;
    },
  },
  {
    flag: 'allow-commands',
    env: 'COMPUTER_USE_ALLOW_COMMANDS',
    kind: 'list',
    hosts: ALL,
    description:
      'terminals whose typed command lines run without a question (comma-separated; anything the shell can do)',
    apply: (o, v) => {
      const a = list(v);
      if (a.length) o.allowCommands = a;
    },
  },
  {
    flag: 'deny-app',
    env: 'COMPUTER_USE_DENY_APPS',
    kind: 'list',
    hosts: ALL,
    description: 'apps never acted on (comma-separated)',
    apply: (o, v) => {
      const a = list(v);
      if (a.length) o.denyApps = a;
    },
  },
  {
    flag: 'settings',
    env: 'COMPUTER_USE_SETTINGS',
    kind: 'string',
    hosts: MCP_PI,
    description: 'settings file (default: $COMPUTER_USE_HOME/settings.json)',
    apply: (o, v) => {
      if (str(v)) o.settingsPath = str(v);
    },
  },
  {
    flag: 'driver',
    env: 'COMPUTER_USE_DRIVER',
    kind: 'string',
    hosts: ALL,
    description:
      "driver: native (default), cdp, or a driver command of your own (its words split like a shell's, run without one)",
    apply: (o, v) => {
      applyDriver(o, str(v));
    },
  },
  {
    flag: 'cdp-endpoint',
    env: 'COMPUTER_USE_CDP_ENDPOINT',
    kind: 'string',
    hosts: MCP_PI,
    description: 'DevTools endpoint of the cdp driver (default http://127.0.0.1:9222)',
    apply: (o, v) => {
      if (str(v)) o.cdpEndpoint = str(v);
    },
  },
  {
    flag: 'max-tokens',
    env: 'COMPUTER_USE_MAX_TOKENS',
    kind: 'string',
    hosts: MCP_PI,
    description: 'token budget of a snapshot',
    apply: (o, v) => {
      const n = Number(str(v));
      if (!Number.isInteger(n) || n < 100)
        throw new Error(`--max-tokens takes a whole number ≥ 100, not "${str(v)}"`);
      o.maxTokens = n;
    },
  },
  {
    flag: 'action-timeout',
    env: 'COMPUTER_USE_ACTION_TIMEOUT',
    kind: 'string',
    hosts: ALL,
    description:
      'ms an element act waits for its element to be visible, enabled and stable (0 to 60000, default 2000)',
    apply: (o, v) => {
      const n = Number(str(v));
      if (!Number.isInteger(n) || n < 0 || n > 60_000)
        throw new Error(`--action-timeout takes whole milliseconds (0 to 60000), not "${str(v)}"`);
      o.actionTimeoutMs = n;
    },
  },
  {
    flag: 'image-input',
    env: 'COMPUTER_USE_IMAGE_INPUT',
    kind: 'boolean',
    hosts: ['mcp'],
    description: "the client's model takes images",
    apply: (o) => {
      o.imageInput = true;
    },
  },
  {
    flag: 'panel',
    env: 'COMPUTER_USE_PANEL',
    kind: 'boolean',
    hosts: ['mcp'],
    description: 'serve the local panel and ask through it when the client cannot elicit',
    apply: (o) => {
      o.panel = true;
    },
  },
  {
    flag: 'open-panel',
    env: 'COMPUTER_USE_OPEN_PANEL',
    kind: 'boolean',
    hosts: ['mcp'],
    description: 'start the desktop browser on the panel when a question waits and no panel page is open',
    apply: (o) => {
      o.openPanel = true;
    },
  },
  {
    flag: 'strict-first-use',
    env: 'COMPUTER_USE_STRICT_FIRST_USE',
    kind: 'boolean',
    hosts: ['mcp'],
    description: 'ask the per-app first-use question even when the host approves each call',
    apply: (o) => {
      o.strictFirstUse = true;
    },
  },
  {
    flag: 'hide-activity',
    env: 'COMPUTER_USE_HIDE_ACTIVITY',
    kind: 'boolean',
    hosts: MCP_PI,
    description: 'no frame around the target window and no status window while acting',
    apply: (o) => {
      o.showActivity = false;
    },
  },
  {
    flag: 'confirm-in',
    env: 'COMPUTER_USE_CONFIRM_IN',
    kind: 'string',
    hosts: ['mcp'],
    description: 'where questions are asked: auto or panel',
    apply: (o, v) => {
      o.confirmIn = oneOf('confirm-in', ['auto', 'panel'], str(v));
    },
  },
  {
    flag: 'confirm-timeout',
    env: 'COMPUTER_USE_CONFIRM_TIMEOUT',
    kind: 'string',
    hosts: ['mcp'],
    description: 'seconds a question waits in the panel (1 to 3600)',
    apply: (o, v) => {
      const n = Number(str(v));
      if (!Number.isFinite(n) || n < 1 || n > 3600)
        throw new Error(`--confirm-timeout takes seconds (1 to 3600), not "${str(v)}"`);
      o.confirmTimeoutMs = Math.round(n * 1000);
    },
  },
];

/** Help lines of a host's options: `--flag VALUE  ENV  description`, indented by `indent`. */
export function optionHelp(host: Host, indent = '    ', prefix = ''): string {
  return HOST_OPTIONS.filter((o) => o.hosts.includes(host)).map((o) => {
    const flag = `--${prefix}${o.flag}${o.kind === 'boolean' ? '' : o.kind === 'list' ? ' a,b' : ' V'}`;
    return `${indent}${flag.padEnd(24)} ${o.env.padEnd(30)} ${o.description}`;
  }).join('\n');
}

/** Raw values by flag (a flag's value, or every value of a repeated list flag). */
type Raw = Map<string, string | string[] | boolean>;

/** Applies a host's raw flag values, the environment filling in what the flags leave out. */
function resolve(host: Host, raw: Raw, env: NodeJS.ProcessEnv): McpServerOptions {
  const out: McpServerOptions = {};
  for (const opt of HOST_OPTIONS) {
    if (!opt.hosts.includes(host)) continue;
    const v = raw.get(opt.flag) ?? (env[opt.env] || undefined);
    if (v === undefined || v === false || (Array.isArray(v) && v.length === 0)) continue;
    if (opt.kind === 'boolean') {
      if (v === true || v === 'true' || v === '1') opt.apply(out, 'true');
    } else if (v !== true) opt.apply(out, v);
    else throw new Error(`--${opt.flag} needs a value`);
  }
  return out;
}

/**
 * Takes a host's options out of a command line (`--flag v`, `--flag=v`, boolean `--flag`, list flags repeated).
 * `rest` is every other argument, in order, for the command itself.
 */
export function takeHostFlags(host: Host, args: string[]): { raw: Raw; rest: string[] } {
  const byFlag = new Map(HOST_OPTIONS.filter((o) => o.hosts.includes(host)).map((o) => [o.flag, o]));
  const raw: Raw = new Map();
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') { rest.push(...args.slice(i)); break; }
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(a);
    const opt = m ? byFlag.get(m[1]!) : undefined;
    if (!m || !opt) { rest.push(a); continue; }
    if (opt.kind === 'boolean') { raw.set(opt.flag, m[2] ?? true); continue; }
    const value = m[2] ?? args[++i];
    if (value === undefined) throw new Error(`${a} needs a value`);
    if (opt.kind === 'list') {
      const prev = raw.get(opt.flag);
      raw.set(opt.flag, [...(Array.isArray(prev) ? prev : []), value]);
    } else raw.set(opt.flag, value);
  }
  return { raw, rest };
}

/** True for a host flag that takes no value (`--flag` alone), so the word after it is not its value. */
export function isBooleanHostFlag(host: Host, flag: string): boolean {
  return HOST_OPTIONS.some((o) => o.flag === flag && o.hosts.includes(host) && o.kind === 'boolean');
}

/** `computer-use mcp` (and `panel`) options; throws on a value it cannot use (an unknown mode, desktop or driver). */
export function mcpOptionsFrom(args: string[], env: NodeJS.ProcessEnv = process.env): McpServerOptions {
  return resolve('mcp', takeHostFlags('mcp', args).raw, env);
}

/** The policy options of a CLI tool command, and the arguments left for the command. */
export function cliOptionsFrom(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): { options: McpServerOptions; rest: string[] } {
  const { raw, rest } = takeHostFlags('cli', args);
  return { options: resolve('cli', raw, env), rest };
}

/** The flags the pi extension registers: `--computer-<flag>`. */
export function piFlags(): { name: string; description: string; type: 'string' | 'boolean' }[] {
  return HOST_OPTIONS.filter((o) => o.hosts.includes('pi')).map((o) => ({
    name: `computer-${o.flag}`,
    description: `computer-use: ${o.description} (${o.env})`,
    type: o.kind === 'boolean' ? 'boolean' : 'string',
  }));
}

/** The pi extension's options from its registered flags (`getFlag('computer-<flag>')`) and the environment. */
export function piOptionsFrom(
  getFlag: (name: string) => boolean | string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): McpServerOptions {
  const raw: Raw = new Map();
  for (const o of HOST_OPTIONS) {
    if (!o.hosts.includes('pi')) continue;
    const v = getFlag(`computer-${o.flag}`);
    if (v !== undefined && v !== '') raw.set(o.flag, v);
  }
  try {
    return resolve('pi', raw, env);
  } catch (e) {
    // pi's flags carry the computer- prefix.
    throw new Error((e as Error).message.replace(/--(?=[a-z])/, '--computer-'));
  }
}
