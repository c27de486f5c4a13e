/**
 * Actionability (Invariant 11), Playwright's `checkElementStates` adapted to accessibility states: before an act
 * is sent, wait — bounded and event-driven — until the element is showing, enabled (editable for text) and its
 * bounds stopped moving. An element that never gets there fails with `element_disabled` / `not_visible`, its
 * current state attached, and nothing is sent.
 */
import { ComputerUseError } from '../../protocol/errors.js';
import type { ActionabilityCheck } from '../../protocol/methods.js';
import type { A11yBus, Target } from './bus.js';
import type { EventWatcher } from './events.js';
import type { ElementInfo } from './reader.js';
import { decodeStates, readElement, toRawNode } from './reader.js';

const ACC = 'org.a11y.atspi.Accessible';

/** What the wait needs from the platform; the loop itself does no I/O of its own (unit-tested with fakes). */
export interface ActionabilityProbe {
  /** Reads the element now (states, and bounds when asked). */
  read(bounds: boolean): Promise<ElementInfo>;
  /** Resolves on the element's app's next accessibility event, or after `ms`, whichever is first. */
  next(ms: number, signal?: AbortSignal): Promise<void>;
  /** Milliseconds since the element's app sent its last event (Infinity when never). */
  quietFor(): number;
  /** Asks the toolkit to scroll the element into view (Component.ScrollTo); false when it cannot. */
  scrollIntoView(): Promise<boolean>;
  /** False where the toolkit's `showing` state cannot be trusted (GTK 4.8 never sets it): bounds decide. */
  showingReliable: boolean;
}

/** An app quiet this long is not animating: an element found actionable at once counts as stable. */
export const STABLE_QUIET_MS = 150;
/** Two bounds reads this far apart (about one frame at 60 Hz, plus slack) tell whether the element moves. */
export const FRAME_MS = 20;
/**
 * A re-check while waiting, for state changes an app does not announce: most toolkits send state-changed
 * events (GTK's "enabled"/"sensitive"), so this is a safety net, not a poll.
 */
const RECHECK_MS = 250;

/** Why an element is not actionable yet, or undefined when it is. */
export interface Unmet { check: ActionabilityCheck; why: string }

const EDITABLE_TEXT = 'org.a11y.atspi.EditableText';

/** The first check an element fails, from one read (stability needs two reads: `waitActionable` does it). */
export function unmetCheck(info: ElementInfo, checks: readonly ActionabilityCheck[], showingReliable: boolean): Unmet | undefined {
  const s = info.states;
  const node = toRawNode(info, showingReliable);
  if (checks.includes('visible')) {
    if (node.states.includes('invisible')) return { check: 'visible', why: 'it is hidden' };
    if (node.states.includes('offscreen')) return { check: 'visible', why: 'it is not showing (another page or tab, a closed menu, or scrolled away)' };
    if (info.bounds && (info.bounds[2] <= 0 || info.bounds[3] <= 0)) return { check: 'visible', why: 'it has no size on screen' };
  }
  if (checks.includes('enabled') && node.states.includes('disabled')) return { check: 'enabled', why: 'it is disabled' };
  // Only text widgets must be editable: sliders, spin buttons and combo boxes take values without it.
  if (checks.includes('editable') && info.interfaces.has(EDITABLE_TEXT) && (!s.has('editable') || s.has('read only'))) {
    return { check: 'editable', why: 'it is read-only' };
  }
  return undefined;
}

const sameBounds = (a: ElementInfo['bounds'], b: ElementInfo['bounds']): boolean =>
  a === b || (a !== undefined && b !== undefined && a.every((v, i) => v === b[i]));

/**
 * Waits until `first` (the element as just read) passes `checks`, re-reading it on each event of its app, at
 * most `timeoutMs`. Returns the element as read last, and how long it waited. Throws `element_disabled` or
 * `not_visible` (details: states, bounds, what was unmet, waitedMs) when time runs out, `paused` on abort.
 * `verify` re-checks the element's identity on every read (a renamed element is stale, not waited for).
 */
