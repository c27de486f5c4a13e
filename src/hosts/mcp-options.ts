/**
 * `computer-use mcp` options from flags, with environment variables as fallbacks (MCP clients often only let a
 * user set the environment). Flags win over the environment.
 */
import type { McpServerOptions } from './mcp.js';
import { parseMode } from '../policy/modes.js';
import { parseArgs } from './cli/tool-commands.js';
import { extractPolicyFlags } from './cli/policy-commands.js';

/** Flag → environment variable, for the help text and the README. */
export const MCP_ENV = {
  desktop: 'COMPUTER_USE_DESKTOP', mode: 'COMPUTER_USE_MODE', 'allow-app': 'COMPUTER_USE_ALLOW_APPS',
  'deny-app': 'COMPUTER_USE_DENY_APPS', settings: 'COMPUTER_USE_SETTINGS', driver: 'COMPUTER_USE_DRIVER',
  'cdp-endpoint': 'COMPUTER_USE_CDP_ENDPOINT', 'max-tokens': 'COMPUTER_USE_MAX_TOKENS', 'image-input': 'COMPUTER_USE_IMAGE_INPUT',
  panel: 'COMPUTER_USE_PANEL', 'strict-first-use': 'COMPUTER_USE_STRICT_FIRST_USE', 'confirm-timeout': 'COMPUTER_USE_CONFIRM_TIMEOUT',
  'confirm-in': 'COMPUTER_USE_CONFIRM_IN',
} as const;

const list = (v: string | undefined): string[] => (v ?? '').split(',').map((s) => s.trim()).filter(Boolean);

/** Reads the server's options; throws on a value it cannot use (an unknown mode, desktop or driver). */
export function mcpOptionsFrom(args: string[], env: NodeJS.ProcessEnv = process.env): McpServerOptions {
  const policy = extractPolicyFlags(args);
  const { flags } = parseArgs(policy.rest, ['image-input', 'panel', 'strict-first-use']);
  const get = (k: keyof typeof MCP_ENV): string | undefined => flags[k] ?? env[MCP_ENV[k]] ?? undefined;
  const out: McpServerOptions = {};
  const desktop = get('desktop');
  if (desktop !== undefined) {
    if (desktop !== 'auto' && desktop !== 'current' && desktop !== 'sandbox') throw new Error(`--desktop takes auto, current or sandbox, not "${desktop}"`);
    out.desktop = desktop;
  }
  const mode = policy.mode ?? (env[MCP_ENV.mode] ? parseMode(env[MCP_ENV.mode]!) : undefined);
  if (mode) out.mode = mode;
  const allow = policy.allowApps.length ? policy.allowApps : list(env[MCP_ENV['allow-app']]);
  if (allow.length) out.allowApps = allow;
  const deny = policy.denyApps.length ? policy.denyApps : list(env[MCP_ENV['deny-app']]);
  if (deny.length) out.denyApps = deny;
  const settings = get('settings');
  if (settings) out.settingsPath = settings;
  const driver = get('driver');
  if (driver !== undefined) {
    if (driver !== 'native' && driver !== 'cdp') throw new Error(`--driver takes native or cdp, not "${driver}"`);
    out.driver = driver;
  }
  const endpoint = get('cdp-endpoint');
  if (endpoint) out.cdpEndpoint = endpoint;
  const maxTokens = get('max-tokens');
  if (maxTokens !== undefined) {
    const n = Number(maxTokens);
    if (!Number.isInteger(n) || n < 100) throw new Error(`--max-tokens takes a whole number ≥ 100, not "${maxTokens}"`);
    out.maxTokens = n;
  }
  const image = get('image-input');
  if (image === 'true' || image === '1') out.imageInput = true;
  const yes = (k: 'panel' | 'strict-first-use'): boolean => { const v = get(k); return v === 'true' || v === '1'; };
  if (yes('panel')) out.panel = true;
  if (yes('strict-first-use')) out.strictFirstUse = true;
  const confirmIn = get('confirm-in');
  if (confirmIn !== undefined) {
    if (confirmIn !== 'auto' && confirmIn !== 'panel') throw new Error(`--confirm-in takes auto or panel, not "${confirmIn}"`);
    out.confirmIn = confirmIn;
  }
  const timeout = get('confirm-timeout');
  if (timeout !== undefined) {
    const n = Number(timeout);
    if (!Number.isFinite(n) || n < 1 || n > 3600) throw new Error(`--confirm-timeout takes seconds (1 to 3600), not "${timeout}"`);
    out.confirmTimeoutMs = Math.round(n * 1000);
  }
  return out;
}
