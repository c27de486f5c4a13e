/**
 * The decider model from its settings: `openai` (any OpenAI-compatible endpoint), `gateway` (an
 * endpoint the host provides), `registry` (a model of the host's model registry: pi) or `off`. `testDecider` checks a
 * configuration with one question of each kind.
 */
import { createGatewayDecider, type GatewayCall } from './gateway.js';
import { createOpenAIDecider } from './openai.js';
import { createRegistryDecider, REGISTRY_MODEL, type RegistryCall } from './registry.js';
import { isExplainingDecider, type DeciderOutcome } from './protocol.js';
import type { ActionContext, Decider } from './types.js';

export type { ActionContext, Decider } from './types.js';
export type { ChatRequest, ChatTransport, DeciderOutcome, ExplainingDecider } from './protocol.js';
export { createChatDecider, isExplainingDecider, MAX_CANDIDATES } from './protocol.js';
export { createOpenAIDecider, type OpenAIDeciderOptions } from './openai.js';
export { createGatewayDecider, type GatewayCall, type GatewayDeciderOptions } from './gateway.js';
export {
  createRegistryDecider,
  REGISTRY_MODEL,
  type RegistryCall,
  type RegistryDeciderOptions,
  type RegistryRequest,
} from './registry.js';

/** The decider's settings (settings.json → `decider`). JSON-serialisable except a gateway's optional `call`. */
export type DeciderConfig =
  | { mode: 'openai'; baseUrl: string; model: string; apiKeyEnv?: string; timeoutMs?: number }
  | { mode: 'gateway'; gateway?: string; model?: string; timeoutMs?: number; call?: GatewayCall }
  /** `model` is `provider/model` in the host's registry; without it the host picks one. */
  | { mode: 'registry'; model?: string; timeoutMs?: number; call?: RegistryCall }
  | { mode: 'off' };

/** What the host contributes: the gateway endpoint (`gateway` mode), a fetch or environment (tests). */
export interface DeciderHost {
  gateway?: GatewayCall;
  /** The host's model registry (`registry` mode; pi): a call for the configured `provider/model`, or none. */
  registry?: (model: string | undefined) => RegistryCall;
  fetch?: typeof fetch;
  env?: Record<string, string | undefined>;
  /** Told why a configured decider is off (e.g. an apiKeyEnv that does not name an API key). */
  warn?: (message: string) => void;
}

/** Environment variable names an API key may come from: `*_API_KEY`, `*_TOKEN`, `*_KEY`. */
const API_KEY_ENV = /^[A-Z][A-Z0-9_]*(API_KEY|_TOKEN|_KEY)$/;

/**
 * Why an `openai` configuration may not be used, or undefined. The settings file names an environment
 * variable and a URL: unchecked, that sends any variable (HOME, AWS_SECRET_ACCESS_KEY, …) to any server. So
 * the variable must look like an API key, and a key is sent only over https or to a loopback http URL.
 */
export function openAIConfigProblem(config: { baseUrl: string; apiKeyEnv?: string }): string | undefined {
  let url: URL;
  try { url = new URL(config.baseUrl); } catch { return 'baseUrl is not a URL'; }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return `baseUrl must be https (or http on this machine), not ${url.protocol}`;
  if (url.username || url.password) return 'baseUrl must not carry credentials';
  if (config.apiKeyEnv === undefined) return undefined;
  if (!API_KEY_ENV.test(config.apiKeyEnv))
    return (
      `apiKeyEnv ${JSON.stringify(config.apiKeyEnv)} does not name an API key variable (…_API_KEY, …_TOKEN or ` +
      `…_KEY)`
    );
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const loopback = host === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '::1';
  if (url.protocol === 'http:' && !loopback)
    return 'an API key is sent only over https, or over http to this machine (localhost, 127.0.0.1, ::1)';
  return undefined;
}

const str = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const timeout = (v: unknown): { timeoutMs?: number } =>
  (typeof v === 'number' && Number.isFinite(v) && v > 0 ? { timeoutMs: v } : {});

