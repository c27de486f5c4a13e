/**
 * The Android driver over adb (nothing installed on the phone): observe by `uiautomator dump`, act by `input`
 * and the ADB Keyboard IME, settle by polling the dump's signature. The phone shows one app at a time, so the
 * driver's "window" is the foreground activity; every act first re-reads the screen and refuses when another app
 * came to the front (`window_changed`) or the node at the handle is not the one the ref was issued for
 * (`stale_ref`). It makes no policy decision: the host's policy, audit and receipts wrap every act.
 */
import type { AppInfo, RawNode, WindowInfo } from '../../engine/node.js';
import { ComputerUseError } from '../../protocol/errors.js';
import { checkExpect, notAHandle } from '../common/expect.js';
import { elementWhat, waitActionable, type ActionabilityProbe } from '../common/actionable.js';
import type { UiNode } from './uixml.js';
import type { ActionabilityCheck, ActParams, ActResult } from '../../protocol/methods.js';
import type { CaptureResult } from '../../protocol/methods.js';
import type { IdentifyResult } from '../../protocol/identity.js';
import { AdbClient, chooseDevice } from './adb/client.js';
import { screenImage } from './capture.js';
import { isAdbError } from './adb/errors.js';
import { shellCommand } from './adb/quote.js';
import { dumpUi, isLocked, parseForeground, readFacts, type DeviceFacts, type Foreground } from './device.js';
import { parseProcessFacts, parsePackageUids, parseRecentPackages } from './processes.js';
import {
  ADB_KEYBOARD_IME,
  ANDROID_KEYCODES,
  SYSTEM_ACTIONS,
  centerOf,
  imeTextArgv,
  inputTextArgvs,
  keycombinationArgv,
  keyeventArgv,
  longPressArgv,
  swipeArgv,
  tapArgv,
  typableByInput,
} from './input.js';
import { parseHandle, resolveHandle } from './nodes.js';
import {
  WINDOW_OPS,
  rotatedSize,
  screenOf,
  screenTree,
  tappableArea,
  visiblePart,
  windowIdOf,
  type Screen,
} from './screen.js';

/** The node with handle `id` in a tree (a copy, so the caller may trim it). */
function findById(n: RawNode, id: string): RawNode | undefined {
  if (n.id === id) return { ...n };
  for (const c of n.children ?? []) { const hit = findById(c, id); if (hit) return hit; }
  return undefined;
}

/**
 * What was sent, for the receipt: the kind of input and where, never the typed text (it may be a password, and
 * the model already knows what it asked for).
 */
export function describeInput(sent: readonly string[][]): string {
  const words = sent.map((a) => {
    if (a[0] === 'input' && a[1] === 'tap') return `tap ${a[2]},${a[3]}`;
    if (a[0] === 'input' && a[1] === 'swipe')
      return a[2] === a[4] && a[3] === a[5] ? `long press ${a[2]},${a[3]}` : `swipe ${a[2]},${a[3]} → ${a[4]},${a[5]}`;
    if (a[0] === 'input' && a[1] === 'text') return `input text (${a[2]?.length ?? 0} chars)`;
    if (a[0] === 'am' && a[3] === 'ADB_INPUT_B64') return 'ADB Keyboard text';
    if (a[0] === 'input' && (a[1] === 'keyevent' || a[1] === 'keycombination'))
      return `${a[1]} ${a.length > 4 ? `${a[2]} ×${a.length - 2}` : a.slice(2).join(' ')}`;
    return a[0] ?? '';
  });
  return words.join('; ').slice(0, 300);
}

/** Options of the driver. */
export interface AndroidDriverOptions {
  client?: AdbClient;
  /** The device's serial; default: the only one attached. */
  serial?: string;
  /** Settle polling: interval and the quiet dumps needed. */
  pollMs?: number;
}

/** One key chord in the protocol's key grammar (W3C key names). */
export interface AndroidChord { mods: string[]; key: string }

/** The phone's system actions: the window node's ops. */
export type SystemAction = (typeof WINDOW_OPS)[number];

/** An element as a tap needs it: the view, its protocol node, and the part of it a tap can reach (none: hidden). */
interface Tappable { node: UiNode; before: RawNode; visible: [number, number, number, number] | undefined }

