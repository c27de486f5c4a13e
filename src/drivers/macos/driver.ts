/**
 * The macOS driver: AX over koffi (ffi.ts). It enumerates apps and windows, reads a window's tree in batched
 * reads, acts through AX actions and settable attributes (no pointer moves, the app is not brought to the
 * front), posts keys to the target process (CGEventPostToPid: the user's foreground app is untouched) and
 * settles by AX notifications. Before every act it re-checks identity: the handle is live, the process that
 * owns it is the one it was issued for (pid + start time) and the element still has the role it had. Every AX
 * call runs under a messaging timeout, so a hung app answers `timeout` instead of hanging the driver. It makes
 * no policy decision.
 */
import type { AppInfo, RawNode, WindowInfo } from '../../engine/node.js';
import type { Role } from '../../engine/role.js';
import { ComputerUseError } from '../../protocol/errors.js';
import { checkExpect } from '../common/expect.js';
import { elementWhat, unmetOnNode, waitActionable, type ActionabilityProbe } from '../common/actionable.js';
import type {
  ActParams,
  ActResult,
  CaptureParams,
  CaptureResult,
  KeysParams,
  KeysResult,
  LaunchParams,
  LaunchResult,
  PointerParams,
  PointerResult,
  SettleParams,
  SettleResult,
} from '../../protocol/methods.js';
import { DEFAULT_QUIET_MS } from '../../protocol/methods.js';
import { captureWindow, cgWindows, SCREENCAPTURE, windowNumbers } from './capture.js';
import { AX_ERROR, ACCESSIBILITY_FIX, arrayItems, axError, CfScope, readValue, withScope } from './cf.js';
import { accessibilityGrant } from './permission.js';
import { ghostPressNote } from './ghost.js';
import { EventHub } from './events.js';
import { bindMacApi, librariesFrom, type CFRef, type MacApi, type MacLibraries } from './ffi.js';
import { HandleTable, type HandleEntry, type HandleTableOptions } from './handles.js';
import { chordEvents, textEvents, type MacKeyEvent } from './keys.js';
import { batchNames, copyAttribute, readElement, type ElementRead } from './read.js';
import { axOps, axRole, axStates, axText, isSecure, type AxFacts } from './roles.js';
import { centre, POINTER_FOCUS_NOTE, pointerEvents, postPointer, requireShows, type PointerEvent } from './pointer.js';
import { launchArgv, refuseLaunch, systemSpawner, type Spawner } from './launch.js';
import { procIdentity, type ProcIdentity } from './proc.js';
import { identify, identityFields, resolveApp, resolveLaunch, SignatureCache, type ResolveOptions } from './resolve.js';
import type {
  IdentifyParams,
  IdentifyResult,
  ResolveLaunchParams,
  ResolveLaunchResult,
  TerminateParams,
  TerminateResult,
} from '../../protocol/identity.js';

/** Options of the driver. */
export interface MacDriverOptions {
  libraries?: MacLibraries;
  /** AXUIElementSetMessagingTimeout for every app, in seconds (default 2). */
  messagingTimeoutS?: number;
  handles?: HandleTableOptions;
  /** Run-loop pump interval for notifications (ms). */
  pumpMs?: number;
  /** How apps.launch starts a program. */
  spawner?: Spawner;
  /** How launches are resolved to a bundle (tests point it at the fake's bundles). */
  resolve?: ResolveOptions;
  /** How apps.terminate signals a process (tests record instead). */
  kill?: (pid: number) => void;
  /** The window capture tool tried before CGWindowListCreateImage (default /usr/sbin/screencapture; null: none). */
  screencapture?: string | null;
}

