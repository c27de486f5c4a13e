/**
 * An in-memory driver over fixture trees, for tests of everything above the protocol (session, act flow,
 * receipts, relocation, settle) on any OS. It behaves like a small toolkit: toggles flip `checked`, set_value
 * sets values, and tests can mutate the tree (replace handles, destroy elements, open windows) between calls.
 */
import { PassThrough } from 'node:stream';
import type { AppInfo, RawNode, State, WindowInfo } from '../../protocol/nodes.js';
import { handshake } from '../../protocol/handshake.js';
import { ComputerUseError } from '../../protocol/errors.js';
import type { ActParams, ActResult, Capability, KeysParams, KeysResult } from '../../protocol/methods.js';
import { Peer, type Handlers } from '../../protocol/peer.js';
import type { DriverConnection } from '../../protocol/peer.js';

/** One fake window: its info and its tree (root = the window node). */
export interface FakeWindow { info: WindowInfo; root: RawNode }

/**
 * The value a slider or spin button takes: a number within its range, else invalid_params and the value kept
 * (protocol rule R-act-value: never clamped). Other elements take any text.
 */
function numberInRange(node: RawNode, value: string): string {
  if (!node.range) return value;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n))
    throw new ComputerUseError(
      'invalid_params',
      `set_value on a ${node.role} needs a number, got "${value.slice(0, 20)}".`,
    );
  if (n < node.range.min || n > node.range.max) {
    throw new ComputerUseError(
      'invalid_params',
      `${n} is outside the ${node.role}'s range ${node.range.min} to ${node.range.max}; nothing was changed.`,
    );
  }
  return value;
}

export class FakeDriver {
  readonly windows: FakeWindow[] = [];
  /** Calls received, by method name, for assertions. */
  readonly calls: { method: string; params: unknown }[] = [];
  /** act_identity and act_windows as the Linux driver has them; a test removes them to take the path of drivers without. */
  capabilities: Capability[] = ['events', 'keys', 'act_identity', 'act_windows'];
  /** The channel hello reports (tests of degraded channels); none = the native accessibility tree. */
  channel?: string;
  /** Acts that were carried out (passed the actionability wait and reached the "toolkit"). */
  readonly dispatched: ActParams[] = [];
  /** Runs after each act, so a test can make the "app" react (open a dialog, destroy a node). */
  /** Runs after an act; a string it returns is the act's detail (what a real driver said it did). */
  onAct?: (p: ActParams, node: RawNode) => void | string;
  /** Called after keys were "sent" to a window (tests make them close a dialog). */
  onKeys?: (p: KeysParams) => void;
  /** Pids whose app stays listed with no window once its last window closed (an app that runs on in the tray). */
  readonly keepRunning = new Map<number, string>();
  /** A close the "app" ignores (busy, or it refuses the window manager's request): the window stays. */
  ignoreClose = false;
  /** Extra method handlers a test installs (apps.launch, process.identify, …); they win over the built-in ones. */
  readonly extra: Handlers = {};

  /** Apps that run with no window (a tray app whose window closed); listed after the apps of `windows`. */
  readonly windowless: AppInfo[] = [];
  constructor(windows: FakeWindow[] = []) { this.windows.push(...windows); }

  /** The parent of a node, by handle, in any window. */
  parentOf(id: string): RawNode | undefined {
    const visit = (n: RawNode): RawNode | undefined => {
      for (const c of n.children ?? []) { if (c.id === id) return n; const hit = visit(c); if (hit) return hit; }
      return undefined;
    };
    for (const w of this.windows) { const hit = visit(w.root); if (hit) return hit; }
    return undefined;
  }

  /** Finds a node by handle in any window. */
  node(id: string): RawNode | undefined {
    const visit = (n: RawNode): RawNode | undefined => {
      if (n.id === id) return n;
      for (const c of n.children ?? []) { const hit = visit(c); if (hit) return hit; }
      return undefined;
    };
    for (const w of this.windows) { const hit = visit(w.root); if (hit) return hit; }
    return undefined;
  }

