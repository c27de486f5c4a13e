/**
 * Actionability (protocol ActParams.actionable), Playwright's `checkElementStates` adapted to accessibility
 * states: before an act is sent, wait, bounded and event-driven, until the element is showing, enabled (editable
 * for text) and its bounds stopped moving. An element that never gets there fails with `element_disabled` or
 * `not_visible`, its current state attached, and nothing is sent. The loop and the error are the same on every
 * platform; a driver says how to read its element, how to judge one read, and how to wait for its app's next event.
 */
import { TEXT_INPUT_ROLES } from '../../protocol/vocabulary.js';
import { ComputerUseError } from '../../protocol/errors.js';
import type { ActionabilityCheck } from '../../protocol/methods.js';

/** A screen rectangle `[x, y, width, height]`. */
type Rect = readonly [number, number, number, number];

/** Why an element is not actionable yet: the check it fails and why, in words. */
export interface Unmet { check: ActionabilityCheck; why: string }

/** What the error says of the element: its kind and name, its unified states and bounds as read last. */
export interface ElementFacts {
  /** The element's kind and name as a person reads them (`push button "Save"`). */
  what: string;
  states: readonly string[];
  bounds?: Rect | undefined;
}

/** What the wait needs from the platform; the loop itself does no I/O (unit-tested with scripted probes). */
export interface ActionabilityProbe<E> {
  /** Reads the element now (its bounds too when `bounds`). */
  read(bounds: boolean): Promise<E>;
  /** The first check one read fails (stability needs two reads: the wait compares them), or undefined. */
  unmet(element: E, checks: readonly ActionabilityCheck[]): Unmet | undefined;
  /** The facts of one read, for the error and the stability comparison. */
  facts(element: E): ElementFacts;
  /** Resolves on the element's app's next event, or after `ms` (a platform without events polls), whichever first. */
  next(ms: number, signal?: AbortSignal): Promise<void>;
  /** Milliseconds since the app's last event; absent where the platform cannot tell (then a still element is stable). */
  quietFor?(): number;
  /** Asks the platform to scroll the element into view; false when it cannot. Absent: never scrolled. */
  scrollIntoView?(): Promise<boolean>;
}

/** An app quiet this long is not animating: an element found actionable at once counts as stable. */
export const STABLE_QUIET_MS = 150;
/** Two bounds reads this far apart (about one frame at 60 Hz, plus slack) tell whether the element moves. */
export const FRAME_MS = 20;
/**
 * A re-check while waiting, for state changes an app does not announce: most toolkits send state-changed
 * events, so this is a safety net, not a poll. A probe without events waits less (`next` decides).
 */
const RECHECK_MS = 250;

const sameBounds = (a: Rect | undefined, b: Rect | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && a.every((v, i) => v === b[i]));

/**
 * The judgement of one read from unified states, for a driver that reads its element as a protocol node:
 * hidden or offscreen (or without size) is not visible, `disabled` not enabled, and a text that does not take
 * input not editable (`editable` says which elements must be editable for that check: all, by default).
 */
export function unmetOnNode(
  node: { role?: string; states: readonly string[]; bounds?: Rect | undefined },
  checks: readonly ActionabilityCheck[],
  opts: { boundsRequired?: boolean; editable?: () => boolean } = {},
): Unmet | undefined {
  const has = (s: string): boolean => node.states.includes(s);
  if (checks.includes('visible')) {
    if (has('invisible')) return { check: 'visible', why: 'it is hidden' };
    if (has('offscreen'))
      return { check: 'visible', why: 'it is not showing (another page or tab, a closed menu, or scrolled away)' };
    const b = node.bounds;
    if (b ? b[2] <= 0 || b[3] <= 0 : opts.boundsRequired) return { check: 'visible', why: 'it has no size on screen' };
  }
  if (checks.includes('enabled') && has('disabled')) return { check: 'enabled', why: 'it is disabled' };
  // `editable` is about text: an element that takes no text (a slider, a spin button set by value) passes it.
  const takesText = node.role === undefined || TEXT_INPUT_ROLES.has(node.role);
  const editable = opts.editable ?? ((): boolean => !takesText || (has('editable') && !has('readonly')));
  if (checks.includes('editable') && !editable()) return { check: 'editable', why: 'it is read-only' };
  return undefined;
}

/**
 * Waits until `first` (the element as just read) passes `checks`, re-reading it on each event of its app, at
 * most `timeoutMs`. Returns the element as read last, and how long it waited. Throws `element_disabled` or
 * `not_visible` (details: states, bounds, the unmet check, waitedMs) when time runs out, `paused` on abort.
 * `verify` re-checks the element's identity on every read (a renamed element is stale, not waited for).
 */
