/**
 * The act flow: a computer_act call's actions go one by one through named stages over one explicit state
 * (ActState), then the whole call settles once:
 *
 *   resolve → target → precheck → step      (per action; the first receipt that ends the list stops it)
 *   settle → receipt                        (once, inside the pipeline's finish, before the audit's "done")
 *
 * resolve turns a ref into the element it was given for; target finds the window it goes to (the last snapshot's,
 * proven by the driver at dispatch, or the listed one); precheck relocates a ref that must be read live, refuses
 * what would do harm, and builds the step's plan (the policy's request and the node.act call); step hands the plan
 * to the acting pipeline (pipeline.ts) and words its answer or its error as the receipt; settle waits for the app
 * and reads what changed; receipt confirms what the fresh snapshot proves. Refs are re-resolved and their identity
 * re-checked before every dispatch; what cannot be found for sure fails with stale_ref and a fresh snapshot.
 */
import type { WindowInfo } from '../engine/node.js';
import type { Snapshot } from '../engine/snapshot.js';
import { nameFocusHolder } from './focus-holder.js';
import type { Fingerprint } from '../engine/refs.js';
import { PASSWORD_MASK, redactText } from '../engine/redact.js';
import { nameText } from '../engine/escape.js';
import { ComputerUseError, isComputerUseError, staleRef } from '../protocol/errors.js';
import { parseScrollTo } from '../protocol/cells.js';
import type { ActParams, ActResult, SnapshotResult } from '../protocol/methods.js';
import type { ElementStep } from '../policy/gate.js';
import { EDIT_SETTLE_MS, type Session, type SettleOptions } from './session.js';
import { resolveCellRefNow, rowExpander, withGoToCell } from './cells.js';
import { withEditableAncestor } from './editable-ancestor.js';
import { aimAtFoundRow, bindFoundRow, foundRowOf } from './found-rows.js';
import { ActingRun, type CallPlan, type PipelineContext } from './pipeline.js';
import { elementStep } from './steps.js';
import { collectEffects, openWindows, windowsOf, type Effects } from './effects.js';
import { identifyOn } from './identify.js';
import { namesInside, namingInside, viaText } from './inner.js';
import { onlySelectionMoved } from './selection-diff.js';
import { ACTIONABILITY, chooserSubmit, lineBreakSubmit, textFieldsOf } from './act-checks.js';
import { EDIT_OPS, verifyReceipts, type ActionReceipt, type ActionSpec } from './receipts.js';
import { closeReceipts, windowRootRef } from './close.js';
import { closesOnClick, dialogOutcome, DIALOG_CLOSE_MS } from './dialog-close.js';

export type { ActionReceipt, ActionSpec, ReceiptStatus } from './receipts.js';

/** Ops whose request, once sent, may have acted though the app never answered (a modal dialog it opened). */
const ACTIVATING: ReadonlySet<string> = new Set([
  'click',
  'double_click',
  'right_click',
  'toggle',
  'expand',
  'collapse',
  'select',
]);
/** An actionability wait a receipt mentions: one the element really made (shorter ones are the checks' own time). */
const NOTABLE_WAIT_MS = 100;

/** What a computer_act call did: a receipt per action run, and what changed. */
export interface ActOutcome {
  receipts: ActionReceipt[];
  /** Diff lines of the window the actions targeted. */
  diff: string[];
  window?: WindowInfo;
  /** Snapshots of windows that appeared during the acts (dialogs, menus). */
  newWindows: { window: WindowInfo; snapshot: Snapshot }[];
  /** Windows that closed. */
  closedWindows: WindowInfo[];
  /** Popup windows whose content the diff already shows. */
  popups?: WindowInfo[];
  /** The window that took the focus back when the target closed (a dialog): the diff is that window's. */
  refocused?: WindowInfo;
  /** The diff shows the window's new title (its own element renamed): the focus-back header names it by ref only. */
  retitled?: boolean;
  /** The app's other windows that changed while the target dialog stayed open, with their diffs. */
  others?: { window: WindowInfo; diff: string[] }[];
  /** The app did not answer the re-read after the act (busy): its effect was not read. */
  busy?: boolean;
  /** New windows listed by title only: their app did not answer. */
  unread?: WindowInfo[];
  settle?: { settled: boolean; events: number; ms: number };
  /** A fresh local snapshot when a ref was stale. */
  freshSnapshot?: Snapshot;
}