/**
 * Reads `settings.decider` as stored in settings.json (untrusted JSON): a DeciderConfig, or undefined when it
 * is missing or malformed. Unknown keys are dropped; a gateway's `call` never comes from JSON.
 */
export function parseDeciderConfig(raw: unknown): DeciderConfig | undefined {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const r = raw as Record<string, unknown>;
  switch (r['mode']) {
    case 'off': return { mode: 'off' };
    case 'openai':
      if (!str(r['baseUrl']) || !str(r['model'])) return undefined;
      return {
        mode: 'openai',
        baseUrl: r['baseUrl'],
        model: r['model'],
        ...(str(r['apiKeyEnv']) ? { apiKeyEnv: r['apiKeyEnv'] } : {}),
        ...timeout(r['timeoutMs']),
      };
    case 'gateway':
      return {
        mode: 'gateway',
        ...(str(r['gateway']) ? { gateway: r['gateway'] } : {}),
        ...(str(r['model']) ? { model: r['model'] } : {}),
        ...timeout(r['timeoutMs']),
      };
    case 'registry':
      if (r['model'] !== undefined && !(str(r['model']) && REGISTRY_MODEL.test(r['model']))) return undefined;
      return { mode: 'registry', ...(str(r['model']) ? { model: r['model'] } : {}), ...timeout(r['timeoutMs']) };
    default: return undefined;
  }
}

/**
 * The configured decider, or undefined (rules only) when there is no configuration, it is `off`, it is
 * incomplete (e.g. read from a hand-edited settings file), or `gateway` mode has no endpoint from the host.
 */
export function createDecider(config: DeciderConfig | undefined, host: DeciderHost = {}): Decider | undefined {
  if (!config || typeof config !== 'object') return undefined;
  switch (config.mode) {
    case 'openai': {
      if (!str(config.baseUrl) || !str(config.model)) return undefined;
      const problem = openAIConfigProblem(config);
      if (problem) { host.warn?.(`decider off: ${problem}`); return undefined; }
      return createOpenAIDecider({
        baseUrl: config.baseUrl, model: config.model,
        ...(str(config.apiKeyEnv) ? { apiKeyEnv: config.apiKeyEnv } : {}),
        ...timeout(config.timeoutMs),
        ...(host.fetch ? { fetch: host.fetch } : {}),
        ...(host.env ? { env: host.env } : {}),
      });
    }
    case 'gateway': {
      const call = config.call ?? host.gateway;
      if (typeof call !== 'function') return undefined;
      return createGatewayDecider({
        call,
        ...(str(config.model) ? { model: config.model } : {}),
        ...(str(config.gateway) ? { gateway: config.gateway } : {}),
        ...timeout(config.timeoutMs),
      });
    }
    case 'registry': {
      const call = config.call ?? host.registry?.(str(config.model) ? config.model : undefined);
      if (typeof call !== 'function') {
        host.warn?.(
          "decider off: registry mode asks the host's model registry, which only the pi extension has (in " +
            'the MCP server, CLI or library use openai)',
        );
        return undefined;
      }
      return createRegistryDecider({
        call,
        ...(str(config.model) ? { model: config.model } : {}),
        ...timeout(config.timeoutMs),
      });
    }
    default:
      return undefined;
  }
}

/** One probe of `decider test`. */
export interface DeciderProbe {
  question: string;
  /** The decider's answer: a probability (irreversible) or a candidate index (choose); null = no opinion. */
  value: number | null;
  /** What a sensible model answers; a mismatch is reported but does not fail the test. */
  expected: string;
  plausible: boolean;
  source: DeciderOutcome<number>['source'] | 'unknown';
  answer?: string;
  error?: string;
  ms: number;
}

export interface DeciderTestReport {
  /** True when both probes got an opinion. */
  ok: boolean;
  /** Whether any answer was read from token probabilities. */
  logprobs: boolean;
  probes: DeciderProbe[];
  /** Human-readable lines; never contains the API key. */
  text: string;
}

