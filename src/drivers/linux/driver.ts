/**
 * The Linux driver: AT-SPI2 over D-Bus behind the protocol's method table. It enumerates, reads, acts and
 * reports events; it makes no policy decision.
 */
import { markChoosers } from './tree/chooser.js';
import { findInTree } from '../common/find.js';
import { orderContentPanes, paneBoundsWanted } from './tree/panes.js';
import { fieldBoundsWanted, nameFieldsBeside } from './tree/field-labels.js';
import type { AppInfo, RawNode, WindowInfo } from '../../protocol/nodes.js';
import { handshake } from '../../protocol/handshake.js';
import { walk } from '../../engine/node.js';
import { ComputerUseError } from '../../protocol/errors.js';
import { checkChord, formatChords } from '../../protocol/keys.js';
import { COMMAND_ROLES } from '../../protocol/vocabulary.js';
import { markedAccessKey } from '../common/names.js';
import type { Handlers } from '../../protocol/peer.js';
import type { LaunchParams, LaunchResult, SnapshotParams } from '../../protocol/methods.js';
import { act } from './act/actions.js';
import { findInList, noteListChange, watchListChanges } from './tree/listfind.js';
import { procInfo } from '../../common/proc.js';
import { listApps, listWindowsOf } from './apps/apps.js';
import { identify, startTokenOf, terminate, withIdentity } from './apps/identity.js';
import { warmPackages } from './apps/packages.js';
import { resolveLaunch, resolveLaunchFacts } from './apps/resolve.js';
import { startDetached } from './apps/spawn.js';
import { A11yBus, isGone, type Target } from './bus/bus.js';
import { SharedCacheReads, readTreeCached } from './bus/cache.js';
import { EventWatcher } from './bus/events.js';
import { quietTimeFor } from './bus/quiet.js';
import { DEFAULT_QUIET_MS } from '../../protocol/methods.js';
import { noteActiveDescendant, noteTableChange } from './tree/table.js';
import { chordStrokes, LinuxInput, ownedBy, textStrokes, type Expect } from './input/input.js';
import { A11Y_FIX_COMMANDS, a11yStatus, displayServer, onPath, toolkitEnv, type A11yStatus } from './checkup/prereq.js';
import {
  askBounds, extentsOf, handleOf, readElement, targetOf, toRawNode, type BoundsAsked, type ElementInfo,
} from './tree/reader.js';
import { readTree } from './tree/read-tree.js';
import { KeptWindowList } from './apps/kept-window-list.js';
import { KeptReads } from './tree/kept-reads.js';
import { patchable } from './tree/patch-plan.js';
import { patchRead } from './tree/patch-read.js';
import { TextBudget } from './tree/text.js';
import { findText, readRange } from './tree/text.js';
import { engineOfCommand, engineSetup } from './apps/engines.js';
import { LAUNCH_MARKER, launchMark, windowlessLaunches } from './apps/launched.js';
import { waitForPageWindow } from './apps/page-window.js';
import { OffBusWait } from './apps/offbus-wait.js';
import { inside, sameRect } from '../../fallback/geometry.js';
import type { KeysParams, PointerParams } from '../../protocol/methods.js';
import { Overlay } from './x11/overlay.js';
import { titleOf } from './x11/match.js';
import { x11 } from './x11/connection.js';
import { listDisplays, ocrPng, readClipboard, scaleAndMark, writeClipboard } from './input/screen.js';
import { captureWindow, coverFacts, type WindowCapture } from './x11/capture.js';
import { blackAt } from '../../fallback/cover.js';
import { ATSPI_ROOT_PROPERTY, appLaunchEnv, isGtk2Program, toolkitFacts } from './apps/toolkits.js';
import {
  inaccessibleApps, isX11Handle, launchedOffBus, REGISTER_GRACE_MS, x11WindowInfo, xidOf, displayWindowsOf,
} from './apps/x11apps.js';

export const DRIVER_VERSION = '0.1.0';
/** The requests that may change an app (an input, a launch, a window raised or closed). */
const ACTING_METHODS = ['node.act', 'input.keys', 'input.pointer', 'input.clipboard', 'window.activate', 'apps.launch',
  'apps.terminate'] as const;
/** How long settle waits for an app's first reaction to an input before calling it quiet. */
const FIRST_EVENT_MS = 400;
/** How long a launch handed over to a running instance waits for that instance's new window. */
const HANDOVER_GRACE_MS = 2000;
/** Most key strokes one input.keys call sends (chords or characters). */
const MAX_STROKES = 10_000;

export class LinuxDriver {
  /** When the last input (act or keys) was dispatched; settle waits for the app's reaction to it. */
  private lastInputAt = 0;
  /** The target of the last element act (node.act), and when it was sent. */
  private lastActOn: { handle: string; at: number } | undefined;

