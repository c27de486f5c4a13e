/**
 * Input on the phone as argv for its `input` program (and the ADB Keyboard IME for text `input` cannot type).
 * Every command is a list of literal words, quoted once by quote.ts; no text from the model is ever spliced into
 * a command line. `input text` has two traps: it types only what the device's key map has keys for (ASCII), and
 * it turns every `%s` into a space; the text is split around `%s` so the letters arrive as typed, and anything
 * outside printable ASCII goes through the IME's base64 broadcast or is refused.
 */

/** A point in physical pixels. */
export interface Point { x: number; y: number }

/** The IME that types any Unicode text through a broadcast (github: senzhk/ADBKeyBoard). */
export const ADB_KEYBOARD_IME = 'com.android.adbkeyboard/.AdbIME';

/** A tap at the center of a rectangle [x, y, w, h], kept inside it. */
export function centerOf(bounds: readonly [number, number, number, number]): Point {
  const [x, y, w, h] = bounds;
  return { x: Math.round(x + Math.max(0, w - 1) / 2), y: Math.round(y + Math.max(0, h - 1) / 2) };
}

/** `input tap X Y`. */
export function tapArgv(p: Point): string[] { return ['input', 'tap', String(p.x), String(p.y)]; }

/** A long press: a swipe that does not move, held `ms`. */
export function longPressArgv(p: Point, ms = 600): string[] {
  return ['input', 'swipe', String(p.x), String(p.y), String(p.x), String(p.y), String(ms)];
}

/** `input swipe X1 Y1 X2 Y2 MS`. */
export function swipeArgv(from: Point, to: Point, ms = 300): string[] {
  return ['input', 'swipe', String(from.x), String(from.y), String(to.x), String(to.y), String(ms)];
}

/** True when `input text` can type every character: printable ASCII. */
export function typableByInput(text: string): boolean { return /^[\x20-\x7e]*$/.test(text); }

/**
 * The `input text` calls that type `text` exactly: one per piece between `%s` pairs, each piece ending before
 * the `s` so no piece holds `%s` (the device would type a space for it).
 */
export function inputTextArgvs(text: string): string[][] {
  if (!typableByInput(text)) throw new Error('input text types printable ASCII only');
  if (text === '') return [];
  const pieces: string[] = [];
  let rest = text;
  for (let i = rest.indexOf('%s'); i >= 0; i = rest.indexOf('%s')) {
    pieces.push(rest.slice(0, i + 1));
    rest = rest.slice(i + 1);
  }
  pieces.push(rest);
  return pieces.filter((p) => p !== '').map((p) => ['input', 'text', p]);
}

/** The ADB Keyboard broadcast that types `text` (any Unicode) into the focused field. */
export function imeTextArgv(text: string): string[] {
  return ['am', 'broadcast', '-a', 'ADB_INPUT_B64', '--es', 'msg', Buffer.from(text, 'utf8').toString('base64')];
}

/** `input keyevent` for one key code; several codes in one call are pressed one after another. */
export function keyeventArgv(codes: readonly string[]): string[] { return ['input', 'keyevent', ...codes]; }

/** A chord (`input keycombination`, Android 13+): the codes held together. */
export function keycombinationArgv(codes: readonly string[]): string[] { return ['input', 'keycombination', ...codes]; }

/**
 * W3C key names (the protocol's key grammar) → Android KEYCODE_* names. Letters and digits are added below;
 * modifiers are the left-hand keys.
 */
