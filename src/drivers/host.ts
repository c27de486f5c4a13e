/**
 * What a host uses of the platforms beyond the driver protocol, and the one place outside the platform folders
 * that names them: the driver a `computer-use driver <name>` process runs, the headless desktop apps can run in
 * (the Linux sandbox: Xvfb or Weston), and the global stop hotkey (an X11 grab). The per-platform doctors are in
 * doctors.ts. A platform's code is loaded when it is asked for, except the sandbox's small modules.
 */
import type { Chord } from '../protocol/keys.js';
import type { HotkeyGrab } from './linux/input/hotkey.js';

/** The drivers a `computer-use driver <name>` process can run. */
export const DRIVER_NAMES = ['linux', 'cdp', 'android', 'macos', 'windows', 'fake', 'replay'] as const;
/** One of DRIVER_NAMES. */
export type DriverName = (typeof DRIVER_NAMES)[number];

/** True when `name` is a driver this build can run. */
export function isDriverName(name: string | undefined): name is DriverName {
  return (DRIVER_NAMES as readonly (string | undefined)[]).includes(name);
}

/** Starts the named driver in this process, serving the protocol on stdin/stdout; `argv` are its own arguments. */
export async function runDriver(name: DriverName, argv: string[]): Promise<void> {
  switch (name) {
    case 'linux': return (await import('./linux/main.js')).runLinuxDriver();
    case 'cdp': return (await import('./cdp/main.js')).runCdpDriver(argv);
    case 'android': return (await import('./android/main.js')).runAndroidDriver(argv);
    case 'macos': return (await import('./macos/main.js')).runMacDriver();
    case 'windows': return (await import('./windows/main.js')).runWindowsDriver(argv);
    case 'fake': return (await import('./fake/main.js')).runFakeDriver(argv);
    case 'replay': return (await import('./replay/main.js')).runReplayDriver(argv);
  }
}

// The headless desktop: Linux's sandbox, which a host starts, finds, lists and stops.
export {
  defaultKind,
  ensureDesktop,
  findDesktop,
  listSandboxes,
  sandboxEnv,
  startSandbox,
  stopSandbox,
  type Desktop,
  type SandboxInfo,
  type StartOptions,
} from './linux/sandbox/sandbox.js';
export { displayName, HOME_VARS, sandboxKind, shellExports, type SandboxKind } from './linux/sandbox/env.js';

export type { HotkeyGrab };

/**
 * Grabs the global stop `chord` on the X11 `display`, so it reaches us whichever window has the focus; `onPress`
 * runs on every press. `shown` is the chord as the user wrote it, for messages. Rejects when it cannot (Wayland
 * has no global grab for clients).
 */
export async function grabStopHotkey(
  display: string,
  chord: Chord,
  shown: string,
  onPress: () => void,
): Promise<HotkeyGrab> {
  return (await import('./linux/input/hotkey.js')).grabStopHotkey(display, chord, shown, onPress);
}

// The C# compiler the Windows helper is built with, which the conformance kit builds its WinForms harness with.
export { frameworkCsc, monoMcs, type Compiler } from './windows/build.js';
