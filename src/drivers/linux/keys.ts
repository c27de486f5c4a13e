/**
 * Synthetic keyboard input on X11 through XTest (xdotool). Wayland forbids synthetic input: every call then
 * fails with input_blocked while element actions keep working.
 */
import { execFile } from 'node:child_process';
import { ComputerUseError } from '../../protocol/errors.js';

/** Keyboard input for the driver. */
export interface Keyboard {
  readonly available: boolean;
  /** Why input is unavailable, when it is. */
  readonly reason?: string;
  keys(chords: string): Promise<void>;
  type(text: string): Promise<void>;
  /** Raises and focuses the X window of a process whose title matches. */
  activate(pid: number, title: string): Promise<boolean>;
  /** Presses the left button at `from`, moves to `to` in steps, releases. */
  drag(from: [number, number], to: [number, number]): Promise<void>;
}

/** Key names models tend to use → X keysym names. */
const KEY_ALIASES: Record<string, string> = {
  enter: 'Return', return: 'Return', esc: 'Escape', escape: 'Escape', tab: 'Tab', space: 'space',
  backspace: 'BackSpace', delete: 'Delete', del: 'Delete', up: 'Up', down: 'Down', left: 'Left', right: 'Right',
  home: 'Home', end: 'End', pageup: 'Page_Up', pagedown: 'Page_Down', page_up: 'Page_Up', page_down: 'Page_Down',
  ctrl: 'ctrl', control: 'ctrl', alt: 'alt', shift: 'shift', super: 'super', meta: 'super', cmd: 'ctrl', win: 'super',
  insert: 'Insert', menu: 'Menu',
};

/** Turns "ctrl+s Enter" into xdotool key arguments (["ctrl+s", "Return"]). */
export function parseChords(chords: string): string[] {
  return chords.trim().split(/\s+/).filter(Boolean).map((chord) =>
    chord.split('+').map((k) => {
      const alias = KEY_ALIASES[k.toLowerCase()];
      if (alias) return alias;
      if (/^f\d{1,2}$/i.test(k)) return k.toUpperCase();
      return k.length === 1 ? k.toLowerCase() : k;
    }).join('+'));
}

/** Runs xdotool; a failure is input_unavailable. */
export function xdotool(args: string[], timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('xdotool', args, { timeout: timeoutMs }, (err, stdout) => {
      if (err) reject(new ComputerUseError('input_unavailable', `xdotool failed: ${err.message.split('\n')[0]}`));
      else resolve(stdout);
    });
  });
}

/** Creates the X11 keyboard, or an unavailable one that says why. */
export function createKeyboard(env: NodeJS.ProcessEnv = process.env): Keyboard {
  const wayland = env['XDG_SESSION_TYPE'] === 'wayland' || (!!env['WAYLAND_DISPLAY'] && !env['DISPLAY']);
  const reason = wayland ? 'Wayland does not allow synthetic input; use element actions (click, set_value, type) instead.'
    : !env['DISPLAY'] ? 'No X display (DISPLAY is unset).' : undefined;
  const blocked = (): never => { throw new ComputerUseError(wayland ? 'input_blocked' : 'input_unavailable', reason ?? 'No keyboard.'); };
  if (reason) return { available: false, reason, keys: async () => blocked(), type: async () => blocked(), activate: async () => false, drag: async () => blocked() };
  return {
    available: true,
    async keys(chords) { await xdotool(['key', '--clearmodifiers', '--delay', '12', ...parseChords(chords)]); },
    async type(text) { await xdotool(['type', '--clearmodifiers', '--delay', '4', '--', text], 60_000); },
    async drag(from, to) {
      const steps = 8;
      const path: string[] = [];
      for (let i = 1; i <= steps; i++) {
        path.push('mousemove', String(Math.round(from[0] + ((to[0] - from[0]) * i) / steps)), String(Math.round(from[1] + ((to[1] - from[1]) * i) / steps)), 'sleep', '0.02');
      }
      await xdotool(['mousemove', String(from[0]), String(from[1]), 'mousedown', '1', 'sleep', '0.05', ...path, 'sleep', '0.05', 'mouseup', '1']);
    },
    async activate(pid, title) {
      const ids = (await xdotool(['search', '--onlyvisible', '--pid', String(pid)]).catch(() => '')).split('\n').filter(Boolean);
      for (const id of ids) {
        const name = await xdotool(['getwindowname', id]).catch(() => '');
        if (!title || name.trim() === title) {
          await xdotool(['windowactivate', '--sync', id]).catch(() => xdotool(['windowfocus', '--sync', id]));
          return true;
        }
      }
      return false;
    },
  };
}
