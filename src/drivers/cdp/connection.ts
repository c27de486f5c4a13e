/**
 * One DevTools connection to the browser endpoint, with flat sessions per page target: `send` with a
 * timeout, events by session, and discovery of the WebSocket URL from `http://host:port`.
 */
import { ComputerUseError } from '../../protocol/errors.js';
import { TextSocket } from './websocket.js';

/** A CDP event as it arrives. */
export interface CdpEvent { method: string; params: Record<string, unknown>; sessionId?: string }

interface Pending { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout; method: string }

/** Resolves `http://127.0.0.1:9222` (or a ws:// URL) to the browser's WebSocket debugger URL. */
export async function browserWsUrl(endpoint: string, timeoutMs = 5000): Promise<string> {
  if (endpoint.startsWith('ws://')) return endpoint;
  const base = endpoint.replace(/\/+$/, '');
  let res: Response;
  try {
    res = await fetch(`${base}/json/version`, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    throw new ComputerUseError(
      'app_not_found',
      `No DevTools endpoint answers at ${endpoint} (${(e as Error).message}). ` +
        'Start the Chromium/Electron app with --remote-debugging-port=9222 and pass that endpoint.',
    );
  }
  const body = await res.json() as { webSocketDebuggerUrl?: string };
  if (!body.webSocketDebuggerUrl)
    throw new ComputerUseError('app_not_found', `${endpoint}/json/version names no webSocketDebuggerUrl.`);
  return body.webSocketDebuggerUrl;
}

export class CdpConnection {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<(e: CdpEvent) => void>();

  private constructor(private readonly ws: TextSocket, readonly timeoutMs: number) {
    ws.onMessage = (text) => this.dispatch(text);
    ws.onClose((reason) => {
      for (const [, p] of this.pending) {
        clearTimeout(p.timer);
        p.reject(
          new ComputerUseError('driver_unavailable', `DevTools connection closed (${reason}) during ${p.method}.`),
        );
      }
      this.pending.clear();
    });
  }

  static async connect(endpoint: string, timeoutMs = 10_000): Promise<CdpConnection> {
    const url = await browserWsUrl(endpoint);
    return new CdpConnection(await TextSocket.connect(url), timeoutMs);
  }

  get isClosed(): boolean { return this.ws.isClosed; }

  onClose(handler: (reason: string) => void): void { this.ws.onClose(handler); }

  /** Listens to every event; returns the unsubscribe function. */
  on(listener: (e: CdpEvent) => void): () => void {
    this.listeners.add(listener);
    return () => { this.listeners.delete(listener); };
  }

  /** Sends a command (to a page session when `sessionId` is given) and waits for its result. */
  send<T = Record<string, unknown>>(
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
    timeoutMs = this.timeoutMs,
  ): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ComputerUseError('timeout', `DevTools did not answer ${method} within ${timeoutMs} ms.`));
      }, timeoutMs);
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer, method });
      try {
        this.ws.send(JSON.stringify(sessionId ? { id, method, params, sessionId } : { id, method, params }));
      } catch (e) {
        clearTimeout(timer);
        this.pending.delete(id);
        reject(new ComputerUseError('driver_unavailable', `DevTools connection is closed: ${(e as Error).message}`));
      }
    });
  }

  close(): void { this.ws.close(); }

  private dispatch(text: string): void {
    let msg: {
      id?: number;
      result?: unknown;
      error?: { message: string; code?: number };
      method?: string;
      params?: Record<string, unknown>;
      sessionId?: string;
    };
    try { msg = JSON.parse(text) as typeof msg; } catch { return; }
    if (msg.id !== undefined) {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      clearTimeout(p.timer);
      if (msg.error) p.reject(new CdpError(p.method, msg.error.message, msg.error.code));
      else p.resolve(msg.result ?? {});
      return;
    }
    if (msg.method) {
      const ev: CdpEvent = { method: msg.method, params: msg.params ?? {} };
      if (msg.sessionId) ev.sessionId = msg.sessionId;
      for (const l of this.listeners) l(ev);
    }
  }
}

/** An error answer from DevTools. */
export class CdpError extends Error {
  override name = 'CdpError' as const;
  constructor(readonly method: string, message: string, readonly cdpCode?: number) { super(`${method}: ${message}`); }
}

/** True when a DevTools error means the node or page no longer exists. */
export function isCdpGone(e: unknown): boolean {
  return (
    e instanceof CdpError &&
    /No node|Could not find node|not found|No target|Node is detached|No frame|Cannot find context|Session with given id not found/i.test(
      e.message,
    )
  );
}
