/**
 * The last full window list (every app with its windows), kept while nothing says a window changed. An act lists the
 * windows twice (node.act before its input, ui.settle after it: capability act_windows), and each listing asks every
 * app over the bus: about 5 ms of round trips to apps that are busy repainting right after the input. A kept list is
 * reused only when all of these hold, else the windows are listed again:
 * - no AT-SPI event since the listing began could have changed a window: any `window:` event, children added to or
 *   removed from an application's root (a window created or destroyed) or the registry's (an app came or went), and
 *   any event of a top-level object the listing saw, showing or not (a dialog shown again, a title, the focus);
 * - the display's client list (`_NET_CLIENT_LIST_STACKING`, one X round trip) holds the same windows: a window of an
 *   app that sends no event, or is off the bus, shows there;
 * - a window whose title came from the display only (its accessible name is empty: a title change sends no event)
 *   still has that title there (one X round trip each, beside the client list);
 * - the listing was whole: no app was busy and no young X client was still registering (listed once its grace ends);
 * - it is younger than KEEP_MS: a window moved or resized sends no event, and bounds older than an act are not given.
 * Without an X display nothing is kept: the client list is the check that covers apps without events.
 */
import type { AppInfo } from '../../../protocol/nodes.js';
import type { A11yEvent, EventWatcher } from '../bus/events.js';

/** How long a kept list may serve: an act's two listings are a few hundred ms apart at most. */
export const KEEP_MS = 1000;

/** The path of an application's (and the registry's) root object: children there are windows (or apps). */
const ROOT_PATH = '/org/a11y/atspi/accessible/root';

/** What one listing saw, beside its apps. */
export interface ListingFacts {
  /** When the listing began (performance.now()): events from then on may not be in it. */
  startedAt: number;
  /** Handles of every top-level object of every app (showing or not) and of each app's root. */
  tops: ReadonlySet<string>;
  /** The display's client windows when the listing began; undefined without an X display. */
  clients: readonly number[] | undefined;
  /** The windows whose title came from the display: their X window and that title. */
  displayTitles: readonly { xid: number; title: string }[];
  /** False when something in the list can change without an event (see the module comment). */
  whole: boolean;
}

/** What the reuse check reads from the display. */
export interface DisplayNow {
  /** The client windows now; undefined without an X display. */
  clients(): Promise<readonly number[] | undefined>;
  /** A window's title now. */
  title(xid: number): Promise<string | undefined>;
}

/** Whether an event may have changed the list of windows, their titles, states or focus. */
export function touchesWindows(e: A11yEvent, tops: ReadonlySet<string>): boolean {
  if (e.type.startsWith('window:')) return true;
  if (e.type.startsWith('object:children-changed') && e.source.endsWith(ROOT_PATH)) return true;
  return tops.has(e.source);
}

/** Same windows on the display: the same ids, in any order (a raise alone changes the stacking, not the list). */
function sameClients(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((id) => set.has(id));
}

/** The kept list and what it saw; see the module comment for when it serves. */
export class KeptWindowList {
  private kept: { apps: AppInfo[]; facts: ListingFacts } | undefined;
  /** Listings under way, each invalidated by a window event that comes before it is kept. */
  private readonly pending = new Set<{ touched: A11yEvent[] }>();

  constructor(events: Pick<EventWatcher, 'subscribe'>, private readonly now: () => number = () => performance.now()) {
    events.subscribe((e) => {
      for (const p of this.pending) p.touched.push(e);
      if (this.kept && touchesWindows(e, this.kept.facts.tops)) this.kept = undefined;
    });
  }

  /** Starts watching for events while a listing runs; `keep` with the same token stores its result. */
  begin(): { touched: A11yEvent[] } {
    const token = { touched: [] };
    this.pending.add(token);
    return token;
  }

  /** Stores a finished listing unless an event during it touched its windows (or it was not whole). */
  keep(token: { touched: A11yEvent[] }, apps: AppInfo[], facts: ListingFacts): void {
    this.pending.delete(token);
    if (!facts.whole || facts.clients === undefined) return void (this.kept = undefined);
    if (token.touched.some((e) => e.time >= facts.startedAt && touchesWindows(e, facts.tops)))
      return void (this.kept = undefined);
    this.kept = { apps, facts };
  }

  /** Drops the listing under way without keeping it (it failed). */
  abandon(token: { touched: A11yEvent[] }): void { this.pending.delete(token); }

  /** The kept list when it still holds: young enough, and the display's clients and titles (read now) unchanged. */
  async reuse(display: DisplayNow): Promise<AppInfo[] | undefined> {
    const kept = this.kept;
    if (!kept || this.now() - kept.facts.startedAt > KEEP_MS) return undefined;
    const [clients, titles] = await Promise.all([
      display.clients().catch(() => undefined),
      Promise.all(kept.facts.displayTitles.map((d) => display.title(d.xid).catch(() => undefined))),
    ]);
    // An event that came during the reads drops the kept list: checked again after them.
    if (this.kept !== kept || clients === undefined || !sameClients(clients, kept.facts.clients!)) return undefined;
    if (kept.facts.displayTitles.some((d, i) => titles[i] !== d.title)) return undefined;
    return kept.apps;
  }

  /** Forgets the kept list (the driver itself opened, closed or activated a window). */
  forget(): void { this.kept = undefined; }
}
