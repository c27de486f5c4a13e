/**
 * The Chromium DevTools channel (second rung): a Chromium or Electron app started with a remote
 * debugging port is read through `Accessibility.getFullAXTree` into the same RawNode tree the engine knows,
 * and acted on through the DOM. Pages are windows; node handles are `cdp:<targetId>:<backendDOMNodeId>`.
 * Like every driver it enumerates, reads, acts and reports events, and decides nothing.
 */
import { quoteText } from '../../engine/escape.js';
import { findInTree } from '../common/find.js';
import { checkExpect, elementGone, notAHandle } from '../common/expect.js';
import { elementWhat, waitActionable, type ActionabilityProbe } from '../common/actionable.js';
import { readFileSync, readlinkSync } from 'node:fs';
import { basename } from 'node:path';
import type { AppInfo, RawNode, WindowInfo } from '../../protocol/nodes.js';
import { walk } from '../../engine/node.js';
import { roleFromCdp } from './roles.js';
import { handshake } from '../../protocol/handshake.js';
import { ComputerUseError, isComputerUseError } from '../../protocol/errors.js';
import type { ActParams, ActResult, SettleResult } from '../../protocol/methods.js';
import { DEFAULT_QUIET_MS } from '../../protocol/methods.js';
import type { Handlers } from '../../protocol/peer.js';
import { axTreeToRaw, parseHandle, type AXNode } from './axtree.js';
import { CdpConnection, isCdpGone, type CdpEvent } from './connection.js';
import { chordEvents, type CdpPrimary } from './keys.js';
import { ACT_FUNCTION, ENABLED_FUNCTION, MUTATION_BINDING, NEXT_FRAME, OBSERVER_SOURCE } from './page-functions.js';

export const CDP_DRIVER_VERSION = '0.1.0';

/** Events that mean the page's content changed (settling counts them). */
const CHANGE_EVENTS = new Set([
  'DOM.documentUpdated', 'Accessibility.nodesUpdated', 'Accessibility.loadComplete', 'Page.frameNavigated',
  'Page.loadEventFired', 'Page.domContentEventFired', 'Page.javascriptDialogOpening',
]);

interface TargetInfo { targetId: string; type: string; title: string; url: string; attached?: boolean }
interface PageSession { sessionId: string; lastEvent: number; events: number }

function processStartTime(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  } catch { return undefined; }
}

export class CdpDriver {
  private readonly sessions = new Map<string, Promise<PageSession>>();
  private readonly bySessionId = new Map<string, PageSession>();
  private app: { name: string; pid: number; startToken?: string; executable?: string } = { name: 'chromium', pid: 0 };
  /** The key the wire's Primary modifier presses in this browser (keys.ts): Meta when it runs on macOS. */
  private primary: CdpPrimary = 'Control';

  private constructor(readonly cdp: CdpConnection, readonly endpoint: string) {
    cdp.on((e) => this.onEvent(e));
  }

  static async start(endpoint: string): Promise<CdpDriver> {
    const driver = new CdpDriver(await CdpConnection.connect(endpoint), endpoint);
    await driver.identify();
    return driver;
  }

  close(): void { this.cdp.close(); }

  /** Names the browser process: pid from SystemInfo, executable from /proc. */
  private async identify(): Promise<void> {
    const [version, procs] = await Promise.all([
      this.cdp
        .send<{ product: string; userAgent?: string }>('Browser.getVersion')
        .catch(() => ({ product: 'Chromium', userAgent: '' })),
      this.cdp
        .send<{ processInfo: { type: string; id: number }[] }>('SystemInfo.getProcessInfo')
        .catch(() => ({ processInfo: [] })),
    ]);
    const pid = procs.processInfo.find((p) => p.type === 'browser')?.id ?? 0;
    // The browser may run on another machine than the driver: its own user agent tells its platform.
    if (/\bMacintosh\b|\bMac OS X\b/.test(version.userAgent ?? '')) this.primary = 'Meta';
    let executable: string | undefined;
    try { if (pid) executable = readlinkSync(`/proc/${pid}/exe`); } catch { /* another machine or no access */ }
    this.app = { name: executable ? basename(executable) : version.product.split('/')[0]!.toLowerCase(), pid };
    if (executable) this.app.executable = executable;
    const st = pid ? processStartTime(pid) : undefined;
    if (st !== undefined) this.app.startToken = String(st);
  }