export const ANDROID_KEYCODES: Readonly<Record<string, string>> = (() => {
  const map: Record<string, string> = {
    Enter: 'KEYCODE_ENTER',
    Tab: 'KEYCODE_TAB',
    Escape: 'KEYCODE_ESCAPE',
    Backspace: 'KEYCODE_DEL',
    Delete: 'KEYCODE_FORWARD_DEL',
    ' ': 'KEYCODE_SPACE',
    Space: 'KEYCODE_SPACE',
    ArrowUp: 'KEYCODE_DPAD_UP',
    ArrowDown: 'KEYCODE_DPAD_DOWN',
    ArrowLeft: 'KEYCODE_DPAD_LEFT',
    ArrowRight: 'KEYCODE_DPAD_RIGHT',
    Home: 'KEYCODE_MOVE_HOME',
    End: 'KEYCODE_MOVE_END',
    PageUp: 'KEYCODE_PAGE_UP',
    PageDown: 'KEYCODE_PAGE_DOWN',
    Insert: 'KEYCODE_INSERT',
    ContextMenu: 'KEYCODE_MENU',
    PrintScreen: 'KEYCODE_SYSRQ',
    CapsLock: 'KEYCODE_CAPS_LOCK',
    NumLock: 'KEYCODE_NUM_LOCK',
    ScrollLock: 'KEYCODE_SCROLL_LOCK',
    Pause: 'KEYCODE_BREAK',
    MediaPlayPause: 'KEYCODE_MEDIA_PLAY_PAUSE',
    MediaStop: 'KEYCODE_MEDIA_STOP',
    MediaTrackNext: 'KEYCODE_MEDIA_NEXT',
    MediaTrackPrevious: 'KEYCODE_MEDIA_PREVIOUS',
    AudioVolumeUp: 'KEYCODE_VOLUME_UP',
    AudioVolumeDown: 'KEYCODE_VOLUME_DOWN',
    AudioVolumeMute: 'KEYCODE_VOLUME_MUTE',
    BrowserBack: 'KEYCODE_BACK',
    BrowserHome: 'KEYCODE_HOME',
    BrowserSearch: 'KEYCODE_SEARCH',
    Control: 'KEYCODE_CTRL_LEFT',
    Alt: 'KEYCODE_ALT_LEFT',
    Shift: 'KEYCODE_SHIFT_LEFT',
    Meta: 'KEYCODE_META_LEFT',
    // Primary is Control everywhere but macOS (the protocol's key grammar).
    Primary: 'KEYCODE_CTRL_LEFT',
    '.': 'KEYCODE_PERIOD',
    ',': 'KEYCODE_COMMA',
    '-': 'KEYCODE_MINUS',
    '=': 'KEYCODE_EQUALS',
    '/': 'KEYCODE_SLASH',
    '\\': 'KEYCODE_BACKSLASH',
    ';': 'KEYCODE_SEMICOLON',
    "'": 'KEYCODE_APOSTROPHE',
    '[': 'KEYCODE_LEFT_BRACKET',
    ']': 'KEYCODE_RIGHT_BRACKET',
    '`': 'KEYCODE_GRAVE',
    '@': 'KEYCODE_AT',
    '+': 'KEYCODE_PLUS',
    '*': 'KEYCODE_STAR',
    '#': 'KEYCODE_POUND',
  };
  for (let c = 0; c < 26; c++) {
    const l = String.fromCharCode(97 + c);
    map[l] = `KEYCODE_${l.toUpperCase()}`;
    map[l.toUpperCase()] = `KEYCODE_${l.toUpperCase()}`;
  }
  for (let d = 0; d <= 9; d++) map[String(d)] = `KEYCODE_${d}`;
  for (let f = 1; f <= 12; f++) map[`F${f}`] = `KEYCODE_F${f}`;
  return map;
})();

/** The system actions a phone has instead of keys: the protocol's ops back / home / recents / notifications on the
* window node. */
export const SYSTEM_ACTIONS = {
  back: ['input', 'keyevent', 'KEYCODE_BACK'],
  home: ['input', 'keyevent', 'KEYCODE_HOME'],
  recents: ['input', 'keyevent', 'KEYCODE_APP_SWITCH'],
  notifications: ['cmd', 'statusbar', 'expand-notifications'],
} as const satisfies Record<'back' | 'home' | 'recents' | 'notifications', readonly string[]>;
