/**
 * One X11 connection per driver process, opened on first use and reused, over the pure-JS `x11` client: the
 * driver speaks the X protocol itself (XTest input, window properties) instead of running xdotool, so no text
 * ever reaches a command line. Requests are promises with a bound; errors become input_unavailable with the
 * reason (never with anything typed).
 */
import { createRequire } from 'node:module';
import { ComputerUseError } from '../../../protocol/errors.js';

/** The parts of the `x11` client this driver uses (the package ships no types). */
export interface XClient {
  on(event: 'error', cb: (e: Error) => void): void;
  on(event: 'end' | 'close', cb: () => void): void;
  removeAllListeners(): void;
  terminate?(): void;
  close?(cb?: () => void): void;
  require(ext: string, cb: (err: Error | undefined, ext: XExtension) => void): void;
  [request: string]: unknown;
}
/** An extension object (XTEST, X-Resource): its requests are methods. */
export type XExtension = Record<string, unknown>;
/** Connection facts from the handshake. */
export interface XDisplay { screen: { root: number }[]; min_keycode: number; max_keycode: number; client: XClient }

const xlib = createRequire(import.meta.url)('x11') as {
  createClient(
    opts: { display?: string; disableBigRequests?: boolean; shm?: boolean },
    cb: (err: Error | undefined, display: XDisplay) => void,
  ): XClient;
};

/** How long one request may take before the connection is called broken. */
const REQUEST_MS = 3000;

/** An open X11 connection: typed requests as promises, atoms cached, extensions loaded on demand. */
export class X11 {
  private readonly atoms = new Map<string, number>();
  private readonly extensions = new Map<string, Promise<XExtension>>();
  private broken: string | undefined;

  private constructor(readonly display: XDisplay, readonly client: XClient) {
    client.on('error', (e) => { this.lastError = e; });
    client.on('end', () => { this.broken = 'the X server closed the connection'; });
    client.on('close', () => { this.broken ??= 'the X connection closed'; });
  }

  /** The last error the server reported for a request that had no callback (e.g. a failed FakeInput). */
  lastError: Error | undefined;

  /** The root window of the default screen. */
  get root(): number { return this.display.screen[0]?.root ?? 0; }
  /** Why the connection is no longer usable, if it is not. */
  get closedReason(): string | undefined { return this.broken; }

