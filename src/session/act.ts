/**
 * The act flow (Invariants 1-3): resolve each ref and re-check its identity, ask the policy, dispatch, settle,
 * re-observe, and return a receipt per action plus the diff against what the model last saw.
 */
import type { Op, WindowInfo } from '../engine/node.js';
import type { Snapshot, SnapshotLine } from '../engine/snapshot.js';
import { redactText } from '../engine/redact.js';
import { ComputerUseError, isComputerUseError, staleRef } from '../protocol/errors.js';
import type { ActResult } from '../protocol/methods.js';
import type { Session, SettleOptions } from './session.js';
import type { Decision } from '../policy/gate.js';
import { collectEffects, openWindows } from './effects.js';

/** One requested action. */
export interface ActionSpec { ref: string; op: Op; value?: string }

/** What happened to one action (Invariant 2). */
export type ReceiptStatus = 'confirmed' | 'unknown' | 'rejected' | 'failed';

export interface ActionReceipt {
  ref: string;
  op: Op;
  status: ReceiptStatus;
  /** How it was done or why it failed. */
  detail: string;
  method?: ActResult['method'];
  error?: ComputerUseError;
}

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
  settle?: { settled: boolean; events: number; ms: number };
  /** A fresh local snapshot when a ref was stale. */
  freshSnapshot?: Snapshot;
}

/**
 * Runs a list of actions; stops at the first failure (later actions may depend on it). `stop` (the emergency
 * stop) ends the list before the next dispatch.
 */
export async function runActions(session: Session, actions: ActionSpec[], settle?: Partial<SettleOptions>, stop?: AbortSignal): Promise<ActOutcome> {
  const receipts: ActionReceipt[] = [];
  const dispatched: { decision: Decision; receipt: ActionReceipt }[] = [];
  const settleOpts = { ...session.settleDefaults, ...(settle ?? {}) };
  let window: WindowInfo | undefined;
  const windowsBefore = await openWindows(session);
  let freshSnapshot: Snapshot | undefined;

  for (const spec of actions) {
    if (stop?.aborted) {
      const err = isComputerUseError(stop.reason) ? stop.reason : new ComputerUseError('paused', 'Stopped by the user.');
      receipts.push({ ...spec, status: 'rejected', detail: err.message, error: err });
      break;
    }
    const entry = session.refs.lookup(spec.ref);
    if (!entry) {
      receipts.push({ ...spec, status: 'failed', detail: 'unknown ref',
        error: new ComputerUseError('stale_ref', `Ref ${spec.ref} not found in the current snapshot. Try capturing a new snapshot (computer_observe).`) });
      break;
    }
    const fp = entry.fingerprint;
    window = windowsBefore.get(fp.window) ?? session.last.get(fp.window)?.window;
    if (!window || !windowsBefore.has(fp.window)) {
      receipts.push({ ...spec, status: 'failed', detail: 'window closed',
        error: new ComputerUseError('stale_ref', `Ref ${spec.ref} belonged to a window that is closed. Call computer_apps, then computer_observe.`) });
      break;
    }
    const before = session.last.get(fp.window)?.elements.find((l) => l.ref === spec.ref);
    let id = entry.id;
    let decision;
    try {
      decision = await session.gate.check({
        tool: 'computer_act', app: window.app, pid: window.pid, window: window.id, ref: spec.ref, op: spec.op, role: fp.role,
        ...(fp.name !== undefined ? { name: fp.name } : {}), ...(spec.value !== undefined ? { value: spec.value } : {}),
        ...(window.startTime !== undefined ? { startTime: window.startTime } : {}), title: window.title,
        fingerprint: fp, password: before?.states.includes('password') ?? false,
        // After a human approved, the element must still be the one approved: same handle, same identity.
        recheck: async () => {
          const raw = await session.readWindow(window!);
          const where = session.refs.relocate(spec.ref, raw.root, raw.window);
          return 'id' in where && where.id === id;
        },
      });
    } catch (e) {
      receipts.push({ ...spec, status: 'rejected', detail: (e as Error).message, ...(isComputerUseError(e) ? { error: e } : {}) });
      break;
    }
    // drag_to names its drop target by ref; the driver needs that element's handle.
    let value = spec.value;
    if (spec.op === 'drag_to') {
      const drop = spec.value ? session.refs.lookup(spec.value) : undefined;
      if (!drop) {
        receipts.push({ ...spec, status: 'failed', detail: 'unknown drop target',
          error: new ComputerUseError('invalid_params', `drag_to needs value = the ref of the drop target (got ${JSON.stringify(spec.value ?? '')}).`) });
        break;
      }
      value = drop.id;
    }
    const params = (target: string) => ({ id: target, op: spec.op, ...(value !== undefined ? { value } : {}),
      expect: { role: fp.role, ...(fp.name !== undefined ? { name: fp.name } : {}) } });
    try {
      let result: ActResult;
      try {
        result = await session.device.call('node.act', params(id));
      } catch (e) {
        // An approved action goes to the approved handle or nowhere.
        if (!isComputerUseError(e, 'stale_ref') || decision.confirmed) throw e;
        // The handle died or now holds something else: find the element again by its fingerprint.
        const raw = await session.readWindow(window);
        const where = session.refs.relocate(spec.ref, raw.root, raw.window);
        if (!('id' in where)) {
          freshSnapshot = session.snapshotOf(raw, { maxTokens: 800 }).full;
          throw staleRef(spec.ref, 'ambiguous' in where ? `${where.ambiguous} elements now match it` : 'the element is gone', { snapshot: true });
        }
        id = where.id;
        session.refs.rebind(spec.ref, id);
        result = await session.device.call('node.act', params(id));
      }
      const receipt: ActionReceipt = { ...spec, status: 'unknown', detail: result.detail ?? result.method, method: result.method };
      receipts.push(receipt);
      // The audit's "done" record carries the receipt, known only after settling and verifying.
      dispatched.push({ decision, receipt });
    } catch (e) {
      const err = isComputerUseError(e) ? e : new ComputerUseError('action_failed', (e as Error).message);
      decision.done('failed', err.code);
      receipts.push({ ...spec, status: 'failed', detail: redactText(err.message), error: err });
      break;
    }
  }

  try {
    return await observeEffects(session, receipts, window, windowsBefore, settleOpts, freshSnapshot);
  } finally {
    for (const { decision, receipt } of dispatched) decision.done(receipt.status, receipt.detail);
  }
}

