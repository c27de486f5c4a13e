/**
 * Runs a driver as a child process speaking the protocol on stdio.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Peer, type DriverConnection } from '../protocol/peer.js';

/** How to start a driver process. */
export interface DriverCommand { command: string; args: string[]; env?: Record<string, string> }

/** The built-in driver entry for a platform, run with the current Node. */
export function builtinDriver(platform: string): DriverCommand {
  // Node names the platforms darwin and win32; the driver folders are macos and windows.
  const folder = platform === 'darwin' ? 'macos' : platform === 'win32' ? 'windows' : platform;
  const entry = fileURLToPath(new URL(`../drivers/${folder}/main.js`, import.meta.url));
  return { command: process.execPath, args: [entry] };
}

/** The built-in Chromium DevTools driver attached to `endpoint` (http://host:port or ws://…). */
export function cdpDriver(endpoint: string): DriverCommand {
  return { ...builtinDriver('cdp'), args: [...builtinDriver('cdp').args, '--endpoint', endpoint] };
}

export type { DriverConnection } from '../protocol/peer.js';

/** Spawns the driver; its stderr is kept (last 4 KB) for error messages. */
export function spawnDriver(cmd: DriverCommand, timeoutMs: number): DriverConnection {
  const child = spawn(cmd.command, cmd.args, {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...(cmd.env ?? {}) },
  });
  let tail = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (d: string) => { tail = (tail + d).slice(-4096); });
  const peer = new Peer(
    child.stdout!,
    child.stdin!,
    {},
    {
      timeoutMs,
      onJunk: (l) => {
        tail = (tail + `\n[stdout] ${l}`).slice(-4096);
      },
    },
  );
  child.on('exit', (code, signal) => peer.close(`driver exited with ${signal ?? `code ${code}`}`));
  child.on('error', (e) => peer.close(`driver failed to start: ${e.message}`));
  const conn: DriverConnection = {
    peer, stderrTail: () => tail.trim(),
    kill: () => { child.kill('SIGKILL'); },
    end: () => endProcess(child),
  };
  if (child.pid !== undefined) conn.pid = child.pid;
  return conn;
}

/** Closes the driver's stdin (it exits when the protocol ends), then kills it after 1 s. */
function endProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  child.stdin?.end();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); resolve(); }, 1000);
    child.once('exit', () => { clearTimeout(timer); resolve(); });
  });
}