/** Most actions one computer_act call runs: the tool's schema caps the list, checked where every tool call enters. */
export const MAX_ACTIONS = 20;

/** The state one computer_act call carries through its stages. */
interface ActState {
  readonly session: Session;
  readonly run: ActingRun;
  /**
   * The driver proves the element's process and window at dispatch (act_identity) and lists the windows around
   * the act (act_windows): an act may ride on the last snapshot (a click is node.act, ui.settle, tree.snapshot).
   * Other drivers, and a window the driver finds changed, take the listed path: apps.list and process.identify first.
   */
  readonly proving: boolean;
  readonly settle: SettleOptions;
  /** One receipt per action run so far, in order. */
  readonly receipts: ActionReceipt[];
  /** Windows open before the first dispatch: listed up front, or by the first node.act (act_windows). */
  windowsBefore: Map<string, WindowInfo> | undefined;
  /** The window the last action went to: the one that settles and is read again. */
  window: WindowInfo | undefined;
  /** A fresh local snapshot, when a ref turned out stale. */
  freshSnapshot: Snapshot | undefined;
}

/** An action whose ref names a known element (stage resolve). */
interface Resolved {
  spec: ActionSpec; fingerprint: Fingerprint;
  /** Said first in the receipt's detail: the action went to another element than the ref asked for (a close). */
  note?: string;
}

/** An action and the window it goes to (stage target); `fast`: it rides on the last snapshot's window. */
interface Targeted extends Resolved { target: WindowInfo; fast: boolean }

/** An action ready to go (stage precheck): the pipeline's plan and the receipt the step fills in. */
interface Planned extends Targeted { plan: CallPlan<'node.act'>; receipt: ActionReceipt }

/** How a step ended: 'ok', 'stop' (its receipt ends the list) or 'retry' (window_changed: nothing sent, list it). */
type StepEnd = 'ok' | 'stop' | 'retry';

/**
 * Runs a list of actions through the acting pipeline; stops at the first failure (later actions may depend on
 * it). The emergency stop or the host's cancel (`ctx`) ends the list before the next dispatch and aborts the
 * one in flight.
 */
export async function runActions(
  session: Session,
  actions: ActionSpec[],
  settle?: Partial<SettleOptions>,
  ctx: PipelineContext = {},
): Promise<ActOutcome> {
  const state = await begin(session, actions, settle, ctx);
  for (const asked of actions) if (!(await actOne(state, asked))) break;
  return state.run.finish(async () => {
    const out = receiptStage(state, await closingStage(state, await settleStage(state)));
    await closeReceipts(session, out.receipts, out);
    return out;
  });
}

/**
 * The state before the first action: the settle the list needs and, from a driver that does not prove windows,
 * the windows open now.
 */
async function begin(session: Session, actions: ActionSpec[], settle: Partial<SettleOptions> | undefined,
  ctx: PipelineContext): Promise<ActState> {
  const settleOpts: SettleOptions = { ...session.settleDefaults, ...(settle ?? {}) };
  if (actions.some((a) => EDIT_OPS.has(a.op))) settleOpts.minMs = Math.max(settleOpts.minMs ?? 0, EDIT_SETTLE_MS);
  const caps = (await session.device.hello()).capabilities;
  const proving = caps.includes('act_identity') && caps.includes('act_windows');
  return { session, run: new ActingRun(session, ctx), proving, settle: settleOpts, receipts: [],
    windowsBefore: proving ? undefined : await openWindows(session), window: undefined, freshSnapshot: undefined };
}

/**
 * One action through resolve → target → precheck → step. At most two passes: a fast one the driver refused with
 * window_changed (nothing sent), then a listed one. False when its receipt ends the list.
 */
async function actOne(state: ActState, asked: ActionSpec): Promise<boolean> {
  const resolved = await resolve(state, asked);
  if (!resolved) return false;
  const seen = state.session.last.get(resolved.fingerprint.window)?.window;
  // The window as the model last saw it, which the driver proves unchanged at dispatch (a masked title cannot be
  // compared with the one the driver reads: such a window is listed).
  let fast = state.proving && seen !== undefined && !seen.title.includes(PASSWORD_MASK);
  for (;;) {
    const targeted = await target(state, resolved, fast ? seen : undefined);
    if (!targeted) return false;
    const planned = await precheck(state, targeted);
    if (planned === 'stop') return false;
    const end = planned === 'retry' ? planned : await step(state, planned);
    if (end === 'retry' && fast) { fast = false; continue; }
    return end === 'ok';
  }
}

