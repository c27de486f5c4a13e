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
