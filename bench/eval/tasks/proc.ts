/**
 * Processes a task's setup starts itself (a zenity dialog, a test app) on the desktop, with their stdout and exit
 * code captured: what the user chose is the checker's ground truth, outside the tool layer.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { CheckResult, TaskContext } from '../task.js';

/** A process started by setup. */
export interface Captured {
  /** Everything it printed so far. */
  stdout(): string;
  /** Resolves with its exit code (null when killed by a signal), or undefined when `ms` pass first. */
  exited(ms: number): Promise<number | null | undefined>;
  /** Resolves once a line equal to `line` was printed (false when `ms` pass first or it exited). */
  printed(line: string, ms: number): Promise<boolean>;
  /** Kills it (and a delayed start that has not happened yet). */
  stop(): Promise<void>;
}

/** Starts `command` on the task's desktop, now or after `delayMs` (a dialog that appears late). */
export function startCaptured(ctx: TaskContext, command: string, args: readonly string[], delayMs = 0): Captured {
  let out = '';
  let child: ChildProcess | undefined;
  let code: number | null | undefined;
  let stopped = false;
  const waiters = new Set<() => void>();
  const wake = (): void => { for (const w of [...waiters]) w(); };
  const run = (): void => {
    if (stopped) return;
    child = spawn(command, [...args], { env: { ...process.env, ...ctx.env }, stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (s: string) => { out += s; wake(); });
    child.on('exit', (c) => { code = c; wake(); });
    child.on('error', () => { code = null; wake(); });
  };
  const timer = delayMs > 0 ? setTimeout(run, delayMs) : undefined;
  if (delayMs <= 0) run();
  // Waits until `done()` holds or `ms` pass, woken by output and exit (no polling).
  const until = (done: () => boolean, ms: number): Promise<boolean> => new Promise((resolve) => {
    if (done()) { resolve(true); return; }
    const check = (): void => { if (done()) finish(true); };
    const t = setTimeout(() => finish(false), ms);
    const finish = (v: boolean): void => { clearTimeout(t); waiters.delete(check); resolve(v); };
    waiters.add(check);
  });
  return {
    stdout: () => out,
    exited: async (ms) => ((await until(() => code !== undefined, ms)) ? code : undefined),
    printed: (line, ms) =>
      until(() => out.split('\n').includes(line) || code !== undefined, ms).then(() => out.split('\n').includes(line)),
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (child && code === undefined) {
        child.kill('SIGTERM');
        await until(() => code !== undefined, 3000);
      }
    },
  };
}

/** The verdict on a dialog's answer: it exited with `code` and printed exactly `expected` (one line). */
export async function printedAndExited(p: Captured, expected: string, code = 0, ms = 8000): Promise<CheckResult> {
  const got = await p.exited(ms);
  const text = p.stdout().replace(/\n$/, '');
  if (got === undefined)
    return { ok: false, detail: `still open after the solver stopped; printed ${JSON.stringify(text)}` };
  if (got !== code)
    return { ok: false, detail: `exited with ${String(got)} (expected ${code}); printed ${JSON.stringify(text)}` };
  return text === expected
    ? { ok: true, detail: `printed ${JSON.stringify(text)}` }
    : { ok: false, detail: `printed ${JSON.stringify(text)}, expected ${JSON.stringify(expected)}` };
}
