/**
 * Device: owns the connection to one device's driver (a local process, or `ssh host computer-use driver linux`).
 * Every call has a timeout; a driver or link that dies is restarted on the next call, and the call that was
 * running gets a clear error: driver_unavailable for a read, link_lost for a call that may have changed the
 * device (it was sent; whether it happened is unknown). Remote devices also get a heartbeat, and a link that
 * dropped is brought back in the background with backoff.
 */
import { escapeLine } from '../engine/escape.js';
import { ComputerUseError } from '../protocol/errors.js';
import {
  isActing,
  type HelloResult,
  type MethodName,
  type ParamsOf,
  type ReadMethodName,
  type ResultOf,
} from '../protocol/methods.js';
import { announcedMethods, checkProtocolVersion, notImplemented } from '../protocol/handshake.js';
import type { DriverCommand, DriverConnection } from './stdio.js';
import { builtinDriver, spawnDriver } from './stdio.js';

/** Options of a device. */
export interface DeviceOptions {
  /** Platform of the built-in driver ("linux"); ignored when `driver` is given. */
  platform?: string;
  /** A custom driver command (e.g. over ssh). */
  driver?: DriverCommand;
  /** Connects to a driver without a process (in-memory drivers in tests); wins over `driver`. */
  connect?: () => DriverConnection;
  /** Environment for the driver (the desktop it talks to). */
  env?: Record<string, string>;
  /** Default per-call timeout. */
  timeoutMs?: number;
  /** The device's name (in messages); "local" when not given. */
  name?: string;
  /** Turns the stderr of a link that failed to start into a clear error (ssh: host key, auth). */
  classifyStartError?: (stderr: string) => ComputerUseError | undefined;
  /**
   * Heartbeat period in ms (0 = none, the default for local drivers). While the link is up it is pinged; once
   * it has been up and dropped, it is reconnected in the background with exponential backoff.
   */
  heartbeatMs?: number;
  /** Backoff of background reconnects: first delay and cap in ms (default 1 s, 60 s). */
  backoff?: { initialMs: number; maxMs: number };
}

/** How long a stopped acting call waits for the driver to confirm it ended before answering anyway. */
const STOP_DRAIN_MS = 1500;

/** How a device's link is doing, for `device list`, computer_apps and the panel. */
export interface LinkStatus {
  state: 'idle' | 'up' | 'down';
  /** Why it is down (the last start or heartbeat error). */
  error?: string;
  /** When a background reconnect is next tried (ms since epoch). */
  retryAt?: number;
  restarts: number;
}

/** The error an aborted call rejects with: the signal's reason when it is an Error, else `paused`. */
function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new ComputerUseError('paused', 'The call was cancelled.');
}

export class Device {
  private proc: DriverConnection | null = null;
  private helloResult: HelloResult | null = null;
  /** The methods the driver's hello listed: the host calls no other (docs/protocol.md, "Handshake"). */
  private methods: ReadonlySet<string> = new Set(['hello']);
  private starting: Promise<DriverConnection> | null = null;
  /** How many times the driver was (re)started; tests and status read it. */
  restarts = -1;
  readonly timeoutMs: number;
  readonly name: string;
  private heartbeat: NodeJS.Timeout | null = null;
  private failures = 0;
  private lastError: string | undefined;
  private retryAt: number | undefined;
  private closed = false;
  /** What the driver proved about the processes on the device (apps.list), by pid: the policy of a remote device reads these. */
  private readonly facts = new Map<number, { executable?: string; startToken?: number; user?: number }>();

  constructor(private readonly options: DeviceOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 20_000;
    this.name = options.name ?? 'local';
  }

  /** The state of the link. */
  get status(): LinkStatus {
    const up = this.proc !== null && !this.proc.peer.isClosed;
    const out: LinkStatus = {
      state: up ? 'up' : this.restarts < 0 && !this.lastError ? 'idle' : 'down',
      restarts: Math.max(0, this.restarts),
    };
    if (!up && this.lastError) out.error = this.lastError;
    if (!up && this.retryAt !== undefined) out.retryAt = this.retryAt;
    return out;
  }

  /** Pings a live link; brings a dropped one back with backoff. Runs only for devices with `heartbeatMs`. */
  private schedule(delayMs: number): void {
    const period = this.options.heartbeatMs ?? 0;
    if (period <= 0 || this.closed) return;
    if (this.heartbeat) clearTimeout(this.heartbeat);
    this.heartbeat = setTimeout(() => { void this.beat(); }, delayMs);
    this.heartbeat.unref(); // never keeps a process alive
  }

