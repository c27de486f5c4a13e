/**
 * The act flow (Invariants 1-3): resolve each ref and re-check its identity, ask the policy, dispatch, settle,
 * re-observe, and return a receipt per action plus the diff against what the model last saw.
 */
import type { Op, RawNode, WindowInfo } from '../engine/node.js';
import type { Snapshot, SnapshotLine } from '../engine/snapshot.js';
import { PASSWORD_MASK, redactText } from '../engine/redact.js';
import { nameText } from '../engine/escape.js';
import { ComputerUseError, isComputerUseError, staleRef } from '../protocol/errors.js';
import type { ActionabilityCheck, ActResult, SnapshotResult } from '../protocol/methods.js';
import { EDIT_SETTLE_MS, type Session, type SettleOptions } from './session.js';
import { cellShowsEntry } from '../engine/grid.js';
import { cellsInRange, resolveCellRefNow, scrolledTo, withGoToCell } from './cells.js';
import { pendingReturnNote } from './commit.js';
import { ActingRun, type PipelineContext } from './pipeline.js';
import { elementStep } from './steps.js';
import { collectEffects, openWindows, windowsOf } from './effects.js';
import { identifyOn } from './identify.js';
import { chooserFacts, submitPaths } from './chooser.js';
import { normalizeLabel } from '../policy/irreversible.js';
import { namesInside, namingInside, viaText } from './inner.js';
import { onlySelectionMoved } from './selection-diff.js';

/** One requested action. */
export interface ActionSpec {
  ref: string; op: Op; value?: string;
  /** set_value only: press Return in the field once it is set (set-submit.ts). */
  submit?: boolean;
}

/** What happened to one action (Invariant 2). */
export type ReceiptStatus = 'confirmed' | 'unknown' | 'rejected' | 'failed';

export interface ActionReceipt {
  ref: string;
  op: Op;
  /** The value asked for (set_value's text, scroll's "to N"); never printed from here. */
  value?: string;
  /** A set_value that presses Return in its field after (set-submit.ts). */
  submit?: boolean;
  status: ReceiptStatus;
  /** How it was done or why it failed. */
  detail: string;
  method?: ActResult['method'];
  error?: ComputerUseError;
  /** The element as the driver read it at dispatch (receipts compare against it, not the last snapshot). */
  before?: RawNode;
  /** The element as the driver re-read it right after the act, unmasked: compared, never shown. */
  after?: RawNode;
}

/**
 * What each op waits for before it is sent (Invariant 11). Edits need a field that takes text; a drag is
 * positional, so it needs the element on screen and still. focus and scroll act on hidden or scrolled-away
 * elements by design (scroll into_view), so they do not wait.
 */
export const ACTIONABILITY: Partial<Record<Op, ActionabilityCheck[]>> = {
  click: ['visible', 'enabled', 'stable'], double_click: ['visible', 'enabled', 'stable'], right_click: ['visible', 'enabled', 'stable'],
  toggle: ['visible', 'enabled', 'stable'], select: ['visible', 'enabled', 'stable'],
  expand: ['visible', 'enabled', 'stable'], collapse: ['visible', 'enabled', 'stable'],
  set_value: ['visible', 'enabled', 'editable', 'stable'], type: ['visible', 'enabled', 'editable', 'stable'],
  clear: ['visible', 'enabled', 'editable', 'stable'],
  drag_to: ['visible', 'stable'],
};

/** Ops whose request, once sent, may have acted though the app never answered (a modal dialog it opened). */
const ACTIVATING: ReadonlySet<Op> = new Set(['click', 'double_click', 'right_click', 'toggle', 'expand', 'collapse', 'select']);
/** Ops after which the settle lasts at least EDIT_SETTLE_MS (dependent state shows in the diff). */
const EDITS: ReadonlySet<Op> = new Set(['set_value', 'type', 'clear']);
/** An actionability wait a receipt mentions: one the element really made (shorter ones are the checks' own time). */
const NOTABLE_WAIT_MS = 100;

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

/** Most actions one computer_act call runs (the tool schema says the same). */
export const MAX_ACTIONS = 20;

/**
 * Runs a list of actions through the acting pipeline; stops at the first failure (later actions may depend on
 * it). The emergency stop or the host's cancel (`ctx`) ends the list before the next dispatch and aborts the
 * one in flight. More than MAX_ACTIONS actions are refused before anything runs.
 */
