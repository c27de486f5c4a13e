/**
 * The key grammar on the wire (input is data). A chord is modifiers plus one key, both named the
 * W3C/DOM way (`KeyboardEvent.key`, as Playwright's keyboard names them): named keys like `Enter`, `ArrowLeft`,
 * `PageDown`, `F5`, `MediaPlayPause`, or the one character a key types (`a`, `A`, `1`, `+`, `é`, and `" "` for
 * the space bar: the DOM's own name for it). Modifiers are `Control`, `Alt`, `Shift`, `Meta` and `Primary`, the
 * platform's shortcut modifier (Command on macOS, Control elsewhere), like Playwright's `ControlOrMeta`.
 *
 * Nothing here names a platform: each driver maps these names to its own codes (its key table, in its own
 * folder under src/drivers/), each in a `Record<NamedKey, …>` so a driver that lacks a name does not
 * compile, and test/unit/keys-table.test.ts pins every mapping. Android's Back, Home and Recents are not keys
 * here: they are ops. The grammar the model writes (`ctrl+s`, `Return`, `alt+F4`) is parsed once by the host
 * (session/chords.ts) into these chords; drivers and the policy read only the parsed form.
 */
import { ComputerUseError } from './errors.js';

/** A modifier held while the key is pressed. `Primary` is Command on macOS and Control on every other platform. */
export type Modifier = 'Primary' | 'Control' | 'Alt' | 'Shift' | 'Meta';
/** The modifiers, in the order they are pressed. */
export const MODIFIERS: readonly Modifier[] = ['Primary', 'Control', 'Alt', 'Shift', 'Meta'];

/**
 * The named keys (W3C UI Events `KeyboardEvent.key` values). A key that types a character is named by that
 * character instead, so the list holds no letter, digit, punctuation or space.
 */
export const NAMED_KEYS = [
  'Enter',
  'Tab',
  'Backspace',
  'Delete',
  'Insert',
  'Escape',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'Control',
  'Alt',
  'Shift',
  'Meta',
  'CapsLock',
  'NumLock',
  'ScrollLock',
  'ContextMenu',
  'PrintScreen',
  'Pause',
  'F1',
  'F2',
  'F3',
  'F4',
  'F5',
  'F6',
  'F7',
  'F8',
  'F9',
  'F10',
  'F11',
  'F12',
  'F13',
  'F14',
  'F15',
  'F16',
  'F17',
  'F18',
  'F19',
  'F20',
  'F21',
  'F22',
  'F23',
  'F24',
  'MediaPlayPause',
  'MediaStop',
  'MediaTrackNext',
  'MediaTrackPrevious',
  'AudioVolumeUp',
  'AudioVolumeDown',
  'AudioVolumeMute',
] as const;
/** One named key. */
export type NamedKey = typeof NAMED_KEYS[number];

/** One chord: modifiers plus one key (a NamedKey or one character). */
export interface Chord { mods: Modifier[]; key: string }

/** Most chords one keys call may carry (a longer text goes through set_value or type). */
export const MAX_CHORDS = 64;

/**
 * One character a key may name: a single code point that is not a control character, a lone surrogate or a
 * line/paragraph separator (Enter and Tab are named keys). Written without the `u` flag so every JSON Schema
 * validator reads it the same way.
 */
export const KEY_CHAR_PATTERN =
  '^(?:[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\ud800-\\udfff]|[\\ud800-\\udbff][\\udc00-\\udfff])$';
const KEY_CHAR = new RegExp(KEY_CHAR_PATTERN);
const NAMED = new Set<string>(NAMED_KEYS);

/** True when `key` is a named key. */
export function isNamedKey(key: string): key is NamedKey {
  return NAMED.has(key);
}

/** True when `key` is a key on the wire: a named key or one character. */
export function isWireKey(key: string): boolean {
  return isNamedKey(key) || KEY_CHAR.test(key);
}

/** Checks a chord received from elsewhere (a peer, a setting); invalid_params names the rule, never the text. */
export function checkChord(c: { mods?: unknown; key?: unknown }): Chord {
  if (typeof c.key !== 'string' || !isWireKey(c.key)) {
    throw new ComputerUseError(
      'invalid_params',
      'A chord key must be a named key (Enter, ArrowLeft, F5, …) or one character; nothing was sent.',
    );
  }
  if (!Array.isArray(c.mods) || c.mods.some((m) => !MODIFIERS.includes(m as Modifier))) {
    throw new ComputerUseError(
      'invalid_params',
      `Chord modifiers must be among ${MODIFIERS.join(', ')}; nothing was sent.`,
    );
  }
  return { mods: MODIFIERS.filter((m) => (c.mods as unknown[]).includes(m)), key: c.key };
}

/** The modifiers that make a chord a shortcut rather than typing (everything but Shift). */
const SHORTCUT_MODS: readonly Modifier[] = ['Primary', 'Control', 'Alt', 'Meta'];

/** True when the chord holds a shortcut modifier (Primary, Control, Alt or Meta). */
export function isShortcut(c: Chord): boolean {
  return c.mods.some((m) => SHORTCUT_MODS.includes(m));
}

/** The character a chord types, when it types one (a character key, at most Shift held), else undefined. */
export function chordChar(c: Chord): string | undefined {
  if (isShortcut(c) || isNamedKey(c.key) || !KEY_CHAR.test(c.key)) return undefined;
  return c.mods.includes('Shift') ? c.key.toUpperCase() : c.key;
}

/** True when the chords type characters (not only shortcuts, named keys and a single space). */
export function chordsTypeText(chords: readonly Chord[]): boolean {
  return (
    chords.some((c) => chordChar(c) !== undefined && c.key !== ' ') ||
    chords.filter((c) => chordChar(c) === ' ').length > 1
  );
}

/** "Primary+Shift+t", "Space" for the space bar: for messages and the audit log. */
export function formatChord(c: Chord): string {
  return [...c.mods, c.key === ' ' ? 'Space' : c.key === '+' && c.mods.length ? 'Plus' : c.key].join('+');
}

/** "Primary+s Enter". */
export function formatChords(chords: readonly Chord[]): string {
  return chords.map(formatChord).join(' ');
}
