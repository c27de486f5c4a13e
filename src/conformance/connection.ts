/**
 * The kit's side of the wire: the driver as a raw process. Unlike the host's Peer it may send anything (junk,
 * oversize lines, odd ids) and sees every line the driver answers, so each rule can say exactly what came.
 * Every response is checked against its method's declared schema as it arrives; what fails is kept for the
 * `wire.schema` rule.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { ERROR_CODES } from '../protocol/errors.js';
import { LineReader } from '../protocol/framing.js';
import { methodSpec } from '../protocol/methods.js';
import { validationError } from '../protocol/validate.js';
import { entryOf, type TranscriptRecorder } from '../protocol/transcript.js';
import { cite } from './report.js';

/** A response as it came off the wire. */
export interface WireResponse {
  id: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: { code?: unknown } & Record<string, unknown> };
}

/** One answer to a call: a result, an error, or nothing within the deadline (`exited`: the driver died). */
export type Answer =
  | { kind: 'result'; value: unknown }
  | { kind: 'error'; code: number; dataCode?: string; message: string; data?: Record<string, unknown> }
  | { kind: 'none'; exited: boolean };

/** What the schema check found on one response. */
export interface SchemaViolation { method: string; problem: string }

/** Text an answer is described by in a rule's message (never more than a short line of it). */
export function describeAnswer(a: Answer): string {
  if (a.kind === 'result') return `result ${clip(JSON.stringify(a.value))}`;
  if (a.kind === 'error') return `error ${a.code}${a.dataCode ? ` (${a.dataCode})` : ''}: ${clip(a.message)}`;
  return a.exited ? 'no answer: the driver exited' : 'no answer';
}

/** Text from the driver made one short printable line. */
export function clip(s: string | undefined, n = 160): string {
  const t = (s ?? '').replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ');
  return t.length > n ? `${t.slice(0, n)}…` : t;
}

export class DriverProcess {
  readonly responses: WireResponse[] = [];
  readonly notifications: { method: string; params: unknown }[] = [];
  readonly violations: SchemaViolation[] = [];
  /** Breaches of the framing rules seen on stdout (junk lines, a missing jsonrpc member, answers to ids never sent), each cited. */
  readonly framing: string[] = [];
  /** Every id the kit wrote on a request line, as JSON, with how many answers it got. */
  private readonly answered = new Map<string, number>();
  /** How many results were checked against their schema. */
  checked = 0;
  /** The apps whose windows were read (tree.snapshot), for a transcript's header. */
  readonly windowApps = new Set<string>();
  private readonly methodOfId = new Map<string, string>();
  private readonly reader = new LineReader(64 * 1024 * 1024);
  private waiters: (() => void)[] = [];
  private stderr = '';
  private exit: { code: number | null; signal: string | null } | undefined;
  private nextId = 1;
  private readonly child: ChildProcess;

