/**
 * The device end of pairing: `computer-use pair <server-url> --code 123-456` dials the server,
 * proves the code, stores the credentials it gets (0600, in this home), then serves this machine's driver over
 * the link and redials with backoff when it drops, proving the credentials (never the code again).
 *
 * The driver is started with a fixed argv (this Node, this package's CLI, `driver linux`); nothing that comes
 * over the wire reaches a command line: frames are JSON-RPC lines passed to the driver's stdin.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { ComputerUseError } from '../protocol/errors.js';
import { DEVICE_NAME } from './registry.js';
import {
  CLOSE,
  deleteCredential,
  loadCredential,
  parsePairUrl,
  requireSafeTransport,
  saveCredential,
  type DeviceCredential,
} from './pairing.js';

/** How a link ended. */
export interface LinkEnd { code: number; reason: string }

/** Opens a WebSocket to the server (TLS checked against the system CAs, or `ca` when given). */
function dial(server: string, ca?: string): WebSocket {
  const addr = parsePairUrl(server);
  requireSafeTransport(addr);
  // No Origin header (the server refuses browsers); no redirects (the address is the one the user gave).
  return new WebSocket(server, {
    handshakeTimeout: 10_000,
    maxPayload: 32 * 1024 * 1024,
    followRedirects: false,
    ...(ca ? { ca: readFileSync(ca) } : {}),
  });
}

/** Sends one control frame once open and waits for the first answer frame, or the close. */
function exchange(
  ws: WebSocket,
  hello: Record<string, unknown>,
): Promise<{ msg?: Record<string, unknown>; end?: LinkEnd; held?: Held }> {
  return new Promise((resolve) => {
    ws.once('open', () => { ws.send(JSON.stringify(hello)); });
    const onMessage = (data: Buffer): void => {
      ws.off('close', onClose);
      // The host may send its first request right behind the answer, in the same frame batch: ws emits both
      // before the caller's continuation runs, so what follows the answer is held here until the caller listens.
      const held = holdMessages(ws);
      try {
        resolve({ msg: JSON.parse(data.toString('utf8')) as Record<string, unknown>, held });
      } catch {
        held.stop();
        ws.terminate();
        resolve({ end: { code: 1002, reason: 'bad answer' } });
      }
    };
    const onClose = (code: number, reason: Buffer): void => {
      ws.off('message', onMessage);
      resolve({ end: { code, reason: reason.toString() } });
    };
    ws.once('message', onMessage);
    ws.once('close', onClose);
    ws.on('error', (e) => { resolve({ end: { code: 1006, reason: e.message } }); });
  });
}

/** Text messages that arrived before their listener was attached, and how to stop holding them. */
interface Held { messages: string[]; stop: () => void }

function holdMessages(ws: WebSocket): Held {
  const messages: string[] = [];
  const hold = (data: Buffer, isBinary: boolean): void => { if (!isBinary) messages.push(data.toString('utf8')); };
  ws.on('message', hold);
  return { messages, stop: () => { ws.off('message', hold); } };
}

/** Proves a one-time code; returns the credentials (saved 0600 at `credentialPath`). Throws pairing_refused. */
export async function pairWithCode(
  server: string,
  code: string,
  credentialPath: string,
  ca?: string,
): Promise<DeviceCredential> {
  const ws = dial(server, ca);
  const { msg, end } = await exchange(ws, { t: 'pair', code });
  if (!msg || msg['t'] !== 'paired' || typeof msg['id'] !== 'string' || typeof msg['secret'] !== 'string') {
    ws.terminate();
    throw new ComputerUseError('auth_failed', `The server refused the pairing: ${end?.reason || 'no answer'}.`);
  }
  // Only plain names and values are kept: what a server sends is printed on this terminal and stored.
  if (!/^[0-9a-f]{32}$/.test(msg['id']) || !/^[A-Za-z0-9_-]{16,256}$/.test(msg['secret'])) {
    ws.terminate();
    throw new ComputerUseError('auth_failed', 'The server answered with malformed credentials; nothing was saved.');
  }
  const name = typeof msg['name'] === 'string' && DEVICE_NAME.test(msg['name']) ? msg['name'] : undefined;
  const cred: DeviceCredential = {
    server,
    id: msg['id'],
    secret: msg['secret'],
    ...(name ? { name } : {}),
    ...(ca ? { ca } : {}),
  };
  saveCredential(cred, credentialPath);
  ws.close();
  return cred;
}

/** The driver command of this machine, as the CLI runs it. */
export function localDriverArgs(desktop?: 'sandbox'): string[] {
  const cli = fileURLToPath(new URL('../hosts/cli/main.js', import.meta.url));
  return [cli, 'driver', 'linux', ...(desktop ? ['--desktop', desktop] : [])];
}

/**
 * One authenticated link: serves a freshly started driver over it until either ends. Resolves with how the
 * link ended (CLOSE.refused: the pairing was revoked; do not retry).
 */