  private status: Promise<A11yStatus> | undefined;
  /** The visible agent's frame and status windows (ui.highlight), on the driver's X connection. */
  private readonly overlay = new Overlay(() => x11());
  private readonly keptReads = new KeptReads();
  /** The last window list, for the act's before- and after-lists while nothing changed a window. */
  private readonly keptWindows: KeptWindowList;
  /** An app's cache read shared by reads asked together while nothing of it happened (a find's scrolled-out parts). */
  private readonly cacheReads = new SharedCacheReads(
    (dest, at) => this.events.quietFor(dest) > performance.now() - at && this.lastInputAt < at,
  );
  private constructor(readonly bus: A11yBus, readonly events: EventWatcher, readonly input: LinuxInput) {
    this.keptWindows = new KeptWindowList(events);
    // Asked by the keys' proof while the keyboard is grabbed: does the target's toolkit see the focus (input.ts)?
    input.activeWindows = async () =>
      (await listApps(bus)).flatMap((a) =>
        a.windows.filter((w) => w.focused).map((w) => ({ app: a.name, pid: w.pid, title: w.title })),
      );
    // Grid hook (table.ts): a sheet's cursor cell, so a capped read of its visible range keeps the cursor in.
    events.subscribe(noteActiveDescendant);
    events.subscribe(noteTableChange);
    // A long list's kept name index (listfind.ts) is dropped when an event says its rows changed.
    events.subscribe(noteListChange);
    watchListChanges();
    // Package facts (packages.ts) take ~0.5 s to read: warmed now so the first launch or act finds them ready.
    warmPackages();
  }

  static async start(): Promise<LinuxDriver> {
    const bus = await A11yBus.connect();
    const events = await EventWatcher.start(bus);
    return new LinuxDriver(bus, events, LinuxInput.create());
  }

  close(): void { void this.input.close(); this.bus.disconnect(); }

  /**
   * A window's tree: a plain read asked with the mark of the driver's last read of the window (an act's receipt) is
   * that read patched where the app's events since say it changed (tree/patch-read.ts); anything else, or a patch
   * that gives up, reads whole. Every plain whole read is kept for the next patch.
   */
  private async readWindowTree(
    p: SnapshotParams,
    start: Target,
    mark: string,
    rootInfo?: Promise<ElementInfo>,
  ): Promise<{ root: RawNode; nodes: number; truncated: boolean; reread?: number; asked?: BoundsAsked }> {
    const plain = !p.scope && p.depth === undefined && !p.bounds && !p.keyBindings && p.maxNodes === undefined;
    const kept = plain && p.since !== undefined ? this.keptReads.get(p.window, p.since) : undefined;
    if (kept) {
      // The bounds the passes after the read ask (panes, fields beside labels) are asked beside the patch's reads.
      const asked = askBounds(this.bus, [...paneBoundsWanted(kept.root), ...fieldBoundsWanted(kept.root)]);
      const events = await this.events.eventsSince(start.dest, kept.mark);
      const patched = await patchRead(this.bus, kept, events, mark, 5000, rootInfo);
      if ('root' in patched) {
        this.keptReads.keep(p.window, patched.kept);
        return { root: patched.root, nodes: patched.nodes, truncated: false, reread: patched.reread, asked };
      }
    }
    const text = new TextBudget();
    const notShowing = new Set<string>();
    const opts = {
      ...(p.depth !== undefined ? { depth: p.depth } : {}),
      maxNodes: p.maxNodes ?? 5000,
      ...(p.bounds ? { bounds: true } : {}),
      ...(p.scope !== undefined ? { scoped: true } : {}),
      text, notShowing,
    };
    const read = process.env['COMPUTER_USE_NO_CACHE']
      ? await readTree(this.bus, start, opts)
      : await readTreeCached(this.bus, start, opts, (dest) => this.cacheReads.read(this.bus, dest));
    if (plain && patchable(read))
      this.keptReads.keep(p.window, {
        mark,
        root: structuredClone(read.root),
        nodes: read.nodes,
        notShowing,
        textLeft: text.remaining,
        reliable: read.reliable,
      });
    else if (plain) this.keptReads.forget(p.window);
    return read;
  }

  /**
   * Describes one window by handle (without listing every app), failing with window_not_found. `rootInfo`: its root
   * element read already (with bounds).
   */
  async windowInfo(handle: string, rootInfo?: Promise<ElementInfo>): Promise<WindowInfo> {
    if (isX11Handle(handle)) return this.x11Window(handle);
    try {
      const t = targetOf(handle);
      const [info, pid, app] = await Promise.all([
        rootInfo ?? readElement(this.bus, t, { children: false, bounds: true }),
        this.bus.pidOf(t.dest),
        this.bus
          .call(t, 'org.a11y.atspi.Accessible', 'GetApplication')
          .then(([ref]) =>
            this.bus.getProp(
              { dest: (ref as [string, string])[0], path: (ref as [string, string])[1] },
              'org.a11y.atspi.Accessible',
              'Name',
            ),
          ),
      ]);
      if (info.states.has('defunct'))
        throw new ComputerUseError('window_not_found', 'The window was closed.', { remedy: ['list_windows'] });
      const win = withIdentity<WindowInfo>(
        {
          id: handle,
          title: info.name,
          app: String(app ?? ''),
          pid,
          role: toRawNode(info).role,
          focused: info.states.has('active'),
        },
        procInfo(pid),
      );
      if (info.bounds && info.bounds[2] > 0) win.bounds = info.bounds;
      await this.withXFacts([win]);
      return win;
    } catch (e) {
      if (isGone(e))
        throw new ComputerUseError('window_not_found', 'The window is gone.', { remedy: ['list_windows'] });
      throw e;
    }
  }

  /** A window's bounds alone: one call to its app (an X window's from the display). */
  private async windowBounds(handle: string): Promise<[number, number, number, number] | undefined> {
    if (isX11Handle(handle)) return (await this.x11Window(handle)).bounds;
    const bounds = await extentsOf(this.bus, targetOf(handle));
    return bounds && bounds[2] > 0 ? bounds : undefined;
  }

  /** A window known only to the X server (an app off the accessibility bus), or window_not_found. */
  private async x11Window(handle: string): Promise<WindowInfo> {
    const xw = await this.input.x11Windows();
    const xid = xidOf(handle);
    const w = xw && xid !== undefined ? await x11WindowInfo(xw, xid).catch(() => undefined) : undefined;
    if (!w) throw new ComputerUseError('window_not_found', 'The window is gone.', { remedy: ['list_windows'] });
    return w;
  }