/**
 * Stage resolve: takes the action as asked; returns it with the fingerprint of the element its ref was given for,
 * or undefined after a receipt that ends the list (a bad cell address, a stop, a ref never given or gone).
 */
async function resolve(state: ActState, asked: ActionSpec): Promise<Resolved | undefined> {
  const { session, run, receipts } = state;
  // Grid hook (cells.ts): "e34:B7" names a cell of a table by address; it acts as that cell's own ref.
  let spec = asked;
  try {
    const cell = await resolveCellRefNow(session, asked.ref, receipts.length > 0);
    // Expand-or-collapse hook (cells.ts): any cell of a tree row expands it, through the row's expander cell.
    const ref = asked.op === 'expand' || asked.op === 'collapse' ? rowExpander(session, cell) : cell;
    spec = { ...asked, ref, ...(ref !== asked.ref ? { asked: asked.ref } : {}) };
  } catch (e) {
    const err = isComputerUseError(e) ? e : new ComputerUseError('invalid_params', (e as Error).message);
    receipts.push({ ...asked, status: 'failed', detail: err.message, error: err });
    return undefined;
  }
  if (run.stopped) {
    const err = isComputerUseError(run.signal?.reason)
      ? run.signal.reason
      : new ComputerUseError('paused', 'Stopped by the user.');
    receipts.push({ ...spec, status: 'rejected', detail: err.message, error: err });
    return undefined;
  }
  const entry = session.refs.lookup(spec.ref);
  if (!entry) {
    receipts.push({ ...spec, status: 'failed', detail: 'unknown ref',
      error: new ComputerUseError(
        'unknown_ref',
        session.refs.issued(spec.ref)
          ? `Ref ${spec.ref} is gone: its window closed, or its element has not been seen for several snapshots, ` +
            'since it was shown. Call computer_observe on the window you want now, then act on a ref it shows.'
          : `Ref ${spec.ref} was never given in this session. ` +
            'Call computer_observe to get refs, then act on one it shows.',
      ), });
    return undefined;
  }
  // A close goes to the root of the window that holds the element (close.ts).
  if (spec.op === 'close') return closeTarget(state, spec, entry.fingerprint);
  if (!(await bringFoundRow(state, spec, entry.fingerprint))) return undefined;
  // A scroll to a row find named goes to the row that holds what that row held (found-rows.ts).
  const aimed = await aimAtFoundRow(session, spec, entry.id, run.signal);
  if (aimed instanceof ComputerUseError) {
    receipts.push({ ...spec, status: 'failed', detail: aimed.message, error: aimed });
    return undefined;
  }
  session.noteActed(spec.ref);
  return { spec: aimed, fingerprint: entry.fingerprint };
}

/**
 * Part of resolve for a row find named off screen by a ref of its own (found-rows.ts): its list is scrolled to
 * it first, as an action of its own with its own receipt, and the ref points at the row on screen. False after a
 * receipt that ends the list (the scroll failed, or no one row on screen holds what the row held).
 */
async function bringFoundRow(state: ActState, spec: ActionSpec, fp: Fingerprint): Promise<boolean> {
  const { session, run, receipts } = state;
  const row = foundRowOf(session, spec.ref);
  const last = session.last.get(fp.window);
  // A row the model has seen on screen since (a later observe printed its ref) is acted on as it is.
  if (!row || !last || last.elements.some((l) => l.ref === spec.ref)) return true;
  const window = last.window;
  if (!(await actOne(state, { ref: row.listRef, op: 'scroll', value: `to ${row.row}` }))) return false;
  const err = await bindFoundRow(session, spec.ref, window, run.signal);
  if (!err) return true;
  receipts.push({ ...spec, status: 'failed', detail: err.message, error: err });
  return false;
}

/**
 * Part of resolve for a close: the root of the window the ref's element is in, as its last snapshot shows it; the
 * receipt names the element asked for when that is another. Undefined after a receipt when no root is shown.
 */