  constructor(
    readonly argv: readonly string[],
    private readonly recorder?: TranscriptRecorder,
    env?: Record<string, string>,
  ) {
    if (argv.length === 0) throw new Error('the driver command is empty');
    this.child = spawn(argv[0]!, argv.slice(1), {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, ...(env ?? {}) },
    });
    this.child.stdout!.setEncoding('utf8');
    this.child.stderr!.setEncoding('utf8');
    this.child.stderr!.on('data', (d: string) => { this.stderr = (this.stderr + d).slice(-4096); });
    this.child.stdout!.on('data', (chunk: string) => {
      for (const ev of this.reader.push(chunk)) {
        if (ev.kind === 'message') this.onMessage(ev.message);
        else if (ev.kind === 'junk')
          this.breach(
            cite('R-frame-line', `stdout held a line that is not a JSON object: ${JSON.stringify(clip(ev.line, 80))}`),
          );
        else this.breach(cite('R-frame-line', `stdout held a line of ${ev.bytes} bytes`));
      }
      this.wake();
    });
    this.child.stdin!.on('error', () => undefined); // a driver that died: the rule reports it, not an unhandled error
    this.child.on('exit', (code, signal) => { this.exit = { code, signal }; this.wake(); });
    this.child.on('error', (e) => {
      this.stderr += `\nfailed to start: ${e.message}`;
      this.exit = { code: null, signal: 'spawn-error' };
      this.wake();
    });
  }

  get exited(): boolean { return this.exit !== undefined; }
  /** How it ended, for messages. */
  get exitText(): string {
    return this.exit ? (this.exit.signal ? `signal ${this.exit.signal}` : `code ${this.exit.code}`) : 'running';
  }
  get stderrTail(): string { return this.stderr.trim().split('\n').slice(-3).join(' | '); }

  /** Writes one raw line (a newline is added). Recorded as the message it holds, else as its size only. */
  sendLine(line: string): void {
    const message = line.length <= 64 * 1024 ? parsed(line) : undefined;
    const id = (message as { id?: unknown } | undefined)?.id;
    if (typeof id === 'string' || typeof id === 'number') this.answered.set(JSON.stringify(id), 0);
    const entry = message === undefined ? undefined : entryOf(message, 'host');
    if (entry?.type === 'request') this.methodOfId.set(JSON.stringify(entry.id), entry.method);
    this.recorder?.add(
      entry?.type === 'request' && (message as { jsonrpc?: unknown }).jsonrpc === '2.0'
        ? entry
        : { type: 'raw', from: 'host', bytes: Buffer.byteLength(line) },
    );
    this.write(`${line}\n`);
  }

  /** Sends a request with a fresh (or given) id and returns the id. */
  send(method: string, params?: unknown, id: string | number = this.nextId++): string | number {
    const msg = { jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) };
    this.methodOfId.set(JSON.stringify(id), method);
    this.answered.set(JSON.stringify(id), 0);
    this.recorder?.add(entryOf(msg, 'host'));
    this.write(`${JSON.stringify(msg)}\n`);
    return id;
  }

  /** Sends a notification. */
  notify(method: string, params: unknown): void {
    const msg = { jsonrpc: '2.0', method, params };
    this.recorder?.add(entryOf(msg, 'host'));
    this.write(`${JSON.stringify(msg)}\n`);
  }

  /** Sends a request and waits for its answer. */
  async call(method: string, params?: unknown, timeoutMs = 15_000): Promise<Answer> {
    return this.answer(this.send(method, params), timeoutMs);
  }

  /** Waits for the answer to `id`. */
  async answer(id: unknown, timeoutMs = 15_000): Promise<Answer> {
    const r = await this.waitFor(() => this.responses.find((m) => sameId(m.id, id)), timeoutMs);
    if (!r) return { kind: 'none', exited: this.exited };
    if (r.error) {
      const data = typeof r.error.data === 'object' && r.error.data !== null ? r.error.data : undefined;
      return {
        kind: 'error',
        code: r.error.code,
        message: r.error.message,
        ...(typeof data?.code === 'string' ? { dataCode: data.code } : {}),
        ...(data ? { data } : {}),
      };
    }
    return { kind: 'result', value: r.result };
  }

  /** Waits until `probe` finds something, the driver exits or the time is up. */
  async waitFor<T>(probe: () => T | undefined, timeoutMs: number): Promise<T | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = probe();
      if (hit !== undefined) return hit;
      const left = deadline - Date.now();
      if (left <= 0 || this.exited) return undefined;
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          this.waiters = this.waiters.filter((w) => w !== done);
          resolve();
        };
        const timer = setTimeout(done, left);
        this.waiters.push(done);
      });
    }
  }

  /** Closes the driver's stdin and waits for it to exit; true when it did in time. */
  async endInput(timeoutMs: number): Promise<boolean> {
    this.child.stdin!.end();
    return (await this.waitFor(() => (this.exited ? true : undefined), timeoutMs)) === true;
  }

  /** Ends the process for good. */
  kill(): void { if (!this.exited) this.child.kill('SIGKILL'); }

  private write(text: string): void {
    if (this.exited || this.child.stdin!.destroyed) return;
    this.child.stdin!.write(text);
  }

  private wake(): void { for (const w of [...this.waiters]) w(); }

  /** Keeps a framing breach (the first few: one defect repeats on every line). */
  private breach(problem: string): void { if (this.framing.length < 8) this.framing.push(problem); }

  private onMessage(message: unknown): void {
    this.recorder?.add(entryOf(message, 'driver'));
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      this.breach(
        cite('R-frame-line', `stdout held a JSON value that is not an object: ${clip(JSON.stringify(message), 60)}`),
      );
      return;
    }
    const m = message as Record<string, unknown>;
    if (m['jsonrpc'] !== '2.0')
      this.breach(cite('R-jsonrpc', `a message without "jsonrpc": "2.0": ${clip(JSON.stringify(message), 100)}`));
    if (typeof m['method'] === 'string' && m['id'] === undefined) {
      this.notifications.push({ method: m['method'], params: m['params'] });
      return;
    }
    const r = m as unknown as WireResponse;
    this.responses.push(r);
    if (r.id !== null) {
      const key = JSON.stringify(r.id);
      const n = this.answered.get(key);
      if (n === undefined) this.breach(cite('R-id', `an answer to id ${clip(key, 60)}, which the kit never sent`));
      else if (n >= 1) this.breach(cite('R-id', `id ${clip(key, 60)} was answered ${n + 1} times`));
      if (n !== undefined) this.answered.set(key, n + 1);
    }
    const method = this.methodOfId.get(JSON.stringify(r.id));
    if (r.error !== undefined) {
      const problem = errorShapeProblem(r.error);
      if (problem) this.violations.push({ method: method ?? '(unmatched)', problem });
      return;
    }
    const spec = method ? methodSpec(method) : undefined;
    if (!spec) return;
    this.checked++;
    const bad = validationError(spec.result, r.result);
    if (bad) this.violations.push({ method: spec.method, problem: bad });
    else if (spec.method === 'tree.snapshot') this.windowApps.add((r.result as { window: { app: string } }).window.app);
  }
}

/** What is wrong with an error object, or undefined: a numeric code, a message, and data.code from the table. */
export function errorShapeProblem(error: unknown): string | undefined {
  const e = error as { code?: unknown; message?: unknown; data?: unknown };
  if (typeof e !== 'object' || e === null) return 'error is not an object';
  if (!Number.isInteger(e.code)) return 'error.code is not an integer';
  if (typeof e.message !== 'string') return 'error.message is not a string';
  if (e.code === -32000) {
    const data = e.data as { code?: unknown } | undefined;
    if (typeof data !== 'object' || data === null || typeof data.code !== 'string')
      return 'an application error (-32000) has no error.data.code';
    if (!Object.hasOwn(ERROR_CODES, data.code))
      return `error.data.code "${clip(data.code, 40)}" is not a protocol error code`;
  }
  return undefined;
}

function parsed(line: string): unknown {
  try { return JSON.parse(line); } catch { return undefined; }
}

function sameId(a: unknown, b: unknown): boolean {
  return a === b;
}
