/**
 * One end of a JSON-RPC 2.0 connection over a pair of streams. Both the host (client) and the drivers
 * (server) use it. Every request has a timeout and may be cancelled (`$/cancel`); a closed connection fails all
 * pending requests. Both directions are validated against the method's schemas (protocol/methods.ts): the
 * serving side refuses params that do not match (invalid_params, the handler is not called), the requesting
 * side refuses results that do not match (internal).
 */
import type { Readable, Writable } from 'node:stream';
import type { TSchema } from '@sinclair/typebox';
import { APP_ERROR, ComputerUseError, ERROR_CODES, fromWire } from './errors.js';
import { DEFAULT_MAX_LINE_BYTES, LineReader, frame } from './framing.js';
import type { MethodName, Notifications, ParamsOf, ResultOf } from './methods.js';
import { methodSpec, NOTIFICATIONS } from './methods.js';
import { validationError } from './validate.js';

/** What a handler gets besides its params. */
export interface HandlerContext {
  /** Aborted when the caller cancels the request (`$/cancel`) or the connection closes: stop sending input. */
  signal: AbortSignal;
}

/** A request handler table; missing methods answer "Method not found". */
export type Handlers = {
  [M in MethodName]?: (params: ParamsOf<M>, ctx: HandlerContext) => Promise<ResultOf<M>> | ResultOf<M>;
};

interface Pending {
  resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout; method: string; cleanup: () => void;
  /** Cancelled, waiting for the other side's answer (which is not validated: it only says the handler ended). */
  draining?: boolean;
}

/** JSON-RPC "Invalid params". */
const INVALID_PARAMS = -32602;
/** How many cancelled request ids are remembered so their late answers are dropped quietly. */
const CANCELLED_MEMORY = 1000;

/** Options of a peer. */
export interface PeerOptions {
  /** Default request timeout in ms. */
  timeoutMs?: number;
  maxLineBytes?: number;
  /** Called for lines that are not JSON-RPC (logged, never fatal). */
  onJunk?: (line: string) => void;
}

export class Peer {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Requests this side gave up on: their late answers are expected and dropped without a report. */
  private readonly cancelled = new Set<number>();
  /** The requests being served, by id, so `$/cancel` can abort them. */
  private readonly inFlight = new Map<unknown, AbortController>();
  private readonly reader: LineReader;
  private readonly notificationHandlers = new Map<string, (params: unknown) => void>();
  private closed = false;
  private readonly closeListeners: ((why: string) => void)[] = [];
  readonly timeoutMs: number;

  constructor(private readonly input: Readable, private readonly output: Writable,
    private readonly handlers: Handlers = {}, private readonly options: PeerOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.reader = new LineReader(options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
    input.setEncoding('utf8');
    input.on('data', (chunk: string) => this.onData(chunk));
    input.on('end', () => this.close('connection closed'));
    input.on('error', (e: Error) => this.close(`input error: ${e.message}`));
    output.on('error', (e: Error) => this.close(`output error: ${e.message}`));
  }

  /**
   * Sends a request and waits for its result, rejecting after the timeout. When `signal` aborts, the other
   * side is told to stop (`$/cancel {id}`) and the call rejects with the signal's reason: at once, or, with
   * `drainMs`, once the other side answered the cancelled request (it stopped) or `drainMs` passed, whichever
   * is first. Input methods drain: their caller answers "stopped" only after the driver sent its last event.
   */
  request<M extends MethodName>(
    method: M,
    params: ParamsOf<M>,
    timeoutMs = this.timeoutMs,
    signal?: AbortSignal,
    drainMs = 0,
  ): Promise<ResultOf<M>> {
    if (this.closed)
      return Promise.reject(new ComputerUseError('driver_unavailable', 'The driver connection is closed.'));
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const id = this.nextId++;
    return new Promise<ResultOf<M>>((resolve, reject) => {
      const onAbort = (): void => {
        const p = this.pending.get(id);
        if (!p) return;
        this.settle(id, p);
        this.write({ jsonrpc: '2.0', method: '$/cancel', params: { id } });
        const stopped = (): void => reject(abortReason(signal!));
        if (drainMs <= 0) { this.remember(id); stopped(); return; }
        // Whatever the answer (result, error, the connection closing), it means the handler has ended.
        const timer = setTimeout(() => { this.pending.delete(id); this.remember(id); stopped(); }, drainMs);
        this.pending.set(id, {
          resolve: stopped,
          reject: stopped,
          timer,
          method,
          cleanup: () => undefined,
          draining: true,
        });
      };
      const timer = setTimeout(() => {
        const p = this.pending.get(id);
        if (p) this.settle(id, p);
        this.remember(id);
        reject(
          new ComputerUseError('timeout', `${method} did not answer within ${timeoutMs} ms.`, {
            method,
            unanswered: true,
          }),
        );
      }, timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      const cleanup = (): void => signal?.removeEventListener('abort', onAbort);
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer, method, cleanup });
      this.write({ jsonrpc: '2.0', id, method, params });
    });
  }