export async function runActions(session: Session, actions: ActionSpec[], settle?: Partial<SettleOptions>, ctx: PipelineContext = {}): Promise<ActOutcome> {
  if (actions.length > MAX_ACTIONS) {
    throw new ComputerUseError('invalid_params', `computer_act takes at most ${MAX_ACTIONS} actions per call (got ${actions.length}). Nothing was run; split them into several calls.`);
  }
  const run = new ActingRun(session, ctx);
  const receipts: ActionReceipt[] = [];
  const settleOpts: SettleOptions = { ...session.settleDefaults, ...(settle ?? {}) };
  if (actions.some((a) => EDITS.has(a.op))) settleOpts.minMs = Math.max(settleOpts.minMs ?? 0, EDIT_SETTLE_MS);
  // A driver that proves the element's process and window at dispatch (act_identity) and lists the windows around
  // the act (act_windows) lets an act ride on the last snapshot: a click is node.act, ui.settle, tree.snapshot.
  // Other drivers, and a window the driver finds changed, take the listed path: apps.list and process.identify first.
  const caps = (await session.device.hello()).capabilities;
  const proving = caps.includes('act_identity') && caps.includes('act_windows');
  /** Windows open before the first dispatch: listed up front, or by the first node.act (act_windows). */
  let windowsBefore = proving ? undefined : await openWindows(session);
  let window: WindowInfo | undefined;
  let freshSnapshot: Snapshot | undefined;

  actions: for (const asked of actions) {
    // Grid hook (cells.ts): "e34:B7" names a cell of a table by address; it acts as that cell's own ref.
    let spec = asked;
    try {
      spec = { ...asked, ref: await resolveCellRefNow(session, asked.ref, receipts.length > 0) };
    } catch (e) {
      const err = isComputerUseError(e) ? e : new ComputerUseError('invalid_params', (e as Error).message);
      receipts.push({ ...asked, status: 'failed', detail: err.message, error: err });
      break;
    }
    if (run.stopped) {
      const err = isComputerUseError(run.signal?.reason) ? run.signal.reason : new ComputerUseError('paused', 'Stopped by the user.');
      receipts.push({ ...spec, status: 'rejected', detail: err.message, error: err });
      break;
    }
    const entry = session.refs.lookup(spec.ref);
    if (!entry) {
      receipts.push({ ...spec, status: 'failed', detail: 'unknown ref',
        error: new ComputerUseError('unknown_ref', session.refs.issued(spec.ref)
          ? `Ref ${spec.ref} is gone: its window closed, or its element has not been seen for several snapshots, since it was shown. Call computer_observe on the window you want now, then act on a ref it shows.`
          : `Ref ${spec.ref} was never given in this session. Call computer_observe to get refs, then act on one it shows.`) });
      break;
    }
    const fp = entry.fingerprint;
    const seen = session.last.get(fp.window)?.window;
    // The window as the model last saw it, which the driver proves unchanged at dispatch (a masked title cannot be
    // compared with the one the driver reads: such a window is listed).
    let fast = proving && seen !== undefined && !seen.title.includes(PASSWORD_MASK);
    // At most two passes: a fast one the driver refused with window_changed (nothing sent), then a listed one.
    for (;;) {
      let target: WindowInfo;
      if (fast) target = seen!;
      else {
        // After a refusal the windows are listed again: the policy decides on what the window is now.
        const open = windowsBefore && !proving ? windowsBefore : await openWindows(session);
        windowsBefore ??= open;
        const now = open.get(fp.window);
        if (!now) {
          receipts.push({ ...spec, status: 'failed', detail: 'window closed', error: closedWindow(spec.ref) });
          break actions;
        }
        // A window handle that another process holds now (a reused handle): not the element the ref was given for.
        if (now.pid !== fp.pid || now.startToken !== fp.startToken) {
          receipts.push({ ...spec, status: 'failed', detail: 'another process',
            error: new ComputerUseError('stale_ref', `Ref ${spec.ref} belonged to a window that another process holds now. Nothing was sent. Call computer_apps, then computer_observe.`) });
          break actions;
        }
        target = now;
      }
      window = target;
      const next = await actOnce(spec, target, fast);
      if (next === 'retry' && fast) { fast = false; continue; }
      if (next !== 'ok') break actions;
      break;
    }
  }

  /** One pass of one action at `target`: 'ok', 'stop' (a receipt ended the list) or 'retry' (window_changed, nothing sent). */
  async function actOnce(spec: ActionSpec, target: WindowInfo, fast: boolean): Promise<'ok' | 'stop' | 'retry'> {
    const entry = session.refs.lookup(spec.ref)!;
    const fp = entry.fingerprint;
    let id = entry.id;
    /** Relocation reads the window: one that closed makes the ref stale, as the listed path says. */
    const readTarget = (): Promise<SnapshotResult> => session.readWindow(target).catch((e: unknown) => {
      throw isComputerUseError(e, 'window_not_found') ? closedWindow(spec.ref) : e;
    });
    let live: SnapshotResult | undefined;
    if (session.refs.needsLiveRead(spec.ref)) {
      // Checked here first, on a live read (RefTable.needsLiveRead says why); a retired ref must relocate.
      const raw = live = await readTarget().catch((e: unknown) => { receipts.push(failedReceipt(spec, e)); return undefined; });
      if (!raw) return 'stop';
      const where = session.refs.relocate(spec.ref, raw.root, raw.window);
      if (!('id' in where)) {
        freshSnapshot = session.snapshotOf(raw, { maxTokens: 800 }).full;
        const why = 'ambiguous' in where ? `${where.ambiguous} elements now match it` : 'its row changed or is gone';
        receipts.push({ ...spec, status: 'failed', detail: why, error: staleRef(spec.ref, why, { snapshot: true }) });
        return 'stop';
      }
      if (where.id !== id) session.refs.rebind(spec.ref, where.id);
      id = where.id;
    }
    // drag_to names its drop target by ref; the driver needs that element's handle. Checked before asking.
    let value = spec.value;
    if (spec.op === 'drag_to') {
      const drop = spec.value ? session.refs.lookup(spec.value) : undefined;
      if (!drop) {
        receipts.push({ ...spec, status: 'failed', detail: 'unknown drop target',
          error: new ComputerUseError('invalid_params', `drag_to needs value = the ref of the drop target (got ${JSON.stringify(spec.value ?? '')}).`) });
        return 'stop';
      }
      value = drop.id;
    }
    const before = session.last.get(fp.window)?.elements.find((l) => l.ref === spec.ref);
    const submits = lineBreakSubmit(spec.op, spec.value, fp.role, before?.multiline === true);
    if (submits) {
      receipts.push({ ...spec, status: 'rejected', detail: 'line break would press Return', error: submits });
      return 'stop';
    }
    const checks = ACTIONABILITY[spec.op];
    // The driver may wait that long before sending: the call's own bound comes on top, so the caller never gives
    // up on an act the driver still carries out (a timed-out request is not cancelled on the driver's side).
    const actTimeout = session.device.timeoutMs + (checks ? session.actionTimeoutMs : 0);
    // What the driver proved about the process once (Session.provenIdentity), while it proves at dispatch that the
    // element's process is still that one; else process.identify now (the pipeline's step asks it otherwise).
    const identity = fast ? session.provenIdentity(fp.pid, fp.startToken) ?? await identifyOn((m, q) => session.device.call(m, q), fp.pid) : undefined;
    if (identity) session.rememberIdentity(fp.pid, identity);
    const appId = identity?.appId ?? target.appId;
    const params = (handle: string) => ({ id: handle, op: spec.op, ...(value !== undefined ? { value } : {}),
      expect: { role: fp.role, ...(fp.name !== undefined ? { name: fp.name } : {}),
        // act_identity: the process (and, on the fast path, the window title) the policy decides on, proven where the element lives.
        ...(proving ? { pid: fp.pid, ...(fp.startToken !== undefined ? { startToken: fp.startToken } : {}), ...(appId !== undefined ? { appId } : {}),
          window: fp.window, ...(fast ? { title: target.title } : {}) } : {}) },
      // act_windows: the first act lists the windows open before it (what the effects compare with).
      ...(proving && windowsBefore === undefined ? { apps: true } : {}),
      // Waited for after the gate approved (the pipeline runs this inside the step), never before it.
      ...(checks ? { actionable: { timeoutMs: session.actionTimeoutMs, checks } } : {}) });
    const receipt: ActionReceipt = { ...spec, status: 'unknown', detail: '' };
    let sending = false;
    try {
      const submits = await chooserSubmit(session, target, spec.op, fp.role, fp.name, live);
      const result = await run.step(elementStep(target, {
        ref: spec.ref, op: spec.op, fingerprint: fp, value: spec.value, ...(identity ? { identity } : {}),
        password: before?.states.includes('password') ?? false, textFields: textFieldsOf(session.last.get(fp.window)), paths: submits,
        inside: namesInside(session.last.get(fp.window), spec.ref),
        // After a human approved, the element must still be the one approved: same handle, same identity.
        recheck: async () => {
          const raw = await session.readWindow(target);
          const where = session.refs.relocate(spec.ref, raw.root, raw.window);
          return 'id' in where && where.id === id;
        },
      }), async (d) => {
        sending = true;
        try {
          return await d.call('node.act', params(id), actTimeout);
        } catch (e) {
          // An approved action goes to the approved handle or nowhere; a stop ends it.
          if (!isComputerUseError(e, 'stale_ref') || d.confirmed || d.signal?.aborted) throw e;
          // The handle died or now holds something else: find the element again by its fingerprint, row
          // context included; anything short of one sure match is stale_ref with a fresh snapshot.
          const raw = await readTarget();
          const where = session.refs.relocate(spec.ref, raw.root, raw.window);
          if (!('id' in where)) {
            freshSnapshot = session.snapshotOf(raw, { maxTokens: 800 }).full;
            throw staleRef(spec.ref, 'ambiguous' in where ? `${where.ambiguous} elements now match it` : 'the element is gone', { snapshot: true });
          }
          id = where.id;
          session.refs.rebind(spec.ref, id);
          return await d.call('node.act', params(id), actTimeout);
        }
      }, () => ({ status: receipt.status, detail: receipt.detail }));
      if (result.apps && windowsBefore === undefined) windowsBefore = windowsOf(session.noteApps(result.apps));
      // Our own edit changes what the element holds (as the app shows it: masked, trimmed, moved away), so its
      // content is not compared until the next snapshot records it; its handle, row and labels still are.
      if (EDITS.has(spec.op)) session.refs.forgetContent(spec.ref);
      receipt.detail = result.detail ?? result.method;
      // A click the driver gave to the one clickable element inside (inner.ts): the receipt names it by ref.
      if (result.via) receipt.detail += ` ${viaText(session.refs, fp.window, spec.ref, result.via)}`;
      // A wait the model should know of (a button an app enabled late); the ~21 ms of the stable check that most
      // acts spend (58 of the eval's receipts) said nothing and cost ~9 tokens each.
      if (result.waitedMs !== undefined && result.waitedMs >= NOTABLE_WAIT_MS) receipt.detail += `; waited ${result.waitedMs} ms until it was actionable`;
      receipt.method = result.method;
      if (result.before) receipt.before = result.before;
      if (result.after) receipt.after = result.after;
      receipts.push(receipt);
      return 'ok';
    } catch (e) {
      const caught = isComputerUseError(e) ? e : new ComputerUseError('action_failed', (e as Error).message);
      // Several clickable elements inside one without an action: named by their refs (inner.ts).
      const err = namingInside(session.refs, fp.window, spec.ref, caught) ?? caught;
      // The driver found the window changed since the model saw it and sent nothing: list it and decide again.
      if (fast && err.code === 'window_changed' && !run.stopped) return 'retry';
      if (!sending) receipts.push({ ...spec, status: 'rejected', detail: err.message, error: err });
      else if (run.stopped) receipts.push({ ...spec, status: 'unknown', detail: 'stopped while sending; it may have partly happened', error: err });
      // Hook (issue 12, devices): the link to the device dropped mid-act; it may have happened, so never `failed`.
      else if (err.code === 'link_lost') receipts.push({ ...spec, status: 'unknown', detail: redactText(err.message), error: err });
      // The request reached the app, which did not answer in time: a modal dialog the click opened holds Qt's and
      // GTK's answer until it closes (featherpad's Save). It may have happened, so it is read, never `failed`.
      else if (err.code === 'timeout' && ACTIVATING.has(spec.op)) {
        receipts.push({ ...spec, status: 'unknown', detail: `${redactText(err.message)} It may have happened (a dialog it opened can hold the app's answer): see what changed below before repeating it`, error: err });
      }
      else if (err.code === 'window_not_found' && !(await processRuns(session, target.pid))) {
        // The window went with its process: say so, not "the window is gone" (Firefox crashed on a link's click).
        const gone = new ComputerUseError('window_not_found', `${nameText(target.app)} (pid ${target.pid}) is no longer running: it quit or crashed during the act. ` +
          'Call computer_apps (a crash reporter may show), then computer_launch it again if needed.');
        receipts.push({ ...spec, status: 'failed', detail: gone.message, error: gone });
      }
      else {
        // A sheet's row too far to scroll to: the error names the Name Box acts that go there.
        const told = withGoToCell(session, spec.ref, err);
        receipts.push({ ...spec, status: 'failed', detail: redactText(told.message), error: told });
      }
      return 'stop';
    }
  }

  // No list before the input when the first act's answer never came (an app that did not answer, a dialog it
  // opened holding it): the windows the model has seen stand for it, so a window the act opened still shows as new.
  return run.finish(async () => observeEffects(session, receipts, window, windowsBefore ?? seenWindows(session), settleOpts, freshSnapshot));
}

