/**
 * The one acting pipeline (Invariant 3, issue 8): every input that changes something on the device — element
 * acts, keys, launches, pointer input, the clipboard — goes gate → audit "decided" → dispatch → settle →
 * audit "done" → receipt, here and nowhere else. The session's device refuses the acting methods outright
 * (`guardDevice`); the only way to send one is the dispatcher handed to a step after the gate approved it,
 * and it is revoked when the step ends. The emergency stop and the host's cancel abort the in-flight
 * dispatch; a stopped step's receipt is `unknown` (it may have partly happened) and its audit record says so.
 */
import type { Device } from '../devices/manager.js';
import type { RawNode, WindowInfo } from '../engine/node.js';
import { walk } from '../engine/node.js';
import { redactTree } from '../engine/redact.js';
import { ComputerUseError, isComputerUseError } from '../protocol/errors.js';
import { isActing, type MethodName, type ParamsOf, type ResultOf } from '../protocol/methods.js';
import type { ActionRequest, Decision, FocusedFacts } from '../policy/gate.js';
import type { LiveFacts } from './steps.js';
import type { Session } from './session.js';
import { showActing, showIdle } from './activity.js';
import { identifyOn } from './identify.js';
import { enterKindOf } from './field-kind.js';


type RawCall = <M extends MethodName>(method: M, params: ParamsOf<M>, timeoutMs?: number, signal?: AbortSignal) => Promise<ResultOf<M>>;
/** The unguarded `call` of each guarded device; only this module holds it. */
const rawCalls = new WeakMap<Device, RawCall>();

/**
 * Guards a device in place (idempotent): its `call` refuses the acting methods, so neither `session.device` nor
 * the device object a caller passed in can reach them except through a pipeline step. Reads pass through.
 */
export function guardDevice(device: Device): Device {
  if (rawCalls.has(device)) return device;
  const raw = device.call.bind(device) as RawCall;
  rawCalls.set(device, raw);
  const guarded: RawCall = (method, params, timeoutMs, signal) => {
    // `acting` on the method's declaration (protocol/methods.ts) decides; an undeclared method counts as acting.
    if (isActing(method)) {
      return Promise.reject(new ComputerUseError('internal', `${method} changes the device and is sent only through the acting pipeline ` +
        '(gate → audit → dispatch). Nothing was sent.'));
    }
    return raw(method, params, timeoutMs, signal);
  };
  device.call = guarded as Device['call'];
  return device;
}

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
}

/** A dispatched step waiting for its receipt. */
interface Pending { decision: Decision; receipt: (settled: unknown) => StepReceipt }

/** The error a stop or cancel carries. */
function abortError(signal: AbortSignal): ComputerUseError {
  if (isComputerUseError(signal.reason)) return signal.reason;
  return new ComputerUseError('paused', 'Stopped: the call was cancelled or the user stopped computer use. The input may have been partly sent; observe before continuing.');
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

  constructor(readonly session: Session, ctx: PipelineContext = {}) {
    const signals = [ctx.stop, ctx.signal].filter((s): s is AbortSignal => s !== undefined);
    this.signal = signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals);
  }

  /** True once a stop or cancel arrived. */
  get stopped(): boolean { return this.signal?.aborted ?? false; }

  /**
   * Asks the gate (which writes the "decided" record), then runs `dispatch` with a dispatcher that is live only
   * while it runs. `receipt` is read at `finish`, after settling. Throws the gate's refusal, the dispatch error
   * (its audit record then says failed, or stopped), or `paused` when stopped before dispatch.
   */
  async step<R>(req: ActionRequest, dispatch: (d: Dispatcher) => Promise<R>, receipt: (result: R, settled: unknown) => StepReceipt): Promise<R> {
    if (this.finished) throw new ComputerUseError('internal', 'This acting run has finished; start a new one.');
    if (this.signal?.aborted) throw abortError(this.signal);
    // The policy decides from what the device's driver proves about the target process now (pid reuse,
    // executable, copies), the same route for a local and a remote device.
    // A caller whose dispatch proves the process (node.act `expect`, capability act_identity) passes the facts
    // proven earlier for that pid and start token instead (Session.provenIdentity).
    const pid = req.kind === 'launch' ? undefined : req.pid;
    if (pid !== undefined && req.kind !== 'launch' && req.identity === undefined) {
      const facts = await identifyOn((m, p) => this.session.device.call(m, p), pid);
      if (facts) { req = Object.assign({}, req, { identity: facts }); this.session.rememberIdentity(pid, facts); }
    }
    const decision = await this.session.gate.check(req);
    if (this.signal?.aborted) { decision.done('stopped', 'stopped before dispatch: nothing was sent'); throw abortError(this.signal); }
    const raw = rawCalls.get(this.session.device);
    if (!raw) { decision.done('failed', 'device not guarded'); throw new ComputerUseError('internal', 'The session device is not guarded; nothing was sent.'); }
    let live = true;
    const signal = this.signal;
    const dispatcher: Dispatcher = {
      signal, confirmed: decision.confirmed === true,
      call: (method, params, timeoutMs) => {
        if (!live) return Promise.reject(new ComputerUseError('internal', `${method}: this dispatch step has ended; nothing was sent.`));
        return raw(method, params, timeoutMs, signal);
      },
    };
    let result: R;
    try {
      showActing(this.session, req); // the visible agent: frame + status, best effort, not awaited
      result = await dispatch(dispatcher);
    } catch (e) {
      showIdle(this.session);
      if (this.signal?.aborted) {
        decision.done('stopped', STOPPED);
        throw abortError(this.signal);
      }
      const err = isComputerUseError(e) ? e : new ComputerUseError('action_failed', (e as Error).message);
      // A refusal found during dispatch (a launched program that turned out denied) is a rejection.
      // Hook (issue 12, devices): a link lost mid-dispatch is recorded `unknown` (it may have happened), not failed.
      decision.done(err.code === 'denied_by_policy' ? 'rejected' : err.code === 'link_lost' ? 'unknown' : 'failed', err.code);
      throw err;
    } finally {
      live = false;
    }
    this.pending.push({ decision, receipt: (settled) => receipt(result, settled) });
    return result;
  }

  /**
   * Settles and observes (`settle`), then completes every dispatched step's audit record with its receipt. A
   * stop during settling completes them as stopped (receipt unknown) at once and throws `paused`.
   */
  async finish<O>(settle: () => Promise<O>): Promise<O> {
    this.finished = true;
    const signal = this.signal;
    const complete = (stopped: boolean, settled?: O): void => {
      for (const p of this.pending.splice(0)) {
        if (stopped) { p.decision.done('stopped', STOPPED); continue; }
        let r: StepReceipt;
        try { r = p.receipt(settled); } catch (e) { r = { status: 'unknown', detail: (e as Error).message }; }
        p.decision.done(r.status, r.detail);
      }
    };
    if (signal?.aborted) { complete(true); showIdle(this.session); throw abortError(signal); }
    let onAbort: (() => void) | undefined;
    try {
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => { complete(true); reject(abortError(signal!)); };
        signal?.addEventListener('abort', onAbort, { once: true });
      });
      aborted.catch(() => undefined);
      const settling = settle();
      // After a stop the settle may still fail in the background; its result is not wanted any more.
      if (signal) settling.catch(() => undefined);
      const out = await (signal ? Promise.race([settling, aborted]) : settling);
      complete(false, out);
      return out;
    } catch (e) {
      complete(signal?.aborted ?? false);
      throw e;
    } finally {
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      showIdle(this.session);
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
  const result = await run.step(step.request, step.dispatch, (r, settled) => (receipt = step.receipt(r, settled as O)));
  const settled = await run.finish(() => step.settle(result));
  return { result, settled, receipt: receipt ?? step.receipt(result, settled) };
}