  /** Forgets a pending request: its timer and abort listener. */
  private settle(id: number, p: Pending): void {
    this.pending.delete(id);
    clearTimeout(p.timer);
    p.cleanup();
  }

  /** Remembers an id whose answer may still come (timed out or cancelled), within a bound. */
  private remember(id: number): void {
    this.cancelled.add(id);
    if (this.cancelled.size > CANCELLED_MEMORY) this.cancelled.delete(this.cancelled.values().next().value as number);
  }

  /** Sends a notification (no answer). */
  notify<N extends keyof Notifications>(method: N, params: Notifications[N]): void {
    this.write({ jsonrpc: '2.0', method, params });
  }

  /** Registers a handler for incoming notifications of one method. */
  onNotification<N extends keyof Notifications>(method: N, handler: (params: Notifications[N]) => void): void {
    this.notificationHandlers.set(method, handler as (p: unknown) => void);
  }

  /** Called once when the connection closes. */
  onClose(listener: (why: string) => void): void { this.closeListeners.push(listener); }

  get isClosed(): boolean { return this.closed; }

  /** Fails all pending requests and stops accepting new ones. */
  close(why: string): void {
    if (this.closed) return;
    this.closed = true;
    for (const [id, p] of this.pending) {
      this.settle(id, p);
      p.reject(new ComputerUseError('driver_unavailable', `The driver stopped while running ${p.method} (${why}).`));
    }
    // Nobody is left to receive what the handlers still running would answer: tell them to stop.
    for (const c of this.inFlight.values())
      c.abort(new ComputerUseError('driver_unavailable', `The connection closed (${why}).`));
    this.inFlight.clear();
    for (const l of this.closeListeners) l(why);
  }

  private write(msg: unknown): void {
    if (this.closed && !('result' in (msg as object) || 'error' in (msg as object))) return;
    try { this.output.write(frame(msg)); } catch (e) { this.close(`write failed: ${(e as Error).message}`); }
  }

