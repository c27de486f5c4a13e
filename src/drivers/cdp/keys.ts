/**
 * Parsed chords (protocol/keys.ts, X keysym names) → `Input.dispatchKeyEvent` parameters. Events go to the
 * page target, not to the desktop: no window focus is needed. The channel never parses key strings itself.
 */
import { ComputerUseError } from '../../protocol/errors.js';
import { chordChar, type Chord, type Modifier } from '../../protocol/keys.js';

/** Modifier bits of Input.dispatchKeyEvent. */
const MODIFIER_BITS: Record<Modifier, number> = { alt: 1, ctrl: 2, super: 4, shift: 8 };

interface KeyDef { key: string; code: string; keyCode: number; text?: string }

/** X keysym names → DOM key, code and Windows virtual key code. */
const NAMED: Record<string, KeyDef> = {
  Return: { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' },
  KP_Enter: { key: 'Enter', code: 'NumpadEnter', keyCode: 13, text: '\r' },
  Tab: { key: 'Tab', code: 'Tab', keyCode: 9 },
  ISO_Left_Tab: { key: 'Tab', code: 'Tab', keyCode: 9 },
  Escape: { key: 'Escape', code: 'Escape', keyCode: 27 },
  BackSpace: { key: 'Backspace', code: 'Backspace', keyCode: 8 },
  Delete: { key: 'Delete', code: 'Delete', keyCode: 46 },
  space: { key: ' ', code: 'Space', keyCode: 32, text: ' ' },
  Up: { key: 'ArrowUp', code: 'ArrowUp', keyCode: 38 },
  Down: { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 },
  Left: { key: 'ArrowLeft', code: 'ArrowLeft', keyCode: 37 },
  Right: { key: 'ArrowRight', code: 'ArrowRight', keyCode: 39 },
  Home: { key: 'Home', code: 'Home', keyCode: 36 },
  End: { key: 'End', code: 'End', keyCode: 35 },
  Page_Up: { key: 'PageUp', code: 'PageUp', keyCode: 33 },
  Page_Down: { key: 'PageDown', code: 'PageDown', keyCode: 34 },
  Insert: { key: 'Insert', code: 'Insert', keyCode: 45 },
  Menu: { key: 'ContextMenu', code: 'ContextMenu', keyCode: 93 },
  Control_L: { key: 'Control', code: 'ControlLeft', keyCode: 17 },
  Shift_L: { key: 'Shift', code: 'ShiftLeft', keyCode: 16 },
  Alt_L: { key: 'Alt', code: 'AltLeft', keyCode: 18 },
  Super_L: { key: 'Meta', code: 'MetaLeft', keyCode: 91 },
};
NAMED['Prior'] = NAMED['Page_Up']!;
NAMED['Next'] = NAMED['Page_Down']!;
for (let i = 1; i <= 24; i++) NAMED[`F${i}`] = { key: `F${i}`, code: `F${i}`, keyCode: 111 + i };

/** The keyDown/keyUp event pair of one parsed chord; a key the page cannot be sent is invalid_params. */
export function chordEvents(chord: Chord): Record<string, unknown>[] {
  let modifiers = chord.mods.reduce((m, mod) => m | MODIFIER_BITS[mod], 0);
  let def = NAMED[chord.key];
  if (!def) {
    const ch = chordChar({ mods: [], key: chord.key });
    if (ch === undefined) throw new ComputerUseError('invalid_params', `The key ${JSON.stringify(chord.key.slice(0, 32))} cannot be sent to a page.`);
    const upper = ch.toUpperCase();
    const letter = /^[a-z]$/i.test(ch);
    // A capital letter is shift + the letter key, as a keyboard would send it (case is kept).
    if (letter && ch === upper) modifiers |= MODIFIER_BITS.shift;
    const shifted = (modifiers & MODIFIER_BITS.shift) !== 0 && letter ? upper : ch;
    const code = letter ? `Key${upper}` : /^[0-9]$/.test(ch) ? `Digit${ch}` : '';
    def = { key: shifted, code, keyCode: /^[a-z0-9]$/i.test(ch) ? upper.charCodeAt(0) : ch.charCodeAt(0), text: shifted };
  }
  // With ctrl/alt/meta held a key produces no text (it is a shortcut).
  const text = modifiers & (MODIFIER_BITS.alt | MODIFIER_BITS.ctrl | MODIFIER_BITS.super) ? undefined : def.text;
  const base = { modifiers, key: def.key, code: def.code, windowsVirtualKeyCode: def.keyCode, nativeVirtualKeyCode: def.keyCode };
  return [
    { type: text ? 'keyDown' : 'rawKeyDown', ...base, ...(text ? { text, unmodifiedText: text } : {}) },
    { type: 'keyUp', ...base },
  ];
}
