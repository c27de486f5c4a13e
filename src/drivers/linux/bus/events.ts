/**
 * AT-SPI event listening, used for settling after an act. The GTK bridges only emit events that some
 * listener registered with the registry (`RegisterEvent`, signature `sass`); the match rule makes the bus
 * deliver them to us.
 */
import type { Message } from 'dbus-next';
import type { A11yBus } from './bus.js';
import { isGone } from './bus.js';
import { DEFAULT_QUIET_MS } from '../../../protocol/methods.js';
import { showingHeard } from './showing-heard.js';

/**
 * Events we register for. Not all of `object:`: animated widgets send bounds-changed ~180 times a second
 * (gtk3-widget-factory at rest), which would keep every settle busy. `focus:` never arrives from GTK3;
 * state-changed:focused does.
 */
const EVENTS = [
  'object:children-changed', 'object:state-changed', 'object:property-change', 'object:text-changed',
  'object:selection-changed', 'object:active-descendant-changed', 'object:value-changed', 'window:',
  // Table rows added, removed or reordered: kept cell objects and list name indexes are dropped on them.
  'object:row-inserted', 'object:row-deleted', 'object:row-reordered', 'object:model-changed',
];
/** Event kinds that say nothing about a UI finishing an update. */
const NOISE = /bounds-changed|text-caret-moved|visible-data-changed|text-attributes-changed/;

/** One received event. */
export interface A11yEvent {
  time: number; type: string; source: string; detail: string;
  /** The object an event carries as its data (active-descendant-changed: the new descendant), as a handle. */
  object?: string;
}

/**
 * How long after a settle called an app quiet an event of that app still counts as late (the settle ended inside
 * the app's update): as long as the longer stretch after structural changes.
 */
const LATE_EVENT_MS = 250;
/** Added to the gap a late event showed, when an app's quiet window is raised to cover it. */
const LATE_MARGIN_MS = 10;

/**
 * The events by which an act's target shows the act's own effect: a state it takes (checked, pressed, selected,
 * expanded), its value or its text. Structural kinds are not among them: they stretch the settle instead.
 */
const EFFECT =
  /^object:(state-changed:(checked|pressed|selected|expanded|collapsed|indeterminate)|value-changed|text-changed|property-change:accessible-value)/;
/** Most pings a settle sends back to back after the act's effect came, looking for a silent round trip. */
const EFFECT_PINGS = 4;
/** The gap between those pings: the app's main loop idles for it, and runs what it queued (GLib idle sources). */
const EFFECT_GAP_MS = 2;
/** Event kinds after which the app's update goes on (popovers and dialogs animate): the settle waits its tail. */
const STRUCTURAL = /children-changed|window:|showing|visible|defunct/;

/** Events kept for `eventsSince`; half are dropped when it is full. */
const RECENT_MAX = 2000;

/** Event kinds after which a window may have opened, closed, been renamed or taken the focus (any app's). */
const WINDOW_CHANGE = /^window:|children-changed|accessible-name|state-changed:(active|focused)/;

/**
 * Keeps the time and kind of recent events and lets callers wait until they stop, or ask whether an app sent
 * anything since a mark (a host reuses a read of a window its app has not touched since).
 */
export class EventWatcher {
  private lastEventAt = 0;
  private readonly lastByApp = new Map<string, number>();
  /** When an event that may change the list of windows or their titles last came, from any app. */
  private lastWindowEventAt = 0;
  /** Marks carry this process's own id: a mark of another driver process (a restart) is never trusted. */
  private readonly instance = `${process.pid}.${Math.round(performance.timeOrigin)}`;
  private count = 0;
  private recent: A11yEvent[] = [];
  /** The time of the newest event dropped from `recent`: events since a mark before it are no longer all known. */
  private droppedUpTo = -Infinity;
  private listeners = new Set<(e: A11yEvent) => void>();
  /** Per app (bus name): the quiet window its own late events showed it needs, at most DEFAULT_QUIET_MS. */
  private readonly learnedQuiet = new Map<string, number>();
  /** The last settle that called an app quiet, until the next input: when it ended and the app's last event then. */
  private lastSettled: { app: string; at: number; lastEvent: number } | undefined;

