/**
 * Synthetic input on X11, aimed and proven. Keys go to a window only after the driver has
 * proven that the focused top-level window belongs to the target's process (pid and start time); pointer
 * input only after it has proven that the window on top at each point does. Otherwise nothing is sent.
 * Events are XTest requests the driver sends itself: no text ever reaches a command line.
 * On Wayland there is no X11 input and no proof of the receiving window: every call fails with input_blocked
 * and the reason from `probeWaylandInput` (which also says whether the RemoteDesktop portal or libei is there
 * and why neither is used), while element actions keep working. uinput is never used.
 */
import type { WindowInfo } from '../../../protocol/nodes.js';
import { ComputerUseError } from '../../../protocol/errors.js';
import type { Chord } from '../../../protocol/keys.js';
import type { PointerParams, Rect } from '../../../protocol/methods.js';
import { startTokenOf } from '../apps/identity.js';
import { clipboardOwner, type ClipboardOwner } from '../x11/clipboard.js';
import { x11 } from '../x11/connection.js';
import { matchWindow, type XWindowFacts } from '../x11/match.js';
import { XWindows } from '../x11/windows.js';
import { XTest, type KeyInput } from '../x11/xtest.js';
import { keyboardGrabbed } from '../x11/grab.js';
import { readFileSync } from 'node:fs';
import { probeWaylandInput, WAYLAND_NO_PROOF, type WaylandInput } from './portal.js';
import { charKeysym, keysymOf, xModifiers } from './keysyms.js';

/** The process input must reach: a window's pid and, when known, its start time (against pid reuse). */
export interface Expect { pid: number; startToken?: string }

/** The window input is aimed at, as the AT-SPI side reports it. */
export type InputWindow = Pick<WindowInfo, 'pid' | 'title' | 'bounds' | 'focused'> & { startToken?: string };

const WHEEL: Record<NonNullable<PointerParams['direction']>, number> = { up: 4, down: 5, left: 6, right: 7 };

/** Turns wire chords into key strokes (keysyms.ts); a key with no keysym is invalid_params before anything is sent. */
export function chordStrokes(chords: readonly Chord[]): KeyInput[] {
  return chords.map((c) => {
    const keysym = keysymOf(c.key);
    // The name is a key name, never typed text; still only a bounded piece of it is shown.
    if (keysym === undefined)
      throw new ComputerUseError(
        'invalid_params',
        `Unknown key ${JSON.stringify(String(c.key).slice(0, 32))}: not a wire key name (no keysym). Nothing ` +
          `was sent.`,
      );
    return { keysym, mods: xModifiers(c.mods) };
  });
}

/** Turns text into key strokes, one per character (newline → Return, tab → Tab). */
export function textStrokes(text: string): KeyInput[] {
  return [...text].map((ch) => {
    if (ch === '\n' || ch === '\r') return { keysym: keysymOf('Enter')!, mods: [] };
    if (ch === '\t') return { keysym: keysymOf('Tab')!, mods: [] };
    const cp = ch.codePointAt(0) ?? 0;
    if (cp < 0x20 || cp === 0x7f)
      throw new ComputerUseError(
        'invalid_params',
        'The text holds a control character that no key types; nothing was sent.',
      );
    const keysym = charKeysym(ch);
    if (keysym === undefined)
      throw new ComputerUseError('invalid_params', 'The text holds a character that no key types; nothing was sent.');
    return { keysym, mods: [] };
  });
}

/** True when `pid` is the expected process: the same pid and, when known, the same start token (not a reused pid). */
export function ownedBy(pid: number | undefined, expect: Expect): boolean {
  if (pid === undefined || pid !== expect.pid) return false;
  return expect.startToken === undefined || startTokenOf(pid) === expect.startToken;
}

/** A window the toolkits call active (AT-SPI), named when another app holds the keyboard. */
export type ActiveWindow = Pick<WindowInfo, 'app' | 'pid' | 'title'> & { className?: string };

