/**
 * Key chords ("ctrl+a", "Return", "shift+Tab") → `Input.dispatchKeyEvent` parameters. Events go to the page
 * target, not to the desktop: no window focus is needed.
 */

/** Modifier bits of Input.dispatchKeyEvent. */
const MODIFIERS: Record<string, number> = { alt: 1, ctrl: 2, control: 2, meta: 4, super: 4, cmd: 4, shift: 8 };

interface KeyDef { key: string; code: string; keyCode: number; text?: string }

const NAMED: Record<string, KeyDef> = {
  enter: { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' },
  return: { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' },
  tab: { key: 'Tab', code: 'Tab', keyCode: 9 },
  escape: { key: 'Escape', code: 'Escape', keyCode: 27 },
  esc: { key: 'Escape', code: 'Escape', keyCode: 27 },
  backspace: { key: 'Backspace', code: 'Backspace', keyCode: 8 },
  delete: { key: 'Delete', code: 'Delete', keyCode: 46 },
  space: { key: ' ', code: 'Space', keyCode: 32, text: ' ' },
  up: { key: 'ArrowUp', code: 'ArrowUp', keyCode: 38 },
  down: { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 },
  left: { key: 'ArrowLeft', code: 'ArrowLeft', keyCode: 37 },
  right: { key: 'ArrowRight', code: 'ArrowRight', keyCode: 39 },
  home: { key: 'Home', code: 'Home', keyCode: 36 },
  end: { key: 'End', code: 'End', keyCode: 35 },
  pageup: { key: 'PageUp', code: 'PageUp', keyCode: 33 },
  pagedown: { key: 'PageDown', code: 'PageDown', keyCode: 34 },
  insert: { key: 'Insert', code: 'Insert', keyCode: 45 },
};
for (const [alias, to] of [['arrowup', 'up'], ['arrowdown', 'down'], ['arrowleft', 'left'], ['arrowright', 'right'], ['page_up', 'pageup'], ['page_down', 'pagedown'], ['prior', 'pageup'], ['next', 'pagedown']] as const) {
  NAMED[alias] = NAMED[to]!;
}
for (let i = 1; i <= 12; i++) NAMED[`f${i}`] = { key: `F${i}`, code: `F${i}`, keyCode: 111 + i };

/** The keyDown/keyUp event pairs of one chord. */
export function chordEvents(chord: string): Record<string, unknown>[] {
  const parts = chord.split('+').map((p) => p.trim()).filter((p, i, a) => p !== '' || i === a.length - 1);
  // "ctrl++" means ctrl and the plus key.
  if (chord.endsWith('++')) parts.splice(parts.length - 1, 1, '+');
  const keyName = parts.pop() ?? '';
  let modifiers = 0;
  for (const m of parts) {
    const bit = MODIFIERS[m.toLowerCase()];
    if (bit === undefined) throw new Error(`unknown modifier "${m}" in "${chord}"`);
    modifiers |= bit;
  }
  let def = NAMED[keyName.toLowerCase()];
  if (!def) {
    if ([...keyName].length !== 1) throw new Error(`unknown key "${keyName}" in "${chord}"`);
    const ch = keyName;
    const upper = ch.toUpperCase();
    const code = /[a-z]/i.test(ch) ? `Key${upper}` : /[0-9]/.test(ch) ? `Digit${ch}` : '';
    const shifted = (modifiers & 8) !== 0 && /[a-z]/.test(ch) ? upper : ch;
    def = { key: shifted, code, keyCode: /[a-z0-9]/i.test(ch) ? upper.charCodeAt(0) : ch.charCodeAt(0), text: shifted };
  }
  // With ctrl/alt/meta held a key produces no text (it is a shortcut).
  const text = modifiers & (1 | 2 | 4) ? undefined : def.text;
  const base = { modifiers, key: def.key, code: def.code, windowsVirtualKeyCode: def.keyCode, nativeVirtualKeyCode: def.keyCode };
  return [
    { type: text ? 'keyDown' : 'rawKeyDown', ...base, ...(text ? { text, unmodifiedText: text } : {}) },
    { type: 'keyUp', ...base },
  ];
}

/** Splits "ctrl+a Tab" / "ctrl+a, Return" into chords. */
export function splitChords(keys: string): string[] {
  return keys.split(/[\s,]+/).filter(Boolean);
}