  private async beat(): Promise<void> {
    this.heartbeat = null;
    if (this.closed) return;
    const period = this.options.heartbeatMs ?? 0;
    const proc = this.proc;
    if (proc && !proc.peer.isClosed) {
      try {
        await proc.peer.request('hello', { client: 'computer-use' }, Math.min(10_000, Math.max(2000, period)));
        this.schedule(period);
      } catch (e) {
        this.lastError = `heartbeat: ${(e as Error).message}`;
        proc.kill(); // a link that does not answer is dropped; the branch below reconnects it
        this.schedule(0);
      }
      return;
    }
    try {
      await this.ensure();
      this.schedule(period);
    } catch {
      const { initialMs, maxMs } = this.options.backoff ?? { initialMs: 1000, maxMs: 60_000 };
      const delay = Math.min(maxMs, initialMs * 2 ** Math.min(20, this.failures - 1));
      this.retryAt = Date.now() + delay;
      this.schedule(delay);
    }
  }

  private command(): DriverCommand {
    const base = this.options.driver ?? builtinDriver(this.options.platform ?? process.platform);
    return { ...base, env: { ...(base.env ?? {}), ...(this.options.env ?? {}) } };
  }

  /** Starts the driver if it is not running and says hello. */
  private async ensure(): Promise<DriverConnection> {
    if (this.proc && !this.proc.peer.isClosed) return this.proc;
    // A closed device starts nothing: a read that met the link close() ended would otherwise spawn a driver
    // nobody ends (it kept test processes and hosts alive).
    if (this.closed)
      throw new ComputerUseError(
        'driver_unavailable',
        `The device${this.name === 'local' ? '' : ` ${this.name}`} was closed; open a new one.`,
      );
    if (this.starting) return this.starting;
    this.starting = (async () => {
      const proc = this.options.connect ? this.options.connect() : spawnDriver(this.command(), this.timeoutMs);
      this.restarts++;
      try {
        const hello = await proc.peer.request('hello', { client: 'computer-use' }, 15_000);
        checkProtocolVersion(hello);
        this.helloResult = hello;
        this.methods = announcedMethods(hello);
      } catch (e) {
        proc.kill();
        this.failures++;
        // ssh prints why it gave up on stderr just before it exits: give it a moment to arrive.
        if (this.options.classifyStartError) await new Promise((r) => setTimeout(r, 50));
        const tail = proc.stderrTail();
        this.lastError = (tail || (e as Error).message).split('\n').slice(-3).join(' ').slice(0, 300);
        const known = tail ? this.options.classifyStartError?.(tail) : undefined;
        if (known) throw known;
        if (e instanceof ComputerUseError && e.code !== 'driver_unavailable' && e.code !== 'timeout') throw e;
        throw new ComputerUseError(
          'driver_unavailable',
          `The driver${this.name === 'local' ? '' : ` of device ${this.name}`} did not start: ` +
            `${(e as Error).message}${tail ? `\n${tail}` : ''}`,
        );
      }
      this.failures = 0;
      this.lastError = undefined;
      this.retryAt = undefined;
      this.proc = proc;
      this.schedule(this.options.heartbeatMs ?? 0);
      return proc;
    })().finally(() => { this.starting = null; });
    return this.starting;
  }

  /** The driver's hello (capabilities, permissions). */
  async hello(): Promise<HelloResult> {
    await this.ensure();
    return this.helloResult!;
  }

  /**
   * Calls a driver method with the device timeout. `signal` (the emergency stop, the host's cancel) aborts the
   * call: it rejects at once with the signal's reason, and the peer passes the cancel on to the driver.
   */
  async call<M extends MethodName>(
    method: M,
    params: ParamsOf<M>,
    timeoutMs = this.timeoutMs,
    signal?: AbortSignal,
  ): Promise<ResultOf<M>> {
    try {
      return await this.callWithRetry(method, params, timeoutMs, signal);
    } catch (e) {
      // A driver's (or a paired device's) error message, and the stderr tail added to it, are outside text,
      // often quoting an app's words: they leave the device escaped to one line (engine/escape.ts).
      const shown = e instanceof ComputerUseError ? escapeLine(e.message) : undefined;
      if (e instanceof ComputerUseError && shown !== e.message)
        throw new ComputerUseError(e.code, shown ?? '', e.details);
      throw e;
    }
  }

