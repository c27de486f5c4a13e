/**
 * A computer-use session: one device, its ref table, the window table and the last snapshot the model saw
 * of each window (what act diffs are computed against). It can be persisted so refs printed by one CLI
 * process work in the next.
 */
import { nameText, quoteText } from '../engine/escape.js';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AppInfo, RawNode, WindowInfo } from '../engine/node.js';
import { redactText } from '../engine/redact.js';
import type { Relocation, RefTableJSON } from '../engine/refs.js';
import { RefTable } from '../engine/refs.js';
import type { Snapshot, SnapshotOptions } from '../engine/snapshot.js';
import { buildSnapshot, DistilledReads, isUnknownScopeError, refsNamed } from '../engine/snapshot.js';
import { incrementalText } from '../engine/incremental.js';
import { awayAfter } from '../engine/diff-pages.js';
import { Device, type DeviceOptions, type ReadDevice } from '../devices/manager.js';
import { ComputerUseError, remediesOf } from '../protocol/errors.js';
import type { ListFindParams, ListFindResult, SnapshotParams, SnapshotResult } from '../protocol/methods.js';
import { identityView, targetOfStep, typedTextOf, type IdentityView, type PolicyGate } from '../policy/gate.js';
import type { ProcessFacts, LaunchFacts } from '../policy/apps.js';
import { sealHolds, sealOf } from '../policy/settings.js';
import { entrust } from './acting-device.js';
import { chooserPaths } from './chooser.js';
import { allowAllGate } from '../policy/gate.js';
import type { VisualTableJSON } from './visual-table.js';
import { VisualTable } from './visual-table.js';
import type { WindowTableJSON } from './windows.js';
import { WindowTable, isWindowRef } from './windows.js';
import { RecentReads } from './recent-reads.js';


/**
 * Whether an act's re-read asks the driver to patch its last read from the app's events (`since`). The driver reads
 * the window's own facts again on every patch: Qt 5 (featherpad) retitles a window with no event on it.
 */
const PATCHED_REREAD = true;
/**
 * Settle defaults: quiet window after the last event (absent: the driver's measured quiet time for the app's
 * toolkit, else 60 ms), cap; `minMs`: not settled before this long after the input (text edits: dependent state
 * such as a default button becoming enabled shows within it).
 */
export interface SettleOptions { quietMs?: number; timeoutMs: number; minMs?: number }
/**
 * The driver picks the quiet window after the app's last event, once it answers pings (structural changes wait
 * 250 ms for closing animations); see EventWatcher.settle for why the ping makes a short window safe.
 */
export const DEFAULT_SETTLE: SettleOptions = { timeoutMs: 3000 };
/**
 * Actionability wait: how long an act waits for its element to become visible, enabled and
 * stable before failing with element_disabled / not_visible.
 */
export const DEFAULT_ACTION_TIMEOUT_MS = 2000;
/**
 * Settle after set_value/type/clear and after keys lasts at least this long: GTK's file chooser enables its Save
 * button ~150 ms after the name is set (measured on mousepad), gnumeric's status "Sum =" follows a selection made
 * by keys ~190 ms after the selection's last event; both after the input's own events went quiet.
 */
export const EDIT_SETTLE_MS = 300;

/** Options of a session. */
export interface SessionOptions {
  device?: Device;
  deviceOptions?: DeviceOptions;
  /** File that keeps refs and last snapshots between processes (the CLI sets it). */
  statePath?: string;
  /** Default snapshot token budget. */
  maxTokens?: number;
  settle?: Partial<SettleOptions>;
  /** Actionability wait of element acts in ms (default DEFAULT_ACTION_TIMEOUT_MS; 0 checks without waiting). */
  actionTimeoutMs?: number;
  gate?: PolicyGate;
  /**
   * Screenshots as images for the model: only when the settings allow them
   * (`allowScreenshots`) and the host says its model takes images (`imageInput`). OCR needs neither: its
   * image never leaves the machine.
   */
  screenshots?: { allowed: boolean; imageInput: boolean };
  /** Frame the target window and show a status window while acting (default true; settings `showActivity`). */
  showActivity?: boolean;
  /** True while computer use is paused (the status window then says so). */
  paused?: () => boolean;
  /** Ref prefix of this device's refs (`d2` → d2e14, d2w1); '' for the first device. */
  refPrefix?: string;
}