  private onEvent(e: CdpEvent): void {
    if (e.method === 'Target.detachedFromTarget') {
      const sid = e.params['sessionId'] as string | undefined;
      for (const [tid, p] of this.sessions)
        void p.then(
          (s) => {
            if (s.sessionId === sid) this.sessions.delete(tid);
          },
          () => undefined,
        );
      if (sid) this.bySessionId.delete(sid);
      return;
    }
    if (!e.sessionId) return;
    const s = this.bySessionId.get(e.sessionId);
    if (!s) return;
    if (
      CHANGE_EVENTS.has(e.method) ||
      (e.method === 'Runtime.bindingCalled' && e.params['name'] === MUTATION_BINDING)
    ) {
      s.events++;
      s.lastEvent = performance.now();
    }
  }

  /** The page targets (tabs, app windows), without DevTools' own pages. */
  private async pages(): Promise<TargetInfo[]> {
    const { targetInfos } = await this.cdp.send<{ targetInfos: TargetInfo[] }>('Target.getTargets');
    return targetInfos.filter((t) => (t.type === 'page' || t.type === 'app') && !t.url.startsWith('devtools://'));
  }

  /** A flat session on a page with the domains settling needs, attached once. */
  private session(targetId: string): Promise<PageSession> {
    let s = this.sessions.get(targetId);
    if (!s) {
      s = (async () => {
        const { sessionId } = await this.cdp
          .send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true })
          .catch((e: unknown) => {
            throw isCdpGone(e) ? new ComputerUseError('window_not_found', 'The page is closed.') : e;
          });
        const ps: PageSession = { sessionId, lastEvent: 0, events: 0 };
        this.bySessionId.set(sessionId, ps);
        const send = (m: string, p: Record<string, unknown> = {}) => this.cdp.send(m, p, sessionId);
        await Promise.all([
          send('Page.enable'), send('DOM.enable'), send('Accessibility.enable'), send('Runtime.enable'),
          send('Runtime.addBinding', { name: MUTATION_BINDING }),
          send('Page.addScriptToEvaluateOnNewDocument', { source: OBSERVER_SOURCE }),
        ]);
        await send('Runtime.evaluate', { expression: OBSERVER_SOURCE });
        return ps;
      })();
      this.sessions.set(targetId, s);
      s.catch(() => this.sessions.delete(targetId));
    }
    return s;
  }

  private targetOf(handle: string): string {
    const h = parseHandle(handle);
    if (!h) throw new ComputerUseError('window_not_found', `"${handle}" is not a DevTools page handle.`);
    return h.window.slice(4);
  }

  private async send<T = Record<string, unknown>>(
    targetId: string,
    method: string,
    params: Record<string, unknown> = {},
    timeoutMs?: number,
  ): Promise<T> {
    const s = await this.session(targetId);
    return this.cdp.send<T>(method, params, s.sessionId, timeoutMs);
  }

  private async windowOf(t: TargetInfo, focused: boolean): Promise<WindowInfo> {
    const w: WindowInfo = {
      id: `cdp:${t.targetId}`,
      title: t.title || t.url,
      app: this.app.name,
      pid: this.app.pid,
      role: 'window',
      focused,
    };
    if (this.app.startToken !== undefined) w.startToken = this.app.startToken;
    if (t.url) w.url = t.url;
    const b = await this.cdp
      .send<{ bounds: { left?: number; top?: number; width?: number; height?: number } }>(
        'Browser.getWindowForTarget',
        {
          targetId: t.targetId,
        },
      )
      .catch(() => null);
    if (b?.bounds.width) w.bounds = [b.bounds.left ?? 0, b.bounds.top ?? 0, b.bounds.width, b.bounds.height ?? 0];
    return w;
  }

  /** Windows = pages; the focused one is the first visible page. */
  async windows(): Promise<WindowInfo[]> {
    const pages = await this.pages();
    const visible = await Promise.all(
      pages.map((p) =>
        this.send<{ result: { value?: unknown } }>(
          p.targetId,
          'Runtime.evaluate',
          { expression: 'document.visibilityState', returnByValue: true },
          2000,
        ).then(
          (r) => r.result.value === 'visible',
          () => false,
        ),
      ),
    );
    const first = visible.indexOf(true);
    return Promise.all(pages.map((p, i) => this.windowOf(p, i === first)));
  }

  async windowInfo(handle: string): Promise<WindowInfo> {
    const targetId = this.targetOf(handle);
    const info = await this.cdp
      .send<{ targetInfo: TargetInfo }>('Target.getTargetInfo', { targetId })
      .catch((e: unknown) => {
        throw isCdpGone(e) ? new ComputerUseError('window_not_found', 'The page is closed.') : e;
      });
    const vis = await this.send<{ result: { value?: unknown } }>(
      targetId,
      'Runtime.evaluate',
      { expression: 'document.visibilityState', returnByValue: true },
      2000,
    ).catch(() => null);
    return this.windowOf(info.targetInfo, vis?.result.value === 'visible');
  }

  /** backendNodeIds of password inputs: their values are never read. */
  private async passwordInputs(targetId: string): Promise<Set<number>> {
    const { root } = await this.send<{ root: { nodeId: number } }>(targetId, 'DOM.getDocument', { depth: 0 });
    const { nodeIds } = await this.send<{ nodeIds: number[] }>(targetId, 'DOM.querySelectorAll', {
      nodeId: root.nodeId,
      selector: 'input[type=password i]',
    });
    const described = await Promise.all(
      nodeIds.map((nodeId) =>
        this.send<{ node: { backendNodeId: number } }>(targetId, 'DOM.describeNode', { nodeId }).catch(() => null),
      ),
    );
    return new Set(described.flatMap((d) => (d ? [d.node.backendNodeId] : [])));
  }

  /** Reads a page's tree. */
  async snapshot(
    handle: string,
    maxNodes = 5000,
  ): Promise<{ window: WindowInfo; root: RawNode; nodes: number; truncated: boolean }> {
    const targetId = this.targetOf(handle);
    const [window, ax, passwords] = await Promise.all([
      this.windowInfo(`cdp:${targetId}`),
      this.send<{ nodes: AXNode[] }>(targetId, 'Accessibility.getFullAXTree'),
      this.passwordInputs(targetId),
    ]);
    const read = axTreeToRaw(ax.nodes, { window: window.id, title: window.title, passwords, maxNodes });
    return { window, ...read };
  }

  handlers(): Handlers {
    const table: Handlers = {
      hello: () => ({
        ...handshake(table), platform: 'web', version: CDP_DRIVER_VERSION,
        capabilities: ['events', 'keys', 'background_input'],
        permissions: { devtools_endpoint: !this.cdp.isClosed }, channel: 'cdp',
        facts: { endpoint: this.endpoint, browser: this.app.name, browser_pid: String(this.app.pid) },
      }),
      'apps.list': async (p) => {
        const app: AppInfo = {
          name: this.app.name,
          pid: this.app.pid,
          id: `cdp-browser:${this.app.pid}`,
          windows: p.withWindows === false ? [] : await this.windows(),
        };
        if (this.app.executable) app.executable = this.app.executable;
        return { apps: [app] };
      },
      'windows.list': async (p) => {
        if (
          (p.pid !== undefined && p.pid !== this.app.pid) ||
          (p.app !== undefined && p.app.toLowerCase() !== this.app.name.toLowerCase())
        )
          return { windows: [] };
        return { windows: await this.windows() };
      },
      'window.activate': async (p) => {
        const targetId = this.targetOf(p.window);
        await this.cdp.send('Target.activateTarget', { targetId });
        await this.send(targetId, 'Page.bringToFront');
        return { ok: true };
      },
      'apps.launch': () => {
        throw new ComputerUseError(
          'unsupported',
          'The DevTools channel attaches to a running browser; start it with --remote-debugging-port and ' +
            'open pages there.',
        );
      },
      'tree.snapshot': async (p) => {
        const t0 = performance.now();
        const read = await this.snapshot(p.window, p.maxNodes ?? 5000);
        let root = read.root;
        if (p.scope) {
          let hit: RawNode | undefined;
          walk(read.root, (n) => {
            if (hit) return 'skip';
            if (n.id === p.scope) {
              hit = n;
              return 'skip';
            }
            return undefined;
          });
          if (!hit) throw new ComputerUseError('stale_ref', 'The element is gone; take a new snapshot.');
          root = hit;
        }
        return {
          window: read.window,
          root,
          stats: { nodes: read.nodes, ms: Math.round(performance.now() - t0), truncated: read.truncated },
        };
      },
      'tree.find': async (p) => {
        const read = await this.snapshot(p.window);
        return { matches: findInTree(read.root, p), scanned: read.nodes };
      },
      'node.act': (p) => this.act(p),
      'events.subscribe': () => ({ ok: true }),
      'ui.settle': (p, ctx?: { signal?: AbortSignal }) =>
        this.settle(p.quietMs ?? DEFAULT_QUIET_MS, p.timeoutMs, p.window, ctx?.signal),
      'input.keys': async (p, ctx?: { signal?: AbortSignal }) => {
        if ((p.chords === undefined) === (p.text === undefined))
          throw new ComputerUseError('invalid_params', 'input.keys takes exactly one of chords or text.');
        const targetId = p.window
          ? this.targetOf(p.window)
          : (await this.windows()).find((w) => w.focused)?.id.slice(4);
        if (!targetId) throw new ComputerUseError('window_not_found', 'No page to send keys to.');
        if (p.text !== undefined) {
          await this.send(targetId, 'Input.insertText', { text: p.text });
          return { method: 'message', focusedFirst: false, sent: [...p.text].length };
        }
        // Every chord is checked before the first is sent.
        const chords = (p.chords ?? []).map((c) => chordEvents(c, this.primary));
        let sent = 0;
        for (const events of chords) {
          if (ctx?.signal?.aborted) break;
          for (const ev of events) await this.send(targetId, 'Input.dispatchKeyEvent', ev);
          sent++;
        }
        return { method: 'message', focusedFirst: false, sent };
      },
      shutdown: () => { setTimeout(() => process.exit(0), 10); return { ok: true }; },
    };
    return table;
  }

  /** Settled when no DOM/AX event came for `quietMs` and the page produced a frame since. */
  async settle(quietMs: number, timeoutMs: number, window?: string, signal?: AbortSignal): Promise<SettleResult> {
    const start = performance.now();
    const targets = window ? [this.targetOf(window)] : (await this.pages()).map((p) => p.targetId);
    const sessions = await Promise.all(targets.map((t) => this.session(t).catch(() => null)));
    const live = sessions.filter((s): s is PageSession => s !== null);
    const count0 = live.reduce((n, s) => n + s.events, 0);
    for (;;) {
      // A frame round trip: the page ran what it had queued, and events it emitted before have arrived.
      await Promise.all(
        live.map((s) =>
          this.cdp
            .send('Runtime.evaluate', { expression: NEXT_FRAME, awaitPromise: true }, s.sessionId, 1000)
            .catch(() => null),
        ),
      );
      const now = performance.now();
      const last = Math.max(start, ...live.map((s) => s.lastEvent));
      const events = live.reduce((n, s) => n + s.events, 0) - count0;
      if (now - last >= quietMs) return { settled: true, events, ms: Math.round(now - start) };
      if (now - start >= timeoutMs) return { settled: false, events, ms: Math.round(now - start) };
      // A cancelled settle ends at once (doctor --conformance, wire.cancel): the caller no longer waits for it.
      await abortableDelay(Math.min(quietMs, Math.max(5, quietMs - (now - last))), signal);
    }
  }

  /**
   * Actionability `enabled` (protocol ActParams.actionable, drivers/common/actionable.ts): re-checks the element
   * every 50 ms (a page sends no state events) until it takes input or the wait is over. Returns the ms waited.
   */
  private async waitEnabled(targetId: string, objectId: string, p: ActParams, what: string): Promise<number> {
    const wait = p.actionable;
    if (!wait?.checks.some((c) => c === 'enabled' || c === 'editable')) return 0;
    const probe: ActionabilityProbe<boolean> = {
      read: async () => (await this.send<{ result: { value?: unknown } }>(targetId, 'Runtime.callFunctionOn',
        { objectId, functionDeclaration: ENABLED_FUNCTION, returnByValue: true })).result.value !== false,
      // The page is asked only whether the element is disabled (ENABLED_FUNCTION), for `enabled` and `editable` alike.
      unmet: (enabled) => (enabled ? undefined : { check: 'enabled', why: 'it is disabled' }),
      facts: (enabled) => ({ what, states: enabled ? [] : ['disabled'] }),
      next: (ms) => new Promise((r) => setTimeout(r, Math.min(50, ms))),
    };
    return (await waitActionable(await probe.read(false), wait.checks, wait.timeoutMs, probe)).waitedMs;
  }

  /** One element operation through the DOM. */
  async act(p: ActParams): Promise<ActResult> {
    // A page is not a window of its own here: the browser's window and its tabs belong to the desktop.
    if (p.op === 'close') {
      throw new ComputerUseError(
        'unsupported',
        "The DevTools channel reads pages, not the browser's windows: nothing was sent. " +
          "Close the tab with the browser's keys (ctrl+w), or close the browser's window through the desktop driver.",
        { op: 'close' },
      );
    }
    const h = parseHandle(p.id);
    if (!h) throw notAHandle();
    if (h.backendNodeId === undefined)
      throw new ComputerUseError(
        'unsupported',
        'This element has no DOM node (it is the page itself or browser-generated); act on its parent or child.',
      );
    const targetId = h.window.slice(4);
    const backendNodeId = h.backendNodeId;
    const gone = (e: unknown): never => {
      if (isCdpGone(e)) throw elementGone();
      throw e;
    };
    // Identity check: the node's AX role and name must still be what the ref was given for.
    const partial = await this.send<{ nodes: AXNode[] }>(targetId, 'Accessibility.getPartialAXTree', {
      backendNodeId,
      fetchRelatives: false,
    }).catch(gone);
    const ax = partial.nodes.find((n) => n.backendDOMNodeId === backendNodeId) ?? partial.nodes[0];
    // An ignored node has no role to compare; the page's root document is the `window` node of a snapshot.
    if (ax)
      checkExpect(p.expect, {
        role: ax.ignored || p.expect?.role === 'window' ? undefined : roleFromCdp(String(ax.role?.value ?? '')),
        name: String(ax.name?.value ?? ''),
      });
    const { object } = await this.send<{ object: { objectId?: string } }>(targetId, 'DOM.resolveNode', {
      backendNodeId,
    }).catch(gone);
    if (!object.objectId) throw elementGone();
    const waitedMs = await this.waitEnabled(
      targetId,
      object.objectId,
      p,
      elementWhat(
        ax ? roleFromCdp(String(ax.role?.value ?? '')) : 'element',
        ax ? String(ax.name?.value ?? '') : undefined,
      ),
    );
    const call = async (
      op: string,
      value?: string,
    ): Promise<{ detail?: string; error?: string; code?: string; focused?: boolean }> => {
      const r = await this.send<{
        result: { value?: unknown };
        exceptionDetails?: { text: string; exception?: { description?: string } };
      }>(targetId, 'Runtime.callFunctionOn', {
        objectId: object.objectId,
        functionDeclaration: ACT_FUNCTION,
        arguments: [{ value: op }, { value: value ?? null }],
        returnByValue: true,
        awaitPromise: true,
        userGesture: true,
      }).catch(gone);
      if (r.exceptionDetails) {
        // The page wrote this text (and chose its lines): quoted as data, cut (engine/escape.ts).
        const thrown = String(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text);
        throw new ComputerUseError(
          'action_failed',
          `The page threw: ${quoteText(thrown.length > 300 ? `${thrown.slice(0, 299)}…` : thrown)}`,
        );
      }
      return (r.result.value ?? {}) as { detail?: string; error?: string; code?: string };
    };
    const check = (r: { detail?: string; error?: string; code?: string }): string => {
      if (r.error) {
        const code =
          r.code && ['unsupported', 'invalid_params', 'action_failed', 'stale_ref'].includes(r.code)
            ? (r.code as 'unsupported')
            : 'action_failed';
        throw new ComputerUseError(code, r.error);
      }
      return r.detail ?? p.op;
    };
    try {
      if (p.op === 'type') {
        const r = await call('prepare_type');
        check(r);
        if (!r.focused)
          throw new ComputerUseError('action_failed', 'The element did not take the focus; nothing was typed.');
        await this.send(targetId, 'Input.insertText', { text: p.value ?? '' });
        return { method: 'pattern', detail: 'focus + Input.insertText', waitedMs };
      }
      if (p.op === 'drag_to')
        throw new ComputerUseError('unsupported', 'drag_to is not supported through the DevTools channel.');
      return { method: 'pattern', detail: check(await call(p.op, p.value)), waitedMs };
    } catch (e) {
      if (isComputerUseError(e)) throw e;
      throw new ComputerUseError('action_failed', (e as Error).message);
    }
  }
}

/** Waits `ms`, or less when `signal` aborts (then rejects with its reason). */
function abortableDelay(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted)
    return Promise.reject(
      signal.reason instanceof Error
        ? signal.reason
        : new ComputerUseError('timeout', 'The caller cancelled the request.'),
    );
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(
        signal!.reason instanceof Error
          ? signal!.reason
          : new ComputerUseError('timeout', 'The caller cancelled the request.'),
      );
    };
    const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
