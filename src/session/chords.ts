/**
 * The keys grammar the model writes (docs/tools.md, "Keys"), parsed once, here, into wire chords (protocol/keys.ts).
 * A keys string is chords separated by white space; a chord is modifiers and one key joined with `+`
 * ("ctrl+s Return", "shift+Tab", "a b C", "ctrl++"). Names are case-insensitive, except a single character.
 *
 * - `ctrl` (and `ctl`, `primary`, `ControlOrMeta`, `mod`) is the platform's shortcut modifier, `Primary`: Command
 *   on macOS, Control elsewhere ("ctrl means Command on macOS"). `control` is the real Control key.
 *   `meta`, `super`, `win`, `cmd`, `command` are Meta (the Windows key, Command on macOS); `alt`, `option`
 *   are Alt. A modifier alone ("shift", "ctrl") presses that key itself, and a lone `ctrl` is the real Control.
 * - Keys: the DOM names (`Enter`, `ArrowLeft`, `PageDown`, `F5`, `MediaPlayPause`, …), one character, `Space`,
 *   and the X keysym names models and older docs use (`Return`, `BackSpace`, `Prior`, `Page_Down`, `KP_Enter`,
 *   `comma`, `U00E9`), which are aliases of the DOM names.
 *
 * Nothing a model writes is ever passed on as text for another program to interpret; a word that is not a key
 * is an error that does not echo it (it may be a password typed as chords).
 */
import { ComputerUseError } from '../protocol/errors.js';
import {
  isNamedKey,
  MAX_CHORDS,
  MODIFIERS,
  NAMED_KEYS,
  type Chord,
  type Modifier,
  type NamedKey,
} from '../protocol/keys.js';

const MODIFIER_WORDS: Record<string, Modifier> = {
  ctrl: 'Primary', ctl: 'Primary', primary: 'Primary', controlormeta: 'Primary', mod: 'Primary',
  control: 'Control', alt: 'Alt', option: 'Alt', opt: 'Alt', shift: 'Shift',
  meta: 'Meta', super: 'Meta', win: 'Meta', windows: 'Meta', cmd: 'Meta', command: 'Meta',
};

/** A modifier word used as the key: the modifier key itself (a lone `ctrl` is the real Control key). */
const MODIFIER_KEYS: Record<Modifier, NamedKey | undefined> = {
  Primary: undefined,
  Control: 'Control',
  Alt: 'Alt',
  Shift: 'Shift',
  Meta: 'Meta',
};

/** Key words (lower case) → wire keys: the DOM names, then the short and X keysym names models use. */
const KEY_WORDS: Record<string, string> = {
  ...Object.fromEntries(NAMED_KEYS.map((k) => [k.toLowerCase(), k])),
  return: 'Enter',
  kp_enter: 'Enter',
  iso_enter: 'Enter',
  esc: 'Escape',
  back_space: 'Backspace',
  del: 'Delete',
  kp_delete: 'Delete',
  ins: 'Insert',
  space: ' ',
  spacebar: ' ',
  kp_space: ' ',
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
  page_up: 'PageUp',
  prior: 'PageUp',
  page_down: 'PageDown',
  next: 'PageDown',
  pgup: 'PageUp',
  pgdn: 'PageDown',
  kp_up: 'ArrowUp',
  kp_down: 'ArrowDown',
  kp_left: 'ArrowLeft',
  kp_right: 'ArrowRight',
  kp_home: 'Home',
  kp_end: 'End',
  kp_prior: 'PageUp',
  kp_next: 'PageDown',
  kp_page_up: 'PageUp',
  kp_page_down: 'PageDown',
  kp_insert: 'Insert',
  menu: 'ContextMenu',
  apps: 'ContextMenu',
  print: 'PrintScreen',
  prtsc: 'PrintScreen',
  sys_req: 'PrintScreen',
  break: 'Pause',
  caps_lock: 'CapsLock',
  num_lock: 'NumLock',
  scroll_lock: 'ScrollLock',
  control_l: 'Control',
  control_r: 'Control',
  alt_l: 'Alt',
  alt_r: 'Alt',
  shift_l: 'Shift',
  shift_r: 'Shift',
  super_l: 'Meta',
  super_r: 'Meta',
  meta_l: 'Meta',
  meta_r: 'Meta',
  xf86audioplay: 'MediaPlayPause',
  xf86audiopause: 'MediaPlayPause',
  xf86audiostop: 'MediaStop',
  xf86audionext: 'MediaTrackNext',
  xf86audioprev: 'MediaTrackPrevious',
  xf86audioraisevolume: 'AudioVolumeUp',
  xf86audiolowervolume: 'AudioVolumeDown',
  xf86audiomute: 'AudioVolumeMute',
  volumeup: 'AudioVolumeUp',
  volumedown: 'AudioVolumeDown',
  mute: 'AudioVolumeMute',
  kp_add: '+',
  kp_subtract: '-',
  kp_multiply: '*',
  kp_divide: '/',
  kp_decimal: '.',
  kp_equal: '=',
  ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`kp_${i}`, String(i)])),
  // X keysym names of ASCII punctuation (test/e2e/text/terminal.test.ts types shell commands with them).
  exclam: '!',
  quotedbl: '"',
  numbersign: '#',
  dollar: '$',
  percent: '%',
  ampersand: '&',
  apostrophe: "'",
  quoteright: "'",
  parenleft: '(',
  parenright: ')',
  asterisk: '*',
  plus: '+',
  comma: ',',
  minus: '-',
  period: '.',
  slash: '/',
  colon: ':',
  semicolon: ';',
  less: '<',
  equal: '=',
  greater: '>',
  question: '?',
  at: '@',
  bracketleft: '[',
  backslash: '\\',
  bracketright: ']',
  asciicircum: '^',
  underscore: '_',
  grave: '`',
  quoteleft: '`',
  braceleft: '{',
  bar: '|',
  braceright: '}',
  asciitilde: '~',
};

