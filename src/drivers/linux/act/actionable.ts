/**
 * The AT-SPI side of actionability (the wait itself is drivers/common/actionable.ts): how one read of an element
 * is judged from its AT-SPI states and interfaces, whether an app's `showing` state can be trusted, and the probe
 * that re-reads the element on its app's events and scrolls it into view with Component.ScrollTo.
 */
import type { ActionabilityCheck } from '../../../protocol/methods.js';
import {
  elementWhat,
  unmetOnNode,
  type ActionabilityProbe,
  type ElementFacts,
  type Unmet,
} from '../../common/actionable.js';
import type { A11yBus, Target } from '../bus/bus.js';
import type { EventWatcher } from '../bus/events.js';
import type { ElementInfo } from '../tree/reader.js';
import { decodeStates, readElement, toRawNode } from '../tree/reader.js';
import { judgeIconItem, type IconViews } from '../tree/icon-view.js';

const ACC = 'org.a11y.atspi.Accessible';
const EDITABLE_TEXT = 'org.a11y.atspi.EditableText';

/** The first check an element fails, from one read (stability needs two reads: the wait does it). */
export function unmetCheck(
  info: ElementInfo,
  checks: readonly ActionabilityCheck[],
  showingReliable: boolean,
): Unmet | undefined {
  const s = info.states;
  const node = toRawNode(info, showingReliable);
  // Only text widgets must be editable: sliders, spin buttons and combo boxes take values without it.
  return unmetOnNode({ states: node.states, bounds: info.bounds }, checks,
    { editable: () => !info.interfaces.has(EDITABLE_TEXT) || (s.has('editable') && !s.has('read only')) });
}

/** What a not-actionable error says of the element: its AT-SPI role and mapped name, its unified states. */
export function elementFacts(info: ElementInfo, showingReliable: boolean): ElementFacts {
  const node = toRawNode(info, showingReliable);
  // The mapped node's name: GTK 4.8's class names ("GtkToggleButton") are no names to a user.
  return { what: elementWhat(info.atspiRole, node.name), states: node.states, bounds: info.bounds };
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
  const statesOf = (targets: [string, string][]): Promise<Set<string>[]> =>
    Promise.all(
      targets.slice(0, 20).map(([d, path]) =>
        bus.call({ dest: d, path }, ACC, 'GetState', '', [], 1000).then(
          (r) => decodeStates(r[0] as number[]),
          () => new Set<string>(),
        ),
      ),
    );
  const childrenOf = async (t: Target): Promise<[string, string][]> =>
    ((await bus.call(t, ACC, 'GetChildren', '', [], 1000))[0] ?? []) as [string, string][];
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
export function linuxProbe(
  bus: A11yBus,
  events: EventWatcher | undefined,
  t: Target,
  showingReliable: boolean,
): ActionabilityProbe<ElementInfo> {
  const views: IconViews = new Map();
  return {
    // An icon view's item GTK left off screen is judged by its bounds, as the snapshot judged it (icon-view.ts).
    read: async (bounds) => {
      const info = await readElement(bus, t, { children: true, bounds });
      await judgeIconItem(bus, info, undefined, views);
      return info;
    },
    unmet: (info, checks) => unmetCheck(info, checks, showingReliable),
    facts: (info) => elementFacts(info, showingReliable),
    next: (ms, signal) => events ? events.next(t.dest, ms, signal) : new Promise((r) => setTimeout(r, ms)),
    quietFor: () => events?.quietFor(t.dest) ?? Infinity,
    scrollIntoView: async () => {
      const [ifaces] = await bus.call(t, ACC, 'GetInterfaces');
      if (!(ifaces as string[]).includes('org.a11y.atspi.Component')) return false;
      const [ok] = await bus.call(t, 'org.a11y.atspi.Component', 'ScrollTo', 'u', [6 /* ATSPI_SCROLL_ANYWHERE */]);
      return ok !== false;
    },
  };
}