export async function serveOnce(
  cred: DeviceCredential,
  driverArgs: string[],
  log: (line: string) => void,
  signal?: AbortSignal,
): Promise<LinkEnd> {
  if (signal?.aborted) return STOPPED;
  const ws = dial(cred.server, cred.ca);
  // A stop ends the link whatever phase it is in (dialing, proving, serving): the close below finishes it.
  const onAbort = (): void => { ws.close(1000, STOPPED.reason); setTimeout(() => ws.terminate(), 1000).unref(); };
  signal?.addEventListener('abort', onAbort, { once: true });
  try { return await serveLink(ws, cred, driverArgs, log); } finally { signal?.removeEventListener('abort', onAbort); }
}

/** How a link stopped on this device's own request. */
const STOPPED: LinkEnd = { code: 1000, reason: 'stopped on this device' };

async function serveLink(
  ws: WebSocket,
  cred: DeviceCredential,
  driverArgs: string[],
  log: (line: string) => void,
): Promise<LinkEnd> {
  const { msg, end, held } = await exchange(ws, { t: 'auth', id: cred.id, secret: cred.secret });
  if (!msg || msg['t'] !== 'ok') { held?.stop(); ws.terminate(); return end ?? { code: 1002, reason: 'bad answer' }; }
  if (ws.readyState !== ws.OPEN) { held?.stop(); return STOPPED; } // stopped between the answer and here
  log(`connected to ${cred.server} as ${cred.name ?? '?'}`);
  const child: ChildProcess = spawn(process.execPath, driverArgs, { stdio: ['pipe', 'pipe', 'inherit'] });
  let buf = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (d: string) => {
    buf += d;
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (line.trim() && ws.readyState === ws.OPEN) ws.send(line);
    }
  });
  // What arrived right behind the answer goes first, in order; then the live listener takes over.
  held?.stop();
  for (const m of held?.messages ?? []) child.stdin?.write(`${m}\n`);
  ws.on('message', (data, isBinary) => {
    if (!isBinary && child.stdin?.writable) child.stdin.write(`${data.toString()}\n`);
  });
  // A server gone without a close (a network cut) is noticed within 40 s: it must answer a ping every 20 s.
  let answered = true;
  ws.on('pong', () => { answered = true; });
  const pinger = setInterval(() => { if (!answered) { ws.terminate(); return; } answered = false; ws.ping(); }, 20_000);
  return new Promise<LinkEnd>((resolve) => {
    let done = false;
    const finish = (e: LinkEnd): void => {
      if (done) return;
      done = true;
      clearInterval(pinger);
      child.stdin?.end();
      setTimeout(() => { if (child.exitCode === null) child.kill('SIGKILL'); }, 1000).unref();
      if (ws.readyState === ws.OPEN) ws.close(1000, 'driver ended');
      resolve(e);
    };
    ws.on('close', (code, reason) => finish({ code, reason: reason.toString() }));
    ws.on('error', (e) => finish({ code: 1006, reason: e.message }));
    child.on('exit', (code) => finish({ code: 1011, reason: `driver exited with code ${code}` }));
  });
}

/**
 * Serves the driver until the pairing is revoked (by either end) or `signal` aborts, redialing with
 * backoff (1 s doubling to 30 s) when a link drops. Returns why it stopped.
 */
export async function servePaired(
  credentialPath: string,
  driverArgs: string[],
  log: (line: string) => void,
  signal?: AbortSignal,
): Promise<LinkEnd> {
  let delay = 1000;
  for (;;) {
    const cred = loadCredential(credentialPath);
    if (!cred) return { code: CLOSE.unpaired, reason: 'no pairing on this device' };
    const started = Date.now();
    let end: LinkEnd;
    try {
      end = await serveOnce(cred, driverArgs, log, signal);
    } catch (e) {
      end = { code: 1006, reason: (e as Error).message };
    }
    if (end.code === CLOSE.refused) {
      // The server no longer knows this pairing: the credential is useless, and keeping it would only retry.
      deleteCredential(credentialPath);
      return end;
    }
    if (end.code === CLOSE.unpaired) return end;
    if (signal?.aborted) return end;
    if (Date.now() - started > 10_000) delay = 1000;
    log(`link ended (${end.code} ${end.reason}); redialing in ${Math.round(delay / 1000)} s`);
    await new Promise<void>((r) => {
      const t = setTimeout(done, delay);
      function done(): void { clearTimeout(t); signal?.removeEventListener('abort', done); r(); }
      signal?.addEventListener('abort', done, { once: true });
    });
    if (signal?.aborted) return end;
    delay = Math.min(30_000, delay * 2);
  }
}

/** Revokes this device's pairing: tells the server when it can (it forgets the device and closes its link), then deletes the credential. */
export async function unpair(credentialPath: string): Promise<{ told: boolean; reason: string }> {
  const cred = loadCredential(credentialPath);
  if (!cred) return { told: false, reason: 'this device is not paired' };
  let told = false;
  let reason = '';
  try {
    const ws = dial(cred.server, cred.ca);
    const { end } = await exchange(ws, { t: 'unpair', id: cred.id, secret: cred.secret });
    told = end?.code === CLOSE.unpaired;
    reason = end?.reason ?? '';
    ws.terminate();
  } catch (e) { reason = (e as Error).message; }
  deleteCredential(credentialPath);
  return { told, reason };
}
