/**
 * The visible agent: the pipeline asks the driver (`ui.highlight`) to frame the target
 * window and title its status window "computer-use: acting in <app>" from dispatch until the act settled, and
 * "computer-use: paused" while paused. Best effort and never awaited by an act: a driver that cannot draw
 * (fake, cdp, Wayland) answers unsupported, which is ignored. Off with `showActivity: false` (settings or option).
 */
import { targetOfStep, type ActionRequest } from '../policy/gate.js';
import type { Session } from './session.js';

/** How long the driver may take over one highlight before the call is given up (nothing waits on it). */
const HIGHLIGHT_MS = 1000;

/** The status title while an act runs. */
export function actingTitle(app: string | undefined): string {
  return `computer-use: acting in ${app?.trim() || 'the desktop'}`;
}
/** The status title while paused. */
export const PAUSED_TITLE = 'computer-use: paused';

/** What the status window says now: set by the pipeline and the pause listener, read by the panel. */
export function activityOf(session: Session): string | undefined { return current.get(session); }
const current = new WeakMap<Session, string | undefined>();

const listeners = new WeakMap<Session, Set<(status: string | undefined) => void>>();

/** Calls `fn` on every status change of a session (the panel's live view shows it); returns the unsubscribe. */
export function onActivity(session: Session, fn: (status: string | undefined) => void): () => void {
  let set = listeners.get(session);
  if (!set) { set = new Set(); listeners.set(session, set); }
  set.add(fn);
  return () => set.delete(fn);
}

function send(session: Session, params: { on: boolean; window?: string; status?: string }): void {
  current.set(session, params.on ? params.status : undefined);
  if (session.options.showActivity === false) return;
  for (const fn of listeners.get(session) ?? []) {
    try {
      fn(params.on ? params.status : undefined);
    } catch {
      /* a listener's problem */
    }
  }
  try {
    session.device.call('ui.highlight', params, HIGHLIGHT_MS).catch(() => undefined);
  } catch {
    /* never fails an act */
  }
}

/** Shows the frame around the request's window and the "acting in" status (just before dispatch). */
export function showActing(session: Session, req: ActionRequest): void {
  const target = targetOfStep(req);
  send(session, { on: true, ...(target.window ? { window: target.window } : {}), status: actingTitle(target.app) });
}

/** Removes the frame once the act settled (or failed): the status then says "paused" while paused, else nothing. */
export function showIdle(session: Session): void {
  const paused = session.options.paused?.() === true;
  if (current.get(session) === undefined && !paused) return; // nothing shown: no call
  send(session, paused ? { on: true, status: PAUSED_TITLE } : { on: false });
}

/** The pause listener: "paused" on a stop, nothing on resume (only once a driver runs: it starts none). */
export function showPaused(session: Session, paused: boolean): void {
  if (!session.device.lastHello) return;
  if (paused) send(session, { on: true, status: PAUSED_TITLE });
  else if (current.get(session) === PAUSED_TITLE) send(session, { on: false });
}