/** X11 input for the Linux driver. */
export class LinuxInput {
  private xtest: Promise<XTest> | undefined;
  private waylandInput: Promise<WaylandInput> | undefined;
  /** The windows the toolkits call active, asked only while the keyboard is grabbed; the driver sets it. */
  activeWindows: (() => Promise<ActiveWindow[]>) | undefined;

  constructor(
    readonly available: boolean,
    readonly reason: string | undefined,
    private readonly wayland: boolean,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** The input of this environment: unavailable (with the reason) on Wayland or without DISPLAY. */
  static create(env: NodeJS.ProcessEnv = process.env): LinuxInput {
    const wayland = env['XDG_SESSION_TYPE'] === 'wayland' || (!!env['WAYLAND_DISPLAY'] && !env['DISPLAY']);
    const reason = wayland
      ? `${WAYLAND_NO_PROOF} Nothing was sent. Use element actions instead (click, set_value, type, toggle, ` +
        `select, scroll).`
      : !env['DISPLAY']
        ? 'No X display (DISPLAY is unset).'
        : undefined;
    return new LinuxInput(!reason, reason, wayland, env);
  }

  /** On Wayland, which input path exists (RemoteDesktop portal, libei), asked once; undefined elsewhere. */
  waylandProbe(): Promise<WaylandInput> | undefined {
    if (!this.wayland) return undefined;
    this.waylandInput ??= probeWaylandInput(this.env);
    return this.waylandInput;
  }

  /** The error keys and pointer fail with here: on Wayland with the probe's code and reason. */
  async unavailableError(what: string): Promise<ComputerUseError> {
    const w = await this.waylandProbe()?.catch(() => undefined);
    if (w) return new ComputerUseError(w.code, w.reason);
    return new ComputerUseError(this.wayland ? 'input_blocked' : 'input_unavailable', this.reason ?? what);
  }

  /** Fails with input_blocked / input_unavailable when there is no synthetic input here. */
  private check(): void {
    if (!this.available)
      throw new ComputerUseError(
        this.wayland ? 'input_blocked' : 'input_unavailable',
        this.reason ?? 'No synthetic input.',
      );
  }

  private async parts(): Promise<{ test: XTest; windows: XWindows }> {
    this.check();
    const x = await x11(this.env);
    let test = await this.xtest?.catch(() => undefined);
    if (!test || test.x !== x) {
      // First use, or the connection was reopened: XTEST is looked up again on the new one.
      this.xtest = XTest.create(x);
      test = await this.xtest.catch((e: unknown) => {
        this.xtest = undefined;
        throw e instanceof ComputerUseError ? new ComputerUseError('input_unavailable', e.message) : e;
      });
    }
    return { test, windows: new XWindows(test.x) };
  }

  /** Whether the X server offers XTEST (undefined when there is no X connection). */
  async xtestPresent(): Promise<boolean | undefined> {
    if (!this.available) return undefined;
    try {
      await this.parts();
      return true;
    } catch (e) {
      return e instanceof ComputerUseError && e.code === 'input_unavailable' && /XTEST|xtest/.test(e.message)
        ? false
        : undefined;
    }
  }

  /** The X client window of an AT-SPI window (same process; bounds, then title), or undefined. */
  async xWindowOf(w: Pick<WindowInfo, 'pid' | 'title' | 'bounds'>): Promise<XWindowFacts | undefined> {
    if (!this.available) return undefined;
    const { windows } = await this.parts();
    return matchWindow(
      { pid: w.pid, title: w.title, ...(w.bounds ? { bounds: w.bounds } : {}) },
      await windows.clients(),
    );
  }

  /** The X window reader on the driver's connection, or undefined without a usable X display. */
  async x11Windows(): Promise<XWindows | undefined> {
    if (!this.available) return undefined;
    try { return (await this.parts()).windows; } catch { return undefined; }
  }

  /** `WM_CLASS` of the X window of an AT-SPI window, when one maps. */
  async classNameOf(w: Pick<WindowInfo, 'pid' | 'title' | 'bounds'>): Promise<string | undefined> {
    return (await this.windowFacts([w]))[0]?.className;
  }

  /**
   * `WM_CLASS` and title of each window's X window (empty where none maps), reading the client list once. The
   * title is the window manager's: kcalc's AT-SPI window has an empty name and the title bar says "KCalc".
   */
  async windowFacts(
    ws: readonly Pick<WindowInfo, 'pid' | 'title' | 'bounds'>[],
    opts: { className?: boolean } = {},
  ): Promise<{ className?: string; title?: string; xid?: number }[]> {
    if (!this.available || ws.length === 0) return ws.map(() => ({}));
    try {
      const { windows } = await this.parts();
      const clients = await windows.clients();
      return await Promise.all(ws.map(async (w) => {
        const xw = matchWindow({ pid: w.pid, title: w.title, ...(w.bounds ? { bounds: w.bounds } : {}) }, clients);
        if (!xw) return {};
        const className = opts.className === false ? undefined : await windows.wmClass(xw.id);
        return {
          ...(className !== undefined ? { className } : {}),
          ...(xw.title ? { title: xw.title } : {}),
          xid: xw.id,
        };
      }));
    } catch { return ws.map(() => ({})); }
  }

  /** Asks the window manager to activate the window; true when it became the active window. */
  async activate(w: InputWindow): Promise<boolean> {
    const { windows } = await this.parts();
    const xw = await this.xWindowOf(w);
    return xw ? windows.activate(xw.id) : false;
  }

  /**
   * Asks the window manager to close the window as its close button does (x11/windows.ts `close`); how it asked,
   * or undefined when no X window of it is on screen or it takes no close request.
   */
  async closeWindow(w: InputWindow): Promise<string | undefined> {
    const { windows } = await this.parts();
    const xw = await this.xWindowOf(w);
    return xw ? windows.close(xw.id) : undefined;
  }

  /**
   * True when the process owning the active top-level window is `expect` (pid and start time), and the
   * server's keyboard focus really is inside that window (a client could write the root property itself).
   */
  async focusedIs(expect: Expect): Promise<boolean> {
    const { windows } = await this.parts();
    const active = await windows.activeWindow();
    if (active === undefined) return false;
    return this.owns(await windows.pidOf(active), expect) && await windows.focusWithin(active);
  }

  private owns(pid: number | undefined, expect: Expect): boolean {
    return ownedBy(pid, expect);
  }

  /**
   * Makes the window the keyboard target: activates it when it is not focused, then proves the focused
   * top-level window belongs to `expect`; else window_not_focused. Returns whether it activated first.
   */
  async focus(w: InputWindow, expect: Expect): Promise<boolean> {
    const { windows } = await this.parts();
    let focusedFirst = false;
    const xw = await this.xWindowOf(w);
    const active = await windows.activeWindow();
    if (
      xw &&
      active !== xw.id &&
      (!w.focused || !this.owns(active !== undefined ? await windows.pidOf(active) : undefined, expect))
    ) {
      focusedFirst = await windows.activate(xw.id);
    }
    if (!(await this.focusedIs(expect))) {
      throw new ComputerUseError(
        'window_not_focused',
        `The window "${w.title.slice(0, 60)}" could not be given the keyboard focus` +
          `${xw ? '' : ' (no X window of its process is on screen)'}; another window has it, so nothing was sent.`,
        { remedy: ['raise_window', 'element_actions'] },
      );
    }
    // The process is proven; the window must be the one the decision read: activating a window hands the focus
    // to a modal dialog of the same process (openbox, most window managers), whose fields were not judged.
    const now = xw ? await windows.activeWindow() : undefined;
    if (xw && now !== undefined && now !== xw.id) {
      const holder = (await windows.title(now)) ?? '';
      throw new ComputerUseError(
        'window_not_focused',
        `Another window of the same app has the keyboard focus (${JSON.stringify(holder.slice(0, 80))}), ` +
          'not the one these keys were aimed at; nothing was sent. Observe that window and aim the keys at it, or close it first.',
      );
    }
    await this.assertKeyboardFree(expect, `the window "${w.title.slice(0, 60)}"`);
    return focusedFirst;
  }

  /**
   * Refuses (window_not_focused, nothing sent) while another client holds the keyboard: the keys would reach
   * the grabbing client, not the proven focus (x11/grab.ts). A grab of the target's own process passes (its open
   * menu: gedit's context menu grabs the keyboard, and its popup window reads active); the error carries the
   * window the toolkits call active as `holder`, which the session names unless that app is denied.
   */
  private async assertKeyboardFree(expect: Expect, aimed: string): Promise<void> {
    const { windows } = await this.parts();
    if (await keyboardGrabbed(windows.x) === false) return;
    const active = await this.activeWindows?.().catch(() => undefined) ?? [];
    // Another process's window that also reads active holds it: a denied prompt's grab took the Page Down a web
    // page's scroll sent while Chromium's window still read active (keys-grab-denied.test.ts).
    const other = active.find((a) => !this.owns(a.pid, expect));
    if (!other && active.some((a) => this.owns(a.pid, expect))) return;
    // A holder off the accessibility bus (or one no toolkit calls active) is named from the display's active window.
    const holder = other ?? await this.xActiveHolder(windows, expect);
    throw new ComputerUseError(
      'window_not_focused',
      `Another application holds the keyboard (an X keyboard grab, as an open menu or popup takes it), ` +
        (`so keys sent now would reach it, not ${aimed}; nothing was sent. Close that menu or popup (or ` +
          `that app), then try again.`),
      { remedy: ['raise_window', 'element_actions'], ...(holder ? { holder } : {}) },
    );
  }

  /** The window manager's active window as a holder (app = its process name), when another process owns it. */
  private async xActiveHolder(windows: XWindows, expect: Expect): Promise<ActiveWindow | undefined> {
    const id = await windows.activeWindow().catch(() => undefined);
    const pid = id === undefined ? undefined : await windows.pidOf(id).catch(() => undefined);
    if (id === undefined || pid === undefined || this.owns(pid, expect)) return undefined;
    const [title, className] = await Promise.all([windows.title(id).catch(() => undefined),
      windows.wmClass(id).catch(() => undefined)]);
    let app = '';
    try { app = readFileSync(`/proc/${pid}/comm`, 'utf8').trim(); } catch { /* gone */ }
    return {
      app: app || (className?.split('\0')[0] ?? ''),
      pid,
      title: title ?? '',
      ...(className ? { className } : {}),
    };
  }

  /** Sends key strokes to the proven focus; stops between strokes when `signal` aborts. Returns strokes sent. */
  async keys(strokes: readonly KeyInput[], signal?: AbortSignal): Promise<number> {
    const { test } = await this.parts();
    return test.keys(strokes, signal);
  }

  /** Chords to the focused window of `expect` (proven, without activating): for element ops that focus first. */
  async keysTo(expect: Expect, chords: readonly Chord[] | string, signal?: AbortSignal): Promise<number> {
    const strokes = typeof chords === 'string' ? textStrokes(chords) : chordStrokes(chords);
    if (!(await this.focusedIs(expect))) {
      throw new ComputerUseError(
        'window_not_focused',
        "The element's window does not have the keyboard focus; nothing was sent. " +
          'Bring it to the front and try again.',
      );
    }
    await this.assertKeyboardFree(expect, "the element's window");
    return this.keys(strokes, signal);
  }

  /**
   * Proves that at every point the window on top belongs to `expect` (a keep-above window of another
   * process over the target is caught here); else window_changed.
   */
  async proveTopmost(points: readonly [number, number][], expect: Expect): Promise<void> {
    const { windows } = await this.parts();
    for (const [x, y] of points) {
      const hit = await windows.topmostAt(Math.round(x), Math.round(y));
      if (!hit || !this.owns(hit.pid, expect)) {
        throw new ComputerUseError(
          'window_changed',
          `At ${Math.round(x)},${Math.round(y)} another application's window is on top of the target window; ` +
            'nothing was sent. Move or close what covers it (or use element actions), take a new screenshot and try again.',
        );
      }
    }
  }

  /** Sends one pointer action after proving its points; returns a short description of what was sent. */
  async pointer(p: Omit<PointerParams, 'window'>, expect: Expect, signal?: AbortSignal): Promise<string> {
    const at: [number, number] = [Math.round(p.x), Math.round(p.y)];
    const to: [number, number] | undefined =
      p.action === 'drag' ? [Math.round((p.to ?? at)[0]), Math.round((p.to ?? at)[1])] : undefined;
    await this.proveTopmost(to ? [at, to] : [at], expect);
    const { test } = await this.parts();
    const where = at.join(',');
    switch (p.action) {
      case 'move': await test.move(...at); return `move to ${where}`;
      case 'click': await test.move(...at); await test.click(1); return `left click at ${where}`;
      case 'double_click':
        await test.move(...at);
        await test.click(1, 2, 60, signal);
        return `double click at ${where}`;
      case 'right_click': await test.move(...at); await test.click(3); return `right click at ${where}`;
      case 'middle_click': await test.move(...at); await test.click(2); return `middle click at ${where}`;
      case 'scroll': {
        const n = Math.max(1, Math.min(50, Math.round(p.amount ?? 3)));
        await test.move(...at);
        const done = await test.click(WHEEL[p.direction ?? 'down'], n, 30, signal);
        return `scroll ${p.direction ?? 'down'} ×${done} at ${where}`;
      }
      case 'drag': {
        await this.dragPath(test, at, to!, signal);
        return `drag ${where} → ${to!.join(',')}`;
      }
    }
  }

  /** An element drag (drag_to): both centers proven to be the element's process, then press, move, release. */
  async drag(from: [number, number], to: [number, number], expect: Expect, signal?: AbortSignal): Promise<void> {
    await this.proveTopmost([from, to], expect);
    const { test } = await this.parts();
    await this.dragPath(test, from, to, signal);
  }

  private async dragPath(
    test: XTest,
    from: [number, number],
    to: [number, number],
    signal?: AbortSignal,
  ): Promise<void> {
    const steps = 8;
    await test.move(...from);
    await test.button(1, true);
    try {
      await new Promise((r) => setTimeout(r, 50));
      for (let i = 1; i <= steps; i++) {
        // Cancelled mid-drag: release where the pointer is (the button is never left held).
        if (signal?.aborted) return;
        await test.move(from[0] + ((to[0] - from[0]) * i) / steps, from[1] + ((to[1] - from[1]) * i) / steps);
        await new Promise((r) => setTimeout(r, 20));
      }
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      await test.button(1, false);
    }
  }

  /**
   * The CLIPBOARD owner's proven pid and secret hint; undefined without X input or when nothing owns it,
   * unproven when the X server could not be asked.
   */
  async clipboardOwner(): Promise<ClipboardOwner | undefined> {
    if (!this.available) return undefined;
    try {
      const { test, windows } = await this.parts();
      return await clipboardOwner(test.x, windows);
    } catch { return { unproven: true }; }
  }

  /** Gives back keycodes bound for typing. */
  async close(): Promise<void> {
    const t = await this.xtest?.catch(() => undefined);
    await t?.unbindAll().catch(() => undefined);
    t?.x.close();
  }
}

/** A rectangle's center. */
export function center(b: Rect): [number, number] {
  return [Math.round(b[0] + b[2] / 2), Math.round(b[1] + b[3] / 2)];
}
