/**
 * The TypeScript side of the helper's line protocol (src/drivers/windows/helper/Program.cs): one JSON object per
 * line each way, requests answered by id, events pushed as lines of their own. Every request has a deadline and
 * honours an AbortSignal (the helper is told to cancel it); a helper that exits fails every request in flight.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { ComputerUseError, ERROR_CODES, type ErrorCode } from '../../protocol/errors.js';
import { LineReader } from '../../protocol/framing.js';

/** One event the helper reported (focus, structure, property), with the process it came from. */
export interface HelperEvent { event: string; pid?: number }

/** How to start the helper: its program and argv (mono in front of the exe off Windows). */
export interface HelperCommand { command: string; args: string[] }

/** The command that runs a helper executable here: directly on Windows, under Mono elsewhere (tests). */
export function helperCommand(
  exe: string,
  extra: readonly string[] = [],
  platform: NodeJS.Platform = process.platform,
): HelperCommand {
  return platform === 'win32' ? { command: exe, args: [...extra] } : { command: 'mono', args: [exe, ...extra] };
}

interface Pending { resolve(v: unknown): void; reject(e: Error): void; timer: NodeJS.Timeout }

/** A helper error as the protocol's error: its code when it is one of the protocol's, else internal. */
export function helperError(err: { code?: unknown; message?: unknown; hresult?: unknown }): ComputerUseError {
  const code =
    typeof err.code === 'string' && Object.hasOwn(ERROR_CODES, err.code) ? (err.code as ErrorCode) : 'internal';
  const message = typeof err.message === 'string' ? err.message.slice(0, 2000) : 'the Windows helper failed';
  return new ComputerUseError(
    code,
    message,
    typeof err.hresult === 'number' ? { hresult: `0x${(err.hresult >>> 0).toString(16)}` } : {},
  );
}

/** A running helper. */
export class HelperClient {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<(e: HelperEvent) => void>();
  private nextId = 1;
  private stderr = '';
  private exited: string | undefined;

  constructor(cmd: HelperCommand) {
    this.child = spawn(cmd.command, cmd.args, { stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    const reader = new LineReader();
    this.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      for (const f of reader.push(chunk)) if (f.kind === 'message') this.onMessage(f.message);
    });
    this.child.stderr!.setEncoding('utf8').on('data', (c: string) => { this.stderr = (this.stderr + c).slice(-4000); });
    this.child.stdin!.on('error', () => undefined); // a dead helper's pipe: reported by 'exit' below
    const gone = (why: string): void => {
      if (this.exited) return;
      this.exited = why;
      const e = new ComputerUseError(
        'internal',
        `the Windows helper ${why}` +
          `${this.stderr ? `: ${this.stderr.trim().split('\n').slice(-5).join(' | ')}` : ''}`,
      );
      for (const p of this.pending.values()) { clearTimeout(p.timer); p.reject(e); }
      this.pending.clear();
    };
    this.child.on('error', (e) => gone(`could not start (${e.message})`));
    this.child.on('exit', (code, signal) => gone(`exited (${signal ?? `code ${code}`})`));
  }

  /** Why the helper is gone, if it is. */
  get exitReason(): string | undefined { return this.exited; }

  /** Calls one op; rejects with the helper's error, on timeout, on abort, or when the helper exits. */
  request<T = unknown>(
    op: string,
    args: Record<string, unknown> = {},
    opts: { timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<T> {
    if (this.exited) return Promise.reject(new ComputerUseError('internal', `the Windows helper ${this.exited}`));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timeoutMs = opts.timeoutMs ?? 30_000;
      const finish = (): void => { this.pending.delete(id); opts.signal?.removeEventListener('abort', onAbort); };
      const onAbort = (): void => {
        const p = this.pending.get(id);
        if (!p) return;
        clearTimeout(p.timer);
        finish();
        this.write({ id: `cancel-${id}`, op: 'cancel', args: { target: id } });
        reject(new ComputerUseError('timeout', `${op} was cancelled`));
      };
      const timer = setTimeout(() => {
        finish();
        this.write({ id: `cancel-${id}`, op: 'cancel', args: { target: id } });
        reject(new ComputerUseError('timeout', `the Windows helper did not answer ${op} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (v) => {
          finish();
          resolve(v as T);
        },
        reject: (e) => {
          finish();
          reject(e);
        },
        timer,
      });
      if (opts.signal?.aborted) { onAbort(); return; }
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      this.write({ id, op, args });
    });
  }

  /** Listens to the helper's events; returns the unsubscribe function. */
  onEvent(fn: (e: HelperEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Ends the helper: its stdin closes, and it is killed if it has not exited within `graceMs`. */
  close(graceMs = 2000): void {
    if (this.exited) return;
    this.child.stdin!.end();
    const t = setTimeout(() => { if (!this.exited) this.child.kill(); }, graceMs);
    t.unref();
  }

  private write(msg: unknown): void {
    if (this.exited || !this.child.stdin!.writable) return;
    this.child.stdin!.write(`${JSON.stringify(msg)}\n`);
  }

  private onMessage(m: unknown): void {
    if (typeof m !== 'object' || m === null) return;
    const msg = m as {
      id?: unknown;
      result?: unknown;
      error?: { code?: unknown; message?: unknown; hresult?: unknown };
      event?: unknown;
      pid?: unknown;
    };
    if (typeof msg.event === 'string') {
      const ev: HelperEvent = { event: msg.event, ...(typeof msg.pid === 'number' ? { pid: msg.pid } : {}) };
      for (const l of this.listeners) l(ev);
      return;
    }
    if (typeof msg.id !== 'number') return; // answers to cancels (string ids) and strays
    const p = this.pending.get(msg.id);
    if (!p) return;
    clearTimeout(p.timer);
    if (msg.error) p.reject(helperError(msg.error));
    else p.resolve(msg.result);
  }
}