function closeTarget(state: ActState, spec: ActionSpec, fp: Fingerprint): Resolved | undefined {
  const { session } = state;
  const root = windowRootRef(session.last.get(fp.window));
  const rootEntry = root === undefined ? undefined : session.refs.lookup(root);
  if (root === undefined || !rootEntry) {
    state.receipts.push({ ...spec, status: 'failed', detail: 'no window root shown',
      error: new ComputerUseError(
        'invalid_params',
        `The last snapshot of ${spec.ref}'s window does not show the window itself ` +
          '(a scoped read). Nothing was sent. Call computer_observe on the window, then close its first ref.',
      ), });
    return undefined;
  }
  session.noteActed(root);
  if (root === spec.ref) return { spec, fingerprint: rootEntry.fingerprint };
  return {
    spec: { ...spec, ref: root },
    fingerprint: rootEntry.fingerprint,
    note: `the window that holds ${spec.ref}`,
  };
}

/**
 * Stage target: takes a resolved action and the window of the last snapshot when the driver will prove it
 * unchanged (`seen`); returns the action with the window it goes to, or undefined after a receipt that ends the
 * list. Without `seen` the windows are listed (again, after a refusal): the policy decides on what the window is now.
 */
async function target(state: ActState, r: Resolved, seen: WindowInfo | undefined): Promise<Targeted | undefined> {
  const { spec, fingerprint: fp } = r;
  let to = seen;
  if (!to) {
    const open = state.windowsBefore && !state.proving ? state.windowsBefore : await openWindows(state.session);
    state.windowsBefore ??= open;
    to = open.get(fp.window);
    if (!to) {
      state.receipts.push({ ...spec, status: 'failed', detail: 'window closed', error: closedWindow(spec.ref) });
      return undefined;
    }
    // A window handle that another process holds now (a reused handle): not the element the ref was given for.
    if (to.pid !== fp.pid || to.startToken !== fp.startToken) {
      state.receipts.push({
        ...spec,
        status: 'failed',
        detail: 'another process',
        error: new ComputerUseError(
          'stale_ref',
          `Ref ${spec.ref} belonged to a window that another process holds now. Nothing was sent. ` +
            'Call computer_apps, then computer_observe.',
        ),
      });
      return undefined;
    }
  }
  state.window = to;
  return { ...r, target: to, fast: seen !== undefined };
}

/**
 * Stage precheck: takes a targeted action; returns its plan (the policy's request and the node.act call, aimed
 * at the element found live when its ref needs a live read), or 'stop' after a receipt that refuses or fails it
 * (stale, no drop target, a line break that would press Return), or 'retry' as `step` would.
 */
async function precheck(state: ActState, targeted: Targeted): Promise<Planned | 'stop' | 'retry'> {
  const { session } = state;
  // The element as the ref table knows it now (an earlier pass may have rebound it).
  const t: Targeted = { ...targeted, fingerprint: session.refs.lookup(targeted.spec.ref)!.fingerprint };
  const { spec, fingerprint: fp } = t;
  const located = await locateLive(state, t);
  if (!located) return 'stop';
  // drag_to names its drop target by ref; the driver needs that element's handle. Checked before asking.
  let value = spec.value;
  if (spec.op === 'drag_to') {
    const drop = spec.value ? session.refs.lookup(spec.value) : undefined;
    if (!drop) {
      state.receipts.push({
        ...spec,
        status: 'failed',
        detail: 'unknown drop target',
        error: new ComputerUseError(
          'invalid_params',
          `drag_to needs value = the ref of the drop target (got ${JSON.stringify(spec.value ?? '')}).`,
        ),
      });
      return 'stop';
    }
    value = drop.id;
  }
  const before = session.last.get(fp.window)?.elements.find((l) => l.ref === spec.ref);
  const submits = lineBreakSubmit(spec.op, spec.value, fp.role, before?.multiline === true);
  if (submits) {
    state.receipts.push({ ...spec, status: 'rejected', detail: 'line break would press Return', error: submits });
    return 'stop';
  }
  let request: ElementStep;
  try {
    request = await elementRequest(state, t, located, before?.states.includes('password') ?? false);
  } catch (e) {
    return failure(state, t, e, false);
  }
  const receipt: ActionReceipt = { ...spec, status: 'unknown', detail: '' };
  const call = actCall(state, t, located.id, value, request.identity?.appId ?? t.target.appId);
  const retarget = async (): Promise<ActParams> => ({ ...call.params, id: await relocateAtDispatch(state, t) });
  return { ...t, receipt, plan: { request, call, retarget, receipt } };
}