  private constructor(private readonly bus: A11yBus) {}

  /** Registers for events and starts listening. */
  static async start(bus: A11yBus): Promise<EventWatcher> {
    const w = new EventWatcher(bus);
    bus.bus.on('message', (m: Message) => w.onMessage(m));
    await bus.addMatch("type='signal',interface='org.a11y.atspi.Event.Object'");
    await bus.addMatch("type='signal',interface='org.a11y.atspi.Event.Window'");
    const registry = { dest: 'org.a11y.atspi.Registry', path: '/org/a11y/atspi/registry' };
    await Promise.all(EVENTS.map((ev) =>
      bus.call(registry, 'org.a11y.atspi.Registry', 'RegisterEvent', 'sass', [ev, [], '']).catch(() =>
        // at-spi2-core before 2.46 only knows the one-argument form.
        bus.call(registry, 'org.a11y.atspi.Registry', 'RegisterEvent', 's', [ev]))));
    return w;
  }

  private onMessage(m: Message): void {
    if (m.type !== 4 /* SIGNAL */ || !m.interface?.startsWith('org.a11y.atspi.Event.')) return;
    if (NOISE.test(m.member ?? '') || NOISE.test(m.member?.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase() ?? ''))
      return;
    const family = m.interface.slice('org.a11y.atspi.Event.'.length).toLowerCase();
    const detail = String((m.body as unknown[] | undefined)?.[0] ?? '');
    const member = (m.member ?? '').replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();
    const ev: A11yEvent = {
      time: performance.now(),
      type: `${family}:${member}${detail ? ':' + detail : ''}`,
      source: (m.sender ?? '') + (m.path ?? ''),
      detail,
    };
    const data = (m.body as unknown[] | undefined)?.[3] as { signature?: string; value?: unknown } | undefined;
    if (data?.signature === '(so)' && Array.isArray(data.value))
      ev.object = `${String(data.value[0] ?? '')}${String(data.value[1] ?? '')}`;
    if (ev.type === 'object:state-changed:showing')
      showingHeard.note(ev.source, Number((m.body as unknown[] | undefined)?.[1]) === 1);
    this.lastEventAt = ev.time;
    const app = ev.source.slice(0, ev.source.indexOf('/'));
    this.noteLate(app, ev.time);
    this.lastByApp.set(app, ev.time);
    if (WINDOW_CHANGE.test(ev.type)) this.lastWindowEventAt = ev.time;
    this.count++;
    this.recent.push(ev);
    if (this.recent.length > RECENT_MAX) this.droppedUpTo = this.recent.splice(0, RECENT_MAX / 2).at(-1)!.time;
    for (const l of this.listeners) l(ev);
  }

  /**
   * An event of the app a settle just called quiet, before any new input, shows that its quiet window was too short
   * for it (LibreOffice's toolbar updates its states ~300 ms after a toggle): later settles of that app wait for the
   * gap it showed, never longer than the default window that held before quiet times were measured per toolkit.
   */
  private noteLate(app: string, at: number): void {
    const s = this.lastSettled;
    if (!s || s.app !== app) return;
    this.lastSettled = undefined;
    if (at - s.at > LATE_EVENT_MS) return;
    const needed = Math.min(DEFAULT_QUIET_MS, Math.ceil(at - s.lastEvent) + LATE_MARGIN_MS);
    this.learnedQuiet.set(app, Math.max(this.learnedQuiet.get(app) ?? 0, needed));
  }

  /** An input was sent: events from now on are its effects, not late ones of the last settle. */
  inputSent(): void { this.lastSettled = undefined; }

  /** The quiet window to use for `app`: `quietMs`, or longer where the app's late events showed it needs it. */
  quietWindow(app: string | undefined, quietMs: number): number {
    return Math.max(quietMs, (app && this.learnedQuiet.get(app)) || 0);
  }

  /** Total events seen so far. */
  get total(): number { return this.count; }

