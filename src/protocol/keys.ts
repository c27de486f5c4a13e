/**
 * The one chord grammar (Invariant 8: input is data). A keys string from the model ("ctrl+s Return",
 * "shift+Tab", "a b C") is parsed once, here, into `Chord` values validated against the X keysym names;
 * drivers, the CDP channel and the policy's rules all read the parsed form. Nothing a model writes is ever
 * passed on as text for another program to interpret.
 */
import { createRequire } from 'node:module';
import { ComputerUseError } from './errors.js';

/** A modifier held while the key is pressed. */
export type Modifier = 'ctrl' | 'alt' | 'shift' | 'super';
/** The modifiers, in the order they are pressed. */
export const MODIFIERS: readonly Modifier[] = ['ctrl', 'alt', 'shift', 'super'];

/** One chord: modifiers plus one key, named by its X keysym name ("Return", "s", "S", "F5", "space"). */
export interface Chord { mods: Modifier[]; key: string }

/** Most chords one keys call may carry (a longer text goes through set_value or type). */
export const MAX_CHORDS = 64;

const MODIFIER_ALIASES: Record<string, Modifier> = {
  ctrl: 'ctrl', control: 'ctrl', ctl: 'ctrl', alt: 'alt', option: 'alt', shift: 'shift',
  super: 'super', meta: 'super', win: 'super', cmd: 'super', command: 'super',
};

/** Key names models tend to use → X keysym names. */
const KEY_ALIASES: Record<string, string> = {
  enter: 'Return', return: 'Return', esc: 'Escape', escape: 'Escape', tab: 'Tab', space: 'space',
  backspace: 'BackSpace', delete: 'Delete', del: 'Delete', up: 'Up', down: 'Down', left: 'Left', right: 'Right',
  arrowup: 'Up', arrowdown: 'Down', arrowleft: 'Left', arrowright: 'Right',
  home: 'Home', end: 'End', pageup: 'Page_Up', pagedown: 'Page_Down', page_up: 'Page_Up', page_down: 'Page_Down',
  prior: 'Prior', next: 'Next', insert: 'Insert', menu: 'Menu', plus: 'plus', minus: 'minus', kp_enter: 'KP_Enter',
  printscreen: 'Print', print: 'Print', capslock: 'Caps_Lock', numlock: 'Num_Lock', pause: 'Pause',
};

/** Printable ASCII characters → keysym names (letters and digits are their own names). */
const CHAR_KEYSYMS: Record<string, string> = {
  ' ': 'space', '!': 'exclam', '"': 'quotedbl', '#': 'numbersign', $: 'dollar', '%': 'percent', '&': 'ampersand',
  "'": 'apostrophe', '(': 'parenleft', ')': 'parenright', '*': 'asterisk', '+': 'plus', ',': 'comma', '-': 'minus',
  '.': 'period', '/': 'slash', ':': 'colon', ';': 'semicolon', '<': 'less', '=': 'equal', '>': 'greater',
  '?': 'question', '@': 'at', '[': 'bracketleft', '\\': 'backslash', ']': 'bracketright', '^': 'asciicircum',
  _: 'underscore', '`': 'grave', '{': 'braceleft', '|': 'bar', '}': 'braceright', '~': 'asciitilde',
};

let keysymTable: Map<string, number> | undefined;
/** Keysym name → code, from X.Org's keysymdef.h as the x11 package ships it. */
function keysyms(): Map<string, number> {
  if (keysymTable) return keysymTable;
  const table = new Map<string, number>();
  try {
    const raw = createRequire(import.meta.url)('x11/lib/keysyms.js') as Record<string, { code: number }>;
    for (const [name, v] of Object.entries(raw)) if (name.startsWith('XK_')) table.set(name.slice(3), v.code);
  } catch { /* without the table only the built-in names below are known */ }
  for (const name of [...Object.values(KEY_ALIASES), ...Object.values(CHAR_KEYSYMS)]) if (!table.has(name)) table.set(name, 0);
  keysymTable = table;
  return table;
}

/** The keysym code of a name (0 when only the name is known), or undefined for an unknown name. */
export function keysymCode(name: string): number | undefined {
  return keysyms().get(name);
}