  /** Whether the app of a window known from the display only is on the bus but busy (window_not_found when it closed). */
  private async busyOwner(handle: string): Promise<boolean> {
    const w = await this.x11Window(handle);
    return (await listApps(this.bus, false).catch(() => [])).some((a) => a.pid === w.pid && a.busy === true);
  }

  /** apps.list: the apps on the bus, and when listing windows also those that show X windows but are not on the bus (listed as inaccessible). */
  /**
   * The apps, with their windows when `withWindows`. `reuse`: the act's own listings (node.act, ui.settle) may take the
   * last list while nothing says a window changed (kept-window-list.ts); every listing made is kept for them.
   */
  private async apps(withWindows: boolean, reuse = false): Promise<AppInfo[]> {
    if (!withWindows) return listApps(this.bus, false);
    const clientIds = async (): Promise<number[] | undefined> => (await this.input.x11Windows())?.clientStack();
    const display = { clients: clientIds, title: async (xid: number) => (await this.input.x11Windows())?.title(xid) };
    const kept = reuse ? await this.keptWindows.reuse(display) : undefined;
    if (kept) return kept;
    const token = this.keptWindows.begin();
    try {
      const startedAt = performance.now();
      const tops = new Set<string>();
      const [clients, apps] = await Promise.all([clientIds().catch(() => undefined), listApps(this.bus, true, tops)]);
      const displayTitles = await this.withXFacts(apps.flatMap((a) => a.windows));
      // A busy app answers nothing over the bus; its windows are still on the display's list (x11apps.ts).
      const xw = apps.some((a) => a.busy) ? await this.input.x11Windows() : undefined;
      if (xw) for (const a of apps) if (a.busy) a.windows = await displayWindowsOf(xw, a.pid, a.name).catch(() => []);
      const seen = { young: false };
      const all = [...apps, ...await this.offBusApps(apps.map((a) => a.pid), seen)];
      const whole = !apps.some((a) => a.busy) && !seen.young;
      this.keptWindows.keep(token, all, { startedAt, tops, clients, displayTitles, whole });
      return all;
    } catch (e) {
      this.keptWindows.abandon(token);
      throw e;
    }
  }

  /**
   * Fills each window's WM_CLASS, and its title from the window manager where its accessible name is empty (kcalc).
   * Returns the windows whose title came from the window manager, by their X window.
   */
  private async withXFacts(wins: WindowInfo[]): Promise<{ xid: number; title: string }[]> {
    const facts = await this.input.windowFacts(wins);
    const fromDisplay: { xid: number; title: string }[] = [];
    wins.forEach((w, i) => {
      const f = facts[i];
      if (f?.className !== undefined) w.className = f.className;
      const title = titleOf(w.title, f?.title);
      if (title !== w.title && f?.xid !== undefined) fromDisplay.push({ xid: f.xid, title });
      w.title = title;
    });
    return fromDisplay;
  }

  /** The app a launch started that shows X windows and is not on the bus (undefined without an X display). */
  private async launchedOffBus(spawned: number, apps: AppInfo[]): ReturnType<typeof launchedOffBus> {
    const xw = await this.input.x11Windows();
    if (!xw) return undefined;
    return launchedOffBus(xw, (pid) => startedBy(pid, spawned), new Set(apps.map((a) => a.pid))).catch(() => undefined);
  }

  /** Apps with X windows and no AT-SPI registration (empty without an X display). */
  private async offBusApps(registered: number[], seen?: { young: boolean }): Promise<AppInfo[]> {
    const xw = await this.input.x11Windows();
    return xw ? inaccessibleApps(xw, new Set(registered), undefined, undefined, seen).catch(() => []) : [];
  }

  /**
   * Sets the X root window's AT_SPI_BUS property to the accessibility bus address when nothing set it (as
   * at-spi-bus-launcher does on a usual X desktop): Qt 5 finds the bus reliably only through it. A value
   * someone else set is left alone.
   */
  private async ensureAtspiRootProperty(): Promise<void> {
    const xw = await this.input.x11Windows();
    if (!xw) return;
    try {
      if ((await xw.rootString(ATSPI_ROOT_PROPERTY)) === undefined)
        await xw.setRootString(ATSPI_ROOT_PROPERTY, this.bus.address);
    } catch { /* no X: Qt falls back to the session bus */ }
  }