/** The element holding the focus in a live window tree, as the policy reads it (ActionRequest.focused). */
export type FocusedElement = FocusedFacts;

/** The deepest focused node of a (redacted) raw tree, or undefined. */
export function focusedIn(root: RawNode): FocusedElement | undefined {
  let best: { node: RawNode; depth: number; ancestors: RawNode[] } | undefined;
  walk(root, (n, ancestors) => {
    if (n.states.includes('focused') && (!best || ancestors.length >= best.depth)) best = { node: n, depth: ancestors.length, ancestors: [...ancestors] };
  });
  if (!best) return undefined;
  const n = best.node;
  // `password` is a unified state: every driver reports it, so the host decides nothing by the native role.
  const password = n.states.includes('password');
  return { role: n.role, ...(n.name ? { name: n.name } : {}), multiline: n.states.includes('multiline'), password, states: [...n.states],
    ...enterKindOf(n, best.ancestors) };
}

/** Roles of the controls an activating key can trigger (ActionRequest.mnemonics lists them all). */
const COMMAND_ROLES = new Set(['button', 'link', 'menuitem']);

/**
 * The toolkit's access key of a node, when the driver reports one: AT-SPI's Action.GetKeyBinding(0) gives
 * "<Alt>d" for a GTK3 button labelled "_Delete all" (measured), whose accessible name is "Delete all".
 * RawNode does not carry it yet; a driver that adds `keyBinding` is read here.
 */
function bindingKey(n: RawNode): string | undefined {
  const binding = n.keyBinding;
  const m = binding ? /^(?:<alt>|alt\+)\s*([a-z0-9])(?:;|$)/i.exec(binding.trim()) : null;
  return m?.[1]?.toLowerCase();
}

/** The access key marked in a label with `_X` (GTK) or `&X` (Qt, Windows; `&&` is a literal ampersand). */
function labelKey(name: string): { key: string; label: string } | undefined {
  const t = name.replace(/&&/g, '\u0000').replace(/__/g, '\u0001');
  const m = /[_&]([^\s_&\u0000\u0001])/u.exec(t);
  if (!m?.[1]) return undefined;
  const label = t.replace(/[_&](?=[^\s_&\u0000\u0001])/u, '').replace(/\u0000/g, '&').replace(/\u0001/g, '_');
  return { key: m[1].toLowerCase(), label };
}

/**
 * Every enabled command control of a live window (buttons, links, menu items, hidden menu items included:
 * a menu opened by keys shows them) with its access key in lower case, "" when none is known: from the
 * toolkit's key binding, else from a `_X`/`&X` marker in its name. GTK strips the marker from accessible names,
 * so GTK mnemonics are known only once the driver reports the key binding.
 */
export function mnemonicsIn(root: RawNode): { key: string; label: string; role: string }[] {
  const out: { key: string; label: string; role: string }[] = [];
  walk(root, (n) => {
    if (!n.name || !COMMAND_ROLES.has(n.role) || n.states.includes('disabled')) return;
    const marked = labelKey(n.name);
    out.push({ key: bindingKey(n) ?? marked?.key ?? '', label: marked?.label ?? n.name, role: n.role });
  });
  return out;
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