const isWindowOp = (op: string): op is SystemAction => (WINDOW_OPS as readonly string[]).includes(op);

/** Apps listed beyond the one in front (the recent-tasks list can be long; each costs a round trip). */
const MAX_LISTED_APPS = 16;

export class AndroidDriver {
  readonly client: AdbClient;
  serial = '';
  facts: DeviceFacts | undefined;
  private last: Screen | undefined;
  private dumping: Promise<void> = Promise.resolve();
  private readonly pollMs: number;

  constructor(private readonly options: AndroidDriverOptions = {}) {
    this.client = options.client ?? new AdbClient();
    this.pollMs = options.pollMs ?? 200;
  }

  /** Picks the device and reads its facts; a device that is not ready says why (unauthorized, offline). */
  async connect(): Promise<DeviceFacts> {
    const device = chooseDevice(await this.client.devices(), this.options.serial);
    this.serial = device.serial;
    this.facts = await readFacts(this.client, this.serial);
    return this.facts;
  }

  /** The rotation of the last dump (0–3, quarter turns): a landscape dump's bounds lie on the swapped screen. */
  private rotation(): number { return this.last?.dump.rotation ?? 0; }

  /** The screen size the dump's bounds are laid out on. */
  private size(): { width: number; height: number } {
    return rotatedSize(this.facts?.screen ?? { width: 0, height: 0 }, this.rotation());
  }

  /** Runs one argv on the phone; a non-zero exit is an error with the device's words. */
  async run(argv: readonly string[], timeoutMs?: number): Promise<string> {
    const r = await this.client.shell(this.serial, shellCommand(argv), timeoutMs);
    if (r.exitCode !== undefined && r.exitCode !== 0) {
      throw new ComputerUseError(
        'action_failed',
        `${argv[0]} ${argv[1] ?? ''} failed on the device (exit ${r.exitCode}): ` +
          `${r.stderr.toString('utf8').trim().slice(0, 300)}`,
      );
    }
    return r.stdout.toString('utf8');
  }

  /** The foreground app, read now. */
  async foreground(): Promise<Foreground | undefined> {
    return parseForeground(await this.run(['dumpsys', 'window']));
  }

  /** Reads the screen now (one dump and the foreground in two round trips). A locked phone is `screen_locked`. */
  async screen(): Promise<Screen> {
    const window = await this.run(['dumpsys', 'window']);
    if (isLocked(window)) {
      throw new ComputerUseError('screen_locked', 'the phone is locked: unlock it, then try again (nothing was sent)');
    }
    // One uiautomator at a time: a second dump started while one runs fails on the phone (the service is taken).
    const turn = this.dumping.then(() => dumpUi(this.client, this.serial));
    this.dumping = turn.then(() => undefined, () => undefined);
    const dump = await turn;
    this.last = screenOf(dump.xml, parseForeground(window), dump.ms);
    return this.last;
  }

  /**
   * The phone's apps: the one in front with its window (the only screen a phone shows), then the other apps of
   * the recent-tasks list that have a process, without windows (launch one to bring it to the front).
   */
  async apps(): Promise<AppInfo[]> {
    const fg = parseForeground(await this.run(['dumpsys', 'window']));
    const out: AppInfo[] = [];
    if (fg) {
      const pid = await this.pidOf(fg.packageName);
      out.push({
        name: fg.packageName,
        pid,
        id: `app:${fg.packageName}`,
        executable: fg.packageName,
        windows: [this.windowInfo(fg, pid)],
      });
    }
    let recents: string[] = [];
    try {
      recents = parseRecentPackages(await this.run(['dumpsys', 'activity', 'recents']));
    } catch {
      /* an old image without it: the front app only */
    }
    for (const pkg of recents) {
      if (pkg === fg?.packageName || out.length >= MAX_LISTED_APPS) continue;
      const pid = await this.pidOf(pkg);
      if (pid > 0) out.push({ name: pkg, pid, id: `app:${pkg}`, executable: pkg, windows: [] });
    }
    return out;
  }