  /** Subscribes to every event; returns the unsubscribe function. */
  subscribe(listener: (e: A11yEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Milliseconds since `app` (a bus name) sent its last event; Infinity when it never did. */
  quietFor(app: string): number {
    const last = this.lastByApp.get(app);
    return last === undefined ? Infinity : performance.now() - last;
  }

  /** Resolves on the next event of `app` (a bus name), after `ms`, or on abort, whichever comes first. */
  next(app: string, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = (): void => { clearTimeout(timer); off(); signal?.removeEventListener('abort', done); resolve(); };
      const off = this.subscribe((e) => { if (e.source.startsWith(app + '/')) done(); });
      const timer = setTimeout(done, Math.max(0, ms));
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  /**
   * Waits until the app is idle: no event for `quietMs` and the app answers a ping, or `timeoutMs` passed.
   * The ping matters because toolkits run actions from an idle handler: an app busy for 150 ms (gedit's Save
   * button) sends nothing meanwhile, and a plain quiet window would end before its first event. A ping is
   * answered only when the app's main loop is free, and events it emitted before arrive before the answer.
   * Structural events (children changed, windows, showing) stretch the quiet window to `tailMs`, because
   * closing popovers and dialogs animate and send their last events ~200 ms later. When the app has sent
   * nothing since `since` (the last input), the wait lasts at least `firstEventMs`.
   *
   * `effectOn` names the act's target (a handle): once that element has shown the act's effect (EFFECT) since the
   * input, nothing structural came, and the app stayed silent across a whole round trip (no event between the
   * answers of two pings), the app has sent what the act caused and the quiet time is not waited out (see
   * `effectDone`). An app whose late events raised its quiet window never ends so.
   */
  async settle(
    quietMs: number,
    timeoutMs: number,
    app?: string,
    opts: {
      since?: number; firstEventMs?: number; tailMs?: number; minMs?: number; signal?: AbortSignal; effectOn?: string;
    } = {},
  ): Promise<{ settled: boolean; events: number; ms: number }> {
    const start = performance.now();
    const tailMs = opts.tailMs ?? Math.max(quietMs, 250);
    // An act whose app has not reacted yet may still be working (GTK3's file chooser answers a Save click
    // ~150 ms later, without blocking its main loop): wait a little for a first event before calling it quiet.
    const since = opts.since ?? start;
    const firstEventMs = opts.firstEventMs ?? 0;
    let events = 0;
    let structural = false;
    // Only the target app's events count: another app's animation must not keep this one "busy".
    const off = this.subscribe((e) => {
      if (app && !e.source.startsWith(app + '/')) return;
      events++;
      if (STRUCTURAL.test(e.type)) structural = true;
    });
    const byEffect = app !== undefined && opts.effectOn !== undefined && !this.learnedQuiet.has(app);
    const lastEvent = (): number => (app ? this.lastByApp.get(app) ?? 0 : this.lastEventAt);
    const deadline = start + timeoutMs;
    const result = (settled: boolean) => ({ settled, events, ms: Math.round(performance.now() - start) });
    let pings = 0;
    /** When the last ping was answered, and the one before it. */
    let answered = -Infinity;
    let answeredBefore = -Infinity;
    try {
      for (;;) {
        // A cancelled settle ends at once (doctor --conformance, wire.cancel): the caller no longer waits for it.
        opts.signal?.throwIfAborted();
        if (app) {
          const left = deadline - performance.now();
          if (left <= 0) return result(false);
          const answer = await this.ping(app, left);
          if (answer === 'gone') return result(true);
          if (answer === 'ok') { pings++; answeredBefore = answered; answered = performance.now(); }
        }
        const now = performance.now();
        const quiet = structural ? tailMs : quietMs;
        const last = lastEvent();
        const quietFor = now - Math.max(start, last);
        const reacted = last >= since || now - since >= firstEventMs;
        // After a text edit the app may change dependent state on a timer (a default button enabled ~150 ms
        // later): not settled before `minMs` after the input.
        const longEnough = now - since >= (opts.minMs ?? 0);
        const effect = byEffect && !structural && longEnough && this.effectDone(app, opts.effectOn!, since);
        if (effect && pings >= 2 && last <= answeredBefore) {
          this.lastSettled = { app, at: now, lastEvent: last };
          return result(true);
        }
        if (quietFor >= quiet && reacted && longEnough && (!app || pings >= 2)) {
          if (app) this.lastSettled = { app, at: now, lastEvent: last };
          return result(true);
        }
        if (now >= deadline) return result(false);
        // The effect is in: the next ping at once, to see the app silent across it (a few times: an app that keeps
        // sending waits out its quiet time instead).
        // A short gap first: an app whose main loop has no request waiting runs its queued idle handlers (a handler
        // that opens a dialog), and the next ping waits behind them.
        if (effect && pings < EFFECT_PINGS) {
          await new Promise((r) => setTimeout(r, EFFECT_GAP_MS));
          continue;
        }
        await new Promise((r) =>
          setTimeout(r, Math.max(1, Math.min(Math.max(quiet - quietFor, 5), 40, deadline - now))),
        );
      }
    } finally { off(); }
  }

  /**
   * Whether the act's target `on` (a handle) showed the act's effect since `since`, with no structural event of
   * `app` since: GTK 3 sends a toggle's state change before it answers the DoAction, and the settle need not wait
   * out a quiet time for an update it has seen whole.
   */
  private effectDone(app: string, on: string, since: number): boolean {
    if (this.droppedUpTo >= since) return false;
    let seen = false;
    for (let i = this.recent.length - 1; i >= 0; i--) {
      const e = this.recent[i]!;
      if (e.time < since) break;
      if (!e.source.startsWith(app + '/')) continue;
      if (STRUCTURAL.test(e.type)) return false;
      if (e.source === on && EFFECT.test(e.type)) seen = true;
    }
    return seen;
  }

  /** A mark of the event stream now, for `changedSince`. */
  mark(): string { return `${this.instance}:${performance.now()}`; }

  /**
   * Whether `app` (a bus name) may have changed since `mark`, and whether any window may have. The app is pinged
   * first: events it sent before answering arrive before the answer (one bus connection keeps their order), so an
   * event on its way is not missed. A mark of another process, an app that does not answer: changed.
   */
  async changedSince(app: string, mark: string): Promise<{ changed: boolean; windows: boolean }> {
    const at = this.timeOf(mark);
    if (at === undefined) return { changed: true, windows: true };
    // An event already received since the mark answers at once: an app that floods the bus is not pinged (its
    // answer would wait behind its queue of events), and the answer stays as quick as the flood is long.
    if ((this.lastByApp.get(app) ?? 0) >= at) return { changed: true, windows: this.lastWindowEventAt >= at };
    const answered = await this.ping(app, 1000) === 'ok';
    return { changed: !answered || (this.lastByApp.get(app) ?? 0) >= at, windows: this.lastWindowEventAt >= at };
  }

  /**
   * The events `app` (a bus name) sent since `mark`, after a round trip to it (events it sent before answering
   * arrive first); undefined when they are not all known: a mark of another process, an app that does not
   * answer, or events since the mark already dropped from the kept ones.
   */
  async eventsSince(app: string, mark: string): Promise<A11yEvent[] | undefined> {
    const at = this.timeOf(mark);
    if (at === undefined) return undefined;
    if (await this.ping(app, 1000) !== 'ok' || this.droppedUpTo >= at) return undefined;
    return this.recent.filter((e) => e.time >= at && e.source.startsWith(app + '/'));
  }

  /** The time a mark of this process stands for; undefined for another process's mark (a restart) or a malformed one. */
  private timeOf(mark: string): number | undefined {
    const sep = mark.lastIndexOf(':');
    const at = Number(mark.slice(sep + 1));
    return mark.slice(0, sep) === this.instance && Number.isFinite(at) ? at : undefined;
  }

  /** Round trip to the app's main loop: 'ok', 'gone' (the app exited: nothing left to wait for) or 'busy'. */
  private async ping(app: string, timeoutMs: number): Promise<'ok' | 'gone' | 'busy'> {
    try {
      await this.bus.getProp(
        { dest: app, path: '/org/a11y/atspi/accessible/root' },
        'org.a11y.atspi.Accessible',
        'ChildCount',
        Math.min(timeoutMs, 1000),
        true,
      );
      return 'ok';
    } catch (e) { return isGone(e) ? 'gone' : 'busy'; }
  }
}