/**
 * Part of precheck: the element's handle now. A ref that must be read live (RefTable.needsLiveRead says why; a
 * retired ref must relocate) is found again in a live read of its window (a look-alike's: the last read while the
 * driver's events say it holds); any other rides on its handle.
 * Undefined after a receipt (stale, or the read failed).
 */
async function locateLive(state: ActState, t: Targeted): Promise<{ id: string; live?: SnapshotResult } | undefined> {
  const { session } = state;
  const { spec } = t;
  const id = session.refs.lookup(spec.ref)!.id;
  const reason = session.refs.needsLiveRead(spec.ref);
  if (!reason) return { id };
  const live = await readTarget(state, t, reason === 'look-alike').catch((e: unknown) => {
    state.receipts.push(failedReceipt(spec, e));
    return undefined;
  });
  if (!live) return undefined;
  const where = session.relocate(spec.ref, live);
  if (!('id' in where)) {
    state.freshSnapshot = session.snapshotOf(live, { maxTokens: 800 }).full;
    const why = 'ambiguous' in where ? `${where.ambiguous} elements now match it` : 'its row changed or is gone';
    state.receipts.push({ ...spec, status: 'failed', detail: why, error: staleRef(spec.ref, why, { snapshot: true }) });
    return undefined;
  }
  if (where.id !== id) session.refs.rebind(spec.ref, where.id);
  return { id: where.id, live };
}

/**
 * Part of precheck: what the policy decides on. On the fast path, what the driver proved about the process once
 * (Session.provenIdentity), while it proves at dispatch that the element's process is still that one; else
 * process.identify now (the pipeline asks it otherwise). A click on a chooser's Save names the paths it submits.
 */
async function elementRequest(state: ActState, t: Targeted, located: { id: string; live?: SnapshotResult },
  password: boolean): Promise<ElementStep> {
  const { session } = state;
  const { spec, fingerprint: fp, target: to } = t;
  const identity = t.fast
    ? (session.provenIdentity(fp.pid, fp.startToken) ?? (await identifyOn((m, q) => session.device.call(m, q), fp.pid)))
    : undefined;
  if (identity) session.rememberIdentity(fp.pid, identity);
  const paths = await chooserSubmit(session, to, spec.op, fp.role, fp.name, located.live);
  const last = session.last.get(fp.window);
  return elementStep(to, {
    ref: spec.ref, op: spec.op, fingerprint: fp, value: spec.value, ...(identity ? { identity } : {}),
    password, textFields: textFieldsOf(last), paths, inside: namesInside(last, spec.ref),
    // After a human approved, the element must still be the one approved: same handle, same identity.
    recheck: async () => {
      const raw = await session.readWindow(to);
      const where = session.relocate(spec.ref, raw);
      return 'id' in where && where.id === located.id;
    },
  });
}

/** Part of precheck: the node.act call, with what the driver checks before it sends anything. */
function actCall(state: ActState, t: Targeted, id: string, value: string | undefined,
  appId: string | undefined): CallPlan<'node.act'>['call'] {
  const { session, proving } = state;
  const { spec, fingerprint: fp, fast } = t;
  const checks = ACTIONABILITY[spec.op];
  const params: ActParams = { id, op: spec.op, ...(value !== undefined ? { value } : {}),
    expect: { role: fp.role, ...(fp.name !== undefined ? { name: fp.name } : {}),
      // act_identity: the process (and, on the fast path, the window title) the policy decides on, proven where the
      // element lives.
      ...(proving
        ? {
            pid: fp.pid,
            ...(fp.startToken !== undefined ? { startToken: fp.startToken } : {}),
            ...(appId !== undefined ? { appId } : {}),
            window: fp.window,
            ...(fast ? { title: t.target.title } : {}),
          }
        : {}), },
    // act_windows: the first act lists the windows open before it (what the effects compare with).
    ...(proving && state.windowsBefore === undefined ? { apps: true } : {}),
    // Waited for after the gate approved (the pipeline runs this inside the step), never before it.
    ...(checks ? { actionable: { timeoutMs: session.actionTimeoutMs, checks } } : {}) };
  // The driver may wait that long before sending: the call's own bound comes on top, so the caller never gives
  // up on an act the driver still carries out (a timed-out request is not cancelled on the driver's side).
  return { method: 'node.act', params, timeoutMs: session.device.timeoutMs + (checks ? session.actionTimeoutMs : 0) };
}