  handlers(): Handlers {
    const table: Handlers = goneAsStale({
      hello: async () => {
        // Cheap prerequisite facts for doctor: XTest over the driver's own X connection, toolkit accessibility on the
        // session bus.
        // IsEnabled is read again until it is on (the user may have applied the fix since).
        const known = await this.status;
        const pending = known?.isEnabled === true ? this.status! : a11yStatus();
        this.status = pending;
        const [status, xtest, wayland] = await Promise.all([
          pending,
          this.input.xtestPresent(),
          this.input.waylandProbe(),
        ]);
        return {
          ...handshake(table),
          platform: 'linux',
          version: DRIVER_VERSION,
          capabilities: [
            'events',
            'act_identity',
            'act_windows',
            ...(this.input.available ? (['keys', 'pointer'] as const) : []),
            ...(onPath('import') ? (['capture'] as const) : []),
            ...(onPath('tesseract') && onPath('convert') ? (['ocr'] as const) : []),
          ],
          permissions: {
            a11y_bus: true,
            synthetic_input: this.input.available && xtest === true,
            xtest: xtest === true,
            toolkit_accessibility: status.isEnabled === true,
            capture: onPath('import'),
            ocr: onPath('tesseract'),
            clipboard: onPath('xclip'),
            ...(wayland ? { remote_desktop_portal: wayland.portal !== undefined, libei: wayland.libei } : {}),
          },
          session: displayServer() === 'wayland' ? 'wayland' : 'x11',
          facts: {
            ...toolkitEnv(),
            ...(status.isEnabled === false ? { a11y_is_enabled: 'false', a11y_fix: A11Y_FIX_COMMANDS.join('; ') } : {}),
            ...(wayland ? { wayland_input: wayland.reason } : {}),
          },
        };
      },
      'apps.list': async (p) => {
        const apps = await this.apps(p.withWindows ?? true);
        // A launch that shows nothing anywhere is listed too (launched.ts): asked only here, not after every act.
        return {
          apps: (p.withWindows ?? true) ? [...apps, ...windowlessLaunches(new Set(apps.map((a) => a.pid)))] : apps,
        };
      },
      'windows.list': async (p) => {
        // Names and pids first, windows only of the apps asked for: observing one app stays cheap.
        const apps = await listApps(this.bus, false);
        const sel = apps.filter(
          (a) =>
            (p.pid === undefined || a.pid === p.pid) &&
            (p.app === undefined || a.name.toLowerCase() === p.app.toLowerCase()),
        );
        const wins = (
          await Promise.all(sel.map((a) => listWindowsOf(this.bus, targetOf(a.id), a.name, a.pid).catch(() => [])))
        ).flat();
        await this.withXFacts(wins);
        return { windows: wins };
      },
      'window.activate': async (p) => {
        const w = await this.windowInfo(p.window);
        return { ok: this.input.available ? await this.input.activate(w) : false };
      },
      'apps.launch': (p) => this.launch(p),
      'apps.resolveLaunch': (p) => resolveLaunchFacts(p),
      'apps.terminate': (p) => terminate(p),
      'process.identify': (p) => identify(p),
      'tree.snapshot': async (p) => {
        const t0 = performance.now();
        // Taken before anything is read: an event during the read makes tree.changed answer true.
        const mark = this.events.mark();
        // a closed one: window_not_found
        if (isX11Handle(p.window)) throw notAccessible(await this.busyOwner(p.window));
        try {
          const start = targetOf(p.scope ?? p.window);
          // The window's root is read once, for its window facts and for the patched re-read's refresh of it.
          const kidsHint =
            p.since !== undefined ? this.keptReads.get(p.window, p.since)?.root.children?.length : undefined;
          const rootInfo = p.scope === undefined
            ? readElement(this.bus, start, {
              children: true, bounds: true, text: new TextBudget(), ...(kidsHint !== undefined ? { kidsHint } : {}),
            })
            : undefined;
          rootInfo?.catch(() => undefined); // its failure is answered by the reads that wait for it
          const [window, read] = await Promise.all([
            this.windowInfo(p.window, rootInfo),
            this.readWindowTree(p, start, mark, rootInfo),
          ]);
          if (p.keyBindings) await readKeyBindings(this.bus, read.root);
          await Promise.all([
            orderContentPanes(this.bus, read.root, read.asked),
            nameFieldsBeside(this.bus, read.root, read.asked),
          ]);
          markChoosers(read.root);
          // A window's root takes close where there is a window manager to ask (act/close-window.ts).
          const root = p.scope === undefined && this.input.available && !read.root.actions.includes('close')
            ? { ...read.root, actions: [...read.root.actions, 'close' as const] } : read.root;
          return {
            window,
            root,
            stats: {
              nodes: read.nodes, ms: Math.round(performance.now() - t0), truncated: read.truncated,
              ...(read.reread !== undefined ? { reread: read.reread } : {}),
            },
            mark,
          };
        } catch (e) {
          if (isGone(e))
            throw new ComputerUseError(
              p.scope ? 'stale_ref' : 'window_not_found',
              'The element is gone; take a new snapshot.',
            );
          throw e;
        }
      },
      'tree.changed': (p) =>
        isX11Handle(p.window)
          ? { changed: true, windows: true }
          : this.events.changedSince(targetOf(p.window).dest, p.since),
      'tree.find': async (p) => {
        // a closed one: window_not_found
        if (isX11Handle(p.window)) throw notAccessible(await this.busyOwner(p.window));
        const read = await (async () => readTree(this.bus, targetOf(p.window), { maxNodes: 5000 }))().catch(
          (e: unknown) => {
            if (isGone(e))
              throw new ComputerUseError('window_not_found', 'The window is gone.', { remedy: ['list_windows'] });
            throw e;
          },
        );
        return { matches: findInTree(read.root, p), scanned: read.nodes };
      },
      'node.act': (p, ctx?: { signal?: AbortSignal }) =>
        act(
          this.bus,
          this.input,
          p,
          ctx?.signal,
          this.events,
          (t) => {
            this.lastInputAt = performance.now();
            this.lastActOn = { handle: handleOf(t), at: this.lastInputAt };
          },
          () => this.apps(true, true),
        ),
      'events.subscribe': () => ({ ok: true }),
      'ui.settle': async (p, ctx?: { signal?: AbortSignal }) => {
        // A window known from the display only (x11:, its app busy or off the bus) names no bus peer: settle on all
        // events.
        const dest = p.window && !isX11Handle(p.window) ? targetOf(p.window).dest : undefined;
        const start = performance.now();
        // The host names no quiet window: the one measured for the app's toolkit (read once per app), else the default.
        const measured = p.quietMs ?? (dest ? quietTimeFor(await this.bus.toolkit(dest)) : DEFAULT_QUIET_MS);
        const quietMs = this.events.quietWindow(dest, measured);
        const left = Math.max(0, p.timeoutMs - (performance.now() - start));
        // After an element act, its target's own effect may end the settle (events.ts): not when the caller named
        // the quiet window it wants.
        const on =
          p.quietMs === undefined && this.lastActOn?.at === this.lastInputAt ? this.lastActOn.handle : undefined;
        const settled = await this.events.settle(quietMs, left, dest, {
          since: this.lastInputAt,
          ...(on !== undefined ? { effectOn: on } : {}),
          firstEventMs: FIRST_EVENT_MS,
          ...(p.minMs !== undefined ? { minMs: p.minMs } : {}),
          ...(ctx?.signal ? { signal: ctx.signal } : {}),
        });
        return p.apps ? { ...settled, apps: await this.apps(true, true) } : settled;
      },
      'input.keys': (p, ctx?: { signal?: AbortSignal }) => this.keys(p, ctx?.signal),
      // The visible agent: frame the target window and title the status window, X11 only.
      'ui.highlight': async (p) => {
        if (displayServer() === 'wayland')
          throw new ComputerUseError('unsupported', 'No activity frame on Wayland (clients cannot place windows).');
        // The bounds are read inside the overlay's queue: an "off" sent meanwhile is applied after this "on". Only the
        // bounds (one call): the act this frame announces goes to the same app right after, and waits behind each call.
        const frame = p.on && p.window ? this.windowBounds(p.window).catch(() => undefined) : undefined;
        await this.overlay.set(p.on ? { frame, status: p.status } : {});
        return { ok: true };
      },
      'screen.capture': async (p) => {
        const t0 = performance.now();
        const w = await this.windowInfo(p.window);
        const { png, rect, plan } = await this.capture(w);
        // A mark whose element is blacked out would point the model at another app's pixels: not drawn.
        const marks = (p.marks ?? []).filter(
          (m) => !blackAt(plan, m.bounds[0] + m.bounds[2] / 2, m.bounds[1] + m.bounds[3] / 2),
        );
        const res = await scaleAndMark(png, rect, this.boundsOf(w.bounds), p.maxEdge ?? 1280, marks);
        return { ...res, ...coverFacts(plan), ms: Math.round(performance.now() - t0) };
      },
      'screen.ocr': async (p) => {
        const t0 = performance.now();
        const w = await this.windowInfo(p.window);
        const { png, rect, plan } = await this.capture(w);
        const t1 = performance.now();
        const lines = await ocrPng(png, rect);
        return {
          lines,
          geometry: { screen: rect, window: this.boundsOf(w.bounds), width: rect[2], height: rect[3], scale: 1 },
          ...coverFacts(plan),
          ms: { capture: Math.round(t1 - t0), ocr: Math.round(performance.now() - t1) },
        };
      },
      'input.pointer': async (p, ctx?: { signal?: AbortSignal }) => {
        const w = await this.checkPointerTarget(p);
        if (ctx?.signal?.aborted) throw new ComputerUseError('paused', 'Stopped before anything was sent.');
        this.lastInputAt = performance.now();
        const expect: Expect = { pid: w.pid, ...(w.startToken !== undefined ? { startToken: w.startToken } : {}) };
        return { method: 'synthetic', detail: await this.input.pointer(p, expect, ctx?.signal) };
      },
      'input.clipboard': async (p) => {
        if (p.action === 'read') {
          // The owner first: what the clipboard held when it was read is what the owner offered.
          const owner = await this.input.clipboardOwner();
          // A secret the owner marked as such (a password manager's copy), or a copy whose owner could not be
          // proven (clipboard.ts), never leaves the driver.
          if (owner?.secret || owner?.unproven) return { method: 'xclip', owner };
          const text = await readClipboard();
          return owner ? { text, method: 'xclip', owner } : { text, method: 'xclip' };
        }
        // Done once the xclip the driver started owns the selection (the owner a later read proves).
        await writeClipboard(p.text ?? '', async (pid) => (await this.input.clipboardOwner())?.pid === pid);
        return { method: 'xclip' };
      },
      'screen.displays': async () => ({ displays: await listDisplays() }),
      shutdown: () => {
        setTimeout(() => process.exit(0), 10);
        return { ok: true };
      },
      // Search a long list beyond the rows on screen.
      'list.find': (p) => findInList(this.bus, targetOf(p.container), p),
      // Text content beyond what a snapshot shows (text.ts): a range, or a search with line and offset.
      'text.read': (p) => readRange(this.bus, targetOf(p.id), p.start ?? 0, p.end ?? Number.MAX_SAFE_INTEGER),
      'text.find': (p) => findText(this.bus, targetOf(p.id), p.text, p.limit ?? 20),
    });
    // Events after a request that may act are its effects, never late ones of the settle before it.
    for (const method of ACTING_METHODS) {
      const handler = table[method] as ((...args: unknown[]) => unknown) | undefined;
      if (!handler) continue;
      (table as Record<string, unknown>)[method] = (...args: unknown[]) => {
        this.events.inputSent();
        // Its own window operations are not waited on for events: the next list is read afresh.
        if (method !== 'node.act' && method !== 'input.keys') this.keptWindows.forget();
        return handler(...args);
      };
    }
    return table;
  }

