/**
 * Process plumbing for the sandbox: detached spawns with a log file, bounded polling, liveness that treats
 * zombies as dead, finding processes by an environment entry, and TERM → KILL teardown with deadlines.
 */
import { execFile, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

/** A detached child whose exit we can observe while we still hold it. */
export interface Spawned {
  pid: number;
  /** Exit code or signal once the child has exited, else undefined. */
  exited(): string | undefined;
}

/**
 * Starts `cmd` in its own process group with stdin closed and stdout/stderr appended to `logPath`, and lets
 * this process exit without waiting for it.
 */
export function spawnDetached(cmd: string, args: readonly string[], env: Record<string, string>,
  logPath: string): Spawned {
  const fd = openSync(logPath, 'a', 0o600);
  let exit: string | undefined;
  try {
    const child = spawn(cmd, args, { env, detached: true, stdio: ['ignore', fd, fd] });
    child.on('error', (err) => { exit = `spawn error: ${err.message}`; });
    child.on('exit', (code, signal) => { exit = signal ? `signal ${signal}` : `code ${code}`; });
    child.unref();
    if (child.pid === undefined) throw new Error(`could not start ${cmd} (is it installed?)`);
    return { pid: child.pid, exited: () => exit };
  } finally {
    closeSync(fd);
  }
}

/** Runs a command to completion with a timeout; resolves with stdout, rejects with stderr in the message. */
export function run(
  cmd: string,
  args: readonly string[],
  opts: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { env: opts.env ?? process.env, timeout: opts.timeoutMs ?? 5000, killSignal: 'SIGKILL' },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`${cmd} ${args.join(' ')} failed: ${err.message} ${String(stderr).trim()}`));
        else resolve(String(stdout));
      });
  });
}

export const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Calls `probe` every `intervalMs` until it returns a value other than undefined, or throws `what` timed
 * out after `timeoutMs`. `abort` may return a reason to stop early (e.g. the server process exited).
 */
export async function pollUntil<T>(what: string, probe: () => Promise<T | undefined>,
  opts: { timeoutMs: number; intervalMs?: number; abort?: () => string | undefined }): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  let lastError = '';
  for (;;) {
    const reason = opts.abort?.();
    if (reason) throw new Error(`${what}: gave up, ${reason}`);
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (err) {
      lastError = err instanceof Error ? err.message : String(err);
    }
    if (Date.now() >= deadline) {
      throw new Error(`${what}: timed out after ${opts.timeoutMs} ms${lastError ? ` (last error: ${lastError})` : ''}`);
    }
    await delay(opts.intervalMs ?? 50);
  }
}

/** The process state letter from /proc/<pid>/stat (R, S, Z, …) and its parent pid, or undefined if gone. */
async function procStat(pid: number): Promise<{ state: string; ppid: number } | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may contain spaces: split after the last ')'.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: rest[0] ?? '?', ppid: Number(rest[1]) };
  } catch {
    return undefined;
  }
}

/**
 * True while `pid` runs. A zombie counts as dead: on some hosts pid 1 never reaps orphans, so a killed
 * daemon can stay a zombie forever.
 */
export async function pidAlive(pid: number): Promise<boolean> {
  const st = await procStat(pid);
  return st !== undefined && st.state !== 'Z' && st.state !== 'X';
}

/** The command line of `pid` joined with spaces, or '' if it is gone or unreadable. */
export async function cmdline(pid: number): Promise<string> {
  try {
    return (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** True when `pid` is alive and its command line contains `needle` (guards against reused pids). */
export async function pidIs(pid: number, needle: string): Promise<boolean> {
  return (await pidAlive(pid)) && (await cmdline(pid)).includes(needle);
}

/** This process and its ancestors: never signalled by an environment sweep. */
async function selfAndAncestors(): Promise<Set<number>> {
  const out = new Set<number>([process.pid]);
  let pid = process.ppid;
  for (let i = 0; i < 64 && pid > 1 && !out.has(pid); i++) {
    out.add(pid);
    pid = (await procStat(pid))?.ppid ?? 0;
  }
  return out;
}

/**
 * Live processes whose environment contains any of `entries` exactly (e.g. `DBUS_SESSION_BUS_ADDRESS=…`),
 * excluding this process and its ancestors. Unreadable environments (other users) are skipped.
 */
export async function pidsWithEnv(entries: readonly string[]): Promise<number[]> {
  const wanted = new Set(entries);
  const skip = await selfAndAncestors();
  const found: number[] = [];
  const names = await readdir('/proc').catch(() => [] as string[]);
  await Promise.all(names.map(async (name) => {
    if (!/^\d+$/.test(name)) return;
    const pid = Number(name);
    if (skip.has(pid)) return;
    let environ: string;
    try {
      environ = await readFile(`/proc/${pid}/environ`, 'utf8');
    } catch {
      return;
    }
    if (environ.split('\0').some((e) => wanted.has(e)) && (await pidAlive(pid))) found.push(pid);
  }));
  return found.sort((a, b) => a - b);
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone, or not ours to signal
  }
}

/**
 * Sends SIGTERM to every pid, waits up to `graceMs` for them to exit, then SIGKILLs the rest and waits up
 * to `killWaitMs` more. Never throws and never waits longer than `graceMs + killWaitMs`.
 * Resolves with the pids still alive at the end (normally none).
 */
export async function terminate(pids: readonly number[], graceMs = 1500, killWaitMs = 1000): Promise<number[]> {
  const live = async (list: readonly number[]): Promise<number[]> => {
    const alive = await Promise.all(list.map(pidAlive));
    return list.filter((_, i) => alive[i]);
  };
  let rest = await live([...new Set(pids)].filter((p) => p > 1 && p !== process.pid));
  if (rest.length === 0) return [];
  for (const p of rest) signal(p, 'SIGTERM');
  for (const [sig, wait] of [['SIGKILL', graceMs], [undefined, killWaitMs]] as const) {
    const deadline = Date.now() + wait;
    while (rest.length > 0 && Date.now() < deadline) {
      await delay(25);
      rest = await live(rest);
    }
    if (rest.length === 0 || sig === undefined) break;
    for (const p of rest) signal(p, sig);
  }
  return rest;
}
