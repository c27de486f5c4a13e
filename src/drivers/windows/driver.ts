/**
 * The Windows driver: the protocol's methods served over the helper (helper-client.ts), which does the UI
 * Automation and Win32 work. Here: handles, the UIA → protocol mapping, identity checks before every act,
 * actionability waits, keys by the foreground-proven or the background path, and settle from the helper's
 * events. It makes no policy decision: the host's policy, audit and receipts wrap every act.
 */
import { TEXT_INPUT_ROLES } from '../../protocol/vocabulary.js';
import type { RawNode, WindowInfo } from '../../engine/node.js';
import { ComputerUseError } from '../../protocol/errors.js';
import { checkExpect, notAHandle } from '../common/expect.js';
import { elementWhat, unmetOnNode, waitActionable, type ActionabilityProbe } from '../common/actionable.js';
import type {
  IdentifyParams,
  IdentifyResult,
  ResolveLaunchParams,
  ResolveLaunchResult,
  TerminateParams,
  TerminateResult,
} from '../../protocol/identity.js';
import type {
  ActParams,
  ActResult,
  CaptureParams,
  CaptureResult,
  ClipboardParams,
  FindMatch,
  FindParams,
  FindResult,
  ClipboardResult,
  KeysParams,
  PointerParams,
  PointerResult,
  KeysResult,
  LaunchParams,
  LaunchResult,
  SettleParams,
  SettleResult,
  SnapshotParams,
  SnapshotResult,
  TextReadParams,
  TextReadResult,
} from '../../protocol/methods.js';
import type { HelperClient } from './helper-client.js';
import { inside, sameRect } from '../../fallback/geometry.js';
import { toCapture, type HelperCapture } from './capture.js';
import { commandLine, environmentBlock, resolveProgram, type ResolveOptions } from './cmdline.js';
import { resolveLaunch, startTokenOf, terminateArgs, toIdentify, toTerminate, type HelperProcess } from './identity.js';
import { helperChord } from './keys.js';
import {
  MEDIUM_INTEGRITY,
  parseNodeId,
  parseWindowId,
  toApps,
  toRawNode,
  toWindowInfo,
  type UiaWindow,
} from './nodes.js';
import { controlTypesOf, type UiaElement } from './roles.js';
import type { Role } from '../../engine/role.js';
import { DEFAULT_QUIET_MS, LIMITS } from '../../protocol/methods.js';
import { notInFront, tookFront, type FocusAnswer } from './foreground.js';

/** What the helper's hello says about itself. */
export interface HelperHello {
  backend?: string;
  version?: string;
  os?: string;
  self?: { integrity?: number; elevated?: boolean };
}

/** How long one actionability poll waits for an event before reading the element again. */
const ACTIONABLE_POLL_MS = 250;

const notFound = (): ComputerUseError =>
  new ComputerUseError(
    'window_not_found',
    'no window has that handle (it closed, or it is not a Windows window handle); list windows again',
  );

export class WindowsDriver {
  private hello: HelperHello | undefined;
  private readonly pids = new Map<string, number>();

  /**
   * `env` is the environment apps start from (the driver's own: the signed-in user's), which a launch's `env`
   * extends; `exists` answers for program lookup (tests).
   */
  constructor(
    readonly helper: HelperClient,
    private readonly env: Readonly<Record<string, string | undefined>> = process.env,
    private readonly exists?: (p: string) => boolean,
  ) {}

  /** The helper's hello, asked once. */
  async helperHello(): Promise<HelperHello> {
    this.hello ??= await this.helper.request<HelperHello>('hello');
    return this.hello;
  }

  /** Every visible top-level window, with its process facts. */
  async rawWindows(signal?: AbortSignal): Promise<UiaWindow[]> {
    const r = await this.helper.request<{ windows: UiaWindow[] }>('windows', {}, signal ? { signal } : {});
    for (const w of r.windows) if (w.process?.pid !== undefined) this.pids.set(w.hwnd, w.process.pid);
    return r.windows;
  }

  async apps(): Promise<ReturnType<typeof toApps>> {
    const integrity = (await this.helperHello()).self?.integrity ?? MEDIUM_INTEGRITY;
    return toApps(await this.rawWindows(), integrity);
  }

  async windows(filter: { app?: string; pid?: number } = {}): Promise<WindowInfo[]> {
    return (await this.rawWindows())
      .map(toWindowInfo)
      .filter(
        (w) => (filter.app === undefined || w.app === filter.app) && (filter.pid === undefined || w.pid === filter.pid),
      );
  }