/**
 * The pipeline's retarget for a handle that died or holds something else at dispatch: the element found again by
 * its fingerprint, row context included; anything short of one sure match throws stale_ref with a fresh snapshot.
 */
async function relocateAtDispatch(state: ActState, t: Targeted): Promise<string> {
  const { session } = state;
  const raw = await readTarget(state, t);
  const where = session.relocate(t.spec.ref, raw);
  if (!('id' in where)) {
    state.freshSnapshot = session.snapshotOf(raw, { maxTokens: 800 }).full;
    throw staleRef(
      t.spec.ref,
      'ambiguous' in where ? `${where.ambiguous} elements now match it` : 'the element is gone',
      { snapshot: true },
    );
  }
  session.refs.rebind(t.spec.ref, where.id);
  return where.id;
}

/**
 * Relocation reads the window: one that closed makes the ref stale, as the listed path says. Before dispatch
 * (`recent`) the last read serves while the driver's events say it holds (Session.readForTarget); a handle that died
 * at dispatch is looked for in a read of the window now.
 */
function readTarget(state: ActState, t: Targeted, recent = false): Promise<SnapshotResult> {
  const { session } = state;
  return (recent ? session.readForTarget(t.target) : session.readWindow(t.target)).catch((e: unknown) => {
    throw isComputerUseError(e, 'window_not_found') ? closedWindow(t.spec.ref) : e;
  });
}

/**
 * Stage step: takes a planned action, runs its plan through the acting pipeline (gate, then node.act) and fills
 * in its receipt from the driver's answer; returns 'ok', or what `failure` makes of an error.
 */
async function step(state: ActState, p: Planned): Promise<StepEnd> {
  const { session, run } = state;
  const { spec, receipt } = p;
  let result: ActResult;
  try {
    result = await run.call(p.plan);
  } catch (e) {
    return failure(state, p, e, run.dispatched);
  }
  if (result.apps && state.windowsBefore === undefined) state.windowsBefore = windowsOf(session.noteApps(result.apps));
  // Our own edit changes what the element holds (as the app shows it: masked, trimmed, moved away), so its
  // content is not compared until the next snapshot records it; its handle, row and labels still are.
  if (EDIT_OPS.has(spec.op)) session.refs.forgetContent(spec.ref);
  receipt.how = result.detail ?? result.method;
  receipt.detail = `${p.note ? `${p.note}; ` : ''}${receipt.how}`;
  // A click the driver gave to the one clickable element inside (inner.ts): the receipt names it by ref.
  if (result.via) receipt.detail += ` ${viaText(session.refs, p.fingerprint.window, spec.ref, result.via)}`;
  // A wait the model should know of (a button an app enabled late); the ~21 ms of the stable check that most
  // acts spend (58 of the eval's receipts) said nothing and cost ~9 tokens each.
  if (result.waitedMs !== undefined && result.waitedMs >= NOTABLE_WAIT_MS)
    receipt.detail += `; waited ${result.waitedMs} ms until it was actionable`;
  receipt.method = result.method;
  if (result.before) receipt.before = result.before;
  if (result.after) receipt.after = result.after;
  state.receipts.push(receipt);
  return 'ok';
}

/**
 * Part of step (and of precheck, for a read that failed before anything was sent): the receipt of an error, by
 * whether input was `sent`. Returns 'retry' when the driver found the window changed since the model saw it and
 * sent nothing (it is listed and decided again), else 'stop'.
 */