interface SavedState {
  version: 1;
  refs: RefTableJSON;
  windows: WindowTableJSON;
  last: [string, Snapshot][];
  visual?: VisualTableJSON;
  printed?: [string, string][];
  /** Native handles of the opaque views whose whole note was printed (Session.opaqueTold). */
  opaqueTold?: string[];
  /** Refs the model was shown, per window id (Session.seen). */
  seen?: [string, string[]][];
  acted?: string[];
  launched?: LaunchedProcess[];
  /** The seal computer-use put on `launched` (settings.ts sealOf): an edited list restores nothing. */
  launchedSeal?: string;
}

/** What the seal of the launched list is for. */
const LAUNCHED_SEAL = 'launched processes';

/** A process a launch became, as the driver proved it (Session.noteLaunched), kept for the next CLI call's policy. */
interface LaunchedProcess { pid: number; startToken: string; argv: string[]; facts?: LaunchFacts }

/** How a tool names a window. */
export interface WindowTarget { app?: string; window?: string }

/** Processes of one app name whose windows a target by app name looks at, first listed first. */
const MAX_SAME_NAME = 5;
/** Processes whose proven identity the session keeps (the oldest is forgotten first). */
const MAX_PROVEN = 64;
/** Windows whose last whole print the session keeps (the oldest is forgotten first: it prints whole again). */
const MAX_PRINTED = 16;
/** Opaque views whose note is remembered as told, per conversation (the oldest are forgotten first). */
const MAX_OPAQUE_TOLD = 64;
/** Acted-on refs the session keeps printed whole (the oldest is forgotten first). */
const MAX_ACTED = 8;
/** Windows whose last whole snapshot is kept with what it was built from (as many as reads are kept). */
const MAX_BUILT = 8;
/** Launched processes the session keeps for the policy (the oldest is forgotten first). */
const MAX_LAUNCHED = 16;

/** What a session keeps of its options: the device it was made with is entrusted to the acting pipeline. */
export type SessionSettings = Readonly<Omit<SessionOptions, 'device' | 'deviceOptions'>>;

export class Session {
  /** The device, read-only: an acting method does not type-check on it (the acting pipeline holds the Device). */
  readonly device: ReadDevice;
  readonly options: SessionSettings;
  readonly gate: PolicyGate;
  readonly settleDefaults: SettleOptions;
  readonly maxTokens: number;
  /** How long an element act waits for its element to become actionable. */
  readonly actionTimeoutMs: number;
  refs = new RefTable();
  windows = new WindowTable();
  /** Captures (cN) and OCR pseudo-elements (oN). */
  visual = new VisualTable();
  /** Last full snapshot the model saw, per window id. */
  readonly last = new Map<string, Snapshot>();
  /** The text of each window's last whole-window print, per window id: what a new print is compared with. */
  readonly printed = new Map<string, string>();
  /** Refs the model acted on last (the newest MAX_ACTED): a folded print shows them on lines of their own. */
  readonly acted = new Set<string>();
  /**
   * Refs the model was shown of each window, per window id: on a line of its last whole print or named in one of
   * its fold lines, and since then in a scoped read, a find or a receipt. An act's diff names removed elements only
   * among these (engine/diff.ts `seen`).
   */
  readonly seen = new Map<string, Set<string>>();
  /**
   * Native handles of the opaque views (engine/opaque.ts) whose whole note the model was shown in this
   * conversation: later prints of the same view say it in short (the paragraph repeated on every observe).
   */
  private readonly opaqueTold = new Set<string>();
  /**
   * What the driver proved about a process (process.identify), by pid and start token. The facts of one process
   * do not change while it runs (its program included: a driver with `act_identity` proves pid, start token and
   * appId at each dispatch), so an act on it needs no new identify; the policy still decides on every act from
   * them. Never persisted: a new process of the CLI proves them again.
   */
  private readonly proven = new Map<string, ProcessFacts>();
  /** Processes launches became; persisted with the state so that a launch's allow entry covers them in the next call. */
  private launched: LaunchedProcess[] = [];
  /** The last whole read of each window, reused by a find while the driver says nothing changed since. */
  private readonly recent = new RecentReads();
  /**
   * The whole-window snapshot each window's last read was built into, with what it was built from: a find on a
   * kept read (the same read object, refs and print settings) takes it instead of building it again.
   */
  private readonly built = new Map<string, { raw: SnapshotResult; refs: RefTable; key: string; full: Snapshot }>();
  /**
   * The distilled trees of the driver's reads: a read built again (an act's re-read, for its mid-work check and
   * then its receipt) is not distilled again.
   */
  private readonly reads = new DistilledReads();

