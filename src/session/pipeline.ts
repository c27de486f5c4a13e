/**
 * The one acting pipeline: every input that changes something on the device — element acts, keys, launches,
 * pointer input, the clipboard — goes gate → audit "decided" → dispatch → settle → audit "done" → receipt, here
 * and nowhere else. The session holds only a read-only device (ReadDevice: an acting method does not type-check
 * on it); this module alone takes the acting Device (acting-device.ts), and hands it to a step only as a
 * dispatcher that is live while the step the gate approved runs. The emergency stop and the host's cancel abort
 * the in-flight dispatch; a stopped step's receipt is `unknown` (it may have partly happened) and its audit
 * record says so.
 *
 * A step comes as a plan: `call` takes a CallPlan (the request, the one call to send, how to aim it again at an
 * element found again), `step` a ScriptedStep for inputs made of several calls (keys around a submit check, a
 * launch proven after it started).
 */
import type { RawNode, WindowInfo } from '../engine/node.js';
import { walk } from '../engine/node.js';
import { redactTree } from '../engine/redact.js';
import { ComputerUseError, isComputerUseError } from '../protocol/errors.js';
import type { ActingMethodName, MethodName, ParamsOf, ResultOf } from '../protocol/methods.js';
import type { ActionRequest, Decision, FocusedFacts } from '../policy/gate.js';
import type { LiveFacts } from './steps.js';
import type { Session } from './session.js';
import { actingDevice } from './acting-device.js';
import { showActing, showIdle } from './activity.js';
import { identifyOn } from './identify.js';
import { mnemonicsIn } from './mnemonics.js';
import { enterKindOf } from './field-kind.js';

/** What a step may send once the gate approved it; revoked when the step ends. */
export interface Dispatcher {
  /** Sends an acting method (or a read the dispatch needs) with the stop/cancel signal attached. */
  call<M extends MethodName>(method: M, params: ParamsOf<M>, timeoutMs?: number): Promise<ResultOf<M>>;
  /** Aborts on the emergency stop or the host's cancel. */
  readonly signal: AbortSignal | undefined;
  /** A human approved this exact action: it must not be redirected (no relocation to another handle). */
  readonly confirmed: boolean;
}

/** How a step ended, for the tool and the audit "done" record. */
export interface StepReceipt { status: 'confirmed' | 'unknown' | 'rejected' | 'failed'; detail: string }

/** The stop and cancel signals of one tool call. */
export interface PipelineContext {
  /** The emergency stop (computer-use stop). */
  stop?: AbortSignal | undefined;
  /** The host cancelled the call. */
  signal?: AbortSignal | undefined;
  /**
   * Holds the audit "done" records of this run's steps until `release`: a step whose receipt a later step
   * decides (set_value with submit: the Return after it says whether the field took the value) is recorded with
   * its final outcome, the one the tool prints, never the first half's.
   */
  held?: HeldRecords | undefined;
}

/** Audit "done" records written only once the receipts they read are final (PipelineContext.held). */
export class HeldRecords {
  private readonly writes: (() => void)[] = [];

  /** Keeps a record's write until release. */
  hold(write: () => void): void { this.writes.push(write); }

  /** Writes every held record, reading each receipt now; idempotent. */
  release(): void { for (const w of this.writes.splice(0)) w(); }
}

/** One acting call as data: what the pipeline sends once the gate approved the step. */
export interface PlannedCall<M extends ActingMethodName = ActingMethodName> {
  method: M;
  params: ParamsOf<M>;
  timeoutMs?: number;
}

/** A step the pipeline carries out itself: one acting call. */
export interface CallPlan<M extends ActingMethodName = ActingMethodName> {
  /** What the policy decides on. */
  request: ActionRequest;
  /** What is sent once it is approved. */
  call: PlannedCall<M>;
  /**
   * Aims the call again when the driver answers stale_ref (the handle died or holds another element): the params
   * for the element found again, else it throws. Never used once a human approved the step (an approved action
   * goes to the approved handle or nowhere), nor after a stop.
   */
  retarget?: (stale: ComputerUseError) => Promise<ParamsOf<M>>;
  /** Read once the run settled: its status and detail complete the step's audit record. */
  receipt: Readonly<StepReceipt>;
}

/** A step made of several calls: `dispatch` sends them through the dispatcher once the gate approved. */
export interface ScriptedStep<R> {
  request: ActionRequest;
  dispatch: (d: Dispatcher) => Promise<R>;
  /** The receipt for the audit record, from the dispatch's result and what settling observed. */
  receipt: (result: R, settled: unknown) => StepReceipt;
}

/** A dispatched step waiting for its receipt. */
interface Pending { decision: Decision; receipt: (settled: unknown) => StepReceipt }

