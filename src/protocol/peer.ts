/**
 * One end of a JSON-RPC 2.0 connection over a pair of streams. Both the host (client) and the drivers
 * (server) use it. Every request has a timeout; a closed connection fails all pending requests.
 */
import type { Readable, Writable } from 'node:stream';
import { APP_ERROR, ComputerUseError, fromWire } from './errors.js';
import { DEFAULT_MAX_LINE_BYTES, LineReader, frame } from './framing.js';
import type { MethodName, Notifications, ParamsOf, ResultOf } from './methods.js';
import { METHOD_NAMES } from './methods.js';

/** A request handler table; missing methods answer "Method not found". */
export type Handlers = { [M in MethodName]?: (params: ParamsOf<M>) => Promise<ResultOf<M>> | ResultOf<M> };

interface Pending { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout; method: string }

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

  /** Sends a request and waits for its result, rejecting after the timeout. */
  request<M extends MethodName>(method: M, params: ParamsOf<M>, timeoutMs = this.timeoutMs): Promise<ResultOf<M>> {
    if (this.closed) return Promise.reject(new ComputerUseError('driver_unavailable', 'The driver connection is closed.'));
    const id = this.nextId++;
    return new Promise<ResultOf<M>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ComputerUseError('timeout', `${method} did not answer within ${timeoutMs} ms.`, { method }));
      }, timeoutMs);
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer, method });
      this.write({ jsonrpc: '2.0', id, method, params });
    });
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
      clearTimeout(p.timer);
      p.reject(new ComputerUseError('driver_unavailable', `The driver stopped while running ${p.method} (${why}).`));
      this.pending.delete(id);
    }
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
        this.write({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `Line of ${ev.bytes} bytes exceeds the limit.` } });
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
    const m = msg as { id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } };
    if (typeof m.method === 'string') {
      if (m.id === undefined) { this.notificationHandlers.get(m.method)?.(m.params); return; }
      void this.answer(m.id, m.method, m.params);
      return;
    }
    if ('result' in m || 'error' in m) {
      // A response. One we cannot match (late, unknown id, or `id: null` for a line the other side rejected)
      // is reported, never answered: answering it would bounce error responses between the peers forever.
      const p = typeof m.id === 'number' ? this.pending.get(m.id) : undefined;
      if (!p) { this.options.onJunk?.(`unmatched response: ${JSON.stringify(msg).slice(0, 200)}`); return; }
      this.pending.delete(m.id as number);
      clearTimeout(p.timer);
      if (m.error) p.reject(fromWire(m.error)); else p.resolve(m.result);
      return;
    }
    const id = typeof m.id === 'number' || typeof m.id === 'string' ? m.id : null;
    this.write({ jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid Request: no method.' } });
  }

  private async answer(id: unknown, method: string, params: unknown): Promise<void> {
    const handler = (this.handlers as Record<string, ((p: unknown) => unknown) | undefined>)[method];
    if (!handler || !(METHOD_NAMES as readonly string[]).includes(method)) {
      this.write({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}`, data: { code: 'unsupported' } } });
      return;
    }
    try {
      const result = await handler(params ?? {});
      this.write({ jsonrpc: '2.0', id, result: result ?? null });
    } catch (e) {
      const err = e instanceof ComputerUseError ? e
        : new ComputerUseError('internal', e instanceof Error ? e.message : String(e));
      this.write({ jsonrpc: '2.0', id, error: { code: APP_ERROR, message: err.message, data: { code: err.code, ...err.details } } });
    }
  }
}
