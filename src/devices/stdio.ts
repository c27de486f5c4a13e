/**
 * Runs a driver as a child process speaking the protocol on stdio.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Peer } from '../protocol/peer.js';

/** How to start a driver process. */
export interface DriverCommand { command: string; args: string[]; env?: Record<string, string> }

/** The built-in driver entry for a platform, run with the current Node. */
export function builtinDriver(platform: string): DriverCommand {
  const entry = fileURLToPath(new URL(`../drivers/${platform}/main.js`, import.meta.url));
  return { command: process.execPath, args: [entry] };
}

/** A live driver process and its protocol peer. */
export interface DriverProcess { child: ChildProcess; peer: Peer; stderrTail: () => string }

/** Spawns the driver; its stderr is kept (last 4 KB) for error messages. */
export function spawnDriver(cmd: DriverCommand, timeoutMs: number): DriverProcess {
  const child = spawn(cmd.command, cmd.args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...(cmd.env ?? {}) } });
  let tail = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (d: string) => { tail = (tail + d).slice(-4096); });
  const peer = new Peer(child.stdout!, child.stdin!, {}, { timeoutMs, onJunk: (l) => { tail = (tail + `\n[stdout] ${l}`).slice(-4096); } });
  child.on('exit', (code, signal) => peer.close(`driver exited with ${signal ?? `code ${code}`}`));
  child.on('error', (e) => peer.close(`driver failed to start: ${e.message}`));
  return { child, peer, stderrTail: () => tail.trim() };
}