/** Key words that carry a modifier of their own: X's ISO_Left_Tab is what shift+Tab sends. */
const SHIFTED_WORDS: Record<string, string> = { iso_left_tab: 'Tab' };

/** A typed character a key may be: one code point, printable (the control characters have named keys). */
function typedChar(raw: string): string | undefined {
  const cps = [...raw];
  if (cps.length !== 1) return undefined;
  const cp = raw.codePointAt(0) ?? 0;
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp === 0x2028 || cp === 0x2029) return undefined;
  return raw;
}

function unknownKey(raw: string): ComputerUseError {
  // The word is not echoed: it may be text the model meant to type (a password), and errors reach the audit log.
  return new ComputerUseError(
    'invalid_params',
    `A chord names an unknown key (${[...raw].length} characters, not shown). Use key names like ` +
      'Enter, Tab, Escape, Backspace, Delete, ArrowUp, PageDown, F5, Space, a single character, or modifiers ctrl/control/alt/shift/meta joined with +. ' +
      'To enter text use computer_act set_value or type.',
  );
}

/** The wire key of one key word, and the modifier it implies (ISO_Left_Tab → Shift). */
function keyOf(raw: string): { key: string; shift?: true } {
  const lower = raw.toLowerCase();
  const shifted = SHIFTED_WORDS[lower];
  if (shifted) return { key: shifted, shift: true };
  // A single character is itself, case kept ("T" is shift + t); before the words, so "a" is never an alias.
  const ch = typedChar(raw);
  if (ch !== undefined) return { key: ch };
  const word = KEY_WORDS[lower];
  if (word !== undefined) return { key: word };
  const u = /^U\+?([0-9A-Fa-f]{4,6})$/.exec(raw);
  if (u?.[1]) {
    const cp = parseInt(u[1], 16);
    const c = cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? typedChar(String.fromCodePoint(cp)) : undefined;
    if (c !== undefined) return { key: c };
  }
  throw unknownKey(raw);
}

/** Parses one chord ("ctrl+shift+t", "ctrl++", "Return") into a wire chord. */
export function parseChord(chord: string): Chord {
  let parts = chord.split('+');
  // "ctrl++" and a lone "+" mean the plus key.
  if (chord.endsWith('+'))
    parts = [
      ...chord
        .slice(0, -1)
        .split('+')
        .filter((p, i, a) => !(p === '' && i === a.length - 1)),
      '+',
    ];
  if (chord === '+') parts = ['+'];
  const raw = parts.pop() ?? '';
  const mods: Modifier[] = [];
  for (const p of parts) {
    const m = MODIFIER_WORDS[p.toLowerCase()];
    if (!m)
      throw new ComputerUseError(
        'invalid_params',
        `A chord names an unknown modifier (${[...p].length} characters, not shown). Modifiers: ctrl, control, ` +
          `alt, shift, meta.`,
      );
    if (!mods.includes(m)) mods.push(m);
  }
  if (!raw) throw new ComputerUseError('invalid_params', 'A chord names no key (it ends with a modifier and +).');
  // A modifier alone ("shift") presses that modifier key; "ctrl" alone is the real Control key.
  const alone = MODIFIER_WORDS[raw.toLowerCase()];
  const key = alone ? { key: MODIFIER_KEYS[alone] ?? 'Control' } : keyOf(raw);
  if (key.shift && !mods.includes('Shift')) mods.push('Shift');
  if (!isNamedKey(key.key) && typedChar(key.key) === undefined) throw unknownKey(raw);
  return { mods: MODIFIERS.filter((m) => mods.includes(m)), key: key.key };
}

/**
 * Parses a keys string: chords separated by white space. Throws invalid_params for an unknown key or
 * modifier, an empty string, or more than MAX_CHORDS chords; nothing is sent for a string that does not parse.
 */
export function parseChords(keys: string): Chord[] {
  if (typeof keys !== 'string')
    throw new ComputerUseError('invalid_params', 'keys must be a string of chords like "ctrl+s Return".');
  const words = keys.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0)
    throw new ComputerUseError('invalid_params', 'keys is empty. Give chords like "ctrl+s" or "Return".');
  if (words.length > MAX_CHORDS)
    throw new ComputerUseError(
      'invalid_params',
      `${words.length} chords in one call; at most ${MAX_CHORDS}. Enter text with computer_act set_value or ` + `type.`,
    );
  return words.map((w, i) => {
    try { return parseChord(w); } catch (e) {
      if (e instanceof ComputerUseError)
        throw new ComputerUseError('invalid_params', `Chord ${i + 1} of ${words.length}: ${e.message}`);
      throw e;
    }
  });
}
