/**
 * What a user must do when macOS does not trust the driver for Accessibility, said so it can be done as read.
 * macOS asks the "responsible" app: the terminal or the agent host that started computer-use (its bundle id is in
 * __CFBundleIdentifier), else, under launchd, ssh or a CI runner, the node binary itself, which the user adds with
 * + in the pane (⌘⇧G takes a path). The home folder is shown as ~, so the message names no user.
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { ACCESSIBILITY_FIX, responsibleApp } from './cf.js';

/** Who to trust, and the message of permission_denied. */
export interface AccessibilityGrant {
  /** The app (bundle id or terminal name) or the node binary to turn on. */
  grant: string;
  /** The node binary, home shown as ~ (what to add with + when the app is not listed). */
  binary: string;
  /** The whole instruction. */
  message: string;
}

/** The path with the home folder shown as ~. */
export function tildePath(path: string, home: string = homedir()): string {
  return home && (path === home || path.startsWith(`${home}/`)) ? `~${path.slice(home.length)}` : path;
}

/** What to grant, where, and how, for this process. */
export function accessibilityGrant(env: NodeJS.ProcessEnv = process.env, exec: string = process.execPath,
  home: string = homedir()): AccessibilityGrant {
  let real = exec;
  try { real = realpathSync(exec); } catch { /* keep the path node reports */ }
  const binary = tildePath(real, home);
  const app = env['__CFBundleIdentifier'] ?? env['TERM_PROGRAM'];
  const grant = app ?? binary;
  const add = app ? `${app} (if it is not listed, press + and add it; started from elsewhere, add ${binary})`
    : `${binary} (press +, then ⌘⇧G and paste that path)`;
  return {
    grant, binary,
    message: `macOS does not trust ${grant} for Accessibility, so nothing was read or sent. ` +
      `Open ${ACCESSIBILITY_FIX}, turn on ${add}, ` +
      `then quit ${app ?? 'the program that started computer-use'} and start it again. ${responsibleNote(app)}`.trim(),
  };
}

function responsibleNote(app: string | undefined): string {
  if (app) return '';
  return `(macOS asks the app that started this process: ${responsibleApp({})}; with none, the node binary itself.)`;
}