/** kCGWindowListOptionOnScreenOnly | kCGWindowListExcludeDesktopElements. */
const WINDOW_LIST_OPTIONS = 1 | 16;
/** Scroll-bar steps (or wheel lines) of one scroll op. */
const SCROLL_STEPS = 3;
/** Longest text read from one attribute. */
const MAX_TEXT = 100_000;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class MacDriver {
  readonly api: MacApi;
  readonly handles: HandleTable;
  readonly events: EventHub;
  /** Code signatures of live processes, by pid and start time. */
  readonly signatures: SignatureCache;
  /** Names of the batch read and other constants, owned for the driver's life. */
  private readonly constants: CfScope;
  private readonly names: CFRef;
  private readonly manualAccessibility = new Set<number>();
  /** Events counted per process when input was last sent to it: settle counts from there. */
  private readonly inputMark = new Map<number, number>();
  private closed = false;

  constructor(readonly options: MacDriverOptions = {}) {
    this.api = bindMacApi(options.libraries ?? librariesFrom());
    this.handles = new HandleTable(this.api, options.handles);
    this.events = new EventHub(this.api, options.pumpMs);
    this.signatures = new SignatureCache(this.api);
    this.constants = new CfScope(this.api);
    this.names = batchNames(this.constants);
    const system = this.api.AXUIElementCreateSystemWide();
    this.api.AXUIElementSetMessagingTimeout(system, options.messagingTimeoutS ?? 2);
    this.api.CFRelease(system);
  }

  /** Whether macOS trusts this process for accessibility; asked without the prompt (NULL options). */
  trusted(): boolean { return this.api.AXIsProcessTrustedWithOptions(null) !== 0; }

  /** permission_denied naming what to grant, when untrusted. */
  requireTrust(): void {
    if (this.trusted()) return;
    const how = accessibilityGrant();
    throw new ComputerUseError('permission_denied', how.message,
      { grant: how.grant, binary: how.binary, pane: ACCESSIBILITY_FIX });
  }

  /** Releases every retained reference, observer and callback. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.events.close();
    this.handles.clear();
    this.constants.release();
  }

  private read(scope: CfScope, el: CFRef, ops = true): ElementRead {
    return readElement(this.api, scope, this.names, el, { maxText: MAX_TEXT, ops });
  }

  // ---- identity ----

  /** The identity fields of a process: libproc's facts and the appId its validated signature proves. */
  private identityOf(pid: number, id: ProcIdentity): ReturnType<typeof identityFields> {
    return identityFields(pid, id, this.signatures.of(pid, id));
  }

  /** `process.identify` (resolve.ts). */
  identify(p: IdentifyParams): IdentifyResult { return identify(this.api, this.signatures, p); }

  /** `apps.resolveLaunch` (resolve.ts): what `launch` would start, without starting it. */
  resolveLaunch(p: ResolveLaunchParams): ResolveLaunchResult {
    return resolveLaunch(this.api, p, this.options.resolve);
  }

  /** `apps.terminate`: SIGKILL, only while the pid still has the start token the caller saw. */
  terminate(p: TerminateParams): TerminateResult {
    const now = procIdentity(this.api, p.pid);
    if (!now || (p.startToken !== undefined && String(now.startTime) !== p.startToken)) return { ended: false };
    try {
      (this.options.kill ?? ((pid: number) => process.kill(pid, 'SIGKILL')))(p.pid);
      return { ended: true };
    } catch {
      return { ended: false };
    }
  }

  // ---- apps and windows ----

  /** Pids and names of the processes that show a window (CGWindowList, layer 0). */
  private windowOwners(): Map<number, string> {
    const owners = new Map<number, string>();
    withScope(this.api, (s) => {
      const list = s.own(this.api.CGWindowListCopyWindowInfo(WINDOW_LIST_OPTIONS, 0));
      if (!list) return;
      const [kPid, kName, kLayer] = [
        s.string('kCGWindowOwnerPID'),
        s.string('kCGWindowOwnerName'),
        s.string('kCGWindowLayer'),
      ];
      for (const d of arrayItems(this.api, list)) {
        const pid = readValue(this.api, this.api.CFDictionaryGetValue(d, kPid));
        const layer = readValue(this.api, this.api.CFDictionaryGetValue(d, kLayer));
        const name = readValue(this.api, this.api.CFDictionaryGetValue(d, kName));
        if (typeof pid === 'number' && layer === 0 && !owners.has(pid))
          owners.set(pid, typeof name === 'string' ? name : '');
      }
    });
    return owners;
  }

  /** The apps with windows, each with its proven identity. */
  apps(withWindows = true): AppInfo[] {
    this.requireTrust();
    const apps: AppInfo[] = [];
    for (const [pid, name] of this.windowOwners()) {
      const id = procIdentity(this.api, pid);
      if (!id) continue;
      let windows: WindowInfo[] = [];
      if (withWindows) {
        try { windows = this.windowsOf(pid, name, id); } catch (e) {
          if (e instanceof ComputerUseError && e.code === 'timeout') {
            apps.push({ name, id: `pid:${pid}`, ...this.identityOf(pid, id), busy: true, windows: [] });
            continue;
          }
          throw e;
        }
      }
      apps.push({ name, id: `pid:${pid}`, ...this.identityOf(pid, id), windows });
    }
    return apps;
  }

  /**
   * Starts an app (launch.ts) and waits up to `waitForWindowMs` (default 10 s) for a window of a process that
   * was not showing one before, whose name or executable matches; an app that was already running answers with
   * its existing window (Launch Services brings it to the front instead of starting another).
   */
  async launch(p: LaunchParams): Promise<LaunchResult> {
    this.requireTrust();
    refuseLaunch(p);
    const target = resolveApp(this.api, p, this.options.resolve);
    if ('unproven' in target) throw new ComputerUseError('app_not_found', `${target.unproven}; nothing was started`);
    const { file, args, name } = launchArgv(p, target);
    const before = new Set(this.windowOwners().keys());
    await (this.options.spawner ?? systemSpawner)(file, args);
    const deadline = Date.now() + (p.waitForWindowMs ?? 10_000);
    const matches = (a: AppInfo): boolean =>
      a.name === name ||
      (a.executable !== undefined &&
        a.executable.split('/').includes(file === '/usr/bin/open' ? `${name}.app` : name)) ||
      a.executable === file;
    for (;;) {
      const apps = this.apps(true).filter(matches);
      const fresh = apps.find((a) => !before.has(a.pid) && a.windows.length) ?? apps.find((a) => a.windows.length);
      if (fresh?.windows[0]) return { pid: fresh.pid, window: fresh.windows[0] };
      if (p.waitForWindowMs === 0 && apps[0]) return { pid: apps[0].pid };
      if (Date.now() >= deadline)
        throw new ComputerUseError('timeout', `${name} started but showed no window in time; list the apps again`);
      await sleep(200);
    }
  }

  /** The windows of one process (AXWindows), each with a handle. */
  windowsOf(pid: number, appName: string, id: ProcIdentity): WindowInfo[] {
    return withScope(this.api, (s) => {
      const app = s.own(this.api.AXUIElementCreateApplication(pid));
      this.enableManualAccessibility(s, app, pid);
      const list = copyAttribute(this.api, s, app, 'AXWindows');
      const focused = copyAttribute(this.api, s, app, 'AXFocusedWindow');
      const front = this.frontmostPid(s);
      if (!list || typeof list !== 'object' || !('kind' in list) || list.kind !== 'array') return [];
      const reads = list.items.map((w) => ({ w, r: this.read(s, w, false) }));
      // Each window's CGWindowID, where the window list proves it (capture.ts): what screen.capture images.
      const numbers = windowNumbers(
        cgWindows(s),
        pid,
        reads.map(({ r }) => ({ ...(r.facts.bounds ? { bounds: r.facts.bounds } : {}), title: r.facts.title ?? '' })),
      );
      return reads.map(({ w, r }, i) => {
        const handle = this.handles.issue(w, {
          kind: 'window',
          pid,
          startTime: id.startTime,
          role: r.facts.role,
          ...(r.facts.subrole ? { subrole: r.facts.subrole } : {}),
        });
        const entry = this.handles.get(handle);
        const number = numbers[i];
        if (entry && number !== undefined) entry.windowNumber = number; else if (entry) delete entry.windowNumber;
        const isFocused =
          front === pid &&
          !!focused &&
          typeof focused === 'object' &&
          'kind' in focused &&
          focused.kind === 'element' &&
          this.api.CFEqual(focused.ref, w) !== 0;
        const info: WindowInfo = {
          id: handle,
          title: r.facts.title ?? '',
          app: appName,
          ...this.identityOf(pid, id),
          role: axRole(r.facts.role, r.facts.subrole) === 'dialog' ? 'dialog' : 'window',
          focused: isFocused,
        };
        if (r.facts.bounds) info.bounds = r.facts.bounds;
        return info;
      });
    });
  }

  private frontmostPid(s: CfScope): number | undefined {
    const sys = s.own(this.api.AXUIElementCreateSystemWide());
    const app = copyAttribute(this.api, s, sys, 'AXFocusedApplication');
    if (!app || typeof app !== 'object' || !('kind' in app) || app.kind !== 'element') return undefined;
    const pid = new Int32Array(1);
    return this.api.AXUIElementGetPid(app.ref, pid) === AX_ERROR.success ? pid[0] : undefined;
  }

  /**
   * Chromium and Electron build their AX tree only for assistive apps that ask: AXManualAccessibility on the
   * app element. Other apps answer "unsupported", which is ignored.
   */
  private enableManualAccessibility(s: CfScope, app: CFRef, pid: number): void {
    if (this.manualAccessibility.has(pid)) return;
    this.manualAccessibility.add(pid);
    this.api.AXUIElementSetAttributeValue(app, s.string('AXManualAccessibility'), s.boolean(true));
  }

  /** A window handle's entry, live and still owned by the same process, else window_not_found. */
  private windowEntry(id: string): HandleEntry {
    const e = this.handles.get(id);
    if (!e || e.kind !== 'window')
      throw new ComputerUseError(
        'window_not_found',
        'that window handle is unknown or expired; list the windows again',
      );
    const now = procIdentity(this.api, e.pid);
    if (!now || now.startTime !== e.startTime) {
      this.handles.forgetPid(e.pid);
      throw new ComputerUseError('window_not_found', 'the app of that window quit; list the windows again');
    }
    return e;
  }

  private windowInfoOf(e: HandleEntry, s: CfScope): WindowInfo {
    const id = procIdentity(this.api, e.pid);
    const r = this.read(s, e.ref, false);
    const name = this.windowOwners().get(e.pid) ?? '';
    const info: WindowInfo = {
      id: e.id,
      title: r.facts.title ?? '',
      app: name,
      pid: e.pid,
      ...(id ? this.identityOf(e.pid, id) : {}),
      role: axRole(r.facts.role, r.facts.subrole) === 'dialog' ? 'dialog' : 'window',
      focused: false,
    };
    if (r.facts.bounds) info.bounds = r.facts.bounds;
    return info;
  }

  /** Raises the window (AXRaise) and makes its app frontmost: only when the caller asks for it. */
  activate(windowId: string): void {
    const e = this.windowEntry(windowId);
    withScope(this.api, (s) => {
      const err = this.api.AXUIElementPerformAction(e.ref, s.string('AXRaise'));
      if (err !== AX_ERROR.success) throw axError(err, 'raising the window');
      const app = s.own(this.api.AXUIElementCreateApplication(e.pid));
      this.api.AXUIElementSetAttributeValue(app, s.string('AXFrontmost'), s.boolean(true));
    });
  }

  // ---- trees ----

  /** Reads a window's tree (or the subtree at `scope`), the menu bar as a collapsed subtree of the window. */
  snapshot(p: { window: string; scope?: string; depth?: number; maxNodes?: number }): {
    window: WindowInfo;
    root: RawNode;
    nodes: number;
    truncated: boolean;
  } {
    this.requireTrust();
    const w = this.windowEntry(p.window);
    this.handles.sweep();
    this.events.watch(w.pid);
    return withScope(this.api, (s) => {
      const window = this.windowInfoOf(w, s);
      const start = p.scope ? this.nodeEntry(p.scope) : w;
      if (start.pid !== w.pid) throw new ComputerUseError('invalid_params', 'that scope is not in this window');
      const budget = { left: p.maxNodes ?? 5000, truncated: false };
      const root = this.readTree(s, start.ref, w, p.depth ?? 1000, budget, undefined);
      if (!p.scope) {
        const menu = this.menuBar(s, w, budget);
        if (menu) root.children = [...(root.children ?? []), menu];
      }
      let nodes = 0;
      const count = (n: RawNode): void => { nodes++; for (const c of n.children ?? []) count(c); };
      count(root);
      return { window, root, nodes, truncated: budget.truncated };
    });
  }

  /** The app's menu bar with its top-level items only; a snapshot scoped to an item reads its menu. */
  private menuBar(s: CfScope, w: HandleEntry, budget: { left: number; truncated: boolean }): RawNode | undefined {
    const app = s.own(this.api.AXUIElementCreateApplication(w.pid));
    const bar = copyAttribute(this.api, s, app, 'AXMenuBar');
    if (!bar || typeof bar !== 'object' || !('kind' in bar) || bar.kind !== 'element') return undefined;
    const node = this.readTree(s, bar.ref, w, 1, budget, undefined);
    for (const item of node.children ?? [])
      if (item.childCount && !item.states.includes('expanded')) item.states.push('collapsed');
    return node;
  }

  private readTree(
    s: CfScope,
    el: CFRef,
    w: HandleEntry,
    depth: number,
    budget: { left: number; truncated: boolean },
    parentRole: Role | undefined,
  ): RawNode {
    budget.left--;
    const r = this.read(s, el);
    const node = this.toNode(el, r.facts, w, parentRole);
    if (r.children.length && depth > 0) {
      const kids: RawNode[] = [];
      for (const c of r.children) {
        if (budget.left <= 0) { budget.truncated = true; break; }
        try { kids.push(this.readTree(s, c, w, depth - 1, budget, node.role)); } catch (e) {
          // a child destroyed mid-read is simply gone
          if (e instanceof ComputerUseError && e.code === 'stale_ref') continue;
          throw e;
        }
      }
      if (kids.length) node.children = kids;
      if (kids.length < r.children.length) node.childCount = r.children.length;
    } else if (r.children.length) node.childCount = r.children.length;
    return node;
  }

  private toNode(el: CFRef, f: AxFacts, w: HandleEntry, parentRole: Role | undefined): RawNode {
    const role = axRole(f.role, f.subrole, parentRole);
    const id = this.handles.issue(el, { kind: 'node', pid: w.pid, startTime: w.startTime, window: w.id, role: f.role,
      ...(f.subrole ? { subrole: f.subrole } : {}), ...(f.identifier ? { identifier: f.identifier } : {}) });
    const node: RawNode = {
      id,
      role,
      nativeRole: f.subrole ? `${f.role}/${f.subrole}` : f.role,
      states: axStates(f, role),
      actions: axOps(f, role),
      ...axText(f),
    };
    if (f.identifier) node.stableId = f.identifier;
    if (f.bounds) node.bounds = f.bounds;
    if (f.valueLength !== undefined && !isSecure(f)) node.valueLength = f.valueLength;
    if (f.min !== undefined && f.max !== undefined) node.range = { min: f.min, max: f.max };
    if (f.selection && !isSecure(f)) {
      node.caret = f.selection.location + f.selection.length;
      if (f.selection.length > 0) node.selection = [f.selection.location, f.selection.location + f.selection.length];
    }
    return node;
  }

  // ---- acting ----

  /** A node handle's entry after the identity checks every act starts with; else stale_ref and nothing is sent. */
  private nodeEntry(id: string): HandleEntry {
    const e = this.handles.get(id);
    if (!e || e.kind !== 'node')
      throw new ComputerUseError(
        'stale_ref',
        'that element handle expired or was never issued by this driver; observe again. Nothing was sent.',
      );
    const now = procIdentity(this.api, e.pid);
    if (!now || now.startTime !== e.startTime) {
      this.handles.forgetPid(e.pid);
      throw new ComputerUseError(
        'stale_ref',
        'the app that showed that element quit (its pid now names another process or none); observe again. ' +
          'Nothing was sent.',
      );
    }
    return e;
  }

  /** Reads the element at a handle now and checks it is still what the handle was issued for. */
  private current(s: CfScope, e: HandleEntry): { facts: AxFacts; node: RawNode } {
    let r: ElementRead;
    try { r = this.read(s, e.ref); } catch (err) {
      if (err instanceof ComputerUseError && err.code === 'stale_ref') this.handles.forget(e.id);
      throw err;
    }
    if (
      r.facts.role !== e.role ||
      (r.facts.subrole ?? '') !== (e.subrole ?? '') ||
      (e.identifier !== undefined && r.facts.identifier !== e.identifier)
    ) {
      throw new ComputerUseError(
        'stale_ref',
        `the element at that handle is now a ${r.facts.role}, not the ${e.role} it was; observe again. ` +
          `Nothing was sent.`,
      );
    }
    const w = this.handles.get(e.window ?? '') ?? e;
    return { facts: r.facts, node: this.toNode(e.ref, r.facts, w, undefined) };
  }

  /** Carries out one op on the element at `p.id` through AX (no pointer, no activation). */
  async act(p: ActParams, signal?: AbortSignal): Promise<ActResult> {
    this.requireTrust();
    const e = this.nodeEntry(p.id);
    let cur = withScope(this.api, (s) => this.current(s, e));
    checkExpect(p.expect, cur.node);
    cur = await this.waitActionable(e, cur, p, signal);
    const before: RawNode = { ...cur.node };
    this.markInput(e.pid);
    const detail = withScope(this.api, (s) => this.dispatch(s, e, cur.facts, p));
    const after = withScope(this.api, (s) => { try { return this.current(s, e).node; } catch { return undefined; } });
    const pressed = /AXUIElementPerformAction (\w+)$/.exec(detail.text)?.[1];
    const front = pressed === 'AXPress' ? withScope(this.api, (s) => this.frontmostPid(s)) : undefined;
    const ghost = ghostPressNote(pressed, before, after, e.pid, front);
    return { method: detail.method, detail: detail.text + ghost, before, ...(after ? { after } : {}) };
  }

  /**
   * Waits (bounded, drivers/common/actionable.ts) until the element passes the checks asked for; without them it
   * must be enabled at once. Only a text op needs an editable element.
   */
  private async waitActionable(
    e: HandleEntry,
    cur: { facts: AxFacts; node: RawNode },
    p: ActParams,
    signal?: AbortSignal,
  ): Promise<{ facts: AxFacts; node: RawNode }> {
    const text = ['set_value', 'type', 'clear'].includes(p.op);
    const probe: ActionabilityProbe<{ facts: AxFacts; node: RawNode }> = {
      read: async () => withScope(this.api, (s) => this.current(s, e)),
      unmet: ({ node }, checks) =>
        unmetOnNode(node, checks, { editable: () => !text || node.states.includes('editable') }),
      facts: ({ facts, node }) => ({
        what: elementWhat(facts.role, node.name),
        states: node.states,
        bounds: node.bounds,
      }),
      next: (ms) => sleep(Math.min(50, ms)),
    };
    return (
      await waitActionable(cur, p.actionable?.checks ?? ['enabled'], p.actionable?.timeoutMs ?? 0, probe, { signal })
    ).info;
  }

  private dispatch(
    s: CfScope,
    e: HandleEntry,
    f: AxFacts,
    p: ActParams,
  ): { method: 'pattern' | 'synthetic'; text: string } {
    const api = this.api;
    const perform = (action: string): { method: 'pattern'; text: string } => {
      if (!f.actions.includes(action))
        throw new ComputerUseError(
          'unsupported',
          `the element does not take ${action} (it offers ${f.actions.join(', ') || 'no actions'}); nothing was sent`,
        );
      const err = api.AXUIElementPerformAction(e.ref, s.string(action));
      if (err !== AX_ERROR.success) throw axError(err, action);
      return { method: 'pattern', text: `AXUIElementPerformAction ${action}` };
    };
    const set = (attr: string, value: CFRef, shown: string): { method: 'pattern'; text: string } => {
      if (!f.settable.has(attr))
        throw new ComputerUseError('unsupported', `${attr} of this element is not settable; nothing was sent`);
      const err = api.AXUIElementSetAttributeValue(e.ref, s.string(attr), value);
      if (err !== AX_ERROR.success) throw axError(err, `setting ${attr}`);
      return { method: 'pattern', text: `AXUIElementSetAttributeValue ${attr}${shown}` };
    };
    // The last resort: pointer events at the element's centre, posted to its process (pointer.ts).
    const pointer = (
      events: (at: { x: number; y: number }) => PointerEvent[],
      what: string,
    ): { method: 'synthetic'; text: string } => {
      if (!f.bounds)
        throw new ComputerUseError(
          'unsupported',
          `the element offers no AX action for ${p.op} and has no frame to point at; nothing was sent`,
        );
      const at = centre(f.bounds);
      const w = this.handles.get(e.window ?? '');
      if (!w)
        throw new ComputerUseError(
          'stale_ref',
          "the element's window handle expired; observe again. Nothing was sent.",
        );
      requireShows(s, e.pid, w.ref, at.x, at.y);
      const sent = postPointer(api, e.pid, events(at));
      return { method: 'synthetic', text: `CGEventPostToPid ${sent} ${what} events; ${POINTER_FOCUS_NOTE}` };
    };
    const text = p.value ?? '';
    switch (p.op) {
      case 'click':
        if (f.actions.includes('AXPress')) return perform('AXPress');
        if (f.settable.has('AXSelected')) return set('AXSelected', s.boolean(true), '');
        return pointer((at) => pointerEvents({ action: 'click', ...at }), 'click');
      case 'double_click':
        if (f.actions.includes('AXOpen')) return perform('AXOpen');
        return pointer((at) => pointerEvents({ action: 'double_click', ...at }), 'double-click');
      case 'toggle': return perform('AXPress');
      case 'right_click': return perform('AXShowMenu');
      case 'focus': return set('AXFocused', s.boolean(true), '');
      case 'select': return set('AXSelected', s.boolean(true), '');
      case 'set_value':
        if (typeof f.value === 'number') {
          const n = Number(text);
          if (!Number.isFinite(n))
            throw new ComputerUseError('invalid_params', 'this element takes a number; nothing was sent');
          return set('AXValue', s.number(n), ` (${n})`);
        }
        return set('AXValue', s.string(text), ` (${text.length} chars)`);
      case 'clear': return set('AXValue', s.string(''), ' (empty)');
      case 'type':
        if (f.settable.has('AXSelectedText'))
          return set('AXSelectedText', s.string(text), ` at the caret (${text.length} chars)`);
        set('AXFocused', s.boolean(true), '');
        return { method: 'synthetic', text: `CGEventPostToPid ${this.post(e.pid, textEvents(text))} key events` };
      case 'expand': case 'collapse':
        if (f.settable.has('AXDisclosing')) return set('AXDisclosing', s.boolean(p.op === 'expand'), '');
        if (p.op === 'expand') return perform(f.actions.includes('AXShowMenu') ? 'AXShowMenu' : 'AXPress');
        return perform('AXCancel');
      case 'scroll': {
        if (p.value === undefined || p.value === 'into_view') return perform('AXScrollToVisible');
        const direction = p.value;
        if (direction !== 'up' && direction !== 'down' && direction !== 'left' && direction !== 'right') {
          throw new ComputerUseError(
            'unsupported',
            `scroll ${JSON.stringify(direction.slice(0, 40))} is not in the macOS driver: give up, down, ` +
              `left, right or into_view; nothing was sent`,
          );
        }
        const bar = scrollBarOf(api, s, e.ref, direction === 'up' || direction === 'down' ? 'vertical' : 'horizontal');
        const step = direction === 'down' || direction === 'right' ? 'AXIncrement' : 'AXDecrement';
        if (bar?.actions.includes(step)) {
          for (let i = 0; i < SCROLL_STEPS; i++) {
            const err = api.AXUIElementPerformAction(bar.ref, s.string(step));
            if (err !== AX_ERROR.success) throw axError(err, `${step} on the scroll bar`);
          }
          return {
            method: 'pattern',
            text: `AXUIElementPerformAction ${step} ×${SCROLL_STEPS} on the ${bar.orientation} scroll bar`,
          };
        }
        return pointer(
          (at) => pointerEvents({ action: 'scroll', ...at, direction, amount: SCROLL_STEPS }),
          'scroll-wheel',
        );
      }
      case 'close': {
        // The title bar's close button, pressed: the app may ask first (a Save sheet) or keep running.
        const button = f.role === 'AXWindow' ? copyAttribute(api, s, e.ref, 'AXCloseButton') : undefined;
        if (!button || typeof button !== 'object' || !('kind' in button) || button.kind !== 'element') {
          throw new ComputerUseError(
            'unsupported',
            f.role === 'AXWindow'
              ? "this window has no close button (AXCloseButton); use the app's own Close or Quit command. " +
                  'Nothing was sent'
              : 'close takes a window (the first ref of its snapshot); nothing was sent',
            { op: 'close' },
          );
        }
        const err = api.AXUIElementPerformAction(button.ref, s.string('AXPress'));
        if (err !== AX_ERROR.success) throw axError(err, 'AXPress on the window\'s AXCloseButton');
        return { method: 'pattern', text: 'AXPress on the window\'s AXCloseButton (its title bar\'s close button)' };
      }
      case 'drag_to': {
        // AX has no drag: the pointer, from this element's centre to the target's, both in the same window.
        const target = this.nodeEntry(text);
        if (target.window !== e.window)
          throw new ComputerUseError('invalid_params', 'drag_to needs a target in the same window; nothing was sent');
        const to = this.read(s, target.ref, false).facts.bounds;
        if (!to) throw new ComputerUseError('unsupported', 'the drag target has no frame; nothing was sent');
        const end = centre(to);
        const w = this.handles.get(e.window ?? '');
        if (w) requireShows(s, e.pid, w.ref, end.x, end.y);
        return pointer((at) => pointerEvents({ action: 'drag', ...at, to: [end.x, end.y] }), 'drag');
      }
      default:
        throw new ComputerUseError('unsupported', `${p.op} is not supported by the macOS driver yet; nothing was sent`);
    }
  }

  // ---- capture ----

  /**
   * `screen.capture`: the window alone by its CGWindowID (capture.ts), which the window list proved when the
   * window was listed and proves again now (same process, same frame as AX reads now).
   */
  capture(p: CaptureParams): CaptureResult {
    const t0 = performance.now();
    const w = this.windowEntry(p.window);
    if (w.windowNumber === undefined) {
      throw new ComputerUseError(
        'unsupported',
        "no window of the window list has this window's process, frame and title, so which one to image is " +
          'not proven; nothing was captured. List the windows again.',
      );
    }
    const frame = withScope(this.api, (s) => this.read(s, w.ref, false).facts.bounds);
    if (!frame)
      throw new ComputerUseError(
        'window_changed',
        'the window reports no frame; list the windows again. Nothing was captured.',
      );
    const tool = this.options.screencapture === undefined ? SCREENCAPTURE : this.options.screencapture ?? undefined;
    const shot = captureWindow(this.api, w.pid, w.windowNumber, frame, p.maxEdge ?? 1280, tool);
    return { ...shot, ms: Math.round(performance.now() - t0) };
  }

  // ---- pointer ----

  /**
   * `input.pointer`: events posted to the window's process at screen points that must show that window (and,
   * with expectBounds, the window must not have moved), else window_changed and nothing is sent.
   */
  pointer(p: PointerParams, signal?: AbortSignal): PointerResult {
    this.requireTrust();
    const w = this.windowEntry(p.window);
    return withScope(this.api, (s) => {
      const bounds = this.read(s, w.ref, false).facts.bounds;
      if (
        p.expectBounds &&
        (!bounds || bounds.some((v, i) => Math.round(v) !== Math.round(p.expectBounds![i] ?? NaN)))
      ) {
        throw new ComputerUseError(
          'window_changed',
          'the window moved or was resized since it was observed; observe again. Nothing was sent.',
        );
      }
      const events = pointerEvents(p);
      requireShows(s, w.pid, w.ref, p.x, p.y);
      if (p.to) requireShows(s, w.pid, w.ref, p.to[0], p.to[1]);
      this.markInput(w.pid);
      const sent = postPointer(this.api, w.pid, events, signal);
      return { method: 'synthetic', detail: `CGEventPostToPid ${sent} ${p.action} events; ${POINTER_FOCUS_NOTE}` };
    });
  }

  // ---- keys ----

  /** Posts key events to one process; returns how many were sent. */
  private post(pid: number, events: readonly MacKeyEvent[], signal?: AbortSignal): number {
    let sent = 0;
    for (const ev of events) {
      if (signal?.aborted) break;
      const ref = this.api.CGEventCreateKeyboardEvent(null, ev.code, ev.down);
      if (!ref)
        throw new ComputerUseError('input_unavailable', 'CGEventCreateKeyboardEvent failed; nothing more was sent');
      try {
        this.api.CGEventSetFlags(ref, BigInt(ev.flags));
        if (ev.text) {
          const t = ev.text;
          this.api.CGEventKeyboardSetUnicodeString(
            ref,
            t.length,
            Uint16Array.from({ length: t.length }, (_, i) => t.charCodeAt(i)),
          );
        }
        this.api.CGEventPostToPid(pid, ref);
      } finally { this.api.CFRelease(ref); }
      sent++;
    }
    return sent;
  }

  /**
   * Keys for a window: posted to its process (CGEventPostToPid), which delivers them to its key window. The
   * window must be that process's focused window (it is raised inside its app first, without activating the
   * app), and `expect` must name that process, else window_not_focused and nothing is sent.
   */
  keys(p: KeysParams, signal?: AbortSignal): KeysResult {
    this.requireTrust();
    const w = this.windowEntry(p.window);
    if (
      p.expect &&
      (p.expect.pid !== w.pid || (p.expect.startToken !== undefined && p.expect.startToken !== String(w.startTime)))
    ) {
      throw new ComputerUseError(
        'window_not_focused',
        'that window belongs to another process than the one the keys were aimed at; nothing was sent',
      );
    }
    // Parse every chord before sending anything: an unknown key refuses the whole call.
    const events =
      p.text !== undefined
        ? textEvents(p.text.replace(/\r\n?/g, '\n'))
        : (p.chords ?? []).flatMap((c) => chordEvents(c.mods, c.key));
    let focusedFirst = false;
    withScope(this.api, (s) => {
      if (!this.isFocusedWindow(s, w)) {
        this.api.AXUIElementPerformAction(w.ref, s.string('AXRaise'));
        focusedFirst = true;
        if (!this.isFocusedWindow(s, w))
          throw new ComputerUseError(
            'window_not_focused',
            'the window is not the focused window of its app, and raising it did not change that; nothing ' +
              'was ' +
              'sent',
          );
      }
    });
    this.markInput(w.pid);
    return { method: 'synthetic', focusedFirst, sent: this.post(w.pid, events, signal) };
  }

  private markInput(pid: number): void {
    this.events.pump(); // what arrived before this input is not its effect
    this.inputMark.set(pid, this.events.countOf(pid).count);
  }

  private isFocusedWindow(s: CfScope, w: HandleEntry): boolean {
    const app = s.own(this.api.AXUIElementCreateApplication(w.pid));
    const focused = copyAttribute(this.api, s, app, 'AXFocusedWindow');
    return (
      !!focused &&
      typeof focused === 'object' &&
      'kind' in focused &&
      focused.kind === 'element' &&
      this.api.CFEqual(focused.ref, w.ref) !== 0
    );
  }

  // ---- settle ----

  /**
   * Settled when no AX notification came from the window's app for `quietMs` (and `minMs` passed), within
   * `timeoutMs`. Without an observer (it could not be made), the window's tree is read until two reads agree.
   */
  async settle(p: SettleParams, signal?: AbortSignal): Promise<SettleResult> {
    const started = Date.now();
    const quietMs = p.quietMs ?? DEFAULT_QUIET_MS;
    const w = p.window ? this.handles.get(p.window) : undefined;
    const pid = w?.pid;
    const windowId = w?.kind === 'window' ? w.id : w?.window;
    if (pid !== undefined && this.events.watch(pid)) {
      // Counted from the last input to this app (what the act caused), else from now.
      const base = this.inputMark.get(pid) ?? this.events.countOf(pid).count;
      this.inputMark.delete(pid);
      for (;;) {
        this.events.pump();
        const c = this.events.countOf(pid);
        const now = Date.now();
        const quietSince = Math.max(c.count > base ? c.last : started, started);
        if (now - quietSince >= quietMs && now - started >= (p.minMs ?? 0))
          return { settled: true, events: c.count - base, ms: now - started };
        if (now - started >= p.timeoutMs || signal?.aborted)
          return { settled: false, events: c.count - base, ms: now - started };
        await sleep(Math.min(25, Math.max(1, quietMs / 4)));
      }
    }
    // Polling: the window's tree signature, until it stays the same for quietMs.
    let last = windowId ? this.signature(windowId) : '';
    let changes = 0;
    let stableSince = started;
    for (;;) {
      const now = Date.now();
      if (now - stableSince >= quietMs && now - started >= (p.minMs ?? 0))
        return { settled: true, events: changes, ms: now - started };
      if (now - started >= p.timeoutMs || signal?.aborted)
        return { settled: false, events: changes, ms: now - started };
      await sleep(Math.min(100, Math.max(10, quietMs / 2)));
      const sig = windowId ? this.signature(windowId) : '';
      if (sig !== last) { changes++; last = sig; stableSince = Date.now(); }
    }
  }

  private signature(windowId: string): string {
    try {
      return JSON.stringify(this.snapshot({ window: windowId, maxNodes: 2000 }).root);
    } catch (e) {
      return e instanceof Error ? e.message : 'gone';
    }
  }
}

