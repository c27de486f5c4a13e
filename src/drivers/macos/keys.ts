/**
 * Wire key names (protocol/keys.ts) as macOS virtual key codes (HIToolbox Events.h kVK_*) and CGEventFlags.
 * The wire's `Primary` is Command here (the model's `ctrl` means Command on macOS; `control` is the
 * real Control key), Meta is Command too, Alt is Option. Characters are typed by their US-layout key when they
 * have one, else as a Unicode string on a key event (what CGEventKeyboardSetUnicodeString is for), so Chinese
 * text needs no input method. test/unit/keys-table.test.ts pins every code.
 */
import type { Modifier, NamedKey } from '../../protocol/keys.js';
import { isNamedKey } from '../../protocol/keys.js';
import { ComputerUseError } from '../../protocol/errors.js';

/** kVK_* per named key; `null` where a Mac keyboard has no such key (the act is refused, nothing sent). */
export const MACOS_KEYCODES: Readonly<Record<NamedKey, number | null>> = {
  Enter: 0x24,
  Tab: 0x30,
  Backspace: 0x33,
  Delete: 0x75,
  Insert: 0x72 /* kVK_Help sits where Insert is */,
  Escape: 0x35,
  ArrowUp: 0x7e,
  ArrowDown: 0x7d,
  ArrowLeft: 0x7b,
  ArrowRight: 0x7c,
  Home: 0x73,
  End: 0x77,
  PageUp: 0x74,
  PageDown: 0x79,
  Control: 0x3b,
  Alt: 0x3a,
  Shift: 0x38,
  Meta: 0x37,
  CapsLock: 0x39,
  NumLock: 0x47 /* kVK_ANSI_KeypadClear */,
  ScrollLock: 0x6b /* F14 */,
  ContextMenu: 0x6e /* kVK_ContextualMenu */,
  PrintScreen: 0x69 /* F13 */,
  Pause: 0x71 /* F15 */,
  F1: 0x7a,
  F2: 0x78,
  F3: 0x63,
  F4: 0x76,
  F5: 0x60,
  F6: 0x61,
  F7: 0x62,
  F8: 0x64,
  F9: 0x65,
  F10: 0x6d,
  F11: 0x67,
  F12: 0x6f,
  F13: 0x69,
  F14: 0x6b,
  F15: 0x71,
  F16: 0x6a,
  F17: 0x40,
  F18: 0x4f,
  F19: 0x50,
  F20: 0x5a,
  F21: null,
  F22: null,
  F23: null,
  F24: null,
  // Media keys are system-defined events on macOS (NX_KEYTYPE_*), not key codes a process receives.
  MediaPlayPause: null,
  MediaStop: null,
  MediaTrackNext: null,
  MediaTrackPrevious: null,
  AudioVolumeUp: 0x48,
  AudioVolumeDown: 0x49,
  AudioVolumeMute: 0x4a,
};

/** CGEventFlags masks. */
export const CG_FLAGS = { shift: 0x20000, control: 0x40000, option: 0x80000, command: 0x100000 } as const;

/** What each wire modifier holds on macOS: Primary and Meta are Command. */
export const MACOS_MODIFIERS: Readonly<Record<Modifier, number>> = {
  Primary: CG_FLAGS.command,
  Control: CG_FLAGS.control,
  Alt: CG_FLAGS.option,
  Shift: CG_FLAGS.shift,
  Meta: CG_FLAGS.command,
};