  /** The handler table; hello lists the methods of the table served (`this.handlers()`, subclasses' additions included). */
  handlers(): Handlers {
    const log = <T,>(method: string, params: unknown, value: T): T => {
      this.calls.push({ method, params });
      return value;
    };
    return {
      hello: (p) =>
        log('hello', p, {
          ...handshake(this.handlers()),
          platform: 'fake',
          version: '0',
          capabilities: this.capabilities,
          permissions: {},
          ...(this.channel ? { channel: this.channel } : {}),
        }),
      'apps.list': (p) => log('apps.list', p, { apps: this.apps() }),
      'windows.list': (p) =>
        log('windows.list', p, {
          windows: this.windows.map((w) => w.info).filter((w) => p.pid === undefined || w.pid === p.pid),
        }),
      'tree.snapshot': (p) => {
        this.calls.push({ method: 'tree.snapshot', params: p });
        const w = this.windows.find((x) => x.info.id === p.window);
        if (!w) throw new ComputerUseError('window_not_found', 'no such window');
        const scope = p.scope === undefined ? w.root : this.node(p.scope);
        // A scope handle no element has is stale_ref, never the whole window (protocol rule R-handle-node).
        if (!scope) throw new ComputerUseError('stale_ref', 'The scope element no longer exists; take a new snapshot.');
        return { window: w.info, root: structuredClone(scope), stats: { nodes: 0, ms: 0, truncated: false } };
      },
      'node.act': (p) => {
        this.calls.push({ method: 'node.act', params: p });
        return this.actWhenActionable(p);
      },
      'ui.settle': (p) =>
        log('ui.settle', p, {
          settled: true,
          events: 1,
          ms: 0,
          ...(p.apps && this.has('act_windows') ? { apps: this.apps() } : {}),
        }),
      'input.keys': (p) => log('input.keys', p, this.keys(p)),
      ...this.loggedExtra(),
    };
  }

  private has(c: Capability): boolean { return this.capabilities.includes(c); }

  /** The window a node is in. */
  windowOf(id: string): FakeWindow | undefined {
    const inside = (n: RawNode): boolean => n.id === id || (n.children ?? []).some(inside);
    return this.windows.find((w) => inside(w.root));
  }

  /** Like the Linux driver (capability act_identity): why the node's process or window is not the one expected, or undefined. */
  private identityMismatch(p: ActParams): string | undefined {
    const e = p.expect;
    if (e?.pid === undefined || !this.has('act_identity')) return undefined;
    const w = this.windowOf(p.id);
    if (!w) return undefined; // a gone node is stale_ref
    if (w.info.pid !== e.pid) return `the element belongs to process ${w.info.pid}, not ${e.pid}`;
    if (e.startToken !== undefined && w.info.startToken !== e.startToken) return 'another start token';
    if (e.appId !== undefined && w.info.appId !== e.appId) return 'another program';
    if (e.window !== undefined && w.info.id !== e.window) return 'not in the window expected';
    if (e.title !== undefined && w.info.title !== e.title) return 'the window\'s title changed';
    return undefined;
  }

  /** Keys like the Linux driver: only into the window asked for, and only when its process is the one expected. */
  private keys(p: KeysParams): KeysResult {
    const w = this.windows.find((x) => x.info.id === p.window);
    if (!w) throw new ComputerUseError('window_not_found', 'no such window');
    if (p.expect && p.expect.pid !== w.info.pid)
      throw new ComputerUseError(
        'window_not_focused',
        'fake: the focused window belongs to another process; nothing was sent.',
      );
    this.onKeys?.(p);
    return { method: 'synthetic', focusedFirst: false, sent: p.chords?.length ?? [...p.text ?? ''].length };
  }

  /** The test's handlers, each call recorded like the built-in ones. */
  private loggedExtra(): Handlers {
    const out: Record<string, (p: unknown, ctx: unknown) => unknown> = {};
    for (const [method, h] of Object.entries(this.extra) as [string, (p: unknown, ctx: unknown) => unknown][]) {
      out[method] = (p, ctx) => { this.calls.push({ method, params: p }); return h(p, ctx); };
    }
    return out as Handlers;
  }

  private apps(): AppInfo[] {
    const byPid = new Map<number, AppInfo>();
    for (const w of this.windows) {
      const app = byPid.get(w.info.pid) ?? { name: w.info.app, pid: w.info.pid, id: `app-${w.info.pid}`, windows: [] };
      app.windows.push(structuredClone(w.info));
      byPid.set(w.info.pid, app);
    }
    for (const [pid, name] of this.keepRunning) {
      if (!byPid.has(pid)) byPid.set(pid, { name, pid, id: `app-${pid}`, windows: [] });
    }
    return [...byPid.values(), ...this.windowless.filter((a) => !byPid.has(a.pid))];
  }