  private async callWithRetry<M extends MethodName>(
    method: M,
    params: ParamsOf<M>,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<ResultOf<M>> {
    try {
      return await this.callOnce(method, params, timeoutMs, signal);
    } catch (e) {
      // A read that met a link which had dropped (an idle ssh link cut, a restarted driver) changes nothing on
      // the device: it is sent once more on a new link. Acting methods never are (link_lost: it may have happened).
      // Only remote links (they have a heartbeat): a local driver that died mid-call is reported to the caller
      // (invariant 6), since a read that crashed it would crash the next one too.
      if (
        e instanceof ComputerUseError &&
        e.code === 'driver_unavailable' &&
        e.details['linkDropped'] === true &&
        !isActing(method) &&
        !signal?.aborted &&
        !this.closed &&
        (this.options.heartbeatMs ?? 0) > 0
      ) {
        return this.callOnce(method, params, timeoutMs, signal);
      }
      throw e;
    }
  }

  private async callOnce<M extends MethodName>(
    method: M,
    params: ParamsOf<M>,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<ResultOf<M>> {
    if (signal?.aborted) throw abortReason(signal);
    const proc = await this.ensure();
    if (!this.methods.has(method)) throw notImplemented(method, this.helloResult!);
    // The peer takes the signal as its 4th argument (protocol cancellation). A read answers a stop at once
    // (the race below, even when the driver is slow to react); an acting method answers once the driver has
    // ended the call (bounded by STOP_DRAIN_MS): "stopped" must mean no more input arrives after the answer.
    const request = proc.peer.request.bind(proc.peer) as <N extends MethodName>(
      m: N,
      p: ParamsOf<N>,
      t?: number,
      s?: AbortSignal,
      drainMs?: number,
    ) => Promise<ResultOf<N>>;
    const changing = isActing(method);
    try {
      const pending = request(method, params, timeoutMs, signal, changing ? STOP_DRAIN_MS : 0);
      if (!signal || changing) return await pending;
      pending.catch(() => undefined);
      let onAbort: (() => void) | undefined;
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => reject(abortReason(signal));
        signal.addEventListener('abort', onAbort, { once: true });
      });
      try {
        return await Promise.race([pending, aborted]);
      } finally {
        if (onAbort) signal.removeEventListener('abort', onAbort);
      }
    } catch (e) {
      if (
        e instanceof ComputerUseError &&
        e.code === 'timeout' &&
        e.details['unanswered'] === true &&
        !proc.peer.isClosed
      ) {
        // A driver stuck in one call cannot be trusted for the next: restart it. A driver that answered `timeout`
        // itself (an app busy in a modal dialog's own loop did not answer it in time) is not stuck: killing it
        // turned geany's File › Save As click into driver_unavailable.
        proc.kill();
      }
      if (e instanceof ComputerUseError && e.code === 'driver_unavailable' && isActing(method)) {
        // Sent, then the link went: the device may have done it. Never reported as failed.
        this.lastError = e.message;
        this.schedule(0);
        throw new ComputerUseError(
          'link_lost',
          `The link to ${this.name === 'local' ? 'the driver' : `device ${this.name}`} dropped while ` +
            `${method} was in flight: ` +
            'it may have happened. The next call reconnects; observe before acting again.',
        );
      }
      if (e instanceof ComputerUseError && e.code === 'driver_unavailable') {
        this.lastError = e.message;
        this.schedule(0);
        const tail = proc.stderrTail();
        throw new ComputerUseError(
          'driver_unavailable',
          `${e.message} It will be restarted on the next call.${tail ? `\n${tail.slice(-500)}` : ''}`,
          { linkDropped: true },
        );
      }
      throw e;
    }
  }

  /** The hello of the driver already started, without starting one (undefined before the first call). */
  get lastHello(): HelloResult | undefined { return this.helloResult ?? undefined; }

  /** The pid of the running driver, if any. */
  get driverPid(): number | undefined { return this.proc?.peer.isClosed ? undefined : this.proc?.pid; }

  /** Stops the driver. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.heartbeat) { clearTimeout(this.heartbeat); this.heartbeat = null; }
    // A driver still starting is ended too, once it is up.
    if (this.starting) await this.starting.catch(() => undefined);
    const proc = this.proc;
    this.proc = null;
    if (!proc || proc.peer.isClosed) return;
    await proc.end();
  }
}

/**
 * A device as everything but the acting pipeline holds it: its reads, its link's state and `close`. Its `call` takes
 * only the methods declared `acting: false` (ReadMethodName), so code that tries to send `node.act` or `input.*`
 * through it does not compile; only the acting pipeline holds the `Device` itself (session/acting-device.ts).
 */
export interface ReadDevice extends Pick<
  Device,
  'hello' | 'timeoutMs' | 'name' | 'status' | 'lastHello' | 'driverPid' | 'close'
> {
  /** How many times the driver was (re)started. */
  readonly restarts: number;
  call<M extends ReadMethodName>(
    method: M,
    params: ParamsOf<M>,
    timeoutMs?: number,
    signal?: AbortSignal,
  ): Promise<ResultOf<M>>;
}
