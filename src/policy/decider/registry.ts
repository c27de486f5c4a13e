/**
 * `registry` decider mode: the questions go to a model of the host's own model registry, with the
 * credentials the host already has (pi: `ctx.modelRegistry` plus pi-ai's `completeSimple`, see hosts/pi-registry.ts).
 * Such a call returns the answer text only (no token probabilities), so answers are read from the text, as the
 * `openai` mode does when a server sends no logprobs. The prompts, the quoting of app text as data, the deadline
 * and the "no opinion" rule are the shared chat protocol's.
 */
import { createChatDecider, type ChatTransport, type ExplainingDecider } from './protocol.js';

/** One question to the host's model: system prompt and user message in, the answer text out. */
export interface RegistryRequest {
  system: string;
  user: string;
  /** Tokens the answer needs (1: one word or letter). */
  maxTokens: number;
  signal: AbortSignal;
}

/** Asks the host's model registry one question; throws with a message that says what is missing or failed. */
export type RegistryCall = (req: RegistryRequest) => Promise<string>;

export interface RegistryDeciderOptions {
  call: RegistryCall;
  /** `provider/model` as configured; none: the host picks. Shown in reports. */
  model?: string;
  /** No opinion after this long. Default 8000. */
  timeoutMs?: number;
}

/** `provider/model`: a provider id and a model id (which may itself hold slashes), no spaces. */
export const REGISTRY_MODEL = /^[A-Za-z0-9._-]+\/\S+$/;

export function createRegistryDecider(opts: RegistryDeciderOptions): ExplainingDecider {
  const send: ChatTransport = async (body, signal) => {
    const text = await opts.call({
      system: body.messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n'),
      user: body.messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n'),
      maxTokens: body.max_tokens, signal,
    });
    // The shape the shared parser reads; no logprobs, so the answer text decides.
    return { choices: [{ message: { role: 'assistant', content: text } }] };
  };
  return createChatDecider(send, {
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
    description:
      `registry ${opts.model !== undefined ? JSON.stringify(opts.model) : '(model picked by the host)'} ` +
      `(answers read from the text: no logprobs through the registry)`,
  });
}
