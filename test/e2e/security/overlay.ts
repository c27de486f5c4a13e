/** The GTK overlay test app (test/apps/overlay.py) as a child process whose printed lines a test can await. */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The script path: an interpreted app is allowed by interpreter + script, never by its self-chosen name. */
export const APP = fileURLToPath(new URL('../../../../test/apps/overlay.py', import.meta.url));

/** A running overlay window: the lines it printed, a way to await one, and how to end it. */
export interface Overlay {
  readonly proc: ChildProcess;
  readonly lines: string[];
  /** Resolves when a printed line matches, failing after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  kill(): void;
}

/** Starts overlay.py with these arguments and waits until its window is mapped ("ready"). */
export async function startOverlay(args: string[]): Promise<Overlay> {
  // The system python has GTK (gi); the one on PATH may not.
  const proc = spawn('/usr/bin/python3', [APP, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines: string[] = [];
  const waiters: (() => void)[] = [];
  createInterface({ input: proc.stdout! }).on('line', (l) => { lines.push(l); waiters.splice(0).forEach((w) => w()); });
  proc.on('exit', () => waiters.splice(0).forEach((w) => w()));
  const waitFor = async (pattern: RegExp, timeoutMs = 15_000): Promise<string> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = lines.find((l) => pattern.test(l));
      if (hit !== undefined) return hit;
      if (proc.exitCode !== null) assert.fail(`overlay ${args.join(' ')} exited before printing ${pattern}`);
      const left = deadline - Date.now();
      if (left <= 0)
        assert.fail(`overlay ${args.join(' ')} printed no ${pattern} within ${timeoutMs} ms: ${JSON.stringify(lines)}`);
      await new Promise<void>((r) => { const t = setTimeout(r, left); waiters.push(() => { clearTimeout(t); r(); }); });
    }
  };
  const overlay: Overlay = { proc, lines, waitFor, kill: () => { proc.kill('SIGKILL'); } };
  await waitFor(/^ready$/);
  return overlay;
}