  private onData(chunk: string): void {
    for (const ev of this.reader.push(chunk)) {
      if (ev.kind === 'junk') { this.options.onJunk?.(ev.line); continue; }
      if (ev.kind === 'oversize') {
        this.write({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: `Line of ${ev.bytes} bytes exceeds the limit.` },
        });
        continue;
      }
      this.dispatch(ev.message);
    }
  }

  private dispatch(msg: unknown): void {
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) {
      this.write({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: not an object.' } });
      return;
    }
    const m = msg as {
      jsonrpc?: unknown;
      id?: unknown;
      method?: unknown;
      params?: unknown;
      result?: unknown;
      error?: { code: number; message: string; data?: unknown };
    };
    if (typeof m.method === 'string') {
      if (m.id === undefined) { if (m.jsonrpc === '2.0') this.onNotificationMessage(m.method, m.params); return; }
      if (!validId(m.id)) {
        this.write({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: 'Invalid Request: id must be a string, an integer or null.' },
        });
        return;
      }
      if (m.jsonrpc !== '2.0') {
        this.write({
          jsonrpc: '2.0',
          id: m.id,
          error: { code: -32600, message: 'Invalid Request: jsonrpc must be "2.0".' },
        });
        return;
      }
      void this.answer(m.id, m.method, m.params);
      return;
    }
    if ('result' in m || 'error' in m) {
      // A response. One we cannot match (late, unknown id, or `id: null` for a line the other side rejected)
      // is reported, never answered: answering it would bounce error responses between the peers forever.
      const p = typeof m.id === 'number' ? this.pending.get(m.id) : undefined;
      if (!p) {
        if (typeof m.id === 'number' && this.cancelled.delete(m.id)) return;
        this.options.onJunk?.(`unmatched response: ${JSON.stringify(msg).slice(0, 200)}`);
        return;
      }
      this.settle(m.id as number, p);
      if (p.draining) { p.resolve(undefined); return; }
      if (m.error) { p.reject(wireError(m.error)); return; }
      const spec = methodSpec(p.method);
      const bad = spec ? validationError(spec.result, m.result) : undefined;
      // A result outside the protocol is never handed on: the engine and the model only see checked values.
      if (bad)
        p.reject(
          new ComputerUseError('internal', `The driver answered ${p.method} outside the protocol (${bad}).`, {
            method: p.method,
          }),
        );
      else p.resolve(m.result);
      return;
    }
    const id = typeof m.id === 'number' || typeof m.id === 'string' ? m.id : null;
    this.write({ jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid Request: no method.' } });
  }

  /** `$/cancel` aborts a request being served; other notifications go to their handler when they match their schema. */
  private onNotificationMessage(method: string, params: unknown): void {
    if (method === '$/cancel') {
      if (validationError(NOTIFICATIONS['$/cancel'], params) === undefined) {
        const id = (params as { id: unknown }).id;
        this.inFlight.get(id)?.abort(new ComputerUseError('timeout', 'The caller cancelled the request.'));
      }
      return;
    }
    const handler = this.notificationHandlers.get(method);
    if (!handler) return;
    const schema = (NOTIFICATIONS as Record<string, TSchema | undefined>)[method];
    const bad = schema ? validationError(schema, params) : undefined;
    if (bad) { this.options.onJunk?.(`notification ${method} outside the protocol (${bad})`); return; }
    handler(params);
  }

  private async answer(id: unknown, method: string, params: unknown): Promise<void> {
    const spec = methodSpec(method);
    const handler = spec
      ? (this.handlers as Record<string, ((p: unknown, ctx: HandlerContext) => unknown) | undefined>)[spec.method]
      : undefined;
    if (!spec || !handler || !Object.hasOwn(this.handlers, spec.method)) {
      this.write({
        jsonrpc: '2.0',
        id,
        error: {
          code: -32601,
          message: `Method not found: ${String(method).slice(0, 100)}`,
          data: { code: 'unsupported' },
        },
      });
      return;
    }
    // Omitted params are empty params; null (not a structured value in JSON-RPC 2.0) is checked like any value.
    const given = params === undefined ? {} : params;
    const bad = validationError(spec.params, given);
    if (bad) {
      // Checked before the handler runs: a driver never acts on params outside the protocol.
      this.write({
        jsonrpc: '2.0',
        id,
        error: {
          code: INVALID_PARAMS,
          message: `Invalid params for ${method}: ${bad}.`,
          data: { code: 'invalid_params' },
        },
      });
      return;
    }
    if (this.inFlight.has(id)) {
      this.write({
        jsonrpc: '2.0',
        id,
        error: { code: -32600, message: 'Invalid Request: this id is already in use by a request being served.' },
      });
      return;
    }
    const controller = new AbortController();
    this.inFlight.set(id, controller);
    try {
      const result = await handler(given, { signal: controller.signal });
      this.write({ jsonrpc: '2.0', id, result: result ?? null });
    } catch (e) {
      const err = e instanceof ComputerUseError ? e : new ComputerUseError('internal', unexpectedMessage(method, e));
      this.write({
        jsonrpc: '2.0',
        id,
        error: { code: APP_ERROR, message: err.message, data: { code: err.code, ...err.details } },
      });
    } finally {
      if (this.inFlight.get(id) === controller) this.inFlight.delete(id);
    }
  }
}

/**
 * The message of an error a handler did not expect, never empty: a D-Bus error may carry no text (GTK 4's answer
 * to GrabFocus on a list row), and `internal:` alone told the model nothing.
 */
function unexpectedMessage(method: string, e: unknown): string {
  const text = (e instanceof Error ? e.message : String(e ?? '')).trim();
  if (text) return text;
  const name = (e as { type?: unknown; name?: unknown } | null)?.type ?? (e instanceof Error ? e.name : undefined);
  return (
    `${method} failed with an error that gave no reason` +
    `${typeof name === 'string' && name ? ` (${name.slice(0, 120)})` : ''}; ` +
    'observe again, then try another way to reach the element (a click, or keys).'
  );
}

/** The reason an aborted signal carries, as an Error. */
function abortReason(signal: AbortSignal): Error {
  const r: unknown = signal.reason;
  return r instanceof Error
    ? r
    : new ComputerUseError('timeout', typeof r === 'string' ? r : 'The request was cancelled.');
}

/** JSON-RPC ids: a string, an integer (safe) or null. */
function validId(id: unknown): boolean {
  return (
    id === null || (typeof id === 'string' && id.length <= 1024) || (typeof id === 'number' && Number.isSafeInteger(id))
  );
}

/** A wire error object as a ComputerUseError; a malformed one becomes `internal`. */
function wireError(err: unknown): ComputerUseError {
  const e = err as { code?: unknown; message?: unknown; data?: unknown };
  if (typeof e !== 'object' || e === null || typeof e.message !== 'string' || typeof e.code !== 'number') {
    return new ComputerUseError('internal', 'The driver answered with a malformed error.');
  }
  let data =
    typeof e.data === 'object' && e.data !== null && !Array.isArray(e.data)
      ? (e.data as Record<string, unknown>)
      : undefined;
  // Only the declared codes cross (not "toString" or "__proto__", which `in` would accept).
  if (data && !(typeof data['code'] === 'string' && Object.hasOwn(ERROR_CODES, data['code'])))
    data = { ...data, code: 'internal' };
  return fromWire({ code: e.code, message: e.message.slice(0, 10_000), ...(data ? { data } : {}) });
}

/** A live driver connection: its protocol peer and how to stop it. */
export interface DriverConnection {
  peer: Peer;
  /** Last lines the driver wrote to stderr, for error messages. */
  stderrTail: () => string;
  /** Ends it at once (a driver stuck in a call). */
  kill(): void;
  /** Ends it gracefully, then at once after a grace period. */
  end(): Promise<void>;
  pid?: number;
}
