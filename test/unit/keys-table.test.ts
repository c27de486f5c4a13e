/**
 * The shared key table: every wire key name (protocol/keys.ts) and what each driver sends for it. A driver
 * that lacks a name, maps it to another code, or knows a name the wire does not, fails here. A new driver adds
 * its column (windows: VK_* virtual keys, macos: kVK_* CGKeyCodes, android: KEYCODE_*) and its map.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { CDP_KEYS, chordEvents } from '../../src/drivers/cdp/keys.js';
import { keysymOf, LINUX_KEYSYMS, xModifiers } from '../../src/drivers/linux/input/keysyms.js';
import { chordEvents as macChordEvents, MACOS_KEYCODES } from '../../src/drivers/macos/keys.js';
import { MODIFIER_VKS, WINDOWS_VKS } from '../../src/drivers/windows/keys.js';
import { MODIFIERS, NAMED_KEYS, type Modifier, type NamedKey } from '../../src/protocol/keys.js';

/** Per named key: linux, the X keysym name (keysymdef.h / XF86keysym.h); cdp, the DOM code and Windows virtual key. */
const TABLE: Record<NamedKey, { linux: string; cdp: [string, number] }> = {
  Enter: { linux: 'Return', cdp: ['Enter', 13] },
  Tab: { linux: 'Tab', cdp: ['Tab', 9] },
  Backspace: { linux: 'BackSpace', cdp: ['Backspace', 8] },
  Delete: { linux: 'Delete', cdp: ['Delete', 46] },
  Insert: { linux: 'Insert', cdp: ['Insert', 45] },
  Escape: { linux: 'Escape', cdp: ['Escape', 27] },
  ArrowUp: { linux: 'Up', cdp: ['ArrowUp', 38] },
  ArrowDown: { linux: 'Down', cdp: ['ArrowDown', 40] },
  ArrowLeft: { linux: 'Left', cdp: ['ArrowLeft', 37] },
  ArrowRight: { linux: 'Right', cdp: ['ArrowRight', 39] },
  Home: { linux: 'Home', cdp: ['Home', 36] },
  End: { linux: 'End', cdp: ['End', 35] },
  PageUp: { linux: 'Page_Up', cdp: ['PageUp', 33] },
  PageDown: { linux: 'Page_Down', cdp: ['PageDown', 34] },
  Control: { linux: 'Control_L', cdp: ['ControlLeft', 17] },
  Alt: { linux: 'Alt_L', cdp: ['AltLeft', 18] },
  Shift: { linux: 'Shift_L', cdp: ['ShiftLeft', 16] },
  Meta: { linux: 'Super_L', cdp: ['MetaLeft', 91] },
  CapsLock: { linux: 'Caps_Lock', cdp: ['CapsLock', 20] },
  NumLock: { linux: 'Num_Lock', cdp: ['NumLock', 144] },
  ScrollLock: { linux: 'Scroll_Lock', cdp: ['ScrollLock', 145] },
  ContextMenu: { linux: 'Menu', cdp: ['ContextMenu', 93] },
  PrintScreen: { linux: 'Print', cdp: ['PrintScreen', 44] },
  Pause: { linux: 'Pause', cdp: ['Pause', 19] },
  F1: { linux: 'F1', cdp: ['F1', 112] },
  F2: { linux: 'F2', cdp: ['F2', 113] },
  F3: { linux: 'F3', cdp: ['F3', 114] },
  F4: { linux: 'F4', cdp: ['F4', 115] },
  F5: { linux: 'F5', cdp: ['F5', 116] },
  F6: { linux: 'F6', cdp: ['F6', 117] },
  F7: { linux: 'F7', cdp: ['F7', 118] },
  F8: { linux: 'F8', cdp: ['F8', 119] },
  F9: { linux: 'F9', cdp: ['F9', 120] },
  F10: { linux: 'F10', cdp: ['F10', 121] },
  F11: { linux: 'F11', cdp: ['F11', 122] },
  F12: { linux: 'F12', cdp: ['F12', 123] },
  F13: { linux: 'F13', cdp: ['F13', 124] },
  F14: { linux: 'F14', cdp: ['F14', 125] },
  F15: { linux: 'F15', cdp: ['F15', 126] },
  F16: { linux: 'F16', cdp: ['F16', 127] },
  F17: { linux: 'F17', cdp: ['F17', 128] },
  F18: { linux: 'F18', cdp: ['F18', 129] },
  F19: { linux: 'F19', cdp: ['F19', 130] },
  F20: { linux: 'F20', cdp: ['F20', 131] },
  F21: { linux: 'F21', cdp: ['F21', 132] },
  F22: { linux: 'F22', cdp: ['F22', 133] },
  F23: { linux: 'F23', cdp: ['F23', 134] },
  F24: { linux: 'F24', cdp: ['F24', 135] },
  MediaPlayPause: { linux: 'XF86AudioPlay', cdp: ['MediaPlayPause', 179] },
  MediaStop: { linux: 'XF86AudioStop', cdp: ['MediaStop', 178] },
  MediaTrackNext: { linux: 'XF86AudioNext', cdp: ['MediaTrackNext', 176] },
  MediaTrackPrevious: { linux: 'XF86AudioPrev', cdp: ['MediaTrackPrevious', 177] },
  AudioVolumeUp: { linux: 'XF86AudioRaiseVolume', cdp: ['AudioVolumeUp', 175] },
  AudioVolumeDown: { linux: 'XF86AudioLowerVolume', cdp: ['AudioVolumeDown', 174] },
  AudioVolumeMute: { linux: 'XF86AudioMute', cdp: ['AudioVolumeMute', 173] },
};