  constructor(options: SessionOptions = {}) {
    const { device, deviceOptions, ...settings } = options;
    this.options = settings;
    // The acting device goes to the acting pipeline alone (acting-device.ts); the session keeps its read-only face.
    this.device = entrust(this, device ?? new Device(deviceOptions ?? {}));
    this.gate = withChooserPaths(options.gate ?? allowAllGate, this.last);
    this.settleDefaults = { ...DEFAULT_SETTLE, ...(options.settle ?? {}) };
    this.maxTokens = options.maxTokens ?? 2000;
    this.actionTimeoutMs = options.actionTimeoutMs ?? DEFAULT_ACTION_TIMEOUT_MS;
    if (options.statePath) this.load(options.statePath);
    this.applyRefPrefix();
  }

  /** This device's ref prefix on its three ref tables (refs like d2e14). */
  private applyRefPrefix(): void {
    const p = this.options.refPrefix;
    if (p) { this.refs.prefix = p; this.windows.prefix = p; this.visual.prefix = p; }
  }

  private load(path: string): void {
    let state: SavedState;
    try { state = JSON.parse(readFileSync(path, 'utf8')) as SavedState; } catch { return; }
    if (state.version !== 1) return;
    this.refs = RefTable.fromJSON(state.refs);
    // Files written before titles were masked are masked as they are read.
    this.windows = WindowTable.fromJSON({
      ...state.windows,
      entries: state.windows.entries.map(([r, w]) => [r, masked(w)]),
    });
    for (const [id, snap] of state.last) this.last.set(id, { ...snap, window: masked(snap.window) });
    if (state.visual) this.visual = VisualTable.fromJSON(state.visual);
    for (const [id, text] of state.printed ?? []) this.printed.set(id, text);
    for (const [id, refs] of Array.isArray(state.seen) ? state.seen.slice(-MAX_PRINTED) : []) {
      if (typeof id === 'string' && Array.isArray(refs))
        this.seen.set(id, new Set(refs.filter((r): r is string => typeof r === 'string')));
    }
    for (const id of Array.isArray(state.opaqueTold) ? state.opaqueTold.slice(-MAX_OPAQUE_TOLD) : [])
      if (typeof id === 'string') this.opaqueTold.add(id);
    for (const ref of Array.isArray(state.acted) ? state.acted : []) if (typeof ref === 'string') this.noteActed(ref);
    // The list hands a process the allow entry of the launch that started it, so only computer-use's own write counts.
    const sealed = Array.isArray(state.launched) && sealHolds(state.launchedSeal, LAUNCHED_SEAL, path, state.launched);
    for (const l of sealed ? state.launched!.slice(-MAX_LAUNCHED) : []) {
      const argv = Array.isArray(l?.argv) && l.argv.every((a) => typeof a === 'string');
      if (typeof l?.pid === 'number' && typeof l.startToken === 'string' && argv) {
        this.noteLaunched({ pid: l.pid, startToken: l.startToken }, l.argv, l.facts);
      }
    }
  }

  /**
   * A process a launch became, proven by the driver (LaunchResult.startedHere): the policy lets the entry that allowed
   * the launch cover it, in this call and, through the state file, the next ones.
   */
  noteLaunched(
    proc: { pid: number; startToken: string },
    argv: readonly string[],
    facts: LaunchFacts | undefined,
  ): void {
    this.gate.noteLaunched?.(proc, argv, facts);
    const entry = { ...proc, argv: [...argv], ...(facts ? { facts } : {}) };
    this.launched = [...this.launched.filter((l) => l.pid !== proc.pid), entry].slice(-MAX_LAUNCHED);
  }