export async function waitActionable(first: ElementInfo, checks: readonly ActionabilityCheck[], timeoutMs: number, probe: ActionabilityProbe,
  opts: { signal?: AbortSignal | undefined; verify?: (info: ElementInfo) => void } = {}): Promise<{ info: ElementInfo; waitedMs: number }> {
  const start = performance.now();
  const deadline = start + timeoutMs;
  const wantBounds = checks.includes('stable') || checks.includes('visible');
  let info = first;
  let scrolled = false;
  let unmet = unmetCheck(info, checks, probe.showingReliable);
  // The common case: actionable at once, in an app that is not animating. Nothing to wait for.
  if (!unmet && (!checks.includes('stable') || probe.quietFor() >= STABLE_QUIET_MS)) return { info, waitedMs: 0 };
  for (;;) {
    if (opts.signal?.aborted) throw new ComputerUseError('paused', 'Stopped while waiting for the element to become actionable; nothing was sent.');
    if (!unmet && checks.includes('stable')) {
      // Stable: the same bounds one frame apart (an element sliding in with a revealer or a dialog's animation).
      // A timer, not the next event: an event right away would compare two reads a few ms apart.
      await new Promise((r) => setTimeout(r, FRAME_MS));
      const again = await probe.read(true);
      opts.verify?.(again);
      const moved = !sameBounds(info.bounds, again.bounds);
      info = again;
      unmet = unmetCheck(info, checks, probe.showingReliable) ?? (moved ? { check: 'stable', why: 'it is still moving' } : undefined);
      if (!unmet) return { info, waitedMs: Math.round(performance.now() - start) };
      if (performance.now() >= deadline) break;
      continue;
    }
    if (!unmet) return { info, waitedMs: Math.round(performance.now() - start) };
    // Like Playwright's scrollIntoViewIfNeeded: an element of a scrolled list is shown before it is waited for.
    if (unmet.check === 'visible' && !scrolled) {
      scrolled = true;
      if (await probe.scrollIntoView().catch(() => false)) {
        info = await probe.read(wantBounds);
        opts.verify?.(info);
        unmet = unmetCheck(info, checks, probe.showingReliable);
        continue;
      }
    }
    const left = deadline - performance.now();
    if (left <= 0) break;
    await probe.next(Math.min(RECHECK_MS, left), opts.signal);
    info = await probe.read(wantBounds);
    opts.verify?.(info);
    unmet = unmetCheck(info, checks, probe.showingReliable);
  }
  throw notActionable(info, unmet ?? { check: 'stable', why: 'it is still moving' }, Math.round(performance.now() - start), probe.showingReliable);
}

/** The error for an element that did not become actionable in time; its current state goes in the details. */
export function notActionable(info: ElementInfo, unmet: Unmet, waitedMs: number, showingReliable: boolean): ComputerUseError {
  const node = toRawNode(info, showingReliable);
  // The mapped node's name: GTK 4.8's class names ("GtkToggleButton") are no names to a user.
  const what = `${info.atspiRole}${node.name ? ` "${node.name.slice(0, 40)}"` : ''}`;
  const details = { unmet: unmet.check, states: node.states, waitedMs, ...(info.bounds ? { bounds: info.bounds } : {}) };
  const state = `Its state now: ${node.states.join(', ') || 'no states'}${info.bounds ? `, bounds ${info.bounds.join(',')}` : ''}.`;
  if (unmet.check === 'enabled' || unmet.check === 'editable') {
    return new ComputerUseError('element_disabled', `The ${what} stayed ${unmet.check === 'enabled' ? 'disabled' : 'read-only'} for ${waitedMs} ms (${unmet.why}); nothing was sent. ${state} ` +
      'Do what enables it first (fill in the required fields, choose an option), observe, then act again.', details);
  }
  return new ComputerUseError('not_visible', `The ${what} was not actionable for ${waitedMs} ms: ${unmet.why}; nothing was sent. ${state} ` +
    'Open or scroll to what holds it (its tab, menu or list), observe, then act again.', details);
}

/** Per app (bus name): whether its `showing` state can be trusted, once a shown window told. */
const showingVerdicts = new Map<string, boolean>();

/**
 * Whether the app owning `dest` sets `showing` faithfully, by the reader's rule (`showingIsReliable`): a shown
 * top-level window whose children carry it too. GTK 4.8 sets it on the window only, so there bounds decide.
 * Decided once per app, from a shown window; an app with no shown window is asked again next time.
 */
export async function showingReliableFor(bus: A11yBus, dest: string): Promise<boolean> {
  const known = showingVerdicts.get(dest);
  if (known !== undefined) return known;
  const statesOf = (targets: [string, string][]): Promise<Set<string>[]> => Promise.all(targets.slice(0, 20).map(([d, path]) =>
    bus.call({ dest: d, path }, ACC, 'GetState', '', [], 1000).then((r) => decodeStates(r[0] as number[]), () => new Set<string>())));
  const childrenOf = async (t: Target): Promise<[string, string][]> => ((await bus.call(t, ACC, 'GetChildren', '', [], 1000))[0] ?? []) as [string, string][];
  try {
    const windows = await childrenOf({ dest, path: '/org/a11y/atspi/accessible/root' });
    const states = await statesOf(windows);
    const shown = windows.filter((_, i) => states[i]?.has('showing'));
    if (shown.length === 0) return false;
    const [d, path] = shown[0]!;
    const kids = await childrenOf({ dest: d, path });
    const verdict = kids.length === 0 || (await statesOf(kids)).some((st) => st.has('showing'));
    showingVerdicts.set(dest, verdict);
    return verdict;
  } catch { return false; }
}

/** The AT-SPI side of the wait: reads of one element, its app's events, Component.ScrollTo. */
export function linuxProbe(bus: A11yBus, events: EventWatcher | undefined, t: Target, showingReliable: boolean): ActionabilityProbe {
  return {
    read: (bounds) => readElement(bus, t, { children: true, bounds }),
    next: (ms, signal) => events ? events.next(t.dest, ms, signal) : new Promise((r) => setTimeout(r, ms)),
    quietFor: () => events?.quietFor(t.dest) ?? Infinity,
    scrollIntoView: async () => {
      const [ifaces] = await bus.call(t, ACC, 'GetInterfaces');
      if (!(ifaces as string[]).includes('org.a11y.atspi.Component')) return false;
      const [ok] = await bus.call(t, 'org.a11y.atspi.Component', 'ScrollTo', 'u', [6 /* ATSPI_SCROLL_ANYWHERE */]);
      return ok !== false;
    },
    showingReliable,
  };
}