const PROBE_ACTION: ActionContext = { app: 'Mail', window: 'New Message', role: 'button', name: 'Send', op: 'click' };
const PROBE_QUERY = 'the button that saves the document';
const PROBE_CANDIDATES = [
  'button "Cancel"',
  'button "Open…"',
  'button "Save"',
  'menu item "Save As…"',
  'button "Close"',
];
const PROBE_EXPECTED = 2;

async function explain(run: () => Promise<number | null>): Promise<DeciderOutcome<number>> {
  const start = performance.now();
  try {
    const value = await run();
    return { value, source: value === null ? 'none' : 'text', ms: Math.round(performance.now() - start) };
  } catch (err) {
    return {
      value: null,
      source: 'none',
      error: err instanceof Error ? err.message : String(err),
      ms: Math.round(performance.now() - start),
    };
  }
}

/** Asks one irreversible() and one choose() question and reports latency, the source of each answer, and the answers. */
export async function testDecider(decider: Decider, signal?: AbortSignal): Promise<DeciderTestReport> {
  const explaining = isExplainingDecider(decider) ? decider : undefined;
  const irr = explaining
    ? await explaining.explainIrreversible(PROBE_ACTION, signal)
    : await explain(() => decider.irreversible(PROBE_ACTION, signal));
  const cho = explaining
    ? await explaining.explainChoose(PROBE_QUERY, PROBE_CANDIDATES, signal)
    : await explain(() => decider.choose(PROBE_QUERY, PROBE_CANDIDATES, signal));
  const source = (o: DeciderOutcome<number>): DeciderProbe['source'] =>
    explaining || o.value === null ? o.source : 'unknown';
  const probes: DeciderProbe[] = [
    {
      question: `irreversible: click button "Send" in Mail`,
      value: irr.value,
      expected: 'p ≥ 0.5',
      plausible: irr.value !== null && irr.value >= 0.5,
      source: source(irr),
      ...(irr.answer !== undefined ? { answer: irr.answer } : {}),
      ...(irr.error !== undefined ? { error: irr.error } : {}),
      ms: irr.ms,
    },
    {
      question: `choose: "${PROBE_QUERY}" among ${PROBE_CANDIDATES.length} candidates`,
      value: cho.value,
      expected: `#${PROBE_EXPECTED + 1} ${PROBE_CANDIDATES[PROBE_EXPECTED]}`,
      plausible: cho.value === PROBE_EXPECTED,
      source: source(cho),
      ...(cho.answer !== undefined ? { answer: cho.answer } : {}),
      ...(cho.error !== undefined ? { error: cho.error } : {}),
      ms: cho.ms,
    },
  ];
  const ok = probes.every((p) => p.value !== null);
  const logprobs = probes.some((p) => p.source === 'logprobs');
  const fromText = probes.some((p) => p.source === 'text');
  const logprobsWord = logprobs
    ? 'used'
    : fromText
      ? 'not returned by the server (answers read from the text)'
      : 'unknown';
  const show = (p: DeciderProbe, i: number): string => {
    if (p.value === null) return `no opinion${p.error ? ` (${p.error})` : ''}`;
    const v =
      i === 0 ? `p(irreversible) = ${p.value.toFixed(2)}` : `#${p.value + 1} ${PROBE_CANDIDATES[p.value] ?? ''}`;
    const via =
      p.source === 'logprobs' ? 'from logprobs' : p.source === 'text' ? 'from the answer text (no logprobs)' : '';
    return (
      `${v} ${via}${p.answer !== undefined ? `, answer ${JSON.stringify(p.answer)}` : ''}` +
      `${p.plausible ? '' : ` — expected ${p.expected}`}`
    );
  };
  const lines = [
    `decider: ${explaining?.description ?? 'custom'}`,
    ...probes.map((p, i) => `  ${p.question}: ${show(p, i)} [${p.ms} ms]`),
    `  logprobs: ${logprobsWord}`,
    ok
      ? `OK${probes.every((p) => p.plausible) ? '' : ' (reachable, but an answer looks wrong: check the model)'}`
      : 'FAILED: the decider gave no opinion; the policy will use rules only',
  ];
  return { ok, logprobs, probes, text: lines.join('\n') };
}