/** The error a stop or cancel carries. */
function abortError(signal: AbortSignal): ComputerUseError {
  if (isComputerUseError(signal.reason)) return signal.reason;
  return new ComputerUseError(
    'paused',
    'Stopped: the call was cancelled or the user stopped computer use. The input may have been partly sent; ' +
      'observe before continuing.',
  );
}

/** The receipt detail of a stopped step (typed text never appears in it). */
const STOPPED = 'receipt unknown: stopped during dispatch or settling, the input may have partly happened';

/**
 * One run of the pipeline: any number of steps (gate → decided → dispatch), then one `finish` (settle →
 * done → receipts). A step that fails or is refused ends its own audit record at once.
 */
export class ActingRun {
  private readonly pending: Pending[] = [];
  private finished = false;
  /** Aborts on stop or cancel (undefined when the call has neither). */
  readonly signal: AbortSignal | undefined;
  private readonly held: HeldRecords | undefined;

  constructor(readonly session: Session, ctx: PipelineContext = {}) {
    this.held = ctx.held;
    const signals = [ctx.stop, ctx.signal].filter((s): s is AbortSignal => s !== undefined);
    this.signal = signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals);
  }

  /** True once a stop or cancel arrived. */
  get stopped(): boolean { return this.signal?.aborted ?? false; }

  /** Whether the last step got as far as its dispatch (input may have been sent), not refused or stopped before it. */
  get dispatched(): boolean { return this.sent; }
  private sent = false;

  /**
   * Runs a planned call: gate, then the call, aimed again by `retarget` when its element went stale. Returns the
   * driver's answer; throws as `step` does.
   */
  async call<M extends ActingMethodName>(plan: CallPlan<M>): Promise<ResultOf<M>> {
    const { call, retarget } = plan;
    return this.step({
      request: plan.request,
      dispatch: async (d) => {
        try {
          return await d.call(call.method, call.params, call.timeoutMs);
        } catch (e) {
          if (!retarget || !isComputerUseError(e, 'stale_ref') || d.confirmed || d.signal?.aborted) throw e;
          return await d.call(call.method, await retarget(e), call.timeoutMs);
        }
      },
      receipt: () => ({ status: plan.receipt.status, detail: plan.receipt.detail }),
    });
  }

  /**
   * Asks the gate (which writes the "decided" record), then runs `dispatch` with a dispatcher that is live only
   * while it runs. `receipt` is read at `finish`, after settling. Throws the gate's refusal, the dispatch error
   * (its audit record then says failed, or stopped), or `paused` when stopped before dispatch.
   */
  async step<R>(plan: ScriptedStep<R>): Promise<R> {
    if (this.finished) throw new ComputerUseError('internal', 'This acting run has finished; start a new one.');
    this.sent = false;
    if (this.signal?.aborted) throw abortError(this.signal);
    const decision = await this.session.gate.check(await this.proven(plan.request));
    if (this.signal?.aborted) {
      decision.done('stopped', 'stopped before dispatch: nothing was sent');
      throw abortError(this.signal);
    }
    const device = actingDevice(this.session);
    if (!device) {
      decision.done('failed', 'no acting device');
      throw new ComputerUseError('internal', 'The session has no acting device; nothing was sent.');
    }
    let live = true;
    const signal = this.signal;
    const dispatcher: Dispatcher = {
      signal, confirmed: decision.confirmed === true,
      call: (method, params, timeoutMs) => {
        if (!live)
          return Promise.reject(
            new ComputerUseError('internal', `${method}: this dispatch step has ended; nothing was sent.`),
          );
        return device.call(method, params, timeoutMs, signal);
      },
    };
    let result: R;
    try {
      showActing(this.session, plan.request); // the visible agent: frame + status, best effort, not awaited
      this.sent = true;
      result = await plan.dispatch(dispatcher);
    } catch (e) {
      showIdle(this.session);
      throw this.failed(decision, e);
    } finally {
      live = false;
    }
    this.pending.push({ decision, receipt: (settled) => plan.receipt(result, settled) });
    return result;
  }

  /**
   * The request with what the device's driver proves about the target process now (pid reuse, executable,
   * copies): the policy decides from it, the same route for a local and a remote device. A caller whose dispatch
   * proves the process (node.act `expect`, capability act_identity) passes the facts proven earlier for that pid
   * and start token instead (Session.provenIdentity).
   */
  private async proven(req: ActionRequest): Promise<ActionRequest> {
    if (req.kind === 'launch' || req.pid === undefined || req.identity !== undefined) return req;
    const facts = await identifyOn((m, p) => this.session.device.call(m, p), req.pid);
    if (!facts) return req;
    this.session.rememberIdentity(req.pid, facts);
    return Object.assign({}, req, { identity: facts });
  }

  /** Completes the audit record of a dispatch that threw, and gives the error the caller gets. */
  private failed(decision: Decision, e: unknown): ComputerUseError {
    if (this.signal?.aborted) {
      decision.done('stopped', STOPPED);
      return abortError(this.signal);
    }
    const err = isComputerUseError(e) ? e : new ComputerUseError('action_failed', (e as Error).message);
    // A refusal found during dispatch (a launched program that turned out denied) is a rejection; a link lost
    // mid-dispatch is recorded `unknown` (it may have happened), never failed.
    decision.done(
      err.code === 'denied_by_policy' ? 'rejected' : err.code === 'link_lost' ? 'unknown' : 'failed',
      err.code,
    );
    return err;
  }

  /**
   * Settles and observes (`settle`), then completes every dispatched step's audit record with its receipt. A
   * stop during settling completes them as stopped (receipt unknown) at once and throws `paused`.
   */
  async finish<O>(settle: () => Promise<O>): Promise<O> {
    this.finished = true;
    const signal = this.signal;
    if (signal?.aborted) { this.complete(true); showIdle(this.session); throw abortError(signal); }
    let onAbort: (() => void) | undefined;
    try {
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => { this.complete(true); reject(abortError(signal!)); };
        signal?.addEventListener('abort', onAbort, { once: true });
      });
      aborted.catch(() => undefined);
      const settling = settle();
      // After a stop the settle may still fail in the background; its result is not wanted any more.
      if (signal) settling.catch(() => undefined);
      const out = await (signal ? Promise.race([settling, aborted]) : settling);
      this.complete(false, out);
      return out;
    } catch (e) {
      this.complete(signal?.aborted ?? false);
      throw e;
    } finally {
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      showIdle(this.session);
    }
  }

  /** Writes the "done" record of every dispatched step: its receipt, or stopped. */
  private complete(stopped: boolean, settled?: unknown): void {
    for (const p of this.pending.splice(0)) {
      if (stopped) { p.decision.done('stopped', STOPPED); continue; }
      const write = (): void => {
        let r: StepReceipt;
        try { r = p.receipt(settled); } catch (e) { r = { status: 'unknown', detail: (e as Error).message }; }
        p.decision.done(r.status, r.detail);
      };
      if (this.held) this.held.hold(write);
      else write();
    }
  }
}

