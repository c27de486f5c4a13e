/** Where computer-use keeps its files. `COMPUTER_USE_HOME` overrides the default `~/.computer-use`. */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The root folder for settings, sessions, sandboxes and the audit log. */
export function cuHome(): string {
  return process.env['COMPUTER_USE_HOME'] ?? join(homedir(), '.computer-use');
}

/** Folder for state of one concern, e.g. cuPath('sandboxes'). */
export function cuPath(...parts: string[]): string {
  return join(cuHome(), ...parts);
}

/**
 * A sandbox desktop's own folder (its XDG_RUNTIME_DIR, its logs, its apps' HOME), removed when it stops.
 * `display-90`, not `:90`: at-spi-bus-launcher mangles a ':' in XDG_RUNTIME_DIR (it binds `…/_90/at-spi/bus:90`)
 * and the AT-SPI bus fails to start.
 */
export function sandboxDir(display: string): string {
  return cuPath('sandboxes', `display-${display.replace(/^:/, '')}`);
}

/** The HOME a sandbox's apps run with (their settings, recent files, profiles): inside its folder. */
export function sandboxHome(display: string): string {
  return join(sandboxDir(display), 'home');
}

/**
 * A sandbox's home relative to computer-use's home: what lies in it is the sandbox apps' files, not the tool's own
 * (the policy's self-protection leaves it to the apps).
 */
export const SANDBOX_HOME_REL = /^sandboxes\/display-\d+\/home(?=\/|$)/;