  /**
   * The window's pixels with everything that is not the window blacked out (x11/capture.ts): X11 only, since
   * only there can the driver read the stacking order that proves what a screen area shows.
   */
  private async capture(w: WindowInfo): Promise<WindowCapture> {
    const rect = this.boundsOf(w.bounds);
    const windows = displayServer() === 'wayland' ? undefined : await this.input.x11Windows();
    if (!windows) {
      throw new ComputerUseError(
        'unsupported',
        'Screen capture needs an X11 display, where the stacking order proves what a screen area shows; ' +
          'on Wayland it would go through the desktop portal, which is not implemented.',
        { remedy: ['snapshot'] },
      );
    }
    const xw = await this.input.xWindowOf(w);
    if (!xw)
      throw new ComputerUseError(
        'window_changed',
        "No X window of the app's process is on screen (minimized or closed?); nothing was captured.",
        { remedy: ['list_windows'] },
      );
    const expect: Expect = { pid: w.pid, ...(w.startToken !== undefined ? { startToken: w.startToken } : {}) };
    return captureWindow(windows, { window: xw.id, owns: (pid) => ownedBy(pid, expect) }, rect);
  }

  private boundsOf(b: WindowInfo['bounds']): [number, number, number, number] {
    if (!b || b[2] <= 0 || b[3] <= 0)
      throw new ComputerUseError('unsupported', 'The window reports no screen position, so it cannot be captured.');
    return b;
  }