  /** Writes the state file (owner-only), atomically. */
  save(): void {
    const path = this.options.statePath;
    if (!path) return;
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // Titles are app text: persisted masked, like the snapshots (whose header and values are masked already).
    const windows = this.windows.toJSON();
    const state: SavedState = {
      version: 1,
      refs: this.refs.toJSON(),
      windows: { ...windows, entries: windows.entries.map(([r, w]) => [r, masked(w)]) },
      last: [...this.last].map(([id, snap]) => [id, { ...snap, window: masked(snap.window) }]),
      visual: this.visual.toJSON(),
      printed: [...this.printed],
      ...(this.seen.size ? { seen: [...this.seen].map(([id, refs]) => [id, [...refs]]) } : {}),
      ...(this.opaqueTold.size ? { opaqueTold: [...this.opaqueTold].slice(-MAX_OPAQUE_TOLD) } : {}),
      ...(this.acted.size ? { acted: [...this.acted] } : {}),
      ...(this.launched.length
        ? { launched: this.launched, launchedSeal: sealOf(LAUNCHED_SEAL, path, this.launched) }
        : {}),
    };
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(state), { mode: 0o600 });
    renameSync(tmp, path);
  }

  async close(): Promise<void> {
    this.save();
    await this.device.close();
  }

  /**
   * Why a window or an app is hidden from every read path (a denied app is unseen), or
   * undefined. The policy decides, with the same deny rules as acting.
   */
  hidden(w: { app: string; pid: number; title?: string } & IdentityView): string | undefined {
    return this.gate.visible({
      name: w.app,
      pid: w.pid,
      ...(w.title !== undefined ? { title: w.title } : {}),
      ...identityView(w),
    });
  }

  /**
   * The window as it is now, refused when that is hidden. A browser window's title follows its active tab, so
   * a window the model was given while it showed an ordinary page may show the panel or a vault now: paths
   * that do not read the tree again before acting (OCR, pointer input at a capture's points) check it here.
   */
  async current(w: WindowInfo): Promise<WindowInfo> {
    const { windows } = await this.device.call('windows.list', { pid: w.pid });
    let now = windows.find((x) => x.id === w.id);
    // A window of an app off the accessibility bus (xmessage, a JVM without the wrapper) is listed only by
    // apps.list, with the app marked inaccessible: the fallback ladder is what reads it.
    now ??= (await this.device.call('apps.list', {})).apps.flatMap((a) => a.windows).find((x) => x.id === w.id);
    if (!now) throw new ComputerUseError('window_not_found', 'The window is gone. Call computer_apps.');
    this.assertVisible({ ...now, ...(w.executable ? { executable: w.executable } : {}) });
    return masked(now);
  }

  /** Throws denied_by_policy when the window is hidden; the message names no title. */
  assertVisible(w: WindowInfo): void {
    const why = this.hidden(w);
    if (why) throw deniedRead(why);
  }

  /** The facts proven for a process with this start token, when an earlier act proved them (see `proven`). */
  provenIdentity(pid: number, startToken: string | undefined): ProcessFacts | undefined {
    return startToken === undefined ? undefined : this.proven.get(`${pid}\n${startToken}`);
  }

  /** Keeps what the driver proved about a live process (one with a start token), for the next acts on it. */
  rememberIdentity(pid: number, facts: ProcessFacts): void {
    if (facts.gone === true || facts.startToken === undefined) return;
    const key = `${pid}\n${facts.startToken}`;
    this.proven.delete(key);
    this.proven.set(key, facts);
    if (this.proven.size > MAX_PROVEN) this.proven.delete(this.proven.keys().next().value!);
  }

  /**
   * Lists apps and registers their windows (titles masked like values); forgets refs of windows that closed.
   * Hidden windows get no ref: callers that show windows check `hidden` (denied apps are listed as denied).
   */
  async apps(): Promise<AppInfo[]> {
    return this.noteApps((await this.device.call('apps.list', { withWindows: true })).apps);
  }

  /** `apps` for a list the driver gave otherwise (node.act and ui.settle with capability act_windows). */
  noteApps(listed: AppInfo[]): AppInfo[] {
    const apps = listed.map((a) => ({ ...a, windows: a.windows.map(masked) }));
    const live: string[] = [];
    for (const a of apps) {
      for (const w of a.windows) {
        live.push(w.id);
        if (this.hidden({ ...identityView(a), ...w })) continue;
        // A busy app's windows come from the display under other handles: they keep the refs they had.
        if (a.busy) this.windows.refOfDisplayed(w, new Set(a.windows.map((x) => x.id)));
        else this.windows.refOf(w);
      }
    }
    this.refs.prune(live);
    this.recent.keepOnly(live);
    for (const id of [...this.last.keys()]) if (!live.includes(id)) this.last.delete(id);
    for (const id of [...this.built.keys()]) if (!live.includes(id)) this.built.delete(id);
    for (const id of [...this.printed.keys()]) if (!live.includes(id)) this.printed.delete(id);
    return apps;
  }

  /**
   * Finds the window a tool means: a `wN` ref, a title, or an app's focused (else last) window. A known `wN`
   * and an app name are resolved without listing every app's windows (observe stays cheap); a window that
   * closed meanwhile fails later with window_not_found.
   */
  async resolveWindow(target: WindowTarget): Promise<WindowInfo> {
    const w = await this.findWindow(target);
    // The one place every read (and every act by window) passes: a denied app's window is never returned.
    this.assertVisible(w);
    // The window these words name, for a later find by the same words (readRecent), while no window changes.
    this.recent.noteTarget(target, w.id, this.windows);
    return w;
  }

  /**
   * The error for an app name no accessible app matches: when a running app off the accessibility bus
   * matches (listed by computer_apps as not accessible), say that instead, so that no second copy is started.
   */
  private async notFound(name: string, accessible: AppInfo[]): Promise<ComputerUseError> {
    const want = name.toLowerCase();
    const off = (
      await this.device.call('apps.list', { withWindows: true }).catch(() => ({ apps: [] as AppInfo[] }))
    ).apps.find(
      (a) => a.inaccessible && (a.name.toLowerCase() === want || a.executable?.toLowerCase().endsWith(`/${want}`)),
    );
    if (off?.inaccessible) {
      const why = this.hidden({ app: off.name, pid: off.pid, ...identityView(off) });
      if (why) return deniedRead(why);
      return new ComputerUseError(
        'unsupported',
        (
          `${off.name} (pid ${off.pid}) is running but not accessible: ${off.inaccessible.reason}. ` +
          `${off.inaccessible.fix ?? ''} Its windows are listed by computer_apps.`
        )
          .replace(/\s+/g, ' ')
          .trim(),
        { remedy: remediesOf(off.inaccessible) },
      );
    }
    return new ComputerUseError(
      'app_not_found',
      `No running app matches "${name}". Running: ${accessible.map((a) => a.name).join(', ') || 'none'}. ` +
        `Start it with computer_launch.`,
    );
  }

  private async findWindow(target: WindowTarget): Promise<WindowInfo> {
    if (target.window && isWindowRef(target.window)) {
      const known = this.windows.get(target.window);
      if (known) return known;
    }
    if (target.app && !target.window) {
      const { apps } = await this.device.call('apps.list', { withWindows: false });
      const want = target.app.toLowerCase();
      const exact = apps.filter((a) => a.name.toLowerCase() === want);
      const named = exact.length ? exact : apps.filter((a) => a.name.toLowerCase().includes(want));
      const matches = (
        named.length ? named : apps.filter((a) => a.executable?.toLowerCase().endsWith(`/${want}`))
      ).slice(0, MAX_SAME_NAME);
      const app = matches[0];
      if (!app) throw await this.notFound(target.app, apps);
      // Several processes of one name (a second instance, or one still leaving the bus as another starts, as
      // Thunar does between two runs): the one with a window, not the first listed.
      let firstWhy: string | undefined;
      for (const a of matches) {
        const why = this.hidden({ app: a.name, pid: a.pid, ...identityView(a) });
        if (why) { firstWhy ??= why; continue; }
        const windows = (await this.device.call('windows.list', { pid: a.pid })).windows.map(masked);
        const shown = windows.filter((x) => !this.hidden(x));
        for (const w of shown) this.windows.refOf(w);
        const w = windows.find((x) => x.focused) ?? unfocusedPick(shown) ?? windows[windows.length - 1];
        if (w) return w;
      }
      if (firstWhy && matches.every((a) => this.hidden({ app: a.name, pid: a.pid, ...identityView(a) })))
        throw deniedRead(firstWhy);
      throw new ComputerUseError('window_not_found', noWindowYet(app.name, app.pid));
    }
    const apps = await this.apps();
    const all = apps.flatMap((a) => a.windows);
    if (target.window) {
      const byRef = isWindowRef(target.window) ? this.windows.get(target.window) : undefined;
      // By title: a visible window first; a hidden one only to say that it is hidden.
      const byTitle = (list: WindowInfo[]): WindowInfo | undefined => list.find((x) => x.title === target.window) ??
        list.find((x) => x.title.toLowerCase().includes(target.window!.toLowerCase()));
      const visible = all.filter((x) => !this.hidden(x));
      const w = byRef ? all.find((x) => x.id === byRef.id) : byTitle(visible) ?? byTitle(all);
      if (!w)
        throw new ComputerUseError(
          'window_not_found',
          `No open window matches "${redactText(target.window)}". Open windows: ` +
            `${describeWindows(visible, this.windows)}.`,
        );
      return w;
    }
    const focused = all.find((x) => x.focused) ?? all[all.length - 1];
    if (!focused)
      throw new ComputerUseError('window_not_found', 'No window is open. Start an app with computer_launch.');
    return focused;
  }

  /**
   * Reads a window's raw tree from the driver (its title masked). A hidden window is never read: this throws
   * denied_by_policy before asking the driver, and again if the window the driver read turns out hidden.
   */
  async readWindow(
    window: WindowInfo,
    opts: { bounds?: boolean; keyBindings?: boolean; patch?: boolean } = {},
  ): Promise<SnapshotResult> {
    this.assertVisible(window);
    // An act's re-read names the last read's mark: the driver may patch that read where the app's events say it
    // changed.
    const patch = PATCHED_REREAD && opts.patch && !opts.bounds && !opts.keyBindings;
    const since = patch ? this.recent.markOf(window.id) : undefined;
    const raw = await this.device.call('tree.snapshot', {
      window: window.id,
      ...(opts.bounds ? { bounds: true } : {}),
      ...(opts.keyBindings ? { keyBindings: true } : {}),
      ...(since !== undefined ? { since } : {}),
    });
    const out = this.assertReadable({ ...raw, window: masked(raw.window) });
    // Only a plain read is what a later find would read: one with bounds or key bindings holds more.
    if (!opts.bounds && !opts.keyBindings) this.recent.note(out);
    return out;
  }

  /** A read of the window a target names: the last one while the driver says nothing changed since, else a new one. */
  async readRecent(target: WindowTarget): Promise<SnapshotResult> {
    const kept = await this.recent.reuse(target, this.windows, (window, since) =>
      this.device.call('tree.changed', { window, since }),
    );
    // The policy decides again on every read, a kept one included (a window the settings now deny stays unseen).
    if (kept) return this.assertReadable(kept);
    return this.readWindow(await this.resolveWindow(target));
  }

  /**
   * A read of a window to find an act's target in (a look-alike told apart by its row): the last read while the
   * driver says its app sent no event since (kept valid by the events, as a find's), else a re-read the driver may
   * patch from the events since that read. The driver still checks the element's role and name before it acts.
   */
  async readForTarget(window: WindowInfo): Promise<SnapshotResult> {
    const kept = await this.recent.reuseWindow(window.id, (w, since) =>
      this.device.call('tree.changed', { window: w, since }),
    );
    if (kept) return this.assertReadable(kept);
    return this.readWindow(window, { patch: true });
  }

  /**
   * A read of part of a window (`scope`) whose whole read `raw` a find is using: kept with that read's mark, so a
   * find on a read the driver says is unchanged reads no part again (nothing of the app changed since the mark).
   */
  async readPart(
    raw: SnapshotResult,
    params: Omit<SnapshotParams, 'window'>,
    signal?: AbortSignal,
  ): Promise<SnapshotResult> {
    const request = JSON.stringify(['tree.snapshot', params]);
    const kept = this.recent.part<SnapshotResult>(raw, request);
    if (kept) return kept;
    const read = await this.device.call('tree.snapshot', { window: raw.window.id, ...params }, undefined, signal);
    this.recent.notePart(raw, request, read);
    return read;
  }

  /**
   * A search of a list's rows beyond `raw`, a whole read a find is using (list.find): a complete one is kept as a
   * part of that read is, so a find on a read the driver says is unchanged searches no list again.
   */
  async findInList(
    raw: SnapshotResult,
    params: ListFindParams,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<ListFindResult> {
    const request = JSON.stringify(['list.find', params]);
    const kept = this.recent.part<ListFindResult>(raw, request);
    if (kept) return kept;
    const found = await this.device.call('list.find', params, timeoutMs, signal);
    if (found.complete) this.recent.notePart(raw, request, found);
    return found;
  }

  /** The read, when neither its window nor a web document it shows is hidden; else throws denied_by_policy. */
  private assertReadable(out: SnapshotResult): SnapshotResult {
    this.assertVisible(out.window);
    // A web document's name is its page's title, read with the content: a window whose title has not caught
    // up with a tab that just opened (the panel, a vault) is refused by what it shows.
    const shown = documentNames(out.root).find((name) => this.hidden({ ...out.window, title: name }));
    if (shown !== undefined) throw deniedRead(this.hidden({ ...out.window, title: shown })!);
    return out;
  }

  /** Finds a ref's element in a read of its window (RefTable.relocate), distilling the read once for its builds. */
  relocate(ref: string, raw: SnapshotResult): Relocation {
    return this.refs.relocate(ref, raw.root, raw.window, this.reads.toRead(raw.root));
  }

  /**
   * Builds the snapshot the model reads. The full-window snapshot is always built (refs are assigned on the
   * whole window and act diffs compare against it); scope/query only change what is rendered.
   */
  snapshotOf(raw: SnapshotResult, opts: SnapshotOptions = {}): { full: Snapshot; shown: Snapshot } {
    const input = { window: raw.window, root: raw.root };
    const told = (ref: string): boolean => this.opaqueToldOf(ref);
    const full = this.wholeSnapshot(raw, opts);
    // What the model saw that this read no longer shows (a tab page not shown) is kept for the page's return.
    const prev = this.last.get(raw.window.id);
    if (prev && prev !== full) full.away = awayAfter(prev, full);
    this.last.set(raw.window.id, full);
    if (opts.scope === undefined && opts.query === undefined) return { full, shown: full };
    try {
      return {
        full,
        shown: buildSnapshot(input, this.refs, {
          maxTokens: opts.maxTokens ?? this.maxTokens,
          opaqueTold: told,
          reads: this.reads,
          ...opts,
        }),
      };
    } catch (e) {
      if (isUnknownScopeError(e)) throw new ComputerUseError('stale_ref', e.message);
      throw e;
    }
  }

  /**
   * The whole-window snapshot of a read. A whole-window print folds long runs of alike controls (engine/fold.ts)
   * unless asked whole (`fold: false`); what the model just acted on prints in full. Built again only when the read,
   * the ref table or what the print depends on (budget, folding, acted refs, opaque views told) is not what the
   * window's last snapshot was built from, or another snapshot of the window came since.
   */
  private wholeSnapshot(raw: SnapshotResult, opts: SnapshotOptions): Snapshot {
    const maxTokens = opts.maxTokens ?? this.maxTokens;
    const fold = opts.fold ?? true;
    const key = JSON.stringify([maxTokens, fold, [...this.acted], [...this.opaqueTold]]);
    const id = raw.window.id;
    const was = this.built.get(id);
    if (was && was.raw === raw && was.refs === this.refs && was.key === key && this.last.get(id) === was.full)
      return was.full;
    const full = buildSnapshot({ window: raw.window, root: raw.root }, this.refs, {
      maxTokens, opaqueTold: (ref: string): boolean => this.opaqueToldOf(ref), fold, whole: this.acted,
      reads: this.reads,
    });
    this.built.delete(id);
    this.built.set(id, { raw, refs: this.refs, key, full });
    if (this.built.size > MAX_BUILT) this.built.delete(this.built.keys().next().value!);
    return full;
  }

  /**
   * Starts over as a new conversation does: no ref, window ref, last snapshot or print of the one before is
   * known (refs count from e1 again). What the driver proved of processes stays: it does not depend on what
   * a model was shown. The eval runs each task as its own conversation.
   */
  newConversation(): void {
    this.refs = new RefTable();
    this.windows = new WindowTable();
    this.visual = new VisualTable();
    this.applyRefPrefix();
    this.last.clear();
    this.built.clear();
    this.printed.clear();
    this.seen.clear();
    this.recent.clear();
    this.opaqueTold.clear();
    this.acted.clear();
  }

  /** Notes a ref an act targets: folded prints show it on its own line from now on. */
  noteActed(ref: string): void {
    this.acted.delete(ref);
    this.acted.add(ref);
    if (this.acted.size > MAX_ACTED) this.acted.delete(this.acted.values().next().value!);
  }

  /** Keeps a whole-window snapshot's text as printed to the model (a launch's window, a new window in a receipt). */
  notePrinted(snapshot: Snapshot): void {
    const id = snapshot.window.id;
    this.printed.delete(id);
    this.printed.set(id, snapshot.text);
    if (this.printed.size > MAX_PRINTED) this.printed.delete(this.printed.keys().next().value!);
    this.noteOpaqueTold(snapshot.opaque ?? []);
    // What the model saw before and that is still there stays seen, though this print folds it.
    const was = this.seen.get(id);
    const now = new Set(refsNamed(snapshot.text));
    if (was) for (const l of snapshot.elements) if (was.has(l.ref)) now.add(l.ref);
    this.seen.delete(id);
    this.seen.set(id, now);
    if (this.seen.size > MAX_PRINTED) this.seen.delete(this.seen.keys().next().value!);
  }

  /** Notes the refs a text shown to the model names as seen in a window it printed whole before (Session.seen). */
  noteSeen(windowId: string, text: string): void {
    const seen = this.seen.get(windowId);
    if (seen) for (const ref of refsNamed(text)) seen.add(ref);
  }

  /**
   * The refs the model was shown of a window, with those it acted on (engine/diff.ts `seen`); undefined for a window
   * never printed whole in this conversation (every element then counts as seen).
   */
  seenOf(windowId: string): ReadonlySet<string> | undefined {
    const seen = this.seen.get(windowId);
    return seen && new Set([...seen, ...this.acted]);
  }

  /** Whether the model was shown the whole note on this opaque view (by ref) in this conversation. */
  opaqueToldOf(ref: string): boolean {
    return this.opaqueTold.has(this.refs.lookup(ref)?.id ?? '');
  }

  /** Notes that the model was shown the note on these opaque views (by ref), so later prints say it in short. */
  noteOpaqueTold(refs: readonly string[]): void {
    for (const ref of refs) {
      const id = this.refs.lookup(ref)?.id;
      if (id === undefined) continue;
      this.opaqueTold.delete(id);
      this.opaqueTold.add(id);
    }
    while (this.opaqueTold.size > MAX_OPAQUE_TOLD) this.opaqueTold.delete(this.opaqueTold.values().next().value!);
  }

  /**
   * A whole-window snapshot as the model reads it: a window printed before reads as what changed since
   * (engine/incremental.ts), unless `whole` or too little is unchanged. Kept as printed either way.
   */
  present(snapshot: Snapshot, whole = false): string {
    const before = this.printed.get(snapshot.window.id);
    this.notePrinted(snapshot);
    if (whole || before === undefined) return snapshot.text;
    return incrementalText(before, snapshot.text, 'full=true')?.text ?? snapshot.text;
  }

  /** Observes a window: driver read + engine pipeline. */
  async observe(
    target: WindowTarget,
    opts: SnapshotOptions = {},
  ): Promise<{ window: WindowInfo; snapshot: Snapshot; full: Snapshot; raw: SnapshotResult }> {
    const window = await this.resolveWindow(target);
    const raw = await this.readWindow(window);
    const { full, shown } = this.snapshotOf(raw, opts);
    return { window: raw.window, snapshot: shown, full, raw };
  }
}