  private async window(hwnd: string): Promise<WindowInfo> {
    const w = (await this.rawWindows()).find((x) => x.hwnd === hwnd);
    if (!w) throw notFound();
    return toWindowInfo(w);
  }

  async activate(windowId: string): Promise<void> {
    const hwnd = parseWindowId(windowId);
    if (!hwnd) throw notFound();
    const r = await this.helper.request<FocusAnswer>('focus', { hwnd });
    if (!r.foreground) throw new ComputerUseError('window_not_focused', `${notInFront(r)}; nothing was sent`);
  }

  /** Where programs are looked up: the Windows folder and PATH of the driver's environment. */
  private lookup(): ResolveOptions {
    return {
      windir: this.env['WINDIR'] ?? this.env['SystemRoot'] ?? 'C:\\Windows',
      path: this.env['PATH'] ?? this.env['Path'] ?? '',
      ...(this.exists ? { exists: this.exists } : {}),
    };
  }

  /** `process.identify`: what Windows proves about a process now (identity.ts). */
  async identify(p: IdentifyParams): Promise<IdentifyResult> {
    return toIdentify(p.pid, await this.helper.request<HelperProcess>('identify', { pid: p.pid }), p);
  }

  /** `apps.resolveLaunch`: the program `launch` would start, without starting it. */
  resolveLaunch(p: ResolveLaunchParams): ResolveLaunchResult {
    return resolveLaunch(p, this.lookup());
  }

  /** `apps.terminate`: only while the pid still has the start token the caller saw. */
  async terminate(p: TerminateParams): Promise<TerminateResult> {
    return toTerminate(await this.helper.request<{ ended?: unknown }>('terminate', terminateArgs(p)));
  }