/** The keysym name for one typed character (letters, digits, ASCII punctuation, any other code point). */
export function keysymOfChar(ch: string): string {
  if (/^[A-Za-z0-9]$/.test(ch)) return ch;
  const named = CHAR_KEYSYMS[ch];
  if (named) return named;
  const cp = ch.codePointAt(0) ?? 0;
  // X11 maps any Unicode code point to keysym 0x01000000 + cp (named "U" + hex).
  return `U${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

function keyName(raw: string, chord: string): string {
  const alias = KEY_ALIASES[raw.toLowerCase()];
  if (alias) return alias;
  if (/^f([1-9]|1[0-9]|2[0-4])$/i.test(raw)) return raw.toUpperCase();
  if ([...raw].length === 1) return keysymOfChar(raw);
  if (/^U[0-9A-F]{4,6}$/.test(raw)) return raw;
  if (keysyms().has(raw)) return raw;
  // The word is not echoed: it may be text the model meant to type (a password), and errors reach the audit log.
  throw new ComputerUseError('invalid_params', `A chord names an unknown key (${[...raw].length} characters, not shown). Use key names like ` +
    'Return, Tab, Escape, BackSpace, Delete, Up, Page_Down, F5, space, a single character, or modifiers ctrl/alt/shift/super joined with +. ' +
    'To enter text use computer_act set_value or type.');
}

/** Parses one chord ("ctrl+shift+t", "ctrl++", "Return"). */
export function parseChord(chord: string): Chord {
  let parts = chord.split('+');
  // "ctrl++" and a lone "+" mean the plus key.
  if (chord.endsWith('+')) parts = [...chord.slice(0, -1).split('+').filter((p, i, a) => !(p === '' && i === a.length - 1)), '+'];
  if (chord === '+') parts = ['+'];
  const raw = parts.pop() ?? '';
  const mods: Modifier[] = [];
  for (const p of parts) {
    const m = MODIFIER_ALIASES[p.toLowerCase()];
    if (!m) throw new ComputerUseError('invalid_params', `A chord names an unknown modifier (${[...p].length} characters, not shown). Modifiers: ctrl, alt, shift, super.`);
    if (!mods.includes(m)) mods.push(m);
  }
  if (!raw) throw new ComputerUseError('invalid_params', 'A chord names no key (it ends with a modifier and +).');
  // A modifier alone ("shift") is a key press of that modifier.
  const alone = MODIFIER_ALIASES[raw.toLowerCase()];
  const key = alone && parts.length === 0 ? ({ ctrl: 'Control_L', alt: 'Alt_L', shift: 'Shift_L', super: 'Super_L' } as const)[alone] : keyName(raw, chord);
  return { mods: MODIFIERS.filter((m) => mods.includes(m)), key };
}

/**
 * Parses a keys string: chords separated by white space. Throws invalid_params for an unknown key or
 * modifier, an empty string, or more than MAX_CHORDS chords; nothing is sent for a string that does not parse.
 */
export function parseChords(keys: string): Chord[] {
  if (typeof keys !== 'string') throw new ComputerUseError('invalid_params', 'keys must be a string of chords like "ctrl+s Return".');
  const words = keys.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) throw new ComputerUseError('invalid_params', 'keys is empty. Give chords like "ctrl+s" or "Return".');
  if (words.length > MAX_CHORDS) throw new ComputerUseError('invalid_params', `${words.length} chords in one call; at most ${MAX_CHORDS}. Enter text with computer_act set_value or type.`);
  return words.map((w, i) => {
    try { return parseChord(w); } catch (e) {
      if (e instanceof ComputerUseError) throw new ComputerUseError('invalid_params', `Chord ${i + 1} of ${words.length}: ${e.message}`);
      throw e;
    }
  });
}

/** The character a chord types, when it types one (no ctrl/alt/super held), else undefined. */
export function chordChar(c: Chord): string | undefined {
  if (c.mods.some((m) => m !== 'shift')) return undefined;
  if (c.key === 'space') return ' ';
  if (/^[A-Za-z0-9]$/.test(c.key)) return c.mods.includes('shift') ? c.key.toUpperCase() : c.key;
  const ascii = Object.entries(CHAR_KEYSYMS).find(([, name]) => name === c.key)?.[0];
  if (ascii) return ascii;
  const u = /^U([0-9A-F]{4,6})$/.exec(c.key);
  if (u?.[1]) return String.fromCodePoint(parseInt(u[1], 16));
  return undefined;
}

/** True when the chords type characters (not only shortcuts and named keys). */
export function chordsTypeText(chords: readonly Chord[]): boolean {
  return chords.some((c) => chordChar(c) !== undefined && c.key !== 'space') || chords.filter((c) => c.key === 'space').length > 1;
}

/** "ctrl+shift+t" for messages and the audit log. */
export function formatChord(c: Chord): string {
  return [...c.mods, c.key].join('+');
}

/** "ctrl+s Return". */
export function formatChords(chords: readonly Chord[]): string {
  return chords.map(formatChord).join(' ');
}