  /**
   * Actionability like the real drivers: waits (re-checking every 10 ms, the tree is in memory) until the node
   * is neither disabled nor hidden (nor read-only for edits), then acts; else fails and acts on nothing.
   */
  private async actWhenActionable(p: ActParams): Promise<ActResult> {
    const mismatch = this.identityMismatch(p);
    if (mismatch)
      throw new ComputerUseError('window_changed', `fake: ${mismatch}; nothing was sent.`, { reason: 'identity' });
    const checks = p.actionable?.checks ?? [];
    const start = Date.now();
    for (;;) {
      const node = this.node(p.id);
      if (!node || checks.length === 0) break;
      const has = (st: State): boolean => node.states.includes(st);
      const unmet = checks.includes('visible') && (has('offscreen') || has('invisible')) ? 'not_visible'
        : checks.includes('enabled') && has('disabled') ? 'element_disabled'
          : checks.includes('editable') && has('readonly') ? 'element_disabled' : undefined;
      if (!unmet) break;
      const waitedMs = Date.now() - start;
      if (waitedMs >= (p.actionable?.timeoutMs ?? 0)) {
        throw new ComputerUseError(unmet, `fake: not actionable (${node.states.join(', ')}); nothing was sent.`, {
          states: node.states,
          waitedMs,
        });
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    const before = this.node(p.id);
    const snapshot = before ? { ...before, states: [...before.states] } : undefined;
    if (snapshot) delete snapshot.children;
    // Like the Linux driver: a scroll reports the scroll bars that move the element, as they were at dispatch.
    if (snapshot && p.op === 'scroll') {
      const bars = (n: RawNode | undefined): RawNode[] =>
        (n?.children ?? []).filter((c) => c.role === 'scrollbar').map((c) => ({ ...c, states: [...c.states] }));
      const own = bars(before);
      snapshot.children = own.length > 0 ? own : bars(this.parentOf(p.id));
    }
    const apps = p.apps && this.has('act_windows') ? this.apps() : undefined;
    const result = this.act(p);
    this.dispatched.push(p);
    const now = this.node(p.id);
    const after = now ? { ...now, states: [...now.states] } : undefined;
    if (after) delete after.children;
    return {
      ...result,
      ...(snapshot ? { before: snapshot } : {}),
      ...(after ? { after } : {}),
      ...(apps ? { apps } : {}),
    };
  }

  private act(p: ActParams): ActResult {
    const node = this.node(p.id);
    if (!node) throw new ComputerUseError('stale_ref', 'The element no longer exists.');
    if (p.expect?.role && p.expect.role !== node.role) throw new ComputerUseError('stale_ref', 'role changed');
    if (p.expect?.name !== undefined && p.expect.name !== (node.name ?? ''))
      throw new ComputerUseError('stale_ref', 'name changed');
    const flip = (s: State): void => {
      node.states = node.states.includes(s) ? node.states.filter((x) => x !== s) : [...node.states, s];
    };
    switch (p.op) {
      case 'toggle': flip('checked'); break;
      case 'set_value': case 'clear': node.value = p.op === 'clear' ? '' : numberInRange(node, p.value ?? ''); break;
      case 'type': node.value = (node.value ?? '') + (p.value ?? ''); break;
      case 'click': case 'scroll': break;
      // An expander's state only; a test adds the rows that appear in onAct.
      case 'expand': case 'collapse':
        node.states = [
          ...node.states.filter((x) => x !== 'expanded' && x !== 'collapsed'),
          p.op === 'expand' ? 'expanded' : 'collapsed',
        ];
        break;
      // Like a toolkit's grab focus: the node takes the focus from every other node of its window.
      case 'focus': this.focusOnly(node); break;
      case 'close': return this.close(p, node);
      default: throw new ComputerUseError('unsupported', `${p.op} is not supported by the fake driver`);
    }
    const said = this.onAct?.(p, node);
    return { method: 'pattern', detail: typeof said === 'string' ? said : `fake ${p.op}` };
  }

  /**
   * Closes the window whose root `node` is, as a window manager's close request does: the window goes, unless the
   * "app" answers the request with a window of its own (a test's onAct opens a "Save changes?" dialog) or ignores it.
   */
  private close(p: ActParams, node: RawNode): ActResult {
    const w = this.windows.find((x) => x.root.id === node.id);
    if (!w)
      throw new ComputerUseError('unsupported', "close takes a window's root node (its `actions` list close).", {
        op: 'close',
      });
    const count = this.windows.length;
    this.onAct?.(p, node);
    if (!this.ignoreClose && this.windows.length === count) this.windows.splice(this.windows.indexOf(w), 1);
    return { method: 'pattern', detail: 'fake close request' };
  }

  /** Moves the focused state of the node's window to `node`. */
  private focusOnly(node: RawNode): void {
    const clear = (n: RawNode): void => {
      n.states = n.states.filter((s) => s !== 'focused');
      for (const c of n.children ?? []) clear(c);
    };
    const w = this.windowOf(node.id);
    if (w) clear(w.root);
    node.states = [...node.states, 'focused'];
  }

  /** A connection for `new Device({connect: () => fake.connect()})`. */
  connect(): DriverConnection {
    const toDriver = new PassThrough();
    const toHost = new PassThrough();
    const server = new Peer(toDriver, toHost, this.handlers());
    const client = new Peer(toHost, toDriver, {}, { timeoutMs: 2000 });
    const close = (): void => { server.close('closed'); client.close('closed'); };
    return { peer: client, stderrTail: () => '', kill: close, end: async () => close() };
  }
}