  async launch(p: LaunchParams): Promise<LaunchResult> {
    const application = resolveProgram(p.command, this.lookup());
    const args = p.args ?? [];
    const facts = await this.helper.request<HelperProcess & { pid: number }>('launch', {
      application, commandLine: commandLine(application, args),
      ...(p.env ? { environment: environmentBlock(this.env, p.env) } : {}),
    });
    const token = startTokenOf(facts);
    const started: LaunchResult = {
      pid: facts.pid,
      argv: [application, ...args],
      ...(token ? { startToken: token } : {}),
    };
    const deadline = Date.now() + (p.waitForWindowMs ?? 0);
    for (;;) {
      const w = (await this.windows({ pid: facts.pid }))[0];
      if (w) return { ...started, window: w };
      if (Date.now() >= deadline) return started;
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  async snapshot(p: SnapshotParams, signal?: AbortSignal): Promise<SnapshotResult> {
    const hwnd = parseWindowId(p.window);
    if (!hwnd) throw notFound();
    const window = await this.window(hwnd);
    let scope: string | undefined;
    if (p.scope !== undefined) {
      const node = parseNodeId(p.scope);
      if (!node || node.hwnd !== hwnd)
        throw new ComputerUseError('stale_ref', 'that scope is not an element of this window; take a new snapshot');
      scope = node.rid;
    }
    const r = await this.helper.request<{ root: UiaElement; nodes: number; truncated: boolean; ms: number }>(
      'tree',
      {
        hwnd,
        ...(scope ? { scope } : {}),
        ...(p.depth !== undefined ? { depth: p.depth } : {}),
        ...(p.maxNodes !== undefined ? { maxNodes: p.maxNodes } : {}),
      },
      { timeoutMs: 60_000, ...(signal ? { signal } : {}) },
    );
    // Settle counts this window's events from now on (a failure only costs event-driven settle).
    this.helper.request('subscribe', { hwnd }).catch(() => undefined);
    return { window, root: toRawNode(r.root, hwnd), stats: { nodes: r.nodes, ms: r.ms, truncated: r.truncated } };
  }

  /**
   * `tree.find` by UI Automation's own search (helper `find`: FindAllBuildCache on a condition, one cross-process
   * call), with the result shape of the other drivers (drivers/common/find.ts): nodes without children, their
   * path from the window root, hidden elements skipped, at most `limit` (20).
   */
  async find(p: FindParams, signal?: AbortSignal): Promise<FindResult> {
    const hwnd = parseWindowId(p.window);
    if (!hwnd) throw notFound();
    const limit = p.limit ?? 20;
    const role = p.role as Role | undefined;
    const { cts, exact } = role === undefined ? { cts: undefined, exact: true } : controlTypesOf(role);
    if (cts?.length === 0) return { matches: [], scanned: 0 };
    // A role the control type does not prove is checked here, so the helper returns more than the limit.
    const r = await this.helper.request<{ matches?: { node: UiaElement; path?: unknown[] }[]; found?: number }>(
      'find',
      {
        hwnd,
        ...(p.text !== undefined ? { text: p.text } : {}),
        ...(cts ? { cts } : {}),
        limit: exact ? limit : LIMITS.items,
      },
      { timeoutMs: 60_000, ...(signal ? { signal } : {}) },
    );
    const matches: FindMatch[] = [];
    for (const m of r.matches ?? []) {
      if (matches.length >= limit) break;
      const { children: _c, ...node } = toRawNode({ ...m.node, children: [] }, hwnd);
      if (role !== undefined && node.role !== role) continue;
      if (node.states.includes('offscreen') || node.states.includes('invisible')) continue;
      const path = (m.path ?? [])
        .filter((x): x is string => typeof x === 'string' && parseNodeId(`${hwnd}:${x}`) !== undefined)
        .map((x) => `${hwnd}:${x}`);
      matches.push({ node, path: path.slice(0, LIMITS.items) });
    }
    return { matches, scanned: Number.isSafeInteger(r.found) && r.found! >= 0 ? r.found! : matches.length };
  }

  /** The element at a handle, read now. */
  private async node(hwnd: string, rid: string, signal?: AbortSignal): Promise<{ raw: UiaElement; node: RawNode }> {
    const raw = await this.helper.request<UiaElement>('node', { hwnd, rid }, signal ? { signal } : {});
    return { raw, node: toRawNode(raw, hwnd) };
  }

  async act(p: ActParams, signal?: AbortSignal): Promise<ActResult> {
    const id = parseNodeId(p.id);
    if (!id) throw notAHandle();
    let { raw, node } = await this.node(id.hwnd, id.rid, signal);
    checkExpect(p.expect, node);
    if (p.actionable) ({ raw, node } = await this.waitActionable(id, p.actionable, { raw, node }, signal));
    if (!node.actions.includes(p.op) && !(p.op === 'click' && node.actions.includes('toggle'))) {
      throw new ComputerUseError(
        'unsupported',
        `this ${node.role} does not support ${p.op} (it offers ${node.actions.join(', ') || 'no op'}); ` +
          `nothing was sent`,
        { op: p.op },
      );
    }
    const r = await this.helper.request<{ pattern: string; before: UiaElement; after?: UiaElement }>(
      'act',
      {
        hwnd: id.hwnd,
        rid: id.rid,
        op: p.op,
        ...(p.value !== undefined ? { value: p.value } : {}),
        ...(raw.ct !== undefined ? { ct: raw.ct } : {}),
        name: raw.name ?? '',
      },
      { timeoutMs: 30_000, ...(signal ? { signal } : {}) },
    );
    const strip = (e: UiaElement): RawNode => {
      const { children: _c, ...n } = toRawNode({ ...e, children: [] }, id.hwnd);
      return n;
    };
    return {
      method: p.op === 'type' ? 'synthetic' : 'pattern', detail: r.pattern.slice(0, 200), before: strip(r.before),
      ...(r.after ? { after: strip(r.after) } : {}),
    };
  }

  /** Waits, event-driven and bounded, until the element passes every check (drivers/common/actionable.ts). */
  private async waitActionable(
    id: { hwnd: string; rid: string },
    a: NonNullable<ActParams['actionable']>,
    first: { raw: UiaElement; node: RawNode },
    signal?: AbortSignal,
  ): Promise<{ raw: UiaElement; node: RawNode }> {
    const probe: ActionabilityProbe<{ raw: UiaElement; node: RawNode }> = {
      read: () => this.node(id.hwnd, id.rid, signal),
      // UIA reports an element without a rectangle when it is not on screen.
      unmet: ({ node }, checks) =>
        unmetOnNode(node, checks, {
          boundsRequired: true,
          editable: () => !TEXT_INPUT_ROLES.has(node.role) || node.states.includes('editable'),
        }),
      facts: ({ node }) => ({ what: elementWhat(node.role, node.name), states: node.states, bounds: node.bounds }),
      next: (ms, sig) => this.nextEvent(Math.min(ACTIONABLE_POLL_MS, ms), sig),
    };
    return (await waitActionable(first, a.checks, a.timeoutMs, probe, { signal })).info;
  }

  /** Resolves at the helper's next event, after `ms`, or at abort, whichever comes first. */
  private nextEvent(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => { clearTimeout(t); off(); signal?.removeEventListener('abort', done); resolve(); };
      const t = setTimeout(done, ms);
      const off = this.helper.onEvent(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  async keys(p: KeysParams, signal?: AbortSignal): Promise<KeysResult> {
    const hwnd = parseWindowId(p.window);
    if (!hwnd) throw notFound();
    const w = await this.window(hwnd);
    if (
      p.expect &&
      (p.expect.pid !== w.pid ||
        (p.expect.startToken !== undefined && w.startToken !== undefined && p.expect.startToken !== w.startToken))
    ) {
      throw new ComputerUseError(
        'window_not_focused',
        'that window no longer belongs to the process the keys were meant for; nothing was sent',
      );
    }
    const chords = (p.chords ?? []).map(helperChord);
    const focus = await this.helper.request<FocusAnswer>('focus', { hwnd }, signal ? { signal } : {})
      .catch((): FocusAnswer => ({ foreground: false }));
    const base = {
      hwnd,
      pid: w.pid,
      ...(w.startToken !== undefined ? { startToken: w.startToken } : {}),
      chords,
      ...(p.text !== undefined ? { text: p.text } : {}),
    };
    if (focus.foreground) {
      const r = await this.helper.request<{ sent: number }>(
        'keys',
        { ...base, via: 'input' },
        { timeoutMs: 60_000, ...(signal ? { signal } : {}) },
      );
      return { method: 'synthetic', focusedFirst: true, sent: r.sent };
    }
    // Not in front: plain keys and text can still be posted to the window's focused control (the
    // background way first); a chord with modifiers cannot (apps read the modifier state, not the message).
    if (chords.some((c) => c.vks.length > 1 || c.ch !== undefined)) {
      throw new ComputerUseError('window_not_focused',
        `${notInFront(focus)}, and a chord with modifiers cannot be sent to a background window; nothing was sent`);
    }
    const r = await this.helper.request<{ sent: number }>(
      'keys',
      { ...base, via: 'message' },
      { timeoutMs: 60_000, ...(signal ? { signal } : {}) },
    );
    return { method: 'message', focusedFirst: false, sent: r.sent };
  }

  /** Settled when no event of the window's process arrived for `quietMs` (and `minMs` passed). */
  async settle(p: SettleParams, signal?: AbortSignal): Promise<SettleResult> {
    const t0 = Date.now();
    const quietMs = p.quietMs ?? DEFAULT_QUIET_MS;
    let pid: number | undefined;
    if (p.window !== undefined) {
      const hwnd = parseWindowId(p.window) ?? parseNodeId(p.window)?.hwnd;
      if (hwnd)
        pid =
          this.pids.get(hwnd) ??
          (await this.rawWindows(signal).catch(() => [])).find((w) => w.hwnd === hwnd)?.process?.pid;
    }
    let events = 0;
    let last = t0;
    const off = this.helper.onEvent((e) => {
      if (pid === undefined || e.pid === pid) {
        events++;
        last = Date.now();
      }
    });
    try {
      for (;;) {
        const now = Date.now();
        if (signal?.aborted) return { settled: false, events, ms: now - t0 };
        if (now - last >= quietMs && now - t0 >= (p.minMs ?? 0)) return { settled: true, events, ms: now - t0 };
        if (now - t0 >= p.timeoutMs) return { settled: false, events, ms: now - t0 };
        const until = Math.min(Math.max(last + quietMs, t0 + (p.minMs ?? 0)), t0 + p.timeoutMs);
        await this.nextEvent(Math.max(1, until - now), signal);
      }
    } finally { off(); }
  }

  /**
   * Pointer input at screen pixels: only inside the window's current bounds (and the bounds the caller saw, when
   * given), and the helper sends only where the point shows the window, with the window in front and its process
   * proven (pid, start time) before each press.
   */
  async pointer(p: PointerParams, signal?: AbortSignal): Promise<PointerResult> {
    const hwnd = parseWindowId(p.window);
    if (!hwnd) throw notFound();
    const w = await this.window(hwnd);
    if (p.expectBounds && !sameRect(p.expectBounds, w.bounds))
      throw new ComputerUseError(
        'window_changed',
        'the window moved or was resized since it was seen; look again. Nothing was sent.',
        { bounds: w.bounds ?? null },
      );
    const points: [number, number][] = [[p.x, p.y], ...(p.to ? [p.to] : [])];
    if (!w.bounds || points.some(([x, y]) => !inside(w.bounds!, x, y)))
      throw new ComputerUseError(
        'window_changed',
        'that point is not inside the window; nothing was sent',
        w.bounds ? { bounds: w.bounds } : {},
      );
    const focus = await this.helper.request<FocusAnswer>('focus', { hwnd }, signal ? { signal } : {});
    if (!focus.foreground) {
      throw new ComputerUseError('window_not_focused',
        `${notInFront(focus)}; pointer input goes to the window in front, so nothing was sent`);
    }
    const r = await this.helper.request<{ detail: string }>(
      'pointer',
      {
        hwnd,
        pid: w.pid,
        ...(w.startToken !== undefined ? { startToken: w.startToken } : {}),
        action: p.action,
        x: p.x,
        y: p.y,
        ...(p.to ? { to: p.to } : {}),
        ...(p.direction ? { direction: p.direction } : {}),
        ...(p.amount !== undefined ? { amount: p.amount } : {}),
      },
      { timeoutMs: 30_000, ...(signal ? { signal } : {}) },
    );
    return { method: 'synthetic', detail: `${String(r.detail).slice(0, 200)}; ${tookFront(focus)}` };
  }

  /**
   * `screen.capture`: the window's own pixels (helper/Capture.cs), only while it still belongs to the process it
   * was listed for; other processes' windows over it are blacked out when the helper had to copy the screen.
   */
  async capture(p: CaptureParams, signal?: AbortSignal): Promise<CaptureResult> {
    const t0 = Date.now();
    const hwnd = parseWindowId(p.window);
    if (!hwnd) throw notFound();
    const w = await this.window(hwnd);
    const r = await this.helper.request<HelperCapture>(
      'capture',
      {
        hwnd,
        pid: w.pid,
        ...(w.startToken !== undefined ? { startToken: w.startToken } : {}),
        maxEdge: p.maxEdge ?? 1280,
        marks: p.marks ?? [],
      },
      { timeoutMs: 60_000, ...(signal ? { signal } : {}) },
    );
    return toCapture(r, Date.now() - t0);
  }

  /** The clipboard's text, with its owner as Windows proves it; a secret or an unproven owner's copy is never read. */
  async clipboard(p: ClipboardParams): Promise<ClipboardResult> {
    if (p.action === 'write') {
      await this.helper.request('clipboard', { action: 'write', text: p.text ?? '' });
      return { method: 'win32 clipboard' };
    }
    const r = await this.helper.request<{
      text?: unknown;
      owner?: { pid?: unknown; startToken?: unknown; secret?: unknown; unproven?: unknown };
    }>('clipboard', { action: 'read' });
    const owner: NonNullable<ClipboardResult['owner']> = {};
    if (typeof r.owner?.pid === 'number') owner.pid = r.owner.pid;
    const token = startTokenOf(r.owner as HelperProcess | undefined);
    if (token) owner.startToken = token;
    if (r.owner?.secret === true) owner.secret = true;
    if (r.owner?.unproven === true) owner.unproven = true;
    const res: ClipboardResult = { method: 'win32 clipboard', ...(r.owner ? { owner } : {}) };
    // The helper withholds such text already; a helper that sent it anyway is not believed.
    if (typeof r.text === 'string' && !owner.secret && !owner.unproven) res.text = r.text.slice(0, 1_000_000);
    return res;
  }

  async textRead(p: TextReadParams): Promise<TextReadResult> {
    const id = parseNodeId(p.id);
    if (!id) throw new ComputerUseError('stale_ref', 'that is not a handle of this driver; observe again');
    const { text } = await this.helper.request<{ text: string }>('text', { hwnd: id.hwnd, rid: id.rid });
    const start = Math.min(p.start ?? 0, text.length);
    const end = Math.min(p.end ?? text.length, text.length, start + 1_000_000);
    return {
      text: text.slice(start, end),
      start,
      length: text.length,
      startLine: text.slice(0, start).split('\n').length,
    };
  }
}
