/**
 * `gateway` decider mode: the same chat-completions protocol as `openai`, sent through an endpoint
 * the host provides (e.g. pi routes it to one of its configured AI gateways with its own credentials). The
 * host function receives the request body and an AbortSignal and resolves with the response JSON; if it
 * ignores the signal the decider still gives up at the deadline.
 */
import { createChatDecider, type ChatRequest, type ExplainingDecider } from './protocol.js';

/** A host-provided chat-completions endpoint. */
export type GatewayCall = (body: ChatRequest, signal: AbortSignal) => Promise<unknown>;

export interface GatewayDeciderOptions {
  call: GatewayCall;
  /** Sent as `model`; omitted when the gateway picks the model itself. */
  model?: string;
  /** Shown in reports, e.g. the host's gateway id. */
  gateway?: string;
  /** No opinion after this long. Default 8000. */
  timeoutMs?: number;
}

export function createGatewayDecider(opts: GatewayDeciderOptions): ExplainingDecider {
  return createChatDecider(opts.call, {
    ...(opts.model !== undefined ? { model: opts.model } : {}),
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
    description: `gateway${opts.gateway ? ` ${JSON.stringify(opts.gateway)}` : ''}`
      + (opts.model !== undefined ? ` model ${JSON.stringify(opts.model)}` : ''),
  });
}