  /**
   * Input at a point goes to the named window or nowhere: it must not have moved or resized since the caller's
   * capture, and the point must lie inside it. The window is raised first when it is not in front; the
   * topmost window at the point is proven afterwards, when the events are sent (LinuxInput.pointer).
   */
  private async checkPointerTarget(p: PointerParams): Promise<WindowInfo> {
    if (!this.input.available) throw await this.input.unavailableError('No pointer.');
    let w = await this.windowInfo(p.window);
    const changed = (now: WindowInfo): void => {
      if (p.expectBounds && !sameRect(now.bounds, p.expectBounds)) {
        throw new ComputerUseError(
          'window_changed',
          `The window moved or resized since the capture (${p.expectBounds.join(',')} → ` +
            `${now.bounds?.join(',') ?? 'unknown'}); nothing was sent.`,
          { remedy: ['capture'] },
        );
      }
    };
    changed(w);
    const b = this.boundsOf(w.bounds);
    for (const [x, y] of [[p.x, p.y], ...(p.to ? [p.to] : [])] as [number, number][]) {
      if (!inside(b, x, y))
        throw new ComputerUseError(
          'invalid_params',
          `The point ${Math.round(x)},${Math.round(y)} lies outside the window (${b.join(',')}); nothing was sent.`,
        );
    }
    if (!w.focused) {
      await this.input.activate(w);
      w = await this.windowInfo(p.window);
      changed(w);
    }
    return w;
  }

  /**
   * input.keys: the strokes are checked first (an unknown keysym sends nothing), then the window is
   * activated if needed and the focus proven to belong to `expect`, then the strokes go out one by one.
   */
  private async keys(
    p: KeysParams,
    signal?: AbortSignal,
  ): Promise<{ method: 'synthetic'; focusedFirst: boolean; sent: number }> {
    if ((p.chords === undefined) === (p.text === undefined))
      throw new ComputerUseError('invalid_params', 'input.keys takes exactly one of chords or text.');
    if (p.chords !== undefined && (!Array.isArray(p.chords) || p.chords.some((c) => !c || typeof c !== 'object'))) {
      throw new ComputerUseError('invalid_params', 'chords must be a list of {mods, key} (see protocol/keys.ts).');
    }
    p.chords?.forEach(checkChord);
    if (p.text !== undefined && typeof p.text !== 'string')
      throw new ComputerUseError('invalid_params', 'text must be a string.');
    const strokes = p.chords !== undefined ? chordStrokes(p.chords) : textStrokes(p.text ?? '');
    if (strokes.length > MAX_STROKES)
      throw new ComputerUseError(
        'invalid_params',
        `${strokes.length} key strokes in one call; at most ${MAX_STROKES}. Use set_value for long text.`,
      );
    if (!this.input.available) throw await this.input.unavailableError('No keyboard.');
    const w = await this.windowInfo(p.window);
    const expect: Expect = p.expect ?? {
      pid: w.pid,
      ...(w.startToken !== undefined ? { startToken: w.startToken } : {}),
    };
    if (
      expect.pid !== w.pid ||
      (expect.startToken !== undefined && w.startToken !== undefined && expect.startToken !== w.startToken)
    ) {
      throw new ComputerUseError(
        'window_not_focused',
        'The window belongs to another process than expected (it was closed and its handle reused?); nothing was sent.',
        { remedy: ['list_windows'] },
      );
    }
    const focusedFirst = await this.input.focus(w, expect);
    if (signal?.aborted) return { method: 'synthetic', focusedFirst, sent: 0 };
    this.lastInputAt = performance.now();
    const sent = await this.input.keys(strokes, signal);
    return { method: 'synthetic', focusedFirst, sent };
  }