export async function waitActionable<E>(
  first: E,
  checks: readonly ActionabilityCheck[],
  timeoutMs: number,
  probe: ActionabilityProbe<E>,
  opts: { signal?: AbortSignal | undefined; verify?: (element: E) => void } = {},
): Promise<{ info: E; waitedMs: number }> {
  const start = performance.now();
  const deadline = start + timeoutMs;
  const wantBounds = checks.includes('stable') || checks.includes('visible');
  const quietFor = (): number => probe.quietFor?.() ?? Infinity;
  let info = first;
  let scrolled = false;
  let unmet = probe.unmet(info, checks);
  // The common case: actionable at once, in an app that is not animating. Nothing to wait for.
  if (!unmet && (!checks.includes('stable') || quietFor() >= STABLE_QUIET_MS)) return { info, waitedMs: 0 };
  for (;;) {
    if (opts.signal?.aborted)
      throw new ComputerUseError(
        'paused',
        'Stopped while waiting for the element to become actionable; nothing was sent.',
      );
    if (!unmet && checks.includes('stable')) {
      // Stable: the same bounds one frame apart (an element sliding in with a revealer or a dialog's animation).
      // A timer, not the next event: an event right away would compare two reads a few ms apart.
      await new Promise((r) => setTimeout(r, FRAME_MS));
      const again = await probe.read(true);
      opts.verify?.(again);
      const moved = !sameBounds(probe.facts(info).bounds, probe.facts(again).bounds);
      info = again;
      unmet = probe.unmet(info, checks) ?? (moved ? { check: 'stable', why: 'it is still moving' } : undefined);
      if (!unmet) return { info, waitedMs: Math.round(performance.now() - start) };
      if (performance.now() >= deadline) break;
      continue;
    }
    if (!unmet) return { info, waitedMs: Math.round(performance.now() - start) };
    // Like Playwright's scrollIntoViewIfNeeded: an element of a scrolled list is shown before it is waited for.
    if (unmet.check === 'visible' && !scrolled && probe.scrollIntoView) {
      scrolled = true;
      if (await probe.scrollIntoView().catch(() => false)) {
        info = await probe.read(wantBounds);
        opts.verify?.(info);
        unmet = probe.unmet(info, checks);
        continue;
      }
    }
    const left = deadline - performance.now();
    if (left <= 0) break;
    await probe.next(Math.min(RECHECK_MS, left), opts.signal);
    info = await probe.read(wantBounds);
    opts.verify?.(info);
    unmet = probe.unmet(info, checks);
  }
  throw notActionable(
    probe.facts(info),
    unmet ?? { check: 'stable', why: 'it is still moving' },
    Math.round(performance.now() - start),
  );
}

/** The error for an element that did not become actionable in time; its current state goes in the details. */
export function notActionable(facts: ElementFacts, unmet: Unmet, waitedMs: number): ComputerUseError {
  const { what, states, bounds } = facts;
  const details = { unmet: [unmet.check], states: [...states], waitedMs, ...(bounds ? { bounds: [...bounds] } : {}) };
  const state = `Its state now: ${states.join(', ') || 'no states'}${bounds ? `, bounds ${bounds.join(',')}` : ''}.`;
  if (unmet.check === 'enabled' || unmet.check === 'editable') {
    return new ComputerUseError(
      'element_disabled',
      `The ${what} stayed ${unmet.check === 'enabled' ? 'disabled' : 'read-only'} for ${waitedMs} ms ` +
        (`(${unmet.why}); nothing was sent. ${state} Do what enables it first (fill in the required fields, ` +
          `choose an option), observe, then act again.`),
      details,
    );
  }
  // A focused element is live though its toolkit reports no place on screen (a dialog's default button with bounds
  // 0,0,0,0): the keys a person would press reach it, where opening or scrolling to it does not apply.
  const way =
    unmet.check === 'visible' && states.includes('focused')
      ? 'It has the keyboard focus, so keys reach it: Return (or space) sent to its window activates it.'
      : 'Open or scroll to what holds it (its tab, menu or list), observe, then act again.';
  // The host words the remedy with its own tool (a driver's message never names one).
  const focusedRemedy = unmet.check === 'visible' && states.includes('focused') ? { remedy: ['keys'] } : {};
  return new ComputerUseError(
    'not_visible',
    `The ${what} was not actionable for ${waitedMs} ms: ${unmet.why}; nothing was sent. ${state} ${way}`,
    { ...details, ...focusedRemedy },
  );
}

/** How the error names an element: its kind, then its name (cut to 40 characters) in quotes when it has one. */
export function elementWhat(kind: string, name: string | undefined): string {
  return `${kind}${name ? ` "${name.slice(0, 40)}"` : ''}`;
}
