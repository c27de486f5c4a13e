/**
 * The driver keeper: one driver process (a user's own `--driver COMMAND`, or a `device add NAME --command` device)
 * kept alive between the CLI's commands, each of which is a process of its own. The keeper starts the driver, listens
 * on a Unix socket in an owner-only folder of the home, and carries JSON-RPC lines between each connected command and
 * the driver, renumbering request ids so two commands at once never answer each other. So `observe` and the `act`
 * after it talk to the same driver, with the same handles and the same in-memory state.
 *
 * It ends when the driver exits, and after IDLE_MS without any connected command (its stdin then closes, which ends
 * the driver: rule R-eof). The driver's stderr goes to `<socket>.log` (its last lines are shown when it fails).
 *
 * Run as `node driver-keeper.js SOCKET -- COMMAND ARGS…` by kept-driver.ts, never through a shell.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LineReader } from '../protocol/framing.js';

/** How long the keeper waits with no command connected before it ends the driver. */
export const IDLE_MS = Number(process.env['COMPUTER_USE_DRIVER_IDLE_MS'] ?? 10 * 60_000);
/** The log is cut back to this many bytes when it grows past twice that. */
const LOG_BYTES = 64 * 1024;

/** A request in flight: which client sent it, under which id. */
interface Pending { client: Socket; id: unknown }

/** True when a keeper already answers on the socket (two commands started one each at the same moment). */
function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(socketPath);
    s.once('connect', () => { s.destroy(); resolve(true); });
    s.once('error', () => resolve(false));
  });
}

/** Serves one driver on one socket until the driver exits or no one used it for IDLE_MS. */
export async function keep(socketPath: string, argv: readonly string[]): Promise<void> {
  if (await answers(socketPath)) process.exit(0);
  const logPath = `${socketPath}.log`;
  writeFileSync(logPath, '', { mode: 0o600 });
  writeFileSync(`${socketPath}.pid`, `${process.pid}\n`, { mode: 0o600 });
  let logged = 0;
  const log = (text: string): void => {
    logged += Buffer.byteLength(text);
    if (logged > 2 * LOG_BYTES) { truncateSync(logPath, 0); logged = 0; }
    appendFileSync(logPath, text);
  };
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
  const clients = new Set<Socket>();
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let idle: NodeJS.Timeout | undefined;
  const server = createServer();

  const finish = (code: number): void => {
    for (const c of clients) c.destroy();
    server.close();
    for (const f of [socketPath, `${socketPath}.pid`]) rmSync(f, { force: true });
    process.exit(code);
  };
  // A host that found the driver stuck in a call ends it (kept-driver.ts: kill); the next command starts a new one.
  process.on('SIGTERM', () => { child.kill('SIGKILL'); });
  const armIdle = (): void => {
    if (idle) clearTimeout(idle);
    idle =
      clients.size === 0
        ? setTimeout(() => {
            child.stdin.end();
            setTimeout(() => {
              child.kill('SIGKILL');
              finish(0);
            }, 2000).unref();
          }, IDLE_MS)
        : undefined;
  };

  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => log(d));
  child.on('error', (e) => { log(`failed to start: ${e.message}\n`); finish(1); });
  child.on('exit', (code, signal) => { log(`driver exited with ${signal ?? `code ${code}`}\n`); finish(0); });
  child.stdin.on('error', () => undefined); // the driver died: its exit ends the keeper

  // Driver → clients: an answer goes to the client that asked, under its own id; notifications go to every client.
  const fromDriver = new LineReader();
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    for (const ev of fromDriver.push(chunk)) {
      if (ev.kind !== 'message') {
        log(`[stdout] ${ev.kind === 'junk' ? ev.line.slice(0, 200) : `a line of ${ev.bytes} bytes`}\n`);
        continue;
      }
      const m = ev.message as Record<string, unknown>;
      if (typeof m !== 'object' || m === null) continue;
      if (typeof m['id'] === 'number' && m['method'] === undefined) {
        const p = pending.get(m['id']);
        if (!p) continue;
        pending.delete(m['id']);
        if (!p.client.destroyed) p.client.write(`${JSON.stringify({ ...m, id: p.id })}\n`);
      } else if (typeof m['method'] === 'string' && m['id'] === undefined) {
        const line = `${JSON.stringify(m)}\n`;
        for (const c of clients) c.write(line);
      }
    }
  });

  // Client → driver: each request gets a keeper id; a cancel names the keeper id of the client's request.
  const keeperIdOf = (client: Socket, id: unknown): number | undefined => {
    for (const [k, p] of pending) if (p.client === client && p.id === id) return k;
    return undefined;
  };
  server.on('connection', (client) => {
    clients.add(client);
    armIdle();
    const reader = new LineReader();
    client.setEncoding('utf8');
    client.on('data', (chunk: string) => {
      for (const ev of reader.push(chunk)) {
        if (ev.kind !== 'message') continue;
        const m = ev.message as Record<string, unknown>;
        if (typeof m !== 'object' || m === null || typeof m['method'] !== 'string') continue;
        if (m['id'] !== undefined) {
          const k = nextId++;
          pending.set(k, { client, id: m['id'] });
          child.stdin.write(`${JSON.stringify({ ...m, id: k })}\n`);
        } else if (m['method'] === '$/cancel') {
          const k = keeperIdOf(client, (m['params'] as { id?: unknown } | undefined)?.id);
          if (k !== undefined) child.stdin.write(`${JSON.stringify({ ...m, params: { id: k } })}\n`);
        } else child.stdin.write(`${JSON.stringify(m)}\n`);
      }
    });
    const gone = (): void => {
      if (!clients.delete(client)) return;
      // What the command that left still had in flight is cancelled: no one reads its answers.
      for (const [k, p] of pending) {
        if (p.client !== client) continue;
        pending.delete(k);
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: '$/cancel', params: { id: k } })}\n`);
      }
      armIdle();
    };
    client.on('close', gone);
    client.on('error', gone);
  });
  server.on('error', (e) => {
    log(`cannot listen on ${socketPath}: ${e.message}\n`);
    child.kill('SIGKILL');
    process.exit(1);
  });
  rmSync(socketPath, { force: true });
  server.listen(socketPath, () => armIdle());
}

function isMain(): boolean {
  try {
    return realpathSync(process.argv[1] ?? '') === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) {
  const [socketPath, dashes, ...argv] = process.argv.slice(2);
  if (!socketPath || dashes !== '--' || argv.length === 0) {
    process.stderr.write('usage: driver-keeper.js SOCKET -- COMMAND [ARGS...]\n');
    process.exit(2);
  }
  void keep(socketPath, argv);
}