/**
 * The window of an app none of whose windows has the focus: its last dialog (a question waits there), else its
 * largest (Chromium lists an 880×89 helper window after its main one: find searched that and answered 0 matches).
 */
export function unfocusedPick(windows: readonly WindowInfo[]): WindowInfo | undefined {
  const dialogs = windows.filter((w) => w.role === 'dialog' || w.role === 'alert');
  if (dialogs.length) return dialogs[dialogs.length - 1];
  const area = (w: WindowInfo): number => (w.bounds ? w.bounds[2] * w.bounds[3] : 0);
  let best = windows[windows.length - 1];
  for (const w of windows) if (best && area(w) > area(best)) best = w;
  return best;
}

/** The names of the document nodes of a tree (a browser's web documents carry their page's title). */
function documentNames(root: RawNode): string[] {
  const out: string[] = [];
  const stack = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.role === 'document' && n.name) out.push(n.name);
    if (n.children) stack.push(...n.children);
  }
  return out;
}

/** "w1 "Title" (app)" list for error messages (visible windows only; titles masked). */
export function describeWindows(all: WindowInfo[], table: WindowTable): string {
  return (
    all.map((w) => `${table.refOf(w)} ${quoteText(redactText(w.title))} (${nameText(w.app)})`).join(', ') || 'none'
  );
}

