/**
 * Wire key names (protocol/keys.ts, W3C/DOM) → X keysyms, the Linux driver's codes. Named keys come from
 * X.Org's keysymdef.h and XF86keysym.h (test/unit/keys-table.test.ts checks them against the x11 package's copy
 * of keysymdef.h); a character is its Unicode keysym, which for Latin-1 is the classic keysym keyboard maps
 * carry. `Primary` is Control here, `Meta` the Super (Windows) key, as Chromium on Linux reports it.
 */
import type { Modifier, NamedKey } from '../../../protocol/keys.js';
import { isNamedKey } from '../../../protocol/keys.js';

/** The X modifiers a chord presses (their keys are Control_L, Alt_L, Shift_L and Super_L). */
export type XModifier = 'ctrl' | 'alt' | 'shift' | 'super';
/** The X modifiers in the order they are pressed. */
export const X_MODIFIERS: readonly XModifier[] = ['ctrl', 'alt', 'shift', 'super'];

/** Each wire modifier's X modifier. */
export const LINUX_MODIFIERS: Record<Modifier, XModifier> = {
  Primary: 'ctrl',
  Control: 'ctrl',
  Alt: 'alt',
  Shift: 'shift',
  Meta: 'super',
};

/** Each named key's keysym (the keysymdef.h name is in the comment where it differs). */
export const LINUX_KEYSYMS: Record<NamedKey, number> = {
  Enter: 0xff0d /* Return */,
  Tab: 0xff09,
  Backspace: 0xff08 /* BackSpace */,
  Delete: 0xffff,
  Insert: 0xff63,
  Escape: 0xff1b,
  ArrowUp: 0xff52 /* Up */,
  ArrowDown: 0xff54 /* Down */,
  ArrowLeft: 0xff51 /* Left */,
  ArrowRight: 0xff53 /* Right */,
  Home: 0xff50,
  End: 0xff57,
  PageUp: 0xff55 /* Page_Up */,
  PageDown: 0xff56 /* Page_Down */,
  Control: 0xffe3 /* Control_L */,
  Alt: 0xffe9 /* Alt_L */,
  Shift: 0xffe1 /* Shift_L */,
  Meta: 0xffeb /* Super_L */,
  CapsLock: 0xffe5 /* Caps_Lock */,
  NumLock: 0xff7f /* Num_Lock */,
  ScrollLock: 0xff14 /* Scroll_Lock */,
  ContextMenu: 0xff67 /* Menu */,
  PrintScreen: 0xff61 /* Print */,
  Pause: 0xff13,
  F1: 0xffbe,
  F2: 0xffbf,
  F3: 0xffc0,
  F4: 0xffc1,
  F5: 0xffc2,
  F6: 0xffc3,
  F7: 0xffc4,
  F8: 0xffc5,
  F9: 0xffc6,
  F10: 0xffc7,
  F11: 0xffc8,
  F12: 0xffc9,
  F13: 0xffca,
  F14: 0xffcb,
  F15: 0xffcc,
  F16: 0xffcd,
  F17: 0xffce,
  F18: 0xffcf,
  F19: 0xffd0,
  F20: 0xffd1,
  F21: 0xffd2,
  F22: 0xffd3,
  F23: 0xffd4,
  F24: 0xffd5,
  // XF86keysym.h: XF86AudioPlay, XF86AudioStop, XF86AudioNext, XF86AudioPrev, XF86AudioRaiseVolume, …LowerVolume,
  // …Mute.
  MediaPlayPause: 0x1008ff14,
  MediaStop: 0x1008ff15,
  MediaTrackNext: 0x1008ff17,
  MediaTrackPrevious: 0x1008ff16,
  AudioVolumeUp: 0x1008ff13,
  AudioVolumeDown: 0x1008ff11,
  AudioVolumeMute: 0x1008ff12,
};

/** The keysym of one typed character: Latin-1 keeps its classic keysym, others are 0x01000000 + code point. */
export function charKeysym(ch: string): number | undefined {
  const cps = [...ch];
  if (cps.length !== 1) return undefined;
  const cp = ch.codePointAt(0) ?? 0;
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || (cp >= 0xd800 && cp <= 0xdfff)) return undefined;
  if (cp <= 0xff) return cp;
  return 0x01000000 + cp;
}

/** The keysym of a wire key (a named key or one character), or undefined when it is neither. */
export function keysymOf(key: string): number | undefined {
  return isNamedKey(key) ? LINUX_KEYSYMS[key] : charKeysym(key);
}

/** The X modifiers of a chord's wire modifiers, each once, in pressing order (Primary and Control are one key). */
export function xModifiers(mods: readonly Modifier[]): XModifier[] {
  const held = new Set(mods.map((m) => LINUX_MODIFIERS[m]));
  return X_MODIFIERS.filter((m) => held.has(m));
}
