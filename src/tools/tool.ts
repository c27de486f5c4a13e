/**
 * Tool definitions shared by every host (MCP, pi, CLI, library): a TypeBox schema and a handler that fills a
 * Response. Handlers never know which platform they talk to.
 */
import { escapeLine } from '../engine/escape.js';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { redactText } from '../engine/redact.js';
import { ComputerUseError, isComputerUseError } from '../protocol/errors.js';
import { validationError } from '../protocol/validate.js';
import { adviseError } from './remedy.js';
import type { Decider } from '../policy/decider/types.js';
import type { DeviceSessions } from '../session/devices.js';
import type { Session } from '../session/session.js';

/**
 * Caps shared by the tool input schemas. Every schema is strict (`STRICT`: unknown fields are
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

/**
 * A ref (e12, o3, c2; d2e12 on a second device): a letter and digits, so a ref echoed in an answer can never
 * carry other text.
 */
export const REF = { minLength: 2, maxLength: CAPS.ref, pattern: '^(d[0-9]{1,3})?[a-z][0-9]{1,14}$' } as const;
/** A ref, or a grid's cell ref "<table ref>:<address>" (e34:B7) as the snapshot's hint prints it (session/cells.ts). */
export const REF_OR_CELL = {
  ...REF,
  maxLength: REF.maxLength + 11,
  pattern: `${REF.pattern.slice(0, -1)}(:[A-Za-z]{1,3}[0-9]{1,7})?$`,
} as const;

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
  /** An error line; its message may quote a driver's or an app's words, so it is kept to one line (engine/escape.ts).
  * */
  error(code: string, message: string): this {
    this.isError = true;
    this.code = code;
    this.parts.push(`error ${code}: ${escapeLine(message)}`);
    return this;
  }
  get text(): string { return this.parts.join('\n'); }
}

/** What a handler gets besides its params. */
export interface ToolContext {
  session: Session;
  /** The host cancelled the call. */
  signal?: AbortSignal;
  /** The emergency stop: when it aborts, the call returns `paused` at once and no further input is sent. */
  stop?: AbortSignal;
  /** The decider model, when one is configured: computer_find asks it to pick among tied candidates. */
  decider?: Decider;
  /** Every device of the computer, when it has several (computer_apps lists them all). */
  devices?: DeviceSessions;
}

/** A tool. */
export interface Tool<S extends TSchema = TSchema> {
  schema: ToolSchema<S>;
  handle(ctx: ToolContext, params: Static<S>, response: Response): Promise<void>;
}

export function defineTool<S extends TSchema>(tool: Tool<S>): Tool<S> {
  listCompactly(tool.schema.inputSchema);
  return tool;
}

/**
 * Keywords that bound a value but tell the model nothing it needs (caps and strictness, validated at every boundary).
 * They stay on
 * the schema object as non-enumerable keys: the compiled checker reads them (validation is unchanged, and a
 * refusal names the rule), while the JSON that hosts list — every conversation pays for it — leaves them out.
 */
const UNLISTED = [
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'additionalProperties',
] as const;

/** Schema option: check this union of string literals but do not list its values (a refusal lists them). */
export const ENUM_UNLISTED = Symbol('enum not listed');

/**
 * Schema option: an optional tuning field that is accepted and checked but not listed; the result that makes
 * it useful names it (e.g. act's `settle` in "still changing after … ms"). TypeBox's checkers (ours and pi's)
 * take an object's fields from getOwnPropertyNames, so a non-enumerable field is still known and validated.
 */
export const PROP_UNLISTED = Symbol('field not listed');

/** How long an act or keys call waits for the UI to settle; not listed (its result names it when it matters). */
export const SETTLE = Type.Optional(Type.Object({
  quietMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 5000 })),
  timeoutMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 30000 })),
}, { ...STRICT, [PROP_UNLISTED]: true }));

/**
 * The `device` every tool takes: a device name from computer_apps, or its ref prefix (`d2`). Not
 * listed by default (one device costs nothing); hosts list it when more than one device is configured
 * (`withDeviceField`). Refs already name their device, so most calls need it only to launch or list.
 */
export const DEVICE = Type.Optional(
  Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z][A-Za-z0-9_-]{0,31}$', [PROP_UNLISTED]: true }),
);

/** A listed input schema (JSON) with the `device` field shown, for hosts with more than one device. */
export function withDeviceField<T extends { properties?: Record<string, object> }>(listed: T): T {
  return { ...listed, properties: { ...(listed.properties ?? {}), device: { type: 'string' } } };
}

/**
 * Makes a tool schema compact as listed, in place, without changing what it accepts: caps become
 * non-enumerable (above), and a union of string literals, listed by TypeBox as `anyOf` of `{const, type}`
 * objects, is listed as `{"type":"string","enum":[…]}` (or only `{"type":"string"}` with ENUM_UNLISTED).
 */