/**
 * The gate as the session's acting paths call it: a relative file name written into a file chooser also names
 * the full path it resolves to (from the chooser's current folder in the last snapshot), so the policy's
 * self-protection sees "settings.json" typed in the tool's home as that file.
 */
function withChooserPaths(gate: PolicyGate, last: ReadonlyMap<string, Snapshot>): PolicyGate {
  return {
    check: (req) => {
      const window = targetOfStep(req).window;
      const extra = window ? chooserPaths(last.get(window), typedTextOf(req)) : [];
      return gate.check(extra.length ? { ...req, paths: [...(req.paths ?? []), ...extra] } : req);
    },
    visible: (app) => gate.visible(app),
    ...(gate.ownFile ? { ownFile: gate.ownFile.bind(gate) } : {}),
    ...(gate.ownRoots ? { ownRoots: gate.ownRoots.bind(gate) } : {}),
    ...(gate.noteLaunched ? { noteLaunched: gate.noteLaunched.bind(gate) } : {}),
  };
}

/** A window with its title (and a tab's URL) masked like a value (tokens in titles). */
export function masked<W extends { title: string; url?: string }>(w: W): W {
  const title = redactText(w.title);
  const url = w.url === undefined ? undefined : redactText(w.url);
  return title === w.title && url === w.url ? w : { ...w, title, ...(url !== undefined ? { url } : {}) };
}

/** The refusal of a read: says why, names no title, and says what to do. */
export function deniedRead(why: string): ComputerUseError {
  return new ComputerUseError(
    'denied_by_policy',
    `This window belongs to an app computer-use may not read or act on: ${why}. ` +
      'Nothing was read. Ask the user to do this step themselves, or to work in another app.',
  );
}

/**
 * Why an app that runs shows no window, and the ways to get one: it still runs (a tray or background app whose
 * window closed), and many single-instance apps open a window when they are started again; a tray icon is not
 * reachable through the accessibility tree.
 */
function noWindowYet(name: string, pid: number): string {
  return `${name} is running (pid ${pid}) with no open window: an app that lives in the tray or in the background ` +
    '(its tray icon is not reachable here). To get a window, launch it again with computer_launch: many ' +
    'single-instance apps open a window when started again.';
}
