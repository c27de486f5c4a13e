/**
 * The replay driver: serves a recorded transcript (src/conformance/transcript.ts) so a session recorded on a
 * real machine is a golden test anywhere. A request is answered with what the recording answered to the first
 * not yet used request of the same method and the same params (key order aside); the driver's notifications
 * that followed that answer are sent after it. Hello lists the recorded driver's methods, so the host calls
 * what the recorded driver offered. A request the recording does not hold fails as `unsupported`, naming it,
 * never with a made-up answer. A request the recording cancelled is answered only once it is cancelled again.
 */
import { ComputerUseError, ERROR_CODES, type ErrorCode } from '../../protocol/errors.js';
import { METHOD_NAMES, type MethodName } from '../../protocol/methods.js';
import type { HandlerContext, Handlers, Peer } from '../../protocol/peer.js';
import type { Transcript, TranscriptEntry } from '../../protocol/transcript.js';

/** How long a recorded-as-cancelled request waits for its cancel. */
const CANCEL_WAIT_MS = 10_000;

interface Exchange {
  method: string;
  params: string;
  answer?: Extract<TranscriptEntry, { type: 'result' | 'error' }>;
  /** The host cancelled it in the recording before it was answered. */
  cancelled: boolean;
  /** Driver notifications that came right after the answer. */
  then: Extract<TranscriptEntry, { type: 'notification' }>[];
  used: boolean;
}

/** JSON with sorted keys: the same params in another key order are the same request. */
export function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    typeof x === 'object' && x !== null && !Array.isArray(x)
      ? Object.fromEntries(
          Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : x,
  );
}

/** Pairs each recorded request with its answer, cancellation and following notifications. */
export function exchanges(t: Transcript): Exchange[] {
  const out: Exchange[] = [];
  const open = new Map<string, Exchange>();
  let last: Exchange | undefined;
  for (const e of t.entries) {
    if (e.type === 'restart') { open.clear(); last = undefined; continue; }
    if (e.type === 'request') {
      const x: Exchange = {
        method: e.method,
        params: canonical(e.params === undefined ? {} : e.params),
        cancelled: false,
        then: [],
        used: false,
      };
      out.push(x);
      open.set(JSON.stringify(e.id), x);
    } else if (e.type === 'result' || e.type === 'error') {
      const x = open.get(JSON.stringify(e.id));
      if (x && !x.answer) { x.answer = e; open.delete(JSON.stringify(e.id)); last = x; }
    } else if (e.type === 'notification') {
      if (e.from === 'host' && e.method === '$/cancel') {
        const id = (e.params as { id?: unknown } | undefined)?.id;
        const x = open.get(JSON.stringify(id));
        if (x) x.cancelled = true;
      } else if (e.from === 'driver' && last) last.then.push(e);
    }
  }
  return out.filter((x) => x.answer !== undefined);
}

export class ReplayDriver {
  private readonly recorded: Exchange[];
  peer?: Peer;
  constructor(readonly transcript: Transcript) { this.recorded = exchanges(transcript); }

  /** The methods the recorded driver listed in hello (else the ones the recording holds). */
  methods(): MethodName[] {
    const hello = this.recorded.find((x) => x.method === 'hello' && x.answer?.type === 'result');
    const listed = (hello?.answer as { result?: { methods?: unknown } } | undefined)?.result?.methods;
    const names = Array.isArray(listed) ? listed : this.recorded.map((x) => x.method);
    return METHOD_NAMES.filter((m) => names.includes(m));
  }

  handlers(): Handlers {
    const table: Record<string, (p: unknown, ctx: HandlerContext) => Promise<unknown>> = {};
    for (const m of new Set<string>(['hello', ...this.methods()])) table[m] = (p, ctx) => this.serve(m, p, ctx);
    return table as Handlers;
  }

  private async serve(method: string, params: unknown, ctx: HandlerContext): Promise<unknown> {
    const key = canonical(params);
    const x = this.recorded.find((r) => !r.used && r.method === method && r.params === key);
    if (!x)
      throw new ComputerUseError(
        'unsupported',
        `The transcript holds no further ${method} request with these params.`,
        { method },
      );
    x.used = true;
    if (x.cancelled) await cancelled(ctx.signal);
    const a = x.answer!;
    if (x.then.length && this.peer) {
      const peer = this.peer;
      setImmediate(() => {
        for (const n of x.then) peer.notify(n.method as 'log', n.params as { level: string; message: string });
      });
    }
    if (a.type === 'result') return a.result;
    const data = (a.error.data ?? {}) as Record<string, unknown>;
    const code =
      typeof data['code'] === 'string' && Object.hasOwn(ERROR_CODES, data['code'])
        ? (data['code'] as ErrorCode)
        : 'internal';
    const { code: _c, ...details } = data;
    throw new ComputerUseError(code, a.error.message, details);
  }
}

/** Resolves once the signal aborts, or after CANCEL_WAIT_MS. */
function cancelled(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, CANCEL_WAIT_MS);
    signal.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
  });
}