  /** Starts an app detached, with the driver's desktop environment, and optionally waits for its window. */
  private async launch(p: LaunchParams): Promise<LaunchResult> {
    // Windows open before the launch: a single-instance app that opens a new window answers with that one.
    const before = new Set((await listApps(this.bus).catch(() => [])).flatMap((a) => a.windows.map((w) => w.id)));
    await this.ensureAtspiRootProperty();
    // A browser engine gets what it needs to be readable and unattended (engines.ts), before the caller's arguments.
    const engine = engineOfCommand(p.command);
    const a11yOn =
      engine === 'Firefox' && (await (this.status ?? a11yStatus()).catch(() => undefined))?.isEnabled === true;
    const setup = engineSetup(engine, p.args ?? [], { ...process.env, ...(p.env ?? {}) }, process.getuid?.() ?? -1,
      a11yOn);
    const argv = [p.command, ...(setup?.args ?? []), ...(p.args ?? [])];
    // The toolkit switches (GTK 2 modules, Qt, Java ATK wrapper) come first; variables the caller passes win.
    const env = { ...(setup?.env ?? {}), ...(p.env ?? {}), [LAUNCH_MARKER]: launchMark() };
    const program = { gtk2: isGtk2Program(resolveLaunch([p.command, ...(p.args ?? [])]).executable ?? '') };
    const launchEnv = appLaunchEnv(process.env, env, toolkitFacts(), program);
    const child = await startDetached(argv, launchEnv);
    const spawned = child.pid;
    const token = startTokenOf(spawned);
    const gtk2Added = program.gtk2 && launchEnv['GTK_MODULES'] !== process.env['GTK_MODULES'] &&
      p.env?.['GTK_MODULES'] === undefined;
    const gtk2Note = gtk2Added
      ? `added for GTK 2: GTK_MODULES=${launchEnv['GTK_MODULES'] ?? ''} (GTK 2 speaks AT-SPI only through them)`
      : undefined;
    const notes = [setup?.note, gtk2Note].filter((n): n is string => n !== undefined);
    const added = notes.length
      ? { added: { args: setup?.args ?? [],
        env: [...Object.keys(setup?.env ?? {}), ...(gtk2Added ? ['GTK_MODULES'] : [])], note: notes.join('; ') } }
      : {};
    const started = { pid: spawned, argv, ...(token ? { startToken: token } : {}), ...added };
    const waitMs = p.waitForWindowMs ?? 10_000;
    if (waitMs <= 0) { child.release(); return started; }
    const base = p.command.split('/').pop()!.toLowerCase();
    const deadline = performance.now() + waitMs;
    let handedOverAt: number | undefined;
    const offBus = new OffBusWait();
    // Launchers seen with a child: LibreOffice's splash restarts soffice.bin on a fresh profile (a gap with no child).
    const launchers = new Set<number>();
    while (performance.now() < deadline) {
      const apps = await listApps(this.bus).catch(() => []);
      // Single-instance apps (gedit) hand over to the running process and exit: match by name too.
      const app = apps.find((a) => startedBy(a.pid, spawned) && a.windows.length) ??
        (child.exit ? apps.find((a) => a.name.toLowerCase() === base && a.windows.length) : undefined);
      if (app) {
        const fresh = app.windows.filter((w) => !before.has(w.id));
        // A handover may open no new window (a file becomes a tab of the old one): after a grace, take the focused one.
        if (app.pid !== spawned && fresh.length === 0) handedOverAt ??= performance.now();
        if (fresh.length > 0 || app.pid === spawned || performance.now() - (handedOverAt ?? 0) > HANDOVER_GRACE_MS) {
          const pool = fresh.length > 0 ? fresh : app.windows;
          let win = pool.find((w) => w.focused) ?? pool[pool.length - 1];
          // A browser: the window holding its page, once the page has loaded (bounded by the launch's deadline).
          if (engine) {
            const windowsNow = async (): Promise<WindowInfo[]> =>
              (await listApps(this.bus)).find((a) => a.pid === app.pid)?.windows.filter((w) => !before.has(w.id)) ?? [];
            win = (await waitForPageWindow(this.bus, windowsNow, deadline))?.window ?? win;
          }
          child.release();
          // The start token is the window's process's (the pid returned); startedHere proves it came from this start.
          const appToken = app.pid === spawned ? token : startTokenOf(app.pid);
          return {
            argv,
            ...added,
            pid: app.pid,
            ...(appToken ? { startToken: appToken } : {}),
            startedHere: startedBy(app.pid, spawned),
            ...(win ? { window: win } : {}),
          };
        }
      }
      // A window on the display whose app is not on the bus: answered with it (it has no tree) once the app is
      // known never to register, or after a short grace for one that may still be registering.
      // A splash drawn before the app's own process starts (LibreOffice's oosplash, which then starts soffice.bin)
      // never registers either: a short grace lets the launcher start the app, whose window is then waited for.
      const off = app ? undefined : await this.launchedOffBus(spawned, apps);
      if (off) {
        if (off.launcher) launchers.add(off.app.pid);
        const grace = off.mayRegister ? REGISTER_GRACE_MS : NEVER_REGISTERS_GRACE_MS;
        if (offBus.ready(off.app.pid, performance.now(), grace, launchers.has(off.app.pid))) {
          child.release();
          return offBusLaunch(off.app, spawned, token, argv, added);
        }
      }
      // Exited with no window: a failure (non-zero, a signal) at once; a clean exit after the handover grace
      // (a single-instance app passes its arguments to the running one and exits 0).
      const exit = child.exit;
      if (exit && (exit.code !== 0 || performance.now() - exit.at > HANDOVER_GRACE_MS)) {
        const exited = {
          ...(exit.code !== null ? { code: exit.code } : {}),
          ...(exit.signal ? { signal: exit.signal } : {}),
          stderr: child.stderrTail(),
        };
        child.release();
        return { ...started, exited };
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    // A window on the display that never came onto the bus is still the launch's window, not a timeout; unless
    // its app is still starting (working, or a launcher's splash): then it is no answer yet, and the host says
    // to wait for the window rather than that the app is unreadable.
    const off = await this.launchedOffBus(spawned, await listApps(this.bus).catch(() => []));
    child.release();
    if (off && offBus.ready(off.app.pid, performance.now(), 0, launchers.has(off.app.pid))) {
      return offBusLaunch(off.app, spawned, token, argv, added);
    }
    if (off) return started;
    throw new ComputerUseError(
      'timeout',
      `"${p.command}" started (pid ${spawned}) but no window appeared within ${waitMs} ms. ` +
        'It may not support accessibility (Electron needs --force-renderer-accessibility); the app list marks such an app not accessible, with the reason and what to do.',
      { remedy: ['list_windows'] },
    );
  }
}

/** How long a launched window whose app never registers is watched before the launch answers with it. */
const NEVER_REGISTERS_GRACE_MS = 3000;

/** The launch's answer with a window that is on the display but not on the bus (it has no tree). */
function offBusLaunch(app: AppInfo, spawned: number, token: string | undefined, argv: string[],
  added: Partial<LaunchResult>): LaunchResult {
  const appToken = app.pid === spawned ? token : startTokenOf(app.pid);
  const win = app.windows[app.windows.length - 1];
  return {
    argv, ...added, pid: app.pid, ...(appToken ? { startToken: appToken } : {}), startedHere: true,
    ...(win ? { window: win } : {}), ...(app.inaccessible ? { inaccessible: app.inaccessible } : {}),
  };
}

/** Most parent links followed from a window's process up to the launched one. */
const MAX_LAUNCH_DEPTH = 8;

/**
 * True when `pid` is the launched process or runs under it: a launcher may start the app as its child and stay
 * (LibreOffice's oosplash starts soffice.bin, whose pid owns the window), so the window is not the spawned pid's.
 */
function startedBy(pid: number, launched: number): boolean {
  let p: number | undefined = pid;
  for (let i = 0; p !== undefined && p > 1 && i < MAX_LAUNCH_DEPTH; i++) {
    if (p === launched) return true;
    p = procInfo(p)?.ppid;
  }
  return false;
}

/**
 * The error for reading the tree of a window known only from the display: its app is busy (on the bus but not
 * answering: a dialog it runs holds it, and it answers again once that closes), or off the bus (started in a way
 * that keeps accessibility off, which a relaunch fixes). Relaunching a busy app would throw its work away.
 */
function notAccessible(busy: boolean): ComputerUseError {
  if (busy) {
    return new ComputerUseError(
      'unsupported',
      "This window's app is busy and not answering over the accessibility bus (a dialog " +
        'it runs can hold it until it closes), so the window has no tree now; observe it again in a moment.',
      { remedy: ['read_pixels'] },
    );
  }
  return new ComputerUseError(
    'unsupported',
    "This window is known only from the display's window list: its app is not on the " +
      'accessibility bus, so it has no tree.',
    { remedy: ['read_pixels', 'relaunch'] },
  );
}

/**
 * A handle that names nothing (closed, never issued, malformed) is stale, whatever method met it: the caller
 * gets `stale_ref` and what to do, never `internal` with the handle echoed back.
 */
function goneAsStale(handlers: Handlers): Handlers {
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(handlers) as [string, (p: unknown, ctx: unknown) => unknown][]) {
    out[name] = async (p: unknown, ctx: unknown) => {
      try { return await fn(p, ctx); } catch (e) {
        if (
          !(e instanceof ComputerUseError) &&
          (isGone(e) || /Invalid (bus|object) name|Invalid path/i.test((e as Error).message ?? ''))
        ) {
          throw new ComputerUseError(
            'stale_ref',
            'The element or window this handle named is gone (or never existed).',
            {
              remedy: ['snapshot'],
            },
          );
        }
        throw e;
      }
    };
  }
  return out as Handlers;
}

/** Most commands whose key binding one snapshot reads. */
const MAX_KEY_BINDINGS = 300;

/**
 * The access key of an AT-SPI key binding in W3C key names (`<Alt>d;;<Control>d` → `Alt+d`): the first of
 * its `;`-separated parts is the mnemonic. Undefined when that part is no Alt + letter or digit.
 */
export function accessKeyOf(binding: string): string | undefined {
  const key = /^(?:<alt>|alt\+)\s*([a-z0-9])(?:;|$)/i.exec(binding.trim())?.[1];
  return key ? `Alt+${key.toLowerCase()}` : undefined;
}

/**
 * Sets `keyBinding` on the commands of a tree, in W3C key names, from Action.GetKeyBinding(0): GTK3 strips the
 * "_" from a mnemonic label's accessible name, so the binding ("<Alt>d") is the only place the access key shows.
 * A name that still carries its marker ("_Delete all", "&Send") is said without it, its key taken from it.
 */
async function readKeyBindings(bus: A11yBus, root: RawNode): Promise<void> {
  const commands: RawNode[] = [];
  walk(root, (n) => {
    if (!COMMAND_ROLES.has(n.role)) return;
    const marked = n.name ? markedAccessKey(n.name) : undefined;
    if (marked) {
      n.name = marked.label;
      n.keyBinding ??= `Alt+${marked.key}`;
    }
    if (n.actions.includes('click') && commands.length < MAX_KEY_BINDINGS) commands.push(n);
  });
  await Promise.all(commands.map(async (n) => {
    try {
      const [binding] = await bus.call(targetOf(n.id), 'org.a11y.atspi.Action', 'GetKeyBinding', 'i', [0], 1000);
      const key = typeof binding === 'string' ? accessKeyOf(binding) : undefined;
      if (key) n.keyBinding = key;
    } catch { /* no binding: the policy treats the key as unknown */ }
  }));
}
