/**
 * Apps a task's setup starts itself: the ones computer_launch may not start (a terminal runs any program named
 * in its arguments, so the policy refuses it) or that start slowly through a launcher (LibreOffice's oosplash
 * starts soffice.bin, whose window belongs to another pid). The setup waits for the window, so the solver
 * meets the app as a user who already has it open.
 */
import { spawn } from 'node:child_process';
import { walk } from '../../../src/engine/node.js';
import type { TaskContext } from '../task.js';

/** A started app: the pids to stop (the launcher's and the one that owns the window). */
export interface Started { pids: number[]; stop: () => Promise<void> }

async function sleep(ms: number): Promise<void> { await new Promise((r) => setTimeout(r, ms)); }

function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch { return false; }
}

/**
 * Starts `command args` on the task's desktop and waits (bounded) until an app named `app` shows a window whose
 * title contains `title` (and, with `ready`, an element of it whose value matches). Throws when none shows in time (the
 * run reports a setup error, not a solver failure).
 */
export async function startApp(
  ctx: TaskContext,
  command: string,
  args: string[],
  want: { app: string; title: string; timeoutMs?: number; env?: Record<string, string>; ready?: RegExp },
): Promise<Started> {
  const child = spawn(command, args, {
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, ...ctx.env, ...(want.env ?? {}) },
  });
  child.unref();
  const pids = child.pid ? [child.pid] : [];
  const stop = async (): Promise<void> => {
    for (const pid of pids) { try { process.kill(pid, 'SIGTERM'); } catch { /* gone */ } }
    for (let i = 0; i < 30 && pids.some(alive); i++) await sleep(100);
    for (const pid of pids.filter(alive)) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } }
  };
  const until = performance.now() + (want.timeoutMs ?? 30_000);
  while (performance.now() < until) {
    const apps = await ctx.computer.session.apps().catch(() => []);
    const hit = apps.find((a) => a.name === want.app && a.windows.some((w) => w.title.includes(want.title)));
    const win = hit?.windows.find((w) => w.title.includes(want.title));
    // Ready: some element's value matches (a terminal's prompt: the shell reads what is typed from then on).
    const ready = !want.ready || (win !== undefined && await ctx.computer.session.readWindow(win).then((r) => {
      let seen = false;
      walk(r.root, (n) => { if (n.value !== undefined && want.ready?.test(n.value)) seen = true; });
      return seen;
    }, () => false));
    if (hit && ready) {
      if (!pids.includes(hit.pid)) pids.push(hit.pid);
      return { pids, stop };
    }
    await sleep(250);
  }
  await stop();
  throw new Error(`setup: ${command} showed no window titled "${want.title}" within ${want.timeoutMs ?? 30_000} ms`);
}