/**
 * The scroll bar that moves an element: among the children of the element, or of its nearest AXScrollArea
 * ancestor, the AXScrollBar of that orientation (AXOrientation, else its shape). Borrowed into the scope.
 */
function scrollBarOf(
  api: MacApi,
  s: CfScope,
  el: CFRef,
  orientation: 'vertical' | 'horizontal',
): { ref: CFRef; actions: string[]; orientation: string } | undefined {
  let cur: CFRef | undefined = el;
  for (let depth = 0; cur && depth < 32; depth++) {
    const role = copyAttribute(api, s, cur, 'AXRole');
    if (role === 'AXScrollArea' || depth === 0) {
      const kids = copyAttribute(api, s, cur, 'AXChildren');
      for (const k of kids && typeof kids === 'object' && 'kind' in kids && kids.kind === 'array' ? kids.items : []) {
        if (copyAttribute(api, s, k, 'AXRole') !== 'AXScrollBar') continue;
        const o = copyAttribute(api, s, k, 'AXOrientation');
        const size = copyAttribute(api, s, k, 'AXSize');
        const tall =
          size && typeof size === 'object' && 'kind' in size && size.kind === 'size' ? size.h > size.w : undefined;
        const vertical = o === 'AXVerticalOrientation' || (o === undefined && tall === true);
        if (vertical !== (orientation === 'vertical')) continue;
        const names: [CFRef] = [null];
        const actions =
          api.AXUIElementCopyActionNames(k, names) === AX_ERROR.success
            ? arrayItems(api, s.own(names[0]))
                .map((n) => readValue(api, n))
                .filter((n): n is string => typeof n === 'string')
            : [];
        return { ref: k, actions, orientation };
      }
      if (role === 'AXScrollArea') return undefined;
    }
    const parent = copyAttribute(api, s, cur, 'AXParent');
    cur =
      parent && typeof parent === 'object' && 'kind' in parent && parent.kind === 'element' ? parent.ref : undefined;
  }
  return undefined;
}