  /**
   * What the phone proves about a process: its start time and uid from /proc, its process name, and the package
   * whose uid it runs under (an app runs as its package's own uid, assigned at install; the process name alone is
   * the app's to choose). appId is the package only when both agree.
   */
  async identify(pid: number): Promise<IdentifyResult> {
    const MARK = '__cu_proc__';
    if (!Number.isSafeInteger(pid) || pid <= 0) return { pid, gone: true };
    const read = ['stat', 'status', 'cmdline']
      .map((f) => shellCommand(['cat', `/proc/${pid}/${f}`]))
      .join(`; echo ${MARK}; `);
    const out = (await this.client.shell(this.serial, read)).stdout.toString('utf8').split(`${MARK}\n`);
    const proc = parseProcessFacts(pid, out[0] ?? '', out[1] ?? '', out[2] ?? '');
    if (!proc) return { pid, gone: true };
    const result: IdentifyResult = { pid, startToken: proc.startTicks, user: String(proc.uid) };
    if (proc.packageName) {
      const uids = parsePackageUids(await this.run(['pm', 'list', 'packages', '-U', proc.packageName]));
      if (uids.get(proc.packageName) === proc.uid)
        Object.assign(result, { appId: proc.packageName, executable: proc.packageName, argv: [proc.processName] });
    }
    return result;
  }

  /** The screen as a PNG while `windowId` is in front (checked before and after the capture). */
  async capture(windowId: string, maxEdge: number): Promise<Omit<CaptureResult, 'ms'>> {
    const inFront = async (when: string): Promise<void> => {
      const fg = await this.foreground();
      const front = fg ? windowIdOf(fg) : 'nothing';
      if (front !== windowId)
        throw new ComputerUseError(
          'window_changed',
          `another screen is in front ${when} (${front}); list the apps again. Nothing was captured.`,
        );
    };
    await inFront('now');
    const png = await this.client.exec(this.serial, shellCommand(['screencap', '-p']), 20_000);
    await inFront('after the capture');
    return screenImage(png, this.facts?.density ?? 160, maxEdge);
  }

  private windowInfo(fg: Foreground, pid: number): WindowInfo {
    const [w, h] = [this.size().width, this.size().height];
    return {
      id: windowIdOf(fg),
      title: fg.activity.slice(fg.activity.lastIndexOf('.') + 1),
      app: fg.packageName,
      pid,
      executable: fg.packageName,
      role: 'window',
      focused: true,
      bounds: [0, 0, w, h],
    };
  }

  /** The pid of a package's main process (0 when it has none). */
  async pidOf(packageName: string): Promise<number> {
    const r = await this.client.shell(this.serial, shellCommand(['pidof', packageName]));
    return Number(r.stdout.toString('utf8').trim().split(/\s+/)[0]) || 0;
  }

  /**
   * The tree of the window, or of the element `scope` names in it; another app in front is `window_not_found` (the
   * window is gone from the screen), a scope no element on the screen has is `stale_ref` (never the whole screen).
   */
  async snapshot(
    windowId: string,
    scope?: string,
  ): Promise<{ window: WindowInfo; root: RawNode; nodes: number; ms: number }> {
    const screen = await this.screen();
    const fg = screen.foreground;
    if (!fg || windowIdOf(fg) !== windowId) {
      throw new ComputerUseError(
        'window_not_found',
        `that screen is no longer in front (${fg ? windowIdOf(fg) : 'nothing'} is): list the apps again`,
      );
    }
    const window = this.windowInfo(fg, await this.pidOf(fg.packageName));
    const whole = screenTree(screen, windowId, window.title, this.size());
    const root = scope === undefined ? whole : findById(whole, scope);
    if (!root)
      throw new ComputerUseError(
        'stale_ref',
        'that element is no longer on the screen; take a new snapshot of the window.',
      );
    let nodes = 0;
    const count = (n: RawNode): void => { nodes++; for (const c of n.children ?? []) count(c); };
    count(root);
    return { window, root, nodes, ms: screen.ms };
  }