async function failure(state: ActState, t: Targeted, e: unknown, sent: boolean): Promise<'stop' | 'retry'> {
  const { session, run, receipts } = state;
  const { spec, target: to } = t;
  // Keys an element op needed were blocked by another app's keyboard grab: the holder is named (focus-holder.ts).
  const raw = isComputerUseError(e) ? e : new ComputerUseError('action_failed', (e as Error).message);
  const caught = nameFocusHolder(state.session, raw) as ComputerUseError;
  // Several clickable elements inside one without an action: named by their refs (inner.ts).
  const err = namingInside(session.refs, t.fingerprint.window, spec.ref, caught) ?? caught;
  if (t.fast && err.code === 'window_changed' && !run.stopped) return 'retry';
  if (!sent) receipts.push({ ...spec, status: 'rejected', detail: err.message, error: err });
  else if (run.stopped)
    receipts.push({
      ...spec,
      status: 'unknown',
      detail: 'stopped while sending; it may have partly happened',
      error: err,
    });
  // The link to the device dropped mid-act; it may have happened, so never `failed`.
  else if (err.code === 'link_lost')
    receipts.push({ ...spec, status: 'unknown', detail: redactText(err.message), error: err });
  // The request reached the app, which did not answer in time: a modal dialog the click opened holds Qt's and
  // GTK's answer until it closes (featherpad's Save). It may have happened, so it is read, never `failed`.
  else if (err.code === 'timeout' && ACTIVATING.has(spec.op)) {
    receipts.push({
      ...spec,
      status: 'unknown',
      detail:
        `${redactText(err.message)} It may have happened (a dialog it opened can hold the app's answer): see ` +
        `what changed below before repeating it`,
      error: err,
    });
  } else if (err.code === 'window_not_found' && !(await processRuns(session, to.pid))) {
    // The window went with its process: say so, not "the window is gone" (Firefox crashed on a link's click).
    const gone = new ComputerUseError(
      'window_not_found',
      `${nameText(to.app)} (pid ${to.pid}) is no longer running: it quit or crashed during the act. ` +
        'Call computer_apps (a crash reporter may show), then computer_launch it again if needed.',
    );
    receipts.push({ ...spec, status: 'failed', detail: gone.message, error: gone });
  } else {
    // A sheet's row too far to scroll to: the error names the Name Box acts that go there.
    // A part of a field refusing a text edit (a focused filler in an editable document): the error names the field.
    const told = withEditableAncestor(session, spec.ref, spec.op, withGoToCell(session, spec.ref, err));
    receipts.push({ ...spec, status: 'failed', detail: redactText(told.message), error: told });
  }
  return 'stop';
}

/**
 * Stage settle: once every action ran, waits for the target window's app and reads what changed (new and closed
 * windows, the diff); undefined when there is nothing to read: no action was sent, or the link dropped (the next
 * call reconnects and observes).
 */
async function settleStage(state: ActState): Promise<Effects | undefined> {
  const { session, receipts, window } = state;
  if (!window || !receipts.some((r) => r.status === 'unknown')) return undefined;
  if (receipts.some((r) => r.error?.code === 'link_lost')) return undefined;
  // A scroll to row N asked for that row: the receipt shows the rows around it, not every row that came into view.
  const toRow = [...receipts]
    .reverse()
    .find((r) => r.op === 'scroll' && r.status === 'unknown' && parseScrollTo(r.value ?? '') !== undefined);
  // No list before the input when the first act's answer never came (an app that did not answer, a dialog it
  // opened holding it): the windows the model has seen stand for it, so a window the act opened still shows as new.
  // A scroll by an amount was asked to show what comes next: the rows that came print whole.
  const scrolled = receipts.some((r) => r.op === 'scroll' && r !== toRow);
  return collectEffects(session, window, state.windowsBefore ?? seenWindows(session), state.settle, {
    ...(toRow ? { near: { table: toRow.ref, row: parseScrollTo(toRow.value!)!.row + 1 } } : {}),
    ...(scrolled ? { rowsWhole: true } : {}),
  });
}

/**
 * Part of settle: a click on one of a dialog's own buttons (Save, OK) whose dialog is still listed is waited on,
 * bounded, for the dialog to close as a Return in it is (dialog-close.ts): GTK 4 closes its Save dialog only once the
 * app's save handler ran. The effects read then are the call's: the window list says it closed, the window that took
 * the focus back shows what it did.
 */
async function closingStage(state: ActState, fx: Effects | undefined): Promise<Effects | undefined> {
  const last = state.receipts[state.receipts.length - 1];
  if (!fx || !state.window || last?.op !== 'click' || last.status !== 'unknown') return fx;
  const window = state.window;
  return dialogOutcome(state.session, window, fx, state.settle, DIALOG_CLOSE_MS, (w, e) =>
    closesOnClick(w, e, last.ref),
  );
}