  /** Opens a connection to `display` (DISPLAY), failing within a bound with input_unavailable. */
  static open(display: string | undefined, timeoutMs = 3000): Promise<X11> {
    if (!display)
      return Promise.reject(
        new ComputerUseError(
          'input_unavailable',
          'No X display (DISPLAY is unset): synthetic input needs an X11 session.',
        ),
      );
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (why: string): void => {
        if (settled) return;
        settled = true;
        reject(
          new ComputerUseError(
            'input_unavailable',
            `Cannot connect to the X display ${display}: ${why}. Is the desktop running and DISPLAY right?`,
          ),
        );
      };
      const timer = setTimeout(() => fail(`no answer within ${timeoutMs} ms`), timeoutMs);
      try {
        const client = xlib.createClient({ display, disableBigRequests: true, shm: false }, (err, d) => {
          clearTimeout(timer);
          if (err) { fail(err.message.split('\n')[0] ?? 'error'); return; }
          if (settled) return;
          settled = true;
          resolve(new X11(d, client));
        });
        client.on('error', (e) => { clearTimeout(timer); fail(e.message.split('\n')[0] ?? 'error'); });
      } catch (e) {
        clearTimeout(timer);
        fail((e as Error).message);
      }
    });
  }

  /** Sends a core request with a reply (the x11 client's callback style) as a bounded promise. */
  request<T>(name: string, ...args: unknown[]): Promise<T> {
    return this.call<T>(this.client, name, args);
  }

  /** Sends an extension request with a reply as a bounded promise. */
  extRequest<T>(ext: XExtension, name: string, ...args: unknown[]): Promise<T> {
    return this.call<T>(ext, name, args);
  }

  private call<T>(target: Record<string, unknown>, name: string, args: unknown[]): Promise<T> {
    if (this.broken)
      return Promise.reject(new ComputerUseError('input_unavailable', `The X connection is gone (${this.broken}).`));
    const fn = target[name];
    if (typeof fn !== 'function')
      return Promise.reject(new ComputerUseError('unsupported', `The X client has no request ${name}.`));
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new ComputerUseError('input_unavailable', `The X server did not answer ${name} within ${REQUEST_MS} ms.`),
          ),
        REQUEST_MS,
      );
      (fn as (...a: unknown[]) => void).call(target, ...args, (err: Error | undefined, value: T) => {
        clearTimeout(timer);
        if (err) { reject(new XRequestError(name, err)); return true; }
        resolve(value);
        return true;
      });
    });
  }

  /** Sends a request without a reply (FakeInput, SendEvent, ChangeKeyboardMapping). */
  send(target: Record<string, unknown>, name: string, ...args: unknown[]): void {
    if (this.broken) throw new ComputerUseError('input_unavailable', `The X connection is gone (${this.broken}).`);
    const fn = target[name];
    if (typeof fn !== 'function') throw new ComputerUseError('unsupported', `The X client has no request ${name}.`);
    (fn as (...a: unknown[]) => void).call(target, ...args);
  }

  /** A round trip: every request sent before it has been processed by the server when it resolves. */
  async sync(): Promise<void> {
    await this.request('GetInputFocus');
    const e = this.lastError;
    this.lastError = undefined;
    if (e) throw new XRequestError('an earlier request', e);
  }

  /** The atom of a name (interned once). */
  async atom(name: string): Promise<number> {
    const known = this.atoms.get(name);
    if (known !== undefined) return known;
    const a = await this.request<number>('InternAtom', false, name);
    this.atoms.set(name, a);
    return a;
  }

  /** Loads an extension ("xtest", "res") once; fails with unsupported when the server lacks it. */
  extension(name: string): Promise<XExtension> {
    let p = this.extensions.get(name);
    if (!p) {
      p = new Promise<XExtension>((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new ComputerUseError(
                'input_unavailable',
                `The X server did not answer about ${name} within ${REQUEST_MS} ms.`,
              ),
            ),
          REQUEST_MS,
        );
        this.client.require(name, (err, ext) => {
          clearTimeout(timer);
          if (err)
            reject(new ComputerUseError('unsupported', `The X server has no ${name} extension (${err.message}).`));
          else resolve(ext);
        });
      });
      p.catch(() => this.extensions.delete(name));
      this.extensions.set(name, p);
    }
    return p;
  }

  /** Closes the connection. */
  close(): void {
    this.broken ??= 'closed';
    try { this.client.terminate?.(); } catch { /* already closed */ }
  }
}

/** An X protocol error answering one request (BadWindow for a window that closed, …). */
export class XRequestError extends Error {
  override name = 'XRequestError' as const;
  constructor(readonly request: string, override readonly cause: Error) {
    super(`X request ${request} failed: ${cause.message}`);
  }
}

let shared: Promise<X11> | undefined;
let failedAt = 0;
/** After a failed open, calls within this time fail at once instead of waiting on the display again. */
const RETRY_AFTER_MS = 2000;

/** The driver's X connection, opened on first use and reopened after it broke. */
export function x11(env: NodeJS.ProcessEnv = process.env): Promise<X11> {
  const open = (): Promise<X11> => {
    const p = X11.open(env['DISPLAY']);
    p.catch(() => { failedAt = performance.now(); });
    return p;
  };
  if (!shared) {
    shared = open();
  } else {
    const current = shared;
    shared = current.then(
      (c) => (c.closedReason ? open() : c),
      (e: unknown) => (performance.now() - failedAt < RETRY_AFTER_MS ? Promise.reject(e) : open()),
    );
  }
  return shared;
}