  /** Carries out one act on the node at `p.id`, re-read now. */
  async act(p: ActParams): Promise<ActResult> {
    if (isWindowOp(p.op)) return this.windowAct(p.id, p.op);
    // A phone's screen has no close button: Back is navigation (it may stay in the app), so it is not passed off as
    // one.
    if (p.op === 'close') {
      throw new ComputerUseError(
        'unsupported',
        "An Android screen has no close button; nothing was sent. On the window's " +
          'first ref, back leaves the screen (the app may stay open) and home leaves the app.',
        { op: 'close' },
      );
    }
    const handle = parseHandle(p.id);
    if (!handle) throw notAHandle();
    const verify = (t: Tappable): void => checkExpect(p.expect, t.before);
    const first = await this.tappable(p.id, handle.window);
    verify(first);
    // A tap needs an element that takes it where it shows: enabled and on the visible screen, waited for when asked.
    const checks = [...new Set<ActionabilityCheck>([...(p.actionable?.checks ?? []), 'enabled', 'visible'])];
    const probe: ActionabilityProbe<Tappable> = {
      read: () => this.tappable(p.id, handle.window),
      unmet: (t) =>
        !t.node.enabled
          ? { check: 'enabled', why: 'it is disabled' }
          : !t.visible
            ? { check: 'visible', why: 'it is off screen or under a system bar' }
            : undefined,
      facts: (t) => ({
        what: elementWhat(t.before.role, t.before.name),
        states: t.before.states,
        bounds: t.before.bounds,
      }),
      next: (ms) => new Promise((r) => setTimeout(r, Math.min(this.pollMs, ms))),
    };
    const {
      node,
      before,
      visible: shown,
    } = (await waitActionable(first, checks, p.actionable?.timeoutMs ?? 0, probe, { verify })).info;
    // The wait passed `visible`, so the element has a part a tap reaches.
    const visible = shown!;
    const at = centerOf(visible);
    const sent: string[][] = [];
    const send = async (argv: string[]): Promise<void> => { sent.push(argv); await this.run(argv); };
    switch (p.op) {
      case 'click': case 'toggle': case 'focus': await send(tapArgv(at)); break;
      case 'double_click': await send(tapArgv(at)); await send(tapArgv(at)); break;
      case 'right_click': await send(longPressArgv(at)); break;
      case 'scroll': {
        const [x, y, w, h] = visible;
        const dir = p.value ?? 'down';
        const from = { x: x + Math.round(w / 2), y: y + Math.round(h * (dir === 'up' ? 0.25 : 0.75)) };
        const to = { x: from.x, y: y + Math.round(h * (dir === 'up' ? 0.75 : 0.25)) };
        if (dir === 'left' || dir === 'right') {
          from.y = to.y = y + Math.round(h / 2);
          from.x = x + Math.round(w * (dir === 'left' ? 0.25 : 0.75));
          to.x = x + Math.round(w * (dir === 'left' ? 0.75 : 0.25));
        }
        await send(swipeArgv(from, to));
        break;
      }
      case 'set_value': case 'type': case 'clear': {
        const text = p.op === 'clear' ? '' : p.value ?? '';
        const argvs = await this.textArgvs(text); // refused before anything is sent when the text cannot be typed
        if (!node.focused) await send(tapArgv(at));
        if (p.op !== 'type') await this.clearField(node.text.length, send);
        for (const argv of argvs) await send(argv);
        break;
      }
      default: throw new ComputerUseError('unsupported', `${p.op} is not supported on Android elements yet`);
    }
    return { method: 'synthetic', detail: describeInput(sent), before };
  }

  /** The element at a handle as the screen shows it now, with the part of it a tap can reach. */
  private async tappable(id: string, window: string): Promise<Tappable> {
    const screen = await this.screen();
    const front = screen.foreground ? windowIdOf(screen.foreground) : 'nothing';
    if (front !== window)
      throw new ComputerUseError(
        'window_changed',
        `another screen came to the front (${front}); nothing was sent. Observe again.`,
      );
    const node = resolveHandle(screen.dump.roots, id);
    if (!node)
      throw new ComputerUseError(
        'stale_ref',
        'the element is no longer on the screen where it was; nothing was sent. Observe again.',
      );
    const before = findById(screenTree(screen, window, '', this.size()), id);
    if (!before)
      throw new ComputerUseError(
        'stale_ref',
        'the element is no longer on the screen where it was; nothing was sent. Observe again.',
      );
    delete before.children;
    return {
      node,
      before,
      visible: visiblePart(node, tappableArea(this.size(), this.facts?.density ?? 160, this.rotation())),
    };
  }

