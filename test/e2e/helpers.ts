/** Shared pieces of the end-to-end tests (they run inside `computer-use sandbox exec`). */
import assert from 'node:assert/strict';
import { foldEntries } from '../../bench/eval/lines.js';
import { createComputer, type Computer, type ComputerOptions, type ToolResult } from '../../src/index.js';

/** The apps the e2e tests drive: allowed explicitly, so the tests never wait for a question. */
export const E2E_APPS = ['gedit', 'gtk3-widget-factory', 'gtk4-widget-factory', 'zenity', 'mousepad'];

/** A computer on the desktop the test runs in; bypass mode for the test apps only (the deny list still holds). */
export async function openComputer(options: ComputerOptions = {}): Promise<Computer> {
  assert.ok(process.env['DISPLAY'], 'e2e tests run inside a desktop: npm run test:e2e starts a sandbox');
  return createComputer({ desktop: 'current', mode: 'bypass', allowApps: E2E_APPS, ...options });
}

/**
 * The lines of `text`, each folded run's entries first as lines of their own (`[e19] menu "Paste Special"`), then
 * the run's line: a test finds a folded element as it finds a printed one.
 */
function elementLines(text: string): string[] {
  return text.split('\n').flatMap((line) => {
    const entries = foldEntries(line);
    if (!entries) return [line];
    const own = entries.map((e) => {
      const after = e.after.replace(/,? *\+\d+ more.*$/, '');
      return `${e.lead}[${e.ref}] ${e.role} "${e.quotedName}"${after}`;
    });
    return [...own, line];
  });
}

/** The ref on the first line of `text` that matches `pattern`; fails the test when there is none. */
export function refOn(text: string, pattern: RegExp): string {
  for (const line of elementLines(text)) {
    if (pattern.test(line)) {
      const m = /\[(e\d+)\]/.exec(line);
      if (m?.[1]) return m[1];
    }
  }
  assert.fail(`no line matches ${pattern} in:\n${text}`);
}

/** The line carrying a ref (a folded entry's own line). */
export function lineOf(text: string, ref: string): string | undefined {
  return elementLines(text).find((l) => l.includes(`[${ref}]`));
}

/** Asserts a tool call succeeded and returns its text. */
export function ok(r: ToolResult): string {
  assert.equal(r.isError, false, r.text);
  return r.text;
}

/** Launches an app through the tool and returns its pid and launch text; kill it with `killApp`. */
export async function launch(
  computer: Computer,
  command: string,
  args: string[] = [],
): Promise<{ pid: number; text: string }> {
  const text = ok(await computer.tools.launch({ command, args, waitMs: 20000 }));
  const pid = Number(/pid=(\d+)/.exec(text)?.[1]);
  assert.ok(pid > 0, text);
  return { pid, text };
}

/** Ends an app process (TERM, then KILL). */
export async function killApp(pid: number): Promise<void> {
  try { process.kill(pid, 'SIGTERM'); } catch { return; }
  for (let i = 0; i < 40; i++) {
    try { process.kill(pid, 0); } catch { return; }
    await new Promise((r) => setTimeout(r, 50));
  }
  try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
}
