/**
 * The global stop hotkey (default `ctrl+shift+Escape`, settings.json `stopHotkey`): the panel's process holds it,
 * and pressing it pauses every session of the home like `computer-use stop`. The chord is written like
 * computer_keys' and grabbed where the desktop offers a global grab (drivers/host.ts: an X11 display); elsewhere
 * the panel's button and `computer-use stop` remain.
 */
import { grabStopHotkey as grabOnDesktop, type HotkeyGrab } from '../drivers/host.js';
import { parseChord } from '../session/chords.js';

/** The chord when settings name none. */
export const DEFAULT_STOP_HOTKEY = 'ctrl+shift+Escape';

export type { HotkeyGrab };

/** Grabs `chord` on `display`; `onPress` runs on every press. Rejects when it cannot (or the chord does not parse). */
export async function grabStopHotkey(display: string, chord: string, onPress: () => void): Promise<HotkeyGrab> {
  return grabOnDesktop(display, parseChord(chord), chord, onPress);
}