/** The windows the session has snapshots of (kept only while listed as open). */
function seenWindows(session: Session): Map<string, WindowInfo> {
  return new Map([...session.last].map(([id, snap]) => [id, snap.window]));
}

/** The receipt of a ref whose window closed. */
function closedWindow(ref: string): ComputerUseError {
  return new ComputerUseError('stale_ref', `Ref ${ref} belonged to a window that is closed. Call computer_apps, then computer_observe.`);
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

/** Settles, re-observes and verifies the receipts of dispatched actions. */
async function observeEffects(session: Session, receipts: ActionReceipt[], window: WindowInfo | undefined,
  windowsBefore: Map<string, WindowInfo>, settleOpts: SettleOptions, freshSnapshot: Snapshot | undefined): Promise<ActOutcome> {
  const out: ActOutcome = { receipts, diff: [], newWindows: [], closedWindows: [] };
  if (freshSnapshot) out.freshSnapshot = freshSnapshot;
  if (!window || !receipts.some((r) => r.status === 'unknown')) return out;
  // Hook (issue 12, devices): after a lost link nothing is re-read here; the next call reconnects and observes.
  if (receipts.some((r) => r.error?.code === 'link_lost')) return out;
  out.window = window;

  // A scroll to row N asked for that row: the receipt shows the rows around it, not every row that came into view.
  const toRow = [...receipts].reverse().find((r) => r.op === 'scroll' && r.status === 'unknown' && /^to \d+$/.test(r.value ?? ''));
  const effects = await collectEffects(session, window, windowsBefore, settleOpts,
    toRow ? { near: { table: toRow.ref, row: Number(toRow.value!.slice(3)) } } : {});
  Object.assign(out, { diff: effects.diff, newWindows: effects.newWindows, closedWindows: effects.closedWindows, popups: effects.popups, settle: effects.settle,
    ...(effects.refocused ? { refocused: effects.refocused } : {}), ...(effects.busy ? { busy: true } : {}), ...(effects.unread ? { unread: effects.unread } : {}),
    ...(effects.others?.length ? { others: effects.others } : {}) });
  verifyReceipts(receipts, effects.before, effects.after, (ref) => session.refs.lookup(ref)?.id);
  // A click whose window changed had a visible effect, when it is the one act of the call the change can be
  // laid to (kcalc's display turning to "42" stayed `unknown`): the diff below is what it did.
  const open = receipts.filter((r) => r.status === 'unknown');
  // A double click's own selection of the row is not its activation (selection-diff.ts).
  const changed = effects.diff.some((l) => !l.startsWith('focus:') && !(open[0]?.op === 'double_click' && onlySelectionMoved(l)));
  const other = effects.others?.[0];
  if (open.length === 1 && (changed || other) && !effects.refocused && (open[0]!.op === 'click' || open[0]!.op === 'double_click')) {
    open[0]!.status = 'confirmed';
    open[0]!.detail += changed ? '; the window changed (the diff below)' : `; the app's window [${session.windows.refOf(other!.window)}] changed (the diff below)`;
  }
  if (effects.busy) for (const r of open) if (r.status === 'unknown') r.detail += '; then the app stopped answering (busy), so its effect was not read: observe again in a moment, do not repeat the act';
  // A click that opened or closed a window had a visible effect. Windows are read once after the whole batch, so
  // the change is laid to the last click that could have made it, never to every click before it (a row click
  // followed by OK read "row selected; a window closed" as if the row click had closed the dialog).
  const opener = [...receipts].reverse().find((r) => r.status !== 'failed' && r.status !== 'rejected' && (r.op === 'click' || r.op === 'double_click' || r.op === 'expand'));
  if (opener?.status === 'unknown' && (out.newWindows.length || out.closedWindows.length || out.popups?.length)) {
    opener.status = 'confirmed';
    opener.detail += out.newWindows.length ? '; a window appeared' : '; a window closed';
  }
  return out;
}

/**
 * Upgrades `unknown` receipts to `confirmed` when the fresh snapshot shows the expected effect. `idOf` gives a
 * ref's native handle (to find the scroll bars the driver reported at dispatch in the fresh snapshot).
 */
export function verifyReceipts(receipts: ActionReceipt[], before: Snapshot | undefined, after: Snapshot | undefined, idOf: (ref: string) => string | undefined = () => undefined): void {
  const find = (s: Snapshot | undefined, ref: string): SnapshotLine | undefined => s?.elements.find((l) => l.ref === ref);
  for (const r of receipts) {
    if (r.status !== 'unknown') continue;
    const now = find(after, r.ref);
    // The state at dispatch, as the driver read it, wins over the model's last snapshot: the element may have
    // changed in between (the user, another client), and a receipt must not call that change its own.
    const seen = find(before, r.ref);
    const was: Pick<SnapshotLine, 'states'> | undefined = r.before ? { states: r.before.states } : seen;
    const spec = r as ActionReceipt & { value?: string };
    if (!now || !after) {
      // An edit whose element left with its window (gedit's Save As name field, then Save in the same call) is
      // judged by the driver's read right after the act: compared, never printed.
      if (readBack(r, spec.value)) { r.status = 'confirmed'; r.detail += '; value read as set right after the act'; }
      continue;
    }
    const has = (l: Pick<SnapshotLine, 'states'> | undefined, s: string): boolean => l?.states.includes(s as never) ?? false;
    let ok = false;
    let why = '';
    switch (r.op) {
      case 'set_value': case 'clear': {
        const want = r.op === 'clear' ? '' : spec.value ?? '';
        const reads = (got: string): boolean => readsAsSet(got, want, now);
        const got = now.value ?? '';
        // A value the engine masks as secret-looking (a random temp path) cannot be compared as shown: the
        // driver's unmasked read right after the act decides, and is never printed.
        ok = reads(got) || (got.includes('••••') && r.after?.value !== undefined && !r.after.states.includes('password') && reads(r.after.value));
        why = ok ? 'value now reads as set' : `value reads "${redactText(got).slice(0, 40)}"`;
        // A toolbar's field (Calc's Name Box) holds the text until Return: say so, or the job reads as done.
        const pending = ok && r.op === 'set_value' && !r.submit ? pendingReturnNote(after, r.ref) : undefined;
        if (pending) why += `; ${pending}`;
        break;
      }
      case 'type': {
        ok = (now.value ?? '').includes((spec.value ?? '').slice(0, 40)); why = ok ? 'text present' : '';
        const breaks = lineBreaksNote(r, after);
        if (breaks) why = why ? `${why}; ${breaks}` : breaks;
        break;
      }
      case 'toggle': {
        const flip = (l: Pick<SnapshotLine, 'states'> | undefined) => has(l, 'checked') || has(l, 'pressed');
        ok = was !== undefined && flip(was) !== flip(now); why = ok ? `now ${flip(now) ? 'checked' : 'unchecked'}` : 'state did not change';
        if (ok) r.detail = settledToggleDetail(r.detail);
        // Say so when it had changed between the model's last look and the dispatch.
        if (seen && r.before && flip(seen) !== flip(was)) why += ` (it was ${flip(was) ? 'checked' : 'unchecked'} at dispatch, not ${flip(seen) ? 'checked' : 'unchecked'} as last observed)`;
        break;
      }
      case 'focus': ok = has(now, 'focused'); why = ok ? 'focused' : 'not focused'; break;
      case 'select': {
        // A grid's range is selected when each of its cells on screen reads selected (Calc's A1:A20 stayed unknown).
        const cells = spec.value !== undefined ? cellsInRange(after, r.ref, spec.value) : undefined;
        if (cells?.length) { ok = cells.every((l) => has(l, 'selected')); why = ok ? `${spec.value ?? ''} selected` : ''; break; }
        ok = has(now, 'selected') || (spec.value !== undefined && (now.value ?? '').includes(spec.value)); why = ok ? 'selected' : '';
        break;
      }
      case 'expand': {
        // Combo boxes do not always report "expanded"; items appearing under the element show it opened.
        const kids = (snap: Snapshot | undefined) => snap?.elements.filter((l) => l.parent === r.ref).length ?? 0;
        ok = has(now, 'expanded') || kids(after) > kids(before);
        why = ok ? (has(now, 'expanded') ? 'expanded' : 'items appeared') : '';
        break;
      }
      case 'scroll': {
        const s = scrollEvidence(r, before, after, idOf);
        // "to N" on a table is done when row N shows among the cells read again (the driver's detail says so).
        const shown = scrolledTo(after, r.ref, spec.value);
        ok = shown || s.moved !== undefined || (spec.value === 'into_view' && !has(now, 'offscreen'));
        why = shown ? '' : s.moved ?? (ok ? 'scrolled into view' : 'no scroll bar moved and the visible items are the same');
        if (s.selection) why += `; ${s.selection}`;
        break;
      }
      case 'collapse': ok = has(now, 'collapsed') || !has(now, 'expanded'); why = ok ? 'collapsed' : ''; break;
      case 'click': {
        for (const s of ['checked', 'pressed', 'selected', 'expanded'] as const) {
          if (was && has(was, s) !== has(now, s)) { ok = true; why = `${s} ${has(now, s) ? 'on' : 'off'}`; }
        }
        break;
      }
      default: break;
    }
    if (ok) r.status = 'confirmed';
    if (why) r.detail += `; ${why}`;
  }
}

/** Roles of a word processor's text: its paragraphs are elements of their own (LibreOffice Writer). */
const PARAGRAPH_TEXT = new Set(['paragraph', 'heading']);

/**
 * What line breaks typed as text did in a document made of paragraph elements: a driver that inserts text through
 * the toolkit (EditableText, method `pattern`) inserts "\n" as a line break inside the one paragraph (Shift+Enter in
 * Writer), not as new paragraphs (Enter), and the receipt says so. Undefined when nothing needs saying: no line
 * break, keys typed (a typed "\n" is the Enter key), or a plain multi-line text field.
 */
export function lineBreaksNote(r: Pick<ActionReceipt, 'ref' | 'value' | 'method'>, after: Snapshot): string | undefined {
  if (!/\n/.test(r.value ?? '') || r.method !== 'pattern') return undefined;
  const line = after.elements.find((l) => l.ref === r.ref);
  const paragraphs = PARAGRAPH_TEXT.has(line?.role ?? '') || after.elements.some((l) => l.parent === r.ref && PARAGRAPH_TEXT.has(l.role));
  if (!paragraphs) return undefined;
  return 'its line breaks are line breaks inside one paragraph (inserted as text, like Shift+Enter), not new paragraphs: ' +
    'for a new paragraph type the text without the line break and press Return with computer_keys';
}

/**
 * A toggle's driver detail once the settled snapshot shows the state flipped: a driver that read the element right
 * after the action may have said it had not flipped yet (the Linux driver: "state did not flip yet"), which next to
 * "now checked" read as a contradiction. It flipped while the app settled, and the detail says so.
 */
export function settledToggleDetail(detail: string): string {
  return detail.replace(/; state did not flip yet\b/, '; it flipped after the first read');
}

/**
 * Whether a value reads as `want` was set: the same text, a spreadsheet cell showing the result of the formula
 * entered (grid.ts), a long value shown cut, or the same number.
 */
function readsAsSet(got: string, want: string, line?: Pick<SnapshotLine, 'role' | 'value' | 'formula'>): boolean {
  const num = Number(want);
  return got === want || (line !== undefined && cellShowsEntry(line, want)) || (want.length > 80 && got.length > 0 && want.startsWith(got.replace(/…$/, '')))
    || (want !== '' && Number.isFinite(num) && Math.abs(Number(got) - num) < 1e-6);
}

/** True when an edit's element, as the driver re-read it right after the act, holds what was set or typed (never a password field's). */
function readBack(r: ActionReceipt, value: string | undefined): boolean {
  const got = r.after?.value;
  if (got === undefined || r.after?.states.includes('password') || !EDITS.has(r.op)) return false;
  return r.op === 'type' ? got.includes((value ?? '').slice(0, 40)) : readsAsSet(got, r.op === 'clear' ? '' : value ?? '');
}

/** The subtree of `ref` in a snapshot (its descendants' lines). */
function descendants(snap: Snapshot | undefined, ref: string): SnapshotLine[] {
  if (!snap) return [];
  const inside = new Set([ref]);
  const out: SnapshotLine[] = [];
  // Lines come in document order, parents first.
  for (const l of snap.elements) if (l.parent !== undefined && inside.has(l.parent)) { inside.add(l.ref); out.push(l); }
  return out;
}

/**
 * What a scroll did (issue 9 item 5): the scroll bars the driver reported at dispatch (the element's own, or its
 * scroll pane's) compared with the fresh snapshot, else the visible items of the element; and the side effect a
 * Page key has in lists, the selection moving.
 */
function scrollEvidence(r: ActionReceipt, before: Snapshot | undefined, after: Snapshot, idOf: (ref: string) => string | undefined): { moved?: string; selection?: string } {
  const out: { moved?: string; selection?: string } = {};
  const atDispatch = (r.before?.children ?? []).filter((c) => c.role === 'scrollbar');
  if (atDispatch.length > 0) {
    const byId = new Map(after.elements.filter((l) => l.role === 'scrollbar').map((l) => [idOf(l.ref), l]));
    for (const b of atDispatch) {
      const now = byId.get(b.id);
      if (now && (now.value ?? '') !== (b.value ?? '')) { out.moved = `scroll bar ${b.value ?? '?'} → ${now.value ?? '?'}`; break; }
    }
  } else {
    // A driver that reports no bars: the bars inside the element or beside it in its pane, as last observed.
    const parent = find(after, r.ref)?.parent;
    const bars = (snap: Snapshot | undefined) => snap?.elements.filter((l) => l.role === 'scrollbar' && (l.parent === r.ref || (parent !== undefined && l.parent === parent)))
      .map((l) => `${l.ref}=${l.value ?? ''}`).join() ?? '';
    if (bars(before) !== bars(after)) out.moved = 'a scroll bar moved';
  }
  if (out.moved === undefined && before) {
    const items = (snap: Snapshot) => descendants(snap, r.ref).map((l) => l.ref).join();
    if (items(before) !== items(after)) out.moved = 'the visible items changed';
  }
  const selected = (snap: Snapshot | undefined) => descendants(snap, r.ref).filter((l) => l.states.includes('selected'));
  const was = new Set(selected(before).map((l) => l.ref));
  const gained = selected(after).filter((l) => !was.has(l.ref));
  if (before && gained.length > 0) out.selection = `side effect: the selection moved to ${gained.slice(0, 3).map((l) => `[${l.ref}]${l.name ? ` "${l.name.slice(0, 40)}"` : ''}`).join(', ')}`;
  return out;
}

const find = (s: Snapshot | undefined, ref: string): SnapshotLine | undefined => s?.elements.find((l) => l.ref === ref);

/** A file chooser's default buttons: a click on one opens or saves what the chooser names. */
const CHOOSER_SUBMIT = /^(save|save as|open|select|ok|replace|export|import|保存|另存为|打开|确定|替换)$/;
const ROWS = new Set(['row', 'listitem', 'treeitem', 'cell', 'gridcell']);

/**
 * The paths a click submits in a file chooser (self-protection by result): a click on its default button
 * (Save, Open) or a double click on a row of its list opens or saves the name field's text, relative to the
 * chooser's folder, or a file of that folder. Read live; none outside a chooser.
 */
async function chooserSubmit(session: Session, target: WindowInfo, op: Op, role: string, name: string | undefined, live?: SnapshotResult): Promise<string[]> {
  const button = (op === 'click' || op === 'double_click') && role === 'button' && CHOOSER_SUBMIT.test(normalizeLabel(name ?? ''));
  const row = op === 'double_click' && ROWS.has(role);
  if (!button && !row) return [];
  const facts = chooserFacts((live ?? await session.readWindow(target)).root);
  return facts.chooser ? submitPaths(facts, facts.fields, session.gate.ownRoots?.() ?? []) : [];
}

/**
 * A line break typed as text presses Return (drivers type "\n" and "\r" as the Enter key): in a terminal that runs
 * the command line, in a one-line field it submits the form. Both are judged on the keys path (a terminal's line is
 * quoted to the user, a field's submit is checked for what it names), so typing one here is refused, nothing sent.
 */
export function lineBreakSubmit(op: Op, value: string | undefined, role: string, multiline: boolean): ComputerUseError | undefined {
  if (value === undefined || !/[\r\n]/.test(value)) return undefined;
  if (role === 'terminal' && (op === 'type' || op === 'set_value')) {
    return new ComputerUseError('invalid_params', 'A line break typed into a terminal presses Return and runs the command line, which the user is asked ' +
      'about with the line quoted. Nothing was sent. Type the command without the line break, then send Return with computer_keys.');
  }
  if (op === 'type' && (role === 'textbox' || role === 'combobox') && !multiline) {
    return new ComputerUseError('invalid_params', 'A line break typed into a one-line field presses Return and submits it. Nothing was sent. ' +
      'Type the text without the line break, then send Return with computer_keys, which judges what the submit does.');
  }
  return undefined;
}

/** The single-line editable text fields of a window's last snapshot (the policy's Replace rule reads it). */
function textFieldsOf(snap: Snapshot | undefined): number {
  return snap?.elements.filter((l) => l.role === 'textbox' && l.states.includes('editable') && !l.multiline).length ?? 0;
}
