/**
 * Synthetic keys and pointer events through the XTEST extension (FakeInput), sent by the driver itself.
 * Each key stroke is pressed and released completely (modifiers included) and followed by a round trip, so
 * a cancellation between strokes never leaves a key or modifier held.
 */
import { ComputerUseError } from '../../../protocol/errors.js';
import type { X11, XExtension } from './connection.js';
import { findKeysym, planBatches, type Binding, type KeyMap } from './keymap.js';
import type { XModifier } from '../input/keysyms.js';

const KEY_PRESS = 2;
const KEY_RELEASE = 3;
const BUTTON_PRESS = 4;
const BUTTON_RELEASE = 5;
const MOTION = 6;

/** Keysyms of the modifier keys pressed for a chord. */
const MODIFIER_KEYSYMS: Record<XModifier, number> = { ctrl: 0xffe3, alt: 0xffe9, shift: 0xffe1, super: 0xffeb };

/** One key stroke to send: a keysym with the modifiers held around it. */
export interface KeyInput { keysym: number; mods: readonly XModifier[] }

/** How long bindings of spare keycodes stay after a send, so that the receiving app has read its keymap. */
const UNBIND_AFTER_MS = 1500;
/** A pause after binding keycodes, for clients to take the new keyboard map before the keys arrive. */
const AFTER_BIND_MS = 20;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Sends key strokes and pointer events over one X connection. */
export class XTest {
  /** Spare keycodes this driver bound, keycode → keysym, until they are unbound. */
  private readonly bound = new Map<number, number>();
  private unbindTimer: NodeJS.Timeout | undefined;
  private perKeycode = 0;

  private constructor(readonly x: X11, readonly ext: XExtension) {}

  /** Loads the XTEST extension (unsupported when the server lacks it). */
  static async create(x: X11): Promise<XTest> {
    return new XTest(x, await x.extension('xtest'));
  }

  /** The keyboard map as the server has it now. */
  async keyMap(): Promise<KeyMap> {
    const { min_keycode: min, max_keycode: max } = this.x.display;
    const rows = await this.x.request<number[][]>('GetKeyboardMapping', min, max - min + 1);
    this.perKeycode = rows[0]?.length ?? 0;
    return { minKeycode: min, rows };
  }

  private fake(type: number, detail: number, x = 0, y = 0): void {
    this.x.send(this.ext, 'FakeInput', type, detail, 0, type === MOTION ? this.x.root : 0, x, y);
  }

  /**
   * Sends the strokes in order; before each one `signal` is checked and sending stops at once when it has
   * aborted. Returns how many strokes were sent completely.
   */
  async keys(strokes: readonly KeyInput[], signal?: AbortSignal, delayMs = 3): Promise<number> {
    const map = await this.keyMap();
    const modCode = (m: XModifier): number => {
      const hit = findKeysym(map, MODIFIER_KEYSYMS[m]);
      if (!hit) throw new ComputerUseError('unsupported', `The keyboard map has no ${m} key; nothing was sent.`);
      return hit.keycode;
    };
    const batches = (() => {
      try {
        return planBatches(
          map,
          strokes.map((s) => s.keysym),
          this.bound,
        );
      } catch (e) {
        throw new ComputerUseError('unsupported', `${(e as Error).message}; nothing was sent.`);
      }
    })();
    clearTimeout(this.unbindTimer);
    let sent = 0;
    try {
      for (const batch of batches) {
        if (signal?.aborted) break;
        if (batch.bind.length) {
          if (sent > 0) await sleep(UNBIND_AFTER_MS / 10); // the previous batch's keys are read with its map
          for (const b of batch.bind) this.bindKey(b);
          await this.x.sync();
          await sleep(AFTER_BIND_MS);
        }
        for (const stroke of batch.strokes) {
          if (signal?.aborted) return sent;
          const input = strokes[sent]!;
          const mods = [...input.mods];
          if (stroke.shift && !mods.includes('shift')) mods.push('shift');
          const codes = mods.map(modCode);
          for (const c of codes) this.fake(KEY_PRESS, c);
          this.fake(KEY_PRESS, stroke.keycode);
          this.fake(KEY_RELEASE, stroke.keycode);
          for (const c of [...codes].reverse()) this.fake(KEY_RELEASE, c);
          await this.x.sync();
          sent++;
          if (delayMs > 0) await sleep(delayMs);
        }
      }
      return sent;
    } finally {
      if (this.bound.size)
        this.unbindTimer = setTimeout(() => {
          void this.unbindAll().catch(() => undefined);
        }, UNBIND_AFTER_MS);
    }
  }

  private bindKey(b: Binding): void {
    const syms = new Array<number>(Math.max(this.perKeycode, 2)).fill(0);
    // Both columns carry the keysym: it comes out the same whether shift is held or not.
    syms[0] = b.keysym;
    syms[1] = b.keysym;
    this.x.send(this.x.client, 'ChangeKeyboardMapping', b.keycode, syms.length, syms);
    this.bound.set(b.keycode, b.keysym);
  }

  /** Gives the spare keycodes back (no keysym), as they were before. */
  async unbindAll(): Promise<void> {
    clearTimeout(this.unbindTimer);
    if (!this.bound.size || this.x.closedReason) return;
    const zeros = new Array<number>(Math.max(this.perKeycode, 2)).fill(0);
    for (const keycode of this.bound.keys())
      this.x.send(this.x.client, 'ChangeKeyboardMapping', keycode, zeros.length, zeros);
    this.bound.clear();
    await this.x.sync();
  }

  /** Moves the pointer to a screen point. */
  async move(x: number, y: number): Promise<void> {
    this.fake(MOTION, 0, Math.round(x), Math.round(y));
    await this.x.sync();
  }

  /** Presses or releases a pointer button (1 left, 2 middle, 3 right, 4-7 wheel). */
  async button(button: number, down: boolean): Promise<void> {
    this.fake(down ? BUTTON_PRESS : BUTTON_RELEASE, button);
    await this.x.sync();
  }

  /** Clicks a button `count` times, `gapMs` apart, checking `signal` before each click. */
  async click(button: number, count = 1, gapMs = 60, signal?: AbortSignal): Promise<number> {
    let done = 0;
    for (let i = 0; i < count; i++) {
      if (signal?.aborted) break;
      if (i > 0) await sleep(gapMs);
      this.fake(BUTTON_PRESS, button);
      this.fake(BUTTON_RELEASE, button);
      await this.x.sync();
      done++;
    }
    return done;
  }
}