/**
 * Stage receipt: takes what settling read; returns the call's outcome, its `unknown` receipts confirmed by what
 * the fresh snapshot proves (receipts.ts), by a visible change laid to the one click that could have made it, or
 * by a window that opened or closed.
 */
function receiptStage(state: ActState, effects: Effects | undefined): ActOutcome {
  const { session, receipts } = state;
  const out: ActOutcome = { receipts, diff: [], newWindows: [], closedWindows: [] };
  if (state.freshSnapshot) out.freshSnapshot = state.freshSnapshot;
  if (!effects || !state.window) return out;
  out.window = state.window;
  Object.assign(out, {
    diff: effects.diff,
    newWindows: effects.newWindows,
    closedWindows: effects.closedWindows,
    popups: effects.popups,
    settle: effects.settle,
    ...(effects.refocused ? { refocused: effects.refocused } : {}),
    ...(effects.retitled ? { retitled: true } : {}),
    ...(effects.busy ? { busy: true } : {}),
    ...(effects.unread ? { unread: effects.unread } : {}),
    ...(effects.others?.length ? { others: effects.others } : {}),
  });
  verifyReceipts(receipts, effects.before, effects.after, (ref) => session.refs.lookup(ref)?.id);
  // A click whose window changed had a visible effect, when it is the one act of the call the change can be
  // laid to (kcalc's display turning to "42" stayed `unknown`): the diff below is what it did.
  const open = receipts.filter((r) => r.status === 'unknown');
  // A double click's own selection of the row is not its activation (selection-diff.ts).
  const changed = effects.diff.some(
    (l) => !l.startsWith('focus:') && !(open[0]?.op === 'double_click' && onlySelectionMoved(l)),
  );
  const other = effects.others?.[0];
  if (
    open.length === 1 &&
    (changed || other) &&
    !effects.refocused &&
    (open[0]!.op === 'click' || open[0]!.op === 'double_click')
  ) {
    open[0]!.status = 'confirmed';
    open[0]!.detail += changed
      ? '; the window changed'
      : `; the app's window [${session.windows.refOf(other!.window)}] changed`;
  }
  if (effects.busy)
    for (const r of open)
      if (r.status === 'unknown')
        r.detail +=
          '; then the app stopped answering (busy), so its effect was not read: observe again in a moment, do not ' +
          'repeat the act';
  // A click that opened or closed a window had a visible effect. Windows are read once after the whole batch, so
  // the change is laid to the last click that could have made it, never to every click before it (a row click
  // followed by OK read "row selected; a window closed" as if the row click had closed the dialog).
  const opener = [...receipts]
    .reverse()
    .find(
      (r) =>
        r.status !== 'failed' &&
        r.status !== 'rejected' &&
        (r.op === 'click' || r.op === 'double_click' || r.op === 'expand'),
    );
  if (opener?.status === 'unknown' && (out.newWindows.length || out.closedWindows.length || out.popups?.length)) {
    opener.status = 'confirmed';
    // As the printed receipt says it below: a popup (a combo's list, a menu) that opened closed no window.
    opener.detail += out.newWindows.length
      ? '; a window appeared'
      : out.closedWindows.length ? '; a window closed' : '; a popup window opened';
  }
  return out;
}

/** The windows the session has snapshots of (kept only while listed as open). */
function seenWindows(session: Session): Map<string, WindowInfo> {
  return new Map([...session.last].map(([id, snap]) => [id, snap.window]));
}

/** The receipt of a ref whose window closed. */
function closedWindow(ref: string): ComputerUseError {
  return new ComputerUseError(
    'stale_ref',
    `Ref ${ref} belonged to a window that is closed. Call computer_apps, then computer_observe.`,
  );
}

/** A failed receipt for an error before anything was sent. */
function failedReceipt(spec: ActionSpec, e: unknown): ActionReceipt {
  const err = isComputerUseError(e) ? e : new ComputerUseError('action_failed', (e as Error).message);
  return { ...spec, status: 'failed', detail: redactText(err.message), error: err };
}

/** Whether a process still shows on the device's app list (an answer that fails counts as running: no claim). */
async function processRuns(session: Session, pid: number): Promise<boolean> {
  try {
    return (await session.apps()).some((a) => a.pid === pid);
  } catch {
    return true;
  }
}