export function listCompactly(schema: TSchema): void {
  const s = schema as unknown as Record<string | symbol, unknown>;
  for (const k of UNLISTED) {
    if (Object.prototype.propertyIsEnumerable.call(s, k))
      Object.defineProperty(s, k, { value: s[k], enumerable: false, writable: false, configurable: true });
  }
  const anyOf = s['anyOf'];
  if (
    Array.isArray(anyOf) &&
    anyOf.length &&
    anyOf.every((x: Record<string, unknown>) => typeof x['const'] === 'string')
  ) {
    Object.defineProperty(s, 'anyOf', { value: anyOf, enumerable: false, writable: false, configurable: true });
    s['type'] = 'string';
    if (!s[ENUM_UNLISTED]) s['enum'] = anyOf.map((x: Record<string, unknown>) => x['const']);
  }
  const props = s['properties'] as Record<string, TSchema & { [PROP_UNLISTED]?: boolean }> | undefined;
  if (props && typeof props === 'object') {
    for (const [k, p] of Object.entries(props)) {
      listCompactly(p);
      if (p[PROP_UNLISTED])
        Object.defineProperty(props, k, { value: p, enumerable: false, writable: false, configurable: true });
    }
  }
  const items = s['items'];
  if (items && typeof items === 'object' && !Array.isArray(items)) listCompactly(items as TSchema);
}

/** A schema as JSON with the unlisted keywords too (what the checker enforces), for tests and tools. */
export function fullSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(fullSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const s = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.getOwnPropertyNames(s))
    if (!(k === 'enum' && 'anyOf' in s) && !(k === 'type' && 'anyOf' in s)) out[k] = fullSchema(s[k]);
  return out;
}

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
  const bad =
    plain === NOT_JSON ? '(root): params must be plain JSON data' : validationError(tool.schema.inputSchema, plain);
  if (bad) {
    response.error(
      'invalid_params',
      `${tool.schema.name}: ${spokenError(bad)}. Nothing was done; fix the params and call again.`,
    );
    return { text: response.text, isError: true, code: 'invalid_params' };
  }
  try {
    // Many devices: the call goes to the device its refs or its `device` name, after the schema check.
    if (ctx.devices) ctx = { ...ctx, session: ctx.devices.pick(plain as Record<string, unknown>).session };
    const running = tool.handle(ctx, plain as never, response);
    const stop = ctx.stop;
    if (stop) {
      // A stop answers now; the abandoned call finishes (or fails) in the background and its output is dropped.
      running.catch(() => undefined);
      let onAbort: (() => void) | undefined;
      const stopped = new Promise<never>((_, reject) => {
        onAbort = () =>
          reject(stop.reason instanceof Error ? stop.reason : new ComputerUseError('paused', 'Stopped by the user.'));
        if (stop.aborted) onAbort(); else stop.addEventListener('abort', onAbort, { once: true });
      });
      try {
        await Promise.race([running, stopped]);
      } finally {
        if (onAbort) stop.removeEventListener('abort', onAbort);
      }
    } else {
      await running;
    }
  } catch (e) {
    if (ctx.stop?.aborted) {
      const partial = new Response();
      const err = isComputerUseError(ctx.stop.reason)
        ? ctx.stop.reason
        : new ComputerUseError('paused', 'Stopped by the user.');
      partial.error(err.code, err.message);
      return { text: partial.text, isError: true, code: err.code };
    }
    if (isComputerUseError(e)) response.error(e.code, redactText(withAdvice(e, ctx.session)));
    else response.error('internal', redactText((e as Error).message ?? String(e)));
  }
  // A result read or acted through another channel than the platform's accessibility tree says so first
  //: the driver names its channel in hello.
  const channel = response.channel ?? ctx.session.device.lastHello?.channel;
  // The channel's name comes from the driver (a paired device chooses it): outside text like any other.
  const text = channel ? `channel: ${escapeLine(channel)}\n${response.text}` : response.text;
  const result: ToolResult = { text, isError: response.isError };
  if (response.code) result.code = response.code;
  if (response.images.length && !response.isError) result.images = [...response.images];
  return result;
}

/** An error's message plus the host's advice in its tools' names (tools/remedy.ts). */
function withAdvice(e: ComputerUseError, session: Session): string {
  return adviseError(e, new Set(session.device.lastHello?.methods ?? []));
}

/**
 * A schema error as the model wrote the call: `/actions/0/op: expected …` reads `action 1's op: expected …`,
 * `/settle/timeoutMs` reads `settle.timeoutMs`, `(root)` reads `the params`. A JSON pointer counts from 0 and
 * names no action; the model numbered its actions from 1 (the CLI trial read `/actions/0/op` as a path).
 */
export function spokenError(bad: string): string {
  const colon = bad.indexOf(': ');
  const path = colon < 0 ? bad : bad.slice(0, colon);
  const rest = colon < 0 ? '' : bad.slice(colon);
  if (!path.startsWith('/')) return `${path === '(root)' ? 'the params' : path}${rest}`;
  let spoken = '';
  for (const seg of path.slice(1).split('/').map((x) => x.replace(/~1/g, '/').replace(/~0/g, '~'))) {
    if (/^\d+$/.test(seg)) {
      // `actions` + `0` → `action 1`: the last name, singular, with the 1-based index.
      const cut = spoken.lastIndexOf('.');
      const name = spoken.slice(cut + 1);
      spoken = `${spoken.slice(0, cut + 1)}${name.endsWith('s') ? name.slice(0, -1) : name} ${Number(seg) + 1}`;
    } else spoken += spoken === '' ? seg : /\d$/.test(spoken) ? `'s ${seg}` : `.${seg}`;
  }
  return `${spoken}${rest}`;
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
