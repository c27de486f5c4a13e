/**
 * Starting an app for `apps.launch`: detached, never through a shell, with its stderr in an unlinked temporary
 * file (not a pipe: a pipe would SIGPIPE a chatty app once the driver stops reading or restarts), so a program
 * that exits at once is reported with its exit code and the tail of its stderr, not blamed on accessibility.
 */
import { spawn } from 'node:child_process';
import { closeSync, fstatSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ComputerUseError } from '../../../protocol/errors.js';

/** The stderr tail kept for a report. */
const TAIL_BYTES = 2048;

/** A started app, watched until `release`. */
export interface Started {
  pid: number;
  /** Set once the process exited: code, signal and when (performance.now()). */
  readonly exit: { code: number | null; signal: string | null; at: number } | undefined;
  /** The last lines it wrote to stderr so far. */
  stderrTail(): string;
  /** Stops watching: closes the driver's end of the stderr file (the app keeps writing to its own). */
  release(): void;
}

/** Spawns `argv` detached; rejects with app_not_found when it cannot be started at all. */
export async function startDetached(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<Started> {
  const dir = mkdtempSync(join(tmpdir(), 'cu-launch-'));
  const file = join(dir, 'stderr');
  const fd = openSync(file, 'w+', 0o600);
  // Unlinked at once: the app and the driver hold it open; nothing stays on disk once both closed it.
  rmSync(dir, { recursive: true, force: true });
  const [command, ...args] = argv;
  const child = spawn(command ?? '', args, { detached: true, stdio: ['ignore', 'ignore', fd], env });
  let exit: Started['exit'];
  child.once('exit', (code, signal) => { exit = { code, signal, at: performance.now() }; });
  let open = true;
  const release = (): void => { if (open) { open = false; closeSync(fd); child.removeAllListeners('exit'); } };
  try {
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (e) =>
        reject(
          new ComputerUseError(
            'app_not_found',
            `Cannot start "${command ?? ''}": ${e.message}. Is it installed and on PATH?`,
          ),
        ),
      );
    });
  } catch (e) { release(); throw e; }
  child.unref();
  return {
    pid: child.pid ?? 0,
    get exit() { return exit; },
    stderrTail: () => (open ? tailOf(fd) : ''),
    release,
  };
}

/** The last TAIL_BYTES of the file, from a line start, as text. */
function tailOf(fd: number): string {
  try {
    const size = fstatSync(fd).size;
    const n = Math.min(size, TAIL_BYTES);
    const buf = Buffer.alloc(n);
    readSync(fd, buf, 0, n, size - n);
    const text = buf.toString('utf8');
    return size > n ? text.slice(text.indexOf('\n') + 1) : text;
  } catch { return ''; }
}
