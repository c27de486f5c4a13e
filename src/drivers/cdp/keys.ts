/**
 * Wire chords (protocol/keys.ts, W3C/DOM names) → `Input.dispatchKeyEvent` parameters, the CDP driver's
 * codes: the DOM `key` and `code` and the Windows virtual key code Chromium reads. Events go to the page
 * target, not to the desktop: no window focus is needed. The channel never parses key strings itself.
 */
import { ComputerUseError } from '../../protocol/errors.js';
import {
  chordChar,
  isNamedKey,
  isShortcut,
  isWireKey,
  type Chord,
  type Modifier,
  type NamedKey,
} from '../../protocol/keys.js';

/** Modifier bits of Input.dispatchKeyEvent. */
const BITS = { Alt: 1, Control: 2, Meta: 4, Shift: 8 } as const;

/** What `Primary` is for the page: Command (Meta) when the browser runs on macOS, Control elsewhere. */
export type CdpPrimary = 'Control' | 'Meta';

/** The dispatchKeyEvent fields of one key. */
export interface CdpKey { key: string; code: string; keyCode: number; text?: string }

const k = (key: string, code: string, keyCode: number, text?: string): CdpKey =>
  text === undefined ? { key, code, keyCode } : { key, code, keyCode, text };

/** Each named key's DOM key, code and Windows virtual key code. */
export const CDP_KEYS: Record<NamedKey, CdpKey> = {
  Enter: k('Enter', 'Enter', 13, '\r'),
  Tab: k('Tab', 'Tab', 9),
  Backspace: k('Backspace', 'Backspace', 8),
  Delete: k('Delete', 'Delete', 46),
  Insert: k('Insert', 'Insert', 45),
  Escape: k('Escape', 'Escape', 27),
  ArrowUp: k('ArrowUp', 'ArrowUp', 38),
  ArrowDown: k('ArrowDown', 'ArrowDown', 40),
  ArrowLeft: k('ArrowLeft', 'ArrowLeft', 37),
  ArrowRight: k('ArrowRight', 'ArrowRight', 39),
  Home: k('Home', 'Home', 36),
  End: k('End', 'End', 35),
  PageUp: k('PageUp', 'PageUp', 33),
  PageDown: k('PageDown', 'PageDown', 34),
  Control: k('Control', 'ControlLeft', 17),
  Alt: k('Alt', 'AltLeft', 18),
  Shift: k('Shift', 'ShiftLeft', 16),
  Meta: k('Meta', 'MetaLeft', 91),
  CapsLock: k('CapsLock', 'CapsLock', 20),
  NumLock: k('NumLock', 'NumLock', 144),
  ScrollLock: k('ScrollLock', 'ScrollLock', 145),
  ContextMenu: k('ContextMenu', 'ContextMenu', 93),
  PrintScreen: k('PrintScreen', 'PrintScreen', 44),
  Pause: k('Pause', 'Pause', 19),
  F1: k('F1', 'F1', 112),
  F2: k('F2', 'F2', 113),
  F3: k('F3', 'F3', 114),
  F4: k('F4', 'F4', 115),
  F5: k('F5', 'F5', 116),
  F6: k('F6', 'F6', 117),
  F7: k('F7', 'F7', 118),
  F8: k('F8', 'F8', 119),
  F9: k('F9', 'F9', 120),
  F10: k('F10', 'F10', 121),
  F11: k('F11', 'F11', 122),
  F12: k('F12', 'F12', 123),
  F13: k('F13', 'F13', 124),
  F14: k('F14', 'F14', 125),
  F15: k('F15', 'F15', 126),
  F16: k('F16', 'F16', 127),
  F17: k('F17', 'F17', 128),
  F18: k('F18', 'F18', 129),
  F19: k('F19', 'F19', 130),
  F20: k('F20', 'F20', 131),
  F21: k('F21', 'F21', 132),
  F22: k('F22', 'F22', 133),
  F23: k('F23', 'F23', 134),
  F24: k('F24', 'F24', 135),
  MediaPlayPause: k('MediaPlayPause', 'MediaPlayPause', 179),
  MediaStop: k('MediaStop', 'MediaStop', 178),
  MediaTrackNext: k('MediaTrackNext', 'MediaTrackNext', 176),
  MediaTrackPrevious: k('MediaTrackPrevious', 'MediaTrackPrevious', 177),
  AudioVolumeUp: k('AudioVolumeUp', 'AudioVolumeUp', 175),
  AudioVolumeDown: k('AudioVolumeDown', 'AudioVolumeDown', 174),
  AudioVolumeMute: k('AudioVolumeMute', 'AudioVolumeMute', 173),
};

/** US-layout codes of the ASCII punctuation keys (the DOM `code` names the physical key). */
const PUNCTUATION_CODES: Record<string, [string, number]> = {
  ' ': ['Space', 32], '-': ['Minus', 189], '=': ['Equal', 187], '[': ['BracketLeft', 219], ']': ['BracketRight', 221],
  '\\': ['Backslash', 220], ';': ['Semicolon', 186], "'": ['Quote', 222], ',': ['Comma', 188], '.': ['Period', 190],
  '/': ['Slash', 191], '`': ['Backquote', 192],
};

/** The dispatchKeyEvent fields of a character key; a capital letter also holds Shift, as a keyboard sends it. */
export function charKey(ch: string): CdpKey & { shift: boolean } {
  const upper = ch.toUpperCase();
  const letter = /^[a-z]$/i.test(ch);
  if (letter) return { key: ch, code: `Key${upper}`, keyCode: upper.charCodeAt(0), text: ch, shift: ch === upper };
  if (/^[0-9]$/.test(ch)) return { key: ch, code: `Digit${ch}`, keyCode: ch.charCodeAt(0), text: ch, shift: false };
  const [code, keyCode] = PUNCTUATION_CODES[ch] ?? ['', 0];
  return { key: ch, code, keyCode, text: ch, shift: false };
}

/** The keyDown/keyUp event pair of one wire chord; a key that is not a wire key is invalid_params. */
export function chordEvents(chord: Chord, primary: CdpPrimary = 'Control'): Record<string, unknown>[] {
  if (!isWireKey(chord.key))
    throw new ComputerUseError(
      'invalid_params',
      `The key ${JSON.stringify(chord.key.slice(0, 32))} cannot be sent to a page.`,
    );
  const bit = (m: Modifier): number => BITS[m === 'Primary' ? primary : m];
  let modifiers = chord.mods.reduce((acc, m) => acc | bit(m), 0);
  let def: CdpKey;
  if (isNamedKey(chord.key)) def = CDP_KEYS[chord.key];
  else {
    const c = charKey(chord.key);
    if (c.shift) modifiers |= BITS.Shift;
    // Shift + a letter types the capital, as chordChar says.
    const typed = chordChar({ mods: chord.mods.filter((m) => m === 'Shift'), key: chord.key }) ?? chord.key;
    def = { key: typed, code: c.code, keyCode: c.keyCode, text: typed };
  }
  // With Control, Alt or Meta held a key produces no text (it is a shortcut).
  const text = isShortcut(chord) ? undefined : def.text;
  const base = {
    modifiers,
    key: def.key,
    code: def.code,
    windowsVirtualKeyCode: def.keyCode,
    nativeVirtualKeyCode: def.keyCode,
  };
  return [
    { type: text ? 'keyDown' : 'rawKeyDown', ...base, ...(text ? { text, unmodifiedText: text } : {}) },
    { type: 'keyUp', ...base },
  ];
}