/** Character keys: the Linux keysym (Latin-1 classic, else 0x01000000 + code point) and the CDP key fields. */
const CHARS: [string, number, { key: string; code: string; keyCode: number; modifiers: number }][] = [
  ['a', 0x61, { key: 'a', code: 'KeyA', keyCode: 65, modifiers: 0 }],
  ['A', 0x41, { key: 'A', code: 'KeyA', keyCode: 65, modifiers: 8 }],
  ['1', 0x31, { key: '1', code: 'Digit1', keyCode: 49, modifiers: 0 }],
  [' ', 0x20, { key: ' ', code: 'Space', keyCode: 32, modifiers: 0 }],
  [',', 0x2c, { key: ',', code: 'Comma', keyCode: 188, modifiers: 0 }],
  ['+', 0x2b, { key: '+', code: '', keyCode: 0, modifiers: 0 }],
  ['é', 0xe9, { key: 'é', code: '', keyCode: 0, modifiers: 0 }],
  ['中', 0x01004e2d, { key: '中', code: '', keyCode: 0, modifiers: 0 }],
  ['😀', 0x0101f600, { key: '😀', code: '', keyCode: 0, modifiers: 0 }],
];

/** What each wire modifier holds: linux, the X modifier; cdp, the dispatchKeyEvent bit (Primary: off macOS, on macOS). */
const MODS: Record<Modifier, { linux: string; cdp: number; cdpMac: number }> = {
  Primary: { linux: 'ctrl', cdp: 2, cdpMac: 4 },
  Control: { linux: 'ctrl', cdp: 2, cdpMac: 2 },
  Alt: { linux: 'alt', cdp: 1, cdpMac: 1 },
  Shift: { linux: 'shift', cdp: 8, cdpMac: 8 },
  Meta: { linux: 'super', cdp: 4, cdpMac: 4 },
};

/** XF86keysym.h values (the x11 package ships keysymdef.h only). */
const XF86: Record<string, number> = {
  XF86AudioLowerVolume: 0x1008ff11,
  XF86AudioMute: 0x1008ff12,
  XF86AudioRaiseVolume: 0x1008ff13,
  XF86AudioPlay: 0x1008ff14,
  XF86AudioStop: 0x1008ff15,
  XF86AudioPrev: 0x1008ff16,
  XF86AudioNext: 0x1008ff17,
};
const keysymdef = createRequire(import.meta.url)('x11/lib/keysyms.js') as Record<string, { code: number }>;
const keysymNamed = (name: string): number | undefined => XF86[name] ?? keysymdef[`XK_${name}`]?.code;

test('the table has a row for every wire key name, and every driver maps exactly the wire names', () => {
  assert.deepEqual(Object.keys(TABLE).sort(), [...NAMED_KEYS].sort());
  for (const [driver, map] of [['linux', LINUX_KEYSYMS], ['cdp', CDP_KEYS], ['windows', WINDOWS_VKS]] as const) {
    const missing = NAMED_KEYS.filter((k) => !(k in map));
    assert.deepEqual(missing, [], `${driver} lacks ${missing.join(', ')}`);
    assert.deepEqual(Object.keys(map).sort(), [...NAMED_KEYS].sort(), `${driver} maps names the wire does not have`);
  }
  assert.deepEqual(Object.keys(MODS), [...MODIFIERS]);
});

test('linux: every named key is its X keysym (checked against keysymdef.h as the x11 package ships it)', () => {
  for (const key of NAMED_KEYS) {
    const want = keysymNamed(TABLE[key].linux);
    assert.ok(want !== undefined, `${TABLE[key].linux} is an X keysym name`);
    assert.equal(keysymOf(key), want, `${key} → ${TABLE[key].linux}`);
  }
  for (const [ch, keysym] of CHARS) assert.equal(keysymOf(ch), keysym, JSON.stringify(ch));
  for (const m of MODIFIERS) assert.deepEqual(xModifiers([m]), [MODS[m].linux], m);
});

