/**
 * A user's own driver command as a connection that outlives one CLI command: the first command starts a driver
 * keeper (driver-keeper.ts) for that command line and directory, the next ones connect to its socket. One driver
 * process thus serves the whole CLI session (its handles and in-memory state included), the way an MCP server's
 * one process keeps its driver. The command's words are run as they are, never through a shell.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, openSync, readFileSync, readSync, closeSync, fstatSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { cuHome } from '../paths.js';
import { Peer, type DriverConnection } from '../protocol/peer.js';

/** How long a command waits for a keeper it started to listen. */
const START_MS = 5_000;

/** The socket of the keeper of `argv` run in `cwd`: one per command line and directory, in an owner-only folder. */
export function keptDriverSocket(
  argv: readonly string[],
  cwd: string = process.cwd(),
  home: string = cuHome(),
): string {
  const key = createHash('sha256').update(JSON.stringify([cwd, ...argv])).digest('hex').slice(0, 16);
  return join(home, 'drivers', `${key}.sock`);
}

function tryConnect(path: string): Promise<Socket | undefined> {
  return new Promise((resolve) => {
    const s = connect(path);
    s.once('connect', () => { s.removeAllListeners('error'); resolve(s); });
    s.once('error', () => resolve(undefined));
  });
}

/** The last bytes of the keeper's log of the driver's stderr. */
function logTail(path: string, bytes = 2048): string {
  try {
    const fd = openSync(`${path}.log`, 'r');
    try {
      const size = fstatSync(fd).size;
      const buf = Buffer.alloc(Math.min(bytes, size));
      readSync(fd, buf, 0, buf.length, size - buf.length);
      return buf.toString('utf8').trim();
    } finally { closeSync(fd); }
  } catch { return ''; }
}

function startKeeper(path: string, argv: readonly string[]): void {
  const dir = join(path, '..');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700); // the socket is the driver: no one else may reach it
  const entry = fileURLToPath(new URL('./driver-keeper.js', import.meta.url));
  spawn(process.execPath, [entry, path, '--', ...argv], {
    detached: true,
    stdio: 'ignore',
    cwd: process.cwd(),
  }).unref();
}

/**
 * Connects to the kept driver of `argv`, starting its keeper when none listens. Requests written before the socket
 * is up wait in the stream; a keeper that does not come up closes the peer with the driver's stderr.
 */
export function keptDriverConnection(
  argv: readonly string[],
  timeoutMs: number,
  path: string = keptDriverSocket(argv),
): DriverConnection {
  const input = new PassThrough();
  const output = new PassThrough();
  const peer = new Peer(input, output, {}, { timeoutMs });
  let socket: Socket | undefined;
  void (async () => {
    let s = await tryConnect(path);
    if (!s) {
      startKeeper(path, argv);
      const deadline = Date.now() + START_MS;
      while (!s && Date.now() < deadline && !peer.isClosed) {
        await new Promise((r) => setTimeout(r, 50));
        s = await tryConnect(path);
      }
    }
    if (!s) { peer.close(`the driver did not start${logTail(path) ? '' : ` within ${START_MS} ms`}`); return; }
    if (peer.isClosed) { s.destroy(); return; }
    socket = s;
    s.on('close', () => peer.close('the driver exited'));
    s.on('error', () => undefined); // the close above says it
    s.pipe(input);
    output.pipe(s);
  })();
  return {
    peer,
    stderrTail: () => logTail(path),
    // A driver stuck in a call: its keeper ends it, and the next call starts a new one.
    kill: () => {
      socket?.destroy();
      try { process.kill(Number(readFileSync(`${path}.pid`, 'utf8')), 'SIGTERM'); } catch { /* already gone */ }
      peer.close('the driver was ended');
    },
    // The session ends, the driver stays for the next command.
    end: async () => { socket?.end(); peer.close('closed'); },
  };
}
