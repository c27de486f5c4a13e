/**
 * Wire key names (protocol/keys.ts) → Windows virtual-key codes (WinUser.h VK_*). `Primary` is Control on
 * Windows. Letters, digits and the space bar have layout-independent codes; any other character is sent as
 * `ch` and the helper asks the active layout for its key (VkKeyScanW), refusing a character the layout lacks.
 */
import type { Chord, Modifier, NamedKey } from '../../protocol/keys.js';

/** Every named key's virtual-key code. */
export const WINDOWS_VKS: Readonly<Record<NamedKey, number>> = {
  Enter: 0x0d,
  Tab: 0x09,
  Backspace: 0x08,
  Delete: 0x2e,
  Insert: 0x2d,
  Escape: 0x1b,
  ArrowUp: 0x26,
  ArrowDown: 0x28,
  ArrowLeft: 0x25,
  ArrowRight: 0x27,
  Home: 0x24,
  End: 0x23,
  PageUp: 0x21,
  PageDown: 0x22,
  Control: 0x11,
  Alt: 0x12,
  Shift: 0x10,
  Meta: 0x5b,
  CapsLock: 0x14,
  NumLock: 0x90,
  ScrollLock: 0x91,
  ContextMenu: 0x5d,
  PrintScreen: 0x2c,
  Pause: 0x13,
  F1: 0x70,
  F2: 0x71,
  F3: 0x72,
  F4: 0x73,
  F5: 0x74,
  F6: 0x75,
  F7: 0x76,
  F8: 0x77,
  F9: 0x78,
  F10: 0x79,
  F11: 0x7a,
  F12: 0x7b,
  F13: 0x7c,
  F14: 0x7d,
  F15: 0x7e,
  F16: 0x7f,
  F17: 0x80,
  F18: 0x81,
  F19: 0x82,
  F20: 0x83,
  F21: 0x84,
  F22: 0x85,
  F23: 0x86,
  F24: 0x87,
  MediaPlayPause: 0xb3,
  MediaStop: 0xb2,
  MediaTrackNext: 0xb0,
  MediaTrackPrevious: 0xb1,
  AudioVolumeUp: 0xaf,
  AudioVolumeDown: 0xae,
  AudioVolumeMute: 0xad,
};

/** Modifiers → VK_CONTROL, VK_MENU (Alt), VK_SHIFT, VK_LWIN; Primary is Control. */
export const MODIFIER_VKS: Readonly<Record<Modifier, number>> = {
  Primary: 0x11,
  Control: 0x11,
  Alt: 0x12,
  Shift: 0x10,
  Meta: 0x5b,
};

/** A chord as the helper takes it: modifier codes then the key's code, or the character for the layout to find. */
export interface HelperChord { vks: number[]; ch?: string }

/** Maps one wire chord; an uppercase letter adds Shift (the key that types it). */
export function helperChord(c: Chord): HelperChord {
  const mods = [...new Set(c.mods.map((m) => MODIFIER_VKS[m]))];
  const named = (WINDOWS_VKS as Readonly<Record<string, number>>)[c.key];
  if (named !== undefined) return { vks: [...mods, named] };
  if (/^[a-z0-9 ]$/.test(c.key)) return { vks: [...mods, c.key.toUpperCase().charCodeAt(0)] };
  if (/^[A-Z]$/.test(c.key)) return { vks: [...new Set([...mods, MODIFIER_VKS.Shift]), c.key.charCodeAt(0)] };
  return { vks: mods, ch: c.key };
}
