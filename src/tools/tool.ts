/**
 * Tool definitions shared by every host (MCP, pi, CLI, library): a TypeBox schema and a handler that fills a
 * Response. Handlers never know which platform they talk to.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import { redactText } from '../engine/redact.js';
import { ComputerUseError, isComputerUseError } from '../protocol/errors.js';
import { validationError } from '../protocol/validate.js';
import type { Session } from '../session/session.js';

/**
 * Caps shared by the tool input schemas (Invariant 9). Every schema is strict (`STRICT`: unknown fields are
 * errors) and bounds every string, list and timeout, so a call outside them is refused before it runs.
 */
export const CAPS = {
  /** An element, OCR or capture ref (e12, o3, c2). */
  ref: 16,
  /** An app name, a window ref or title, a role, a query. */
  name: 1_000,
  /** Text or a value to set, type, paste or look for. */
  text: 10_000,
  /** A keys string (chords). */
  keys: 2_000,
  /** A command or one argument of it. */
  arg: 4_096,
  /** Pixels given to computer_input (image or window pixels). */
  pixel: 100_000,
} as const;

/** A ref (e12, o3, c2): a letter and digits, so a ref echoed in an answer can never carry other text. */
export const REF = { minLength: 2, maxLength: CAPS.ref, pattern: '^[a-z][0-9]{1,14}$' } as const;

/** Options making a TypeBox object schema strict. */
export const STRICT = { additionalProperties: false } as const;

/** Schema and metadata of a tool, as hosts list it. */
export interface ToolSchema<S extends TSchema> {
  name: string;
  title: string;
  /** Written for the model: what it does, when to use it. */
  description: string;
  inputSchema: S;
  /** readOnly tools may run in plan mode; destructive ones always pass the policy. */
  type: 'readOnly' | 'destructive';
}

/** Collects the text a tool returns. */
export class Response {
  private readonly parts: string[] = [];
  isError = false;
  /** Error code when isError. */
  code?: string;
  /** The channel that produced this result when it is not the platform's accessibility tree (e.g. 'ocr (degraded)'). */
  channel?: string;
  /** Images for hosts whose model takes them (computer_screenshot mode "image" only). */
  readonly images: { data: string; mimeType: 'image/png' }[] = [];
  image(base64: string): this { this.images.push({ data: base64, mimeType: 'image/png' }); return this; }
  add(text: string): this { if (text) this.parts.push(text); return this; }
  error(code: string, message: string): this { this.isError = true; this.code = code; this.parts.push(`error ${code}: ${message}`); return this; }
  get text(): string { return this.parts.join('\n'); }
}

/** What a handler gets besides its params. */
export interface ToolContext {
  session: Session;
  /** The host cancelled the call. */
  signal?: AbortSignal;
  /** The emergency stop: when it aborts, the call returns `paused` at once and no further input is sent. */
  stop?: AbortSignal;
}

/** A tool. */
export interface Tool<S extends TSchema = TSchema> {
  schema: ToolSchema<S>;
  handle(ctx: ToolContext, params: Static<S>, response: Response): Promise<void>;
}

export function defineTool<S extends TSchema>(tool: Tool<S>): Tool<S> { return tool; }

/** The result every host turns into its own format. */
export interface ToolResult {
  text: string;
  isError: boolean;
  code?: string;
  /** PNG images (base64) to hand to the model; only computer_screenshot mode "image" returns one. */
  images?: { data: string; mimeType: 'image/png' }[];
}

/**
 * Runs a tool, turning thrown errors into an error result whose text says what to do (and leaks no secret).
 * Params are checked first against the tool's compiled schema: outside it, the answer is invalid_params naming
 * the first failing path and what is allowed there, and the handler never runs.
 */
export async function runTool(tool: Tool, ctx: ToolContext, params: unknown): Promise<ToolResult> {
  const response = new Response();
  const plain = plainJson(params);
  const bad = plain === NOT_JSON ? '(root): params must be plain JSON data' : validationError(tool.schema.inputSchema, plain);
  if (bad) {
    response.error('invalid_params', `${tool.schema.name} params do not match its schema at ${bad}. Nothing was done; fix the params and call again.`);
    return { text: response.text, isError: true, code: 'invalid_params' };
  }
  try {
    const running = tool.handle(ctx, plain as never, response);
    const stop = ctx.stop;
    if (stop) {
      // A stop answers now; the abandoned call finishes (or fails) in the background and its output is dropped.
      running.catch(() => undefined);
      let onAbort: (() => void) | undefined;
      const stopped = new Promise<never>((_, reject) => {
        onAbort = () => reject(stop.reason instanceof Error ? stop.reason : new ComputerUseError('paused', 'Stopped by the user.'));
        if (stop.aborted) onAbort(); else stop.addEventListener('abort', onAbort, { once: true });
      });
      try { await Promise.race([running, stopped]); } finally { if (onAbort) stop.removeEventListener('abort', onAbort); }
    } else {
      await running;
    }
  } catch (e) {
    if (ctx.stop?.aborted) {
      const partial = new Response();
      const err = isComputerUseError(ctx.stop.reason) ? ctx.stop.reason : new ComputerUseError('paused', 'Stopped by the user.');
      partial.error(err.code, err.message);
      return { text: partial.text, isError: true, code: err.code };
    }
    if (isComputerUseError(e)) response.error(e.code, redactText(e.message));
    else response.error('internal', redactText((e as Error).message ?? String(e)));
  }
  // A result read or acted through another channel than the platform's accessibility tree says so first
  // (seed §6): the driver names its channel in hello.
  const channel = response.channel ?? ctx.session.device.lastHello?.channel;
  const text = channel ? `channel: ${channel}\n${response.text}` : response.text;
  const result: ToolResult = { text, isError: response.isError };
  if (response.code) result.code = response.code;
  if (response.images.length && !response.isError) result.images = [...response.images];
  return result;
}

/**
 * The params as plain JSON data: own enumerable fields only, so nothing inherited from a crafted prototype
 * (an object whose `__proto__` carries fields) can pass the checks or reach a handler; a cycle or a BigInt is
 * refused. A `__proto__` key that arrived as data stays an own field, which the strict schemas refuse.
 */
function plainJson(params: unknown): unknown {
  try {
    const text = JSON.stringify(params ?? {});
    return text === undefined ? NOT_JSON : JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}
const NOT_JSON = Symbol('not JSON');