test('cdp: every named key is its DOM key, code and virtual key; Primary is Meta only in a browser on macOS', () => {
  for (const key of NAMED_KEYS) {
    const [down] = chordEvents({ mods: [], key });
    const [code, keyCode] = TABLE[key].cdp;
    assert.deepEqual(
      { key: down?.['key'], code: down?.['code'], keyCode: down?.['windowsVirtualKeyCode'] },
      { key, code, keyCode },
      key,
    );
  }
  for (const [ch, , want] of CHARS) {
    const [down] = chordEvents({ mods: [], key: ch });
    assert.deepEqual(
      {
        key: down?.['key'],
        code: down?.['code'],
        keyCode: down?.['windowsVirtualKeyCode'],
        modifiers: down?.['modifiers'],
      },
      want,
      JSON.stringify(ch),
    );
    assert.equal(down?.['text'], ch, 'a character key types itself');
  }
  for (const m of MODIFIERS) {
    assert.equal(chordEvents({ mods: [m], key: 'F5' })[0]?.['modifiers'], MODS[m].cdp, m);
    assert.equal(chordEvents({ mods: [m], key: 'F5' }, 'Meta')[0]?.['modifiers'], MODS[m].cdpMac, `${m} on macOS`);
  }
});

/**
 * macOS: HIToolbox Events.h kVK_* per named key (null: no such key on a Mac keyboard, refused before sending),
 * the CGEventFlags each wire modifier holds (Primary and Meta are Command; the model's ctrl is
 * Command on macOS and control is the real Control key), and US-layout codes of characters.
 */
const MACOS: Record<NamedKey, number | null> = {
  Enter: 0x24,
  Tab: 0x30,
  Backspace: 0x33,
  Delete: 0x75,
  Insert: 0x72,
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
  NumLock: 0x47,
  ScrollLock: 0x6b,
  ContextMenu: 0x6e,
  PrintScreen: 0x69,
  Pause: 0x71,
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
  MediaPlayPause: null,
  MediaStop: null,
  MediaTrackNext: null,
  MediaTrackPrevious: null,
  AudioVolumeUp: 0x48,
  AudioVolumeDown: 0x49,
  AudioVolumeMute: 0x4a,
};
const MACOS_MODS: Record<Modifier, number> = {
  Primary: 0x100000,
  Control: 0x40000,
  Alt: 0x80000,
  Shift: 0x20000,
  Meta: 0x100000,
};

test('macos: every named key is its kVK code, Primary is Command and Control the real Control key', () => {
  assert.deepEqual(Object.keys(MACOS_KEYCODES).sort(), [...NAMED_KEYS].sort(), 'macos maps exactly the wire names');
  for (const key of NAMED_KEYS) {
    const want = MACOS[key];
    if (want === null) {
      assert.throws(() => macChordEvents([], key), /does not exist on a Mac keyboard/, key);
      continue;
    }
    const events = macChordEvents([], key);
    assert.deepEqual(events.map((e) => [e.code, e.down]), [[want, true], [want, false]], key);
  }
  for (const m of MODIFIERS) {
    const key = macChordEvents([m], 'F5').find((e) => e.code === 0x60 && e.down);
    assert.equal(key?.flags, MACOS_MODS[m], m);
  }
  // ctrl+s as the host parses it (Primary+s) is Command-S: kVK_Command down, kVK_ANSI_S with the Command flag.
  assert.deepEqual(macChordEvents(['Primary'], 's').map((e) => [e.code, e.down, e.flags]),
    [[0x37, true, 0x100000], [0x01, true, 0x100000], [0x01, false, 0x100000], [0x37, false, 0]]);
  // Characters: their US key; shifted ones add Shift; others type as a Unicode string on key code 0.
  const typed = (ch: string) => macChordEvents([], ch)[0];
  assert.deepEqual(typed('a'), { code: 0x00, down: true, flags: 0, text: 'a' });
  assert.deepEqual(typed('A'), { code: 0x00, down: true, flags: 0x20000, text: 'A' });
  assert.deepEqual(typed('+'), { code: 0x18, down: true, flags: 0x20000, text: '+' });
  assert.deepEqual(typed(' '), { code: 0x31, down: true, flags: 0, text: ' ' });
  assert.deepEqual(typed('中'), { code: 0, down: true, flags: 0, text: '中' });
  assert.deepEqual(typed('😀'), { code: 0, down: true, flags: 0, text: '😀' });
  assert.throws(() => macChordEvents(['Primary'], '中'), /no key on a US Mac keyboard/);
});

test('windows: every named key is its Windows virtual key (the ' +
    'same VK_* the cdp column names); Primary is Control', () => {
  for (const k of NAMED_KEYS) assert.equal(WINDOWS_VKS[k], TABLE[k].cdp[1], k);
  assert.deepEqual(MODIFIER_VKS, { Primary: 0x11, Control: 0x11, Alt: 0x12, Shift: 0x10, Meta: 0x5b });
});
