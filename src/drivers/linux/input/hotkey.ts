/**
 * The global stop hotkey on X11 (panel/hotkey.ts): the panel's process grabs the chord on the root window with a
 * pure-JS X11 client (the `x11` package), so it reaches us whichever window has the focus. The grab is also made
 * with Caps Lock and Num Lock on. Wayland has no global grab for clients.
 */
import { createRequire } from 'node:module';
import type { Chord } from '../../../protocol/keys.js';
import { keysymOf, xModifiers, type XModifier } from './keysyms.js';

/** X modifier masks; the chord's Primary is Control on X11 (keysyms.ts). */
const MOD_MASK: Record<XModifier, number> = { shift: 1, ctrl: 4, alt: 8, super: 64 };
const LOCK = 2;
const NUM_LOCK = 16;

interface XClient {
  GetKeyboardMapping(start: number, count: number, cb: (err: unknown, list: number[][]) => void): void;
  GrabKey(
    wid: number,
    ownerEvents: number,
    modifiers: number,
    key: number,
    pointerMode: number,
    keybMode: number,
  ): void;
  UngrabKey(wid: number, key: number, modifiers: number): void;
  GetInputFocus(cb: (err: unknown) => void): void;
  on(event: 'event', fn: (ev: { type: number; name?: string; keycode?: number; buttons?: number }) => void): void;
  on(event: 'error', fn: (e: Error) => void): void;
  terminate?(): void;
  close?(cb?: () => void): void;
}
interface XDisplay { client: XClient; screen: { root: number }[]; min_keycode: number; max_keycode: number }
interface X11Module {
  createClient(
    opts: { display: string },
    cb: (err: unknown, display: XDisplay) => void,
  ): { on(e: 'error', fn: (e: Error) => void): void };
}

/** A held grab. */
export interface HotkeyGrab { chord: string; display: string; close(): void }

/**
 * Grabs `parsed` on the root window of `display`; `onPress` runs on every press. `chord` is how the user wrote
 * it, for messages and HotkeyGrab. Rejects when it cannot.
 */
export function grabStopHotkey(
  display: string,
  parsed: Chord,
  chord: string,
  onPress: () => void,
): Promise<HotkeyGrab> {
  const keysym = keysymOf(parsed.key);
  if (keysym === undefined) return Promise.reject(new Error(`unknown key "${parsed.key}" in stopHotkey "${chord}"`));
  const mods = xModifiers(parsed.mods).reduce((m, k) => m | MOD_MASK[k], 0);
  const x11 = createRequire(import.meta.url)('x11') as X11Module;
  return new Promise<HotkeyGrab>((resolve, reject) => {
    let settled = false;
    const fail = (e: unknown): void => {
      if (!settled) {
        settled = true;
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    };
    const conn = x11.createClient({ display }, (err, d) => {
      if (err) { fail(err); return; }
      const X = d.client;
      const root = d.screen[0]!.root;
      X.on('error', (e) =>
        fail(new Error(`the X server refused the grab of ${chord} (another program holds it?): ${e.message}`)),
      );
      X.GetKeyboardMapping(d.min_keycode, d.max_keycode - d.min_keycode + 1, (e, list) => {
        if (e) { fail(e); return; }
        const row =
          list.findIndex((syms) => syms[0] === keysym) >= 0
            ? list.findIndex((syms) => syms[0] === keysym)
            : list.findIndex((syms) => syms.includes(keysym));
        if (row < 0) { fail(new Error(`no key on this keyboard produces ${parsed.key}`)); return; }
        const keycode = d.min_keycode + row;
        const variants = [0, LOCK, NUM_LOCK, LOCK | NUM_LOCK].map((v) => mods | v);
        for (const m of variants) X.GrabKey(root, 1, m, keycode, 1, 1);
        X.on('event', (ev) => { if (ev.type === 2 && ev.keycode === keycode) onPress(); });
        // A round trip: a refused grab (BadAccess) arrives as an error before this answer.
        X.GetInputFocus(() => {
          if (settled) return;
          settled = true;
          resolve({
            chord, display,
            close: () => {
              try {
                for (const m of variants) X.UngrabKey(root, keycode, m);
                X.terminate?.();
              } catch {
                /* connection gone */
              }
            },
          });
        });
      });
    });
    conn.on('error', fail);
  });
}
