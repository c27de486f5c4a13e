/**
 * DeviceManager: owns the connection to one device's driver. Every call has a timeout; a driver that dies
 * is restarted on the next call, and the call that was running gets a clear driver_unavailable error.
 */
import { ComputerUseError } from '../protocol/errors.js';
import type { HelloResult, MethodName, ParamsOf, ResultOf } from '../protocol/methods.js';
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
}

export class Device {
  private proc: DriverConnection | null = null;
  private helloResult: HelloResult | null = null;
  private starting: Promise<DriverConnection> | null = null;
  /** How many times the driver was (re)started; tests and status read it. */
  restarts = -1;
  readonly timeoutMs: number;

  constructor(private readonly options: DeviceOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 20_000;
  }

  private command(): DriverCommand {
    const base = this.options.driver ?? builtinDriver(this.options.platform ?? process.platform);
    return { ...base, env: { ...(base.env ?? {}), ...(this.options.env ?? {}) } };
  }

  /** Starts the driver if it is not running and says hello. */
  private async ensure(): Promise<DriverConnection> {
    if (this.proc && !this.proc.peer.isClosed) return this.proc;
    if (this.starting) return this.starting;
    this.starting = (async () => {
      const proc = this.options.connect ? this.options.connect() : spawnDriver(this.command(), this.timeoutMs);
      this.restarts++;
      try {
        this.helloResult = await proc.peer.request('hello', { client: 'computer-use' }, 15_000);
      } catch (e) {
        proc.kill();
        const tail = proc.stderrTail();
        if (e instanceof ComputerUseError && e.code !== 'driver_unavailable' && e.code !== 'timeout') throw e;
        throw new ComputerUseError('driver_unavailable', `The driver did not start: ${(e as Error).message}${tail ? `\n${tail}` : ''}`);
      }
      this.proc = proc;
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
   * Calls a driver method with the device timeout. When `signal` aborts, the call rejects with its reason and
   * the driver is told to stop (`$/cancel`): a driver checks its handler's signal between key events.
   */
  async call<M extends MethodName>(method: M, params: ParamsOf<M>, timeoutMs = this.timeoutMs, signal?: AbortSignal): Promise<ResultOf<M>> {
    const proc = await this.ensure();
    try {
      return await proc.peer.request(method, params, timeoutMs, signal);
    } catch (e) {
      if (e instanceof ComputerUseError && e.code === 'timeout' && !proc.peer.isClosed) {
        // A driver stuck in one call cannot be trusted for the next: restart it.
        proc.kill();
      }
      if (e instanceof ComputerUseError && e.code === 'driver_unavailable') {
        const tail = proc.stderrTail();
        throw new ComputerUseError('driver_unavailable', `${e.message} It will be restarted on the next call.${tail ? `\n${tail.slice(-500)}` : ''}`);
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
    const proc = this.proc;
    this.proc = null;
    if (!proc || proc.peer.isClosed) return;
    await proc.end();
  }
}