/** US-layout (ANSI) keys: the unshifted character, then its kVK code, then the shifted character. */
const ANSI: readonly [string, number, string][] = [
  ['a', 0x00, 'A'],
  ['s', 0x01, 'S'],
  ['d', 0x02, 'D'],
  ['f', 0x03, 'F'],
  ['h', 0x04, 'H'],
  ['g', 0x05, 'G'],
  ['z', 0x06, 'Z'],
  ['x', 0x07, 'X'],
  ['c', 0x08, 'C'],
  ['v', 0x09, 'V'],
  ['b', 0x0b, 'B'],
  ['q', 0x0c, 'Q'],
  ['w', 0x0d, 'W'],
  ['e', 0x0e, 'E'],
  ['r', 0x0f, 'R'],
  ['y', 0x10, 'Y'],
  ['t', 0x11, 'T'],
  ['1', 0x12, '!'],
  ['2', 0x13, '@'],
  ['3', 0x14, '#'],
  ['4', 0x15, '$'],
  ['6', 0x16, '^'],
  ['5', 0x17, '%'],
  ['=', 0x18, '+'],
  ['9', 0x19, '('],
  ['7', 0x1a, '&'],
  ['-', 0x1b, '_'],
  ['8', 0x1c, '*'],
  ['0', 0x1d, ')'],
  [']', 0x1e, '}'],
  ['o', 0x1f, 'O'],
  ['u', 0x20, 'U'],
  ['[', 0x21, '{'],
  ['i', 0x22, 'I'],
  ['p', 0x23, 'P'],
  ['l', 0x25, 'L'],
  ['j', 0x26, 'J'],
  ["'", 0x27, '"'],
  ['k', 0x28, 'K'],
  [';', 0x29, ':'],
  ['\\', 0x2a, '|'],
  [',', 0x2b, '<'],
  ['/', 0x2c, '?'],
  ['n', 0x2d, 'N'],
  ['m', 0x2e, 'M'],
  ['.', 0x2f, '>'],
  ['`', 0x32, '~'],
  [' ', 0x31, ' '],
];
const CHAR_KEYS = new Map<string, { code: number; shift: boolean }>();
for (const [plain, code, shifted] of ANSI) {
  CHAR_KEYS.set(plain, { code, shift: false });
  if (shifted !== plain) CHAR_KEYS.set(shifted, { code, shift: true });
}

/** The US-layout key of a character, if it has one. */
export function charKey(ch: string): { code: number; shift: boolean } | undefined { return CHAR_KEYS.get(ch); }

/** One key event to post: code, flags, and the characters it types (set as its Unicode string). */
export interface MacKeyEvent { code: number; down: boolean; flags: number; text?: string }

/**
 * The events of one chord: modifiers down, the key down and up, modifiers up; the flags ride on every event
 * (CGEventPostToPid delivers to a process that reads flags from the event, not from the hardware state).
 * Refused before anything is sent when the key has no Mac key, or a shortcut names a character without one.
 */
export function chordEvents(mods: readonly Modifier[], key: string): MacKeyEvent[] {
  let flags = 0;
  for (const m of mods) flags |= MACOS_MODIFIERS[m];
  const modCodes = [
    ...new Set(
      mods.map((m) => (m === 'Primary' || m === 'Meta' ? 0x37 : m === 'Control' ? 0x3b : m === 'Alt' ? 0x3a : 0x38)),
    ),
  ];
  let main: MacKeyEvent[];
  if (isNamedKey(key)) {
    const code = MACOS_KEYCODES[key];
    if (code === null)
      throw new ComputerUseError('unsupported', `the key ${key} does not exist on a Mac keyboard; nothing was sent`);
    main = [{ code, down: true, flags }, { code, down: false, flags }];
  } else {
    const k = charKey(key) ?? charKey(key.toLowerCase());
    const shortcut = mods.some((m) => m !== 'Shift');
    if (!k && shortcut)
      throw new ComputerUseError(
        'unsupported',
        'that shortcut names a character with no key on a US Mac keyboard; nothing was sent',
      );
    const f = flags | (k?.shift ? CG_FLAGS.shift : 0);
    const text = shortcut ? undefined : mods.includes('Shift') ? key.toUpperCase() : key;
    main = [
      { code: k?.code ?? 0, down: true, flags: f, ...(text !== undefined ? { text } : {}) },
      { code: k?.code ?? 0, down: false, flags: f },
    ];
  }
  return [
    ...modCodes.map((code) => ({ code, down: true, flags })),
    ...main,
    ...modCodes.reverse().map((code) => ({ code, down: false, flags: 0 })),
  ];
}

/** Text as key events: up to 20 UTF-16 units per event (the most a key event carries), whole characters only. */
export function textEvents(text: string): MacKeyEvent[] {
  const events: MacKeyEvent[] = [];
  let chunk = '';
  const flush = (): void => {
    if (chunk) {
      events.push({ code: 0, down: true, flags: 0, text: chunk }, { code: 0, down: false, flags: 0 });
      chunk = '';
    }
  };
  for (const ch of text) {
    if (ch === '\n' || ch === '\r') {
      flush();
      events.push({ code: 0x24, down: true, flags: 0 }, { code: 0x24, down: false, flags: 0 });
      continue;
    }
    if (ch === '\t') {
      flush();
      events.push({ code: 0x30, down: true, flags: 0 }, { code: 0x30, down: false, flags: 0 });
      continue;
    }
    if (chunk.length + ch.length > 20) flush();
    chunk += ch;
  }
  flush();
  return events;
}