/** Settles, re-observes and verifies the receipts of dispatched actions. */
async function observeEffects(session: Session, receipts: ActionReceipt[], window: WindowInfo | undefined,
  windowsBefore: Map<string, WindowInfo>, settleOpts: SettleOptions, freshSnapshot: Snapshot | undefined): Promise<ActOutcome> {
  const out: ActOutcome = { receipts, diff: [], newWindows: [], closedWindows: [] };
  if (freshSnapshot) out.freshSnapshot = freshSnapshot;
  if (!window || !receipts.some((r) => r.status === 'unknown')) return out;
  out.window = window;

  const effects = await collectEffects(session, window, windowsBefore, settleOpts);
  Object.assign(out, { diff: effects.diff, newWindows: effects.newWindows, closedWindows: effects.closedWindows, popups: effects.popups, settle: effects.settle });
  if (effects.after) verifyReceipts(receipts, effects.before, effects.after);
  // A click that opened or closed a window had a visible effect.
  for (const r of receipts) {
    if (r.status === 'unknown' && (r.op === 'click' || r.op === 'double_click' || r.op === 'expand') && (out.newWindows.length || out.closedWindows.length || out.popups?.length)) {
      r.status = 'confirmed';
      r.detail += out.newWindows.length ? '; a window appeared' : '; a window closed';
    }
  }
  return out;
}

/** Upgrades `unknown` receipts to `confirmed` when the fresh snapshot shows the expected effect. */
function verifyReceipts(receipts: ActionReceipt[], before: Snapshot | undefined, after: Snapshot): void {
  const find = (s: Snapshot | undefined, ref: string): SnapshotLine | undefined => s?.elements.find((l) => l.ref === ref);
  for (const r of receipts) {
    if (r.status !== 'unknown') continue;
    const now = find(after, r.ref);
    const was = find(before, r.ref);
    if (!now) continue;
    const has = (l: SnapshotLine | undefined, s: string): boolean => l?.states.includes(s as never) ?? false;
    let ok = false;
    let why = '';
    const spec = r as ActionReceipt & { value?: string };
    switch (r.op) {
      case 'set_value': case 'clear': {
        const want = r.op === 'clear' ? '' : spec.value ?? '';
        const got = now.value ?? '';
        const num = Number(want);
        ok = got === want || (want.length > 80 && got.length > 0 && want.startsWith(got.replace(/…$/, '')))
          || (want !== '' && Number.isFinite(num) && Math.abs(Number(got) - num) < 1e-6);
        why = ok ? 'value now reads as set' : `value reads "${redactText(got).slice(0, 40)}"`;
        break;
      }
      case 'type': ok = (now.value ?? '').includes((spec.value ?? '').slice(0, 40)); why = ok ? 'text present' : ''; break;
      case 'toggle': {
        const flip = (l: SnapshotLine | undefined) => has(l, 'checked') || has(l, 'pressed');
        ok = was !== undefined && flip(was) !== flip(now); why = ok ? `now ${flip(now) ? 'checked' : 'unchecked'}` : 'state did not change';
        break;
      }
      case 'focus': ok = has(now, 'focused'); why = ok ? 'focused' : 'not focused'; break;
      case 'select': ok = has(now, 'selected') || (spec.value !== undefined && (now.value ?? '').includes(spec.value)); why = ok ? 'selected' : ''; break;
      case 'expand': {
        // Combo boxes do not always report "expanded"; items appearing under the element show it opened.
        const kids = (snap: Snapshot | undefined) => snap?.elements.filter((l) => l.parent === r.ref).length ?? 0;
        ok = has(now, 'expanded') || kids(after) > kids(before);
        why = ok ? (has(now, 'expanded') ? 'expanded' : 'items appeared') : '';
        break;
      }
      case 'scroll': {
        // A scroll moved something when a scroll bar inside the element changed its value.
        const bars = (snap: Snapshot | undefined) => snap?.elements.filter((l) => l.parent === r.ref && l.role === 'scrollbar').map((l) => l.value).join() ?? '';
        ok = bars(before) !== bars(after) || (spec.value === 'into_view' && !has(now, 'offscreen'));
        why = ok ? 'scrolled' : 'no scroll bar moved';
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