  /**
   * A system action on the window node (its id is the window's): only while that screen is still in front
   * (else window_changed, nothing sent); the receipt's `before` is the window node.
   */
  private async windowAct(id: string, op: SystemAction): Promise<ActResult> {
    const fg = await this.foreground();
    const front = fg ? windowIdOf(fg) : 'nothing';
    if (front !== id) {
      if (parseHandle(id))
        throw new ComputerUseError(
          'unsupported',
          `${op} acts on the window (the snapshot's root), not on an element; nothing was sent`,
        );
      throw new ComputerUseError(
        'window_changed',
        `another screen came to the front (${front}); nothing was sent. Observe again.`,
      );
    }
    const argv = [...SYSTEM_ACTIONS[op]];
    await this.run(argv);
    const before: RawNode = {
      id,
      role: 'window',
      name: fg!.activity.slice(fg!.activity.lastIndexOf('.') + 1),
      states: [],
      actions: [...WINDOW_OPS],
    };
    return { method: 'synthetic', detail: `${op} (${argv.slice(argv[0] === 'input' ? 2 : 0).join(' ')})`, before };
  }

  /** The commands that type `text`, or input_unavailable (nothing sent) when it needs an IME that is not selected. */
  async textArgvs(text: string): Promise<string[][]> {
    if (typableByInput(text)) return inputTextArgvs(text);
    const ime = (await this.run(['settings', 'get', 'secure', 'default_input_method'])).trim();
    if (ime !== ADB_KEYBOARD_IME) {
      throw new ComputerUseError(
        'input_unavailable',
        `typing text beyond ASCII (Chinese, emoji, accents) on Android needs the ADB Keyboard IME (` +
          `${ADB_KEYBOARD_IME}) installed and selected; the current input method is ${ime || 'unknown'}. ` +
          `Install ADBKeyboard.apk, then: adb shell ime enable ${ADB_KEYBOARD_IME} && adb shell ime set ` +
          `${ADB_KEYBOARD_IME}. Nothing was sent.`,
      );
    }
    return [imeTextArgv(text)];
  }

  /** Empties the focused field: to its end, then one delete per character (select-all is not on every keyboard). */
  private async clearField(length: number, send: (argv: string[]) => Promise<void>): Promise<void> {
    if (length === 0) return;
    await send(keyeventArgv(['KEYCODE_MOVE_END']));
    for (let left = length; left > 0; left -= 50)
      await send(keyeventArgv(Array(Math.min(50, left)).fill('KEYCODE_DEL')));
  }

  /** Presses chords (W3C key names); an unknown name is refused before anything is sent. */
  async keys(chords: readonly AndroidChord[]): Promise<number> {
    const argvs = chords.map((c) => {
      const codes = [...c.mods, c.key].map((k) => {
        const code = ANDROID_KEYCODES[k];
        if (!code)
          throw new ComputerUseError('unsupported', `the key "${k}" has no Android key code; nothing was sent`);
        return code;
      });
      return codes.length === 1 ? keyeventArgv(codes) : keycombinationArgv(codes);
    });
    for (const argv of argvs) await this.run(argv);
    return argvs.length;
  }

  /**
   * Waits until two dumps in a row are the same (the screen stopped changing) or `timeoutMs` passed. Android
   * has no events over adb, so this is the honest settle: it reports how long it polled and whether it settled.
   */
  async settle(timeoutMs: number): Promise<{ settled: boolean; events: number; ms: number }> {
    const started = Date.now();
    let previous = this.last?.signature;
    let changes = 0;
    while (Date.now() - started < timeoutMs) {
      let screen: Screen;
      try { screen = await this.screen(); } catch (e) { if (isAdbError(e)) throw e; break; }
      if (screen.signature === previous) return { settled: true, events: changes, ms: Date.now() - started };
      if (previous !== undefined) changes++;
      previous = screen.signature;
      await new Promise((r) => setTimeout(r, this.pollMs));
    }
    return { settled: false, events: changes, ms: Date.now() - started };
  }
}