/**
 * A whole single-step run: gate → decided → dispatch → settle → done → receipt. Returns the dispatch result,
 * what `settle` observed and the receipt the audit recorded.
 */
export async function perform<R, O>(session: Session, ctx: PipelineContext, step: {
  request: ActionRequest;
  dispatch: (d: Dispatcher) => Promise<R>;
  settle: (result: R) => Promise<O>;
  receipt: (result: R, settled: O) => StepReceipt;
}): Promise<{ result: R; settled: O; receipt: StepReceipt }> {
  const run = new ActingRun(session, ctx);
  let receipt: StepReceipt | undefined;
  const result = await run.step({ request: step.request, dispatch: step.dispatch,
    receipt: (r, settled) => (receipt = step.receipt(r, settled as O)) });
  const settled = await run.finish(() => step.settle(result));
  return { result, settled, receipt: receipt ?? step.receipt(result, settled) };
}

/** The element holding the focus in a live window tree, as the policy reads it (ActionRequest.focused). */
export type FocusedElement = FocusedFacts;

/** The deepest focused node of a (redacted) raw tree, or undefined. */
export function focusedIn(root: RawNode): FocusedElement | undefined {
  let best: { node: RawNode; depth: number; ancestors: RawNode[] } | undefined;
  walk(root, (n, ancestors) => {
    if (n.states.includes('focused') && (!best || ancestors.length >= best.depth))
      best = { node: n, depth: ancestors.length, ancestors: [...ancestors] };
  });
  if (!best) return undefined;
  const n = best.node;
  // `password` is a unified state: every driver reports it, so the host decides nothing by the native role.
  const password = n.states.includes('password');
  return {
    role: n.role,
    ...(n.name ? { name: n.name } : {}),
    multiline: n.states.includes('multiline'),
    password,
    states: [...n.states],
    ...enterKindOf(n, best.ancestors),
  };
}

/**
 * Reads a window LIVE, just before a decision, for what the policy must know about keys and paste: the
 * focused element (a password field asks) and the mnemonics. Never the last snapshot, which may be absent
 * or stale.
 */
export async function liveFocus(session: Session, window: WindowInfo): Promise<LiveFacts> {
  return (await liveRead(session, window)).live;
}

/** liveFocus, with the live tree itself (unredacted: what a submit would submit is read from it, never shown). */
export async function liveRead(session: Session, window: WindowInfo): Promise<{ live: LiveFacts; root: RawNode }> {
  // With key bindings: the access keys of the window's commands decide what alt+<letter> will activate.
  const raw = await session.readWindow(window, { keyBindings: true });
  const root = redactTree(raw.root);
  const focused = focusedIn(root);
  // Always a list (maybe empty): "no mnemonics" must be told apart from "not read" (the rules then ask).
  return { live: { ...(focused ? { focused } : {}), mnemonics: mnemonicsIn(root) }, root: raw.root };
}
