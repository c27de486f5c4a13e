/**
 * Telling the human that a question waits in the panel: a line on stderr with the panel's URL (an MCP
 * client shows it in its server log), a desktop notification without the URL when `notify-send` is
 * installed, and, when asked (`--open-panel`) and no panel page is open, a browser started on a one-time
 * ticket URL (the long-lived token stays out of its argv). None of it reaches the model: the tool result and
 * the MCP progress only say that a question waits (docs/policy.md, "Threat model").
 */
import { spawn } from 'node:child_process';
import { escapeLine } from '../engine/escape.js';
import type { PendingQuestion } from './confirmations.js';
import type { Panel } from './server.js';

/** How to reach the human. */
export interface NotifyOptions {
  /** Start the desktop's browser on the panel when no page of it is open. */
  open?: boolean;
  /** Where the line with the URL goes (default stderr). */
  log?: (line: string) => void;
}

/** Runs a program detached, quietly; a missing program is no error. Arguments are data, never a shell line. */
function quietly(command: string, args: string[]): void {
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch { /* not installed */ }
}

/**
 * An app's words shown to the human on one line: escaped like every outside text (line breaks, controls and
 * bidi marks visible, engine/escape.ts), and no markup (some notification daemons read a subset of HTML).
 */
const plain = (s: string): string => escapeLine(s).replace(/[<>&]/g, ' ').slice(0, 200);

/** Returns the host's announce hook for a running panel. */
export function humanAnnouncer(panel: Panel, opts: NotifyOptions = {}): (q: PendingQuestion) => void {
  const log = opts.log ?? ((l: string) => { process.stderr.write(l + '\n'); });
  return (q) => {
    log(`computer-use panel: a question waits for you (${plain(q.request.title)}): ${panel.url}`);
    quietly('notify-send', [
      '--app-name=computer-use',
      '--',
      'computer-use asks you',
      `${plain(q.request.title)} — answer in the computer-use panel.`,
    ]);
    if (opts.open && panel.viewers() === 0) quietly('xdg-open', [panel.ticketUrl()]);
  };
}
