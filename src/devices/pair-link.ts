/**
 * The pairing link over a WebSocket (npm `ws`): the device dials, the server never does.
 *
 * The first frame from the device says what it wants: `pair` (with the one-time code; only `computer-use
 * pairing start` takes codes), `auth` (id + secret of an earlier pairing: the link then carries the device's
 * driver as JSON-RPC, one line per frame) or `unpair` (the device revokes its own pairing). The server side is
 * a PairServer; the device side is in pair-client.ts. Browsers are refused (any Origin header): a web page on
 * this machine must not be able to talk to a loopback listener.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { PassThrough, Writable } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { Peer } from '../protocol/peer.js';
import { ComputerUseError } from '../protocol/errors.js';
import {
  CLOSE,
  formatPairUrl,
  parsePairUrl as parsePairAddress,
  newCredentials,
  requireSafeTransport,
  secretMatches,
  sha256,
  type PairAddress,
  type PairingCode,
} from './pairing.js';
import { LINK_TOKEN, loadDevices, saveDevices, validateSpec, type DeviceSpec } from './registry.js';
import type { DriverConnection } from './stdio.js';

/** Largest control frame before a device has proven who it is. */
const MAX_HELLO_BYTES = 4096;
/** Largest frame of a driver link (a big snapshot). */
const MAX_FRAME_BYTES = 32 * 1024 * 1024;

/** A live WebSocket as a driver connection: a protocol peer whose lines are frames. */
export function wsConnection(ws: WebSocket, timeoutMs: number): DriverConnection {
  const input = new PassThrough();
  let pending = '';
  const output = new Writable({
    write(chunk: Buffer | string, _enc, done): void {
      pending += chunk.toString();
      let nl: number;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        if (line.trim() && ws.readyState === ws.OPEN) ws.send(line);
      }
      done();
    },
  });
  ws.on('message', (data, isBinary) => { if (!isBinary) input.write(`${data.toString()}\n`); });
  let why = '';
  ws.on('close', (code, reason) => { why = `${code} ${reason.toString()}`.trim(); input.end(); });
  ws.on('error', () => undefined);
  const peer = new Peer(input, output, {}, { timeoutMs });
  return {
    peer,
    stderrTail: () => (why ? `pairing link closed (${why})` : ''),
    kill: () => { ws.terminate(); },
    end: async () => { ws.close(1000, 'session closed'); },
  };
}

/** A connection that is closed from the start, saying why (a paired device that has not dialed in). */
export function closedConnection(why: string): DriverConnection {
  const input = new PassThrough();
  const peer = new Peer(input, new PassThrough(), {}, {});
  input.end();
  return { peer, stderrTail: () => why, kill: () => undefined, end: async () => undefined };
}

/** Options of a pairing server. */
export interface PairServerOptions {
  address: PairAddress;
  /** TLS certificate and key files (required for wss://). */
  tlsCert?: string;
  tlsKey?: string;
  /** The devices file (paired devices are saved and checked there). */
  devicesPath: string;
  /** A one-time code: this server pairs one device with it (`pairing start`). Without it, it only serves paired devices. */
  code?: PairingCode;
  /** The name the device gets when it pairs. */
  name?: string;
  /** Per-call timeout of driver links. */
  timeoutMs?: number;
  /** Told about what happens (pairing start prints it). */
  onEvent?: (
    e:
      | { kind: 'paired'; spec: DeviceSpec }
      | { kind: 'refused'; why: string }
      | { kind: 'connected' | 'revoked' | 'unpaired'; name: string },
  ) => void;
}

/** The server end: listens where the user said, pairs with a code, serves paired devices' driver links. */
export class PairServer {
  private readonly http: HttpServer;
  private readonly wss: WebSocketServer;
  /** The live driver link of each paired device, by name. */
  private readonly links = new Map<string, { ws: WebSocket; id: string; conn: DriverConnection }>();
  private readonly watch: NodeJS.Timeout;

  private constructor(private readonly options: PairServerOptions) {
    const { address } = options;
    if (address.tls) {
      if (!options.tlsCert || !options.tlsKey)
        throw new ComputerUseError('invalid_params', 'wss:// needs --tls-cert and --tls-key.');
      this.http = createHttpsServer({ cert: readFileSync(options.tlsCert), key: readFileSync(options.tlsKey) });
    } else {
      requireSafeTransport(address);
      this.http = createHttpServer();
    }
    this.http.on('request', (_req, res) => { res.writeHead(426).end(); });
    this.wss = new WebSocketServer({
      server: this.http,
      maxPayload: MAX_FRAME_BYTES,
      verifyClient: (info: { origin?: string }) => !info.origin,
    });
    this.wss.on('connection', (ws) => { this.onConnection(ws); });
    // The ws server re-emits the http server's errors (a port in use): listen() reports those; unhandled, they would
    // end the process.
    this.wss.on('error', () => undefined);
    // A device revoked here (`device revoke` in another process edits the devices file) loses its link at once.
    this.watch = setInterval(() => { this.closeRevoked(); }, 1000);
    this.watch.unref();
  }

  /** Starts listening; rejects when the address is taken. */
  static async listen(options: PairServerOptions): Promise<PairServer> {
    const s = new PairServer(options);
    await new Promise<void>((resolve, reject) => {
      s.http.once('error', reject);
      s.http.listen(options.address.port, options.address.host, () => { s.http.off('error', reject); resolve(); });
    });
    return s;
  }

  /** The address actually listened on (port 0 resolved). */
  get url(): string {
    const a = this.http.address();
    const port = typeof a === 'object' && a ? a.port : this.options.address.port;
    return formatPairUrl({ ...this.options.address, port });
  }

  /** The driver connection of a paired device, or a closed one saying it is not connected. */
  connection(name: string): DriverConnection {
    const link = this.links.get(name);
    if (link && link.ws.readyState === link.ws.OPEN) return link.conn;
    return closedConnection(
      `device ${name} is not connected: run \`computer-use pair ${this.url}\` on it (a paired device redials ` +
        `by itself)`,
    );
  }

  /** Names of the devices connected now. */
  get connected(): string[] { return [...this.links.keys()]; }

  private onConnection(ws: WebSocket): void {
    const timer = setTimeout(() => { ws.close(CLOSE.refused, 'no hello'); }, 10_000);
    ws.once('message', (data, isBinary) => {
      clearTimeout(timer);
      const raw = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
      if (isBinary || raw.length > MAX_HELLO_BYTES) { ws.close(CLOSE.refused, 'bad hello'); return; }
      let msg: Record<string, unknown>;
      try {
        msg = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      } catch {
        ws.close(CLOSE.refused, 'bad hello');
        return;
      }
      if (typeof msg !== 'object' || msg === null) { ws.close(CLOSE.refused, 'bad hello'); return; }
      if (msg['t'] === 'pair') this.onPair(ws, msg['code'], msg['token']);
      else if (msg['t'] === 'auth') this.onAuth(ws, msg['id'], msg['secret']);
      else if (msg['t'] === 'unpair') this.onUnpair(ws, msg['id'], msg['secret']);
      else ws.close(CLOSE.refused, 'bad hello');
    });
    ws.on('error', () => undefined);
  }

  private onPair(ws: WebSocket, code: unknown, token: unknown): void {
    // A phone's app gives a token for this side to prove itself with (registry.ts linkToken); a malformed one pairs
    // nothing.
    if (token !== undefined && (typeof token !== 'string' || !LINK_TOKEN.test(token))) {
      ws.close(CLOSE.refused, 'bad hello');
      return;
    }
    const c = this.options.code;
    if (!c) {
      ws.close(CLOSE.badCode, 'this server takes no pairing code now: run computer-use pairing start');
      return;
    }
    const refusal = c.redeem(code);
    if (refusal) {
      this.options.onEvent?.({ kind: 'refused', why: refusal });
      const text = {
        wrong: `wrong code (${c.triesLeft} tries left)`,
        expired: 'the code expired',
        used: 'the code was used already',
        locked: 'too many wrong codes: locked; start pairing again',
      }[refusal];
      ws.close(CLOSE.badCode, text);
      return;
    }
    const creds = newCredentials();
    const { devices } = loadDevices(this.options.devicesPath);
    const name =
      this.options.name && !devices.some((d) => d.name === this.options.name) ? this.options.name : nextName(devices);
    const spec = validateSpec({
      name,
      url: this.url,
      kind: 'paired',
      pairId: creds.id,
      secretHash: sha256(creds.secret),
      ...(token !== undefined ? { linkToken: token } : {}),
      ...(this.options.tlsCert ? { tlsCert: this.options.tlsCert } : {}),
      ...(this.options.tlsKey ? { tlsKey: this.options.tlsKey } : {}),
    });
    saveDevices([...devices, spec], this.options.devicesPath);
    ws.send(JSON.stringify({ t: 'paired', id: creds.id, secret: creds.secret, name }));
    ws.close(CLOSE.paired, 'paired; reconnect with the credentials');
    this.options.onEvent?.({ kind: 'paired', spec });
  }

  /** The paired device with these credentials, read from the devices file now (a revoke elsewhere counts at once). */
  private find(id: unknown, secret: unknown): DeviceSpec | undefined {
    if (typeof id !== 'string') return undefined;
    const spec = loadDevices(this.options.devicesPath).devices.find((d) => d.kind === 'paired' && d.pairId === id);
    // Compared even when no device has the id, so a wrong id takes as long as a wrong secret.
    const ok = secretMatches(secret, spec?.secretHash ?? sha256('\u0000no device'));
    return ok && spec ? spec : undefined;
  }

  private onAuth(ws: WebSocket, id: unknown, secret: unknown): void {
    const spec = this.find(id, secret);
    if (!spec) { ws.close(CLOSE.refused, 'unknown or revoked pairing'); return; }
    if (this.options.code) { ws.close(1013, 'pairing in progress; retry later'); return; }
    const old = this.links.get(spec.name);
    if (old) old.ws.close(1000, 'replaced by a new connection');
    const conn = wsConnection(ws, this.options.timeoutMs ?? 20_000);
    this.links.set(spec.name, { ws, id: spec.pairId!, conn });
    ws.on('close', () => { if (this.links.get(spec.name)?.ws === ws) this.links.delete(spec.name); });
    ws.send(JSON.stringify({ t: 'ok', name: spec.name, ...(spec.linkToken ? { token: spec.linkToken } : {}) }));
    this.options.onEvent?.({ kind: 'connected', name: spec.name });
  }

  private onUnpair(ws: WebSocket, id: unknown, secret: unknown): void {
    const spec = this.find(id, secret);
    if (!spec) { ws.close(CLOSE.refused, 'unknown or revoked pairing'); return; }
    const { devices } = loadDevices(this.options.devicesPath);
    saveDevices(devices.filter((d) => !(d.kind === 'paired' && d.pairId === spec.pairId)), this.options.devicesPath);
    this.links.get(spec.name)?.ws.close(CLOSE.unpaired, 'the device unpaired');
    ws.close(CLOSE.unpaired, 'unpaired');
    this.options.onEvent?.({ kind: 'unpaired', name: spec.name });
  }

  private closeRevoked(): void {
    if (this.links.size === 0) return;
    const ids = new Set(
      loadDevices(this.options.devicesPath)
        .devices.filter((d) => d.kind === 'paired')
        .map((d) => d.pairId),
    );
    for (const [name, link] of this.links) {
      if (ids.has(link.id)) continue;
      link.ws.close(CLOSE.refused, 'revoked');
      this.links.delete(name);
      this.options.onEvent?.({ kind: 'revoked', name });
    }
  }

  /** Stops listening and closes every link. */
  async close(): Promise<void> {
    clearInterval(this.watch);
    for (const c of this.wss.clients) c.terminate();
    await new Promise<void>((r) => { this.wss.close(() => r()); });
    await new Promise<void>((r) => { this.http.close(() => r()); });
  }
}

/** The first free `deviceN` name. */
function nextName(devices: DeviceSpec[]): string {
  for (let i = 1; ; i++) if (!devices.some((d) => d.name === `device${i}`)) return `device${i}`;
}

/** The pairing servers of this process, by address: every paired device that listens there shares one. */
const hubs = new Map<string, Promise<PairServer>>();

/** The shared server of an address (sessions), started on first use. */
export function hubFor(spec: DeviceSpec, devicesPath: string, timeoutMs?: number): Promise<PairServer> {
  let hub = hubs.get(spec.url);
  if (!hub) {
    hub = PairServer.listen({
      address: parsePairAddress(spec.url),
      devicesPath,
      ...(spec.tlsCert ? { tlsCert: spec.tlsCert } : {}),
      ...(spec.tlsKey ? { tlsKey: spec.tlsKey } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    });
    hubs.set(spec.url, hub);
    hub.catch(() => { hubs.delete(spec.url); });
  }
  return hub;
}

/** Closes every shared server of this process. */
export async function closeHubs(): Promise<void> {
  const all = [...hubs.values()];
  hubs.clear();
  await Promise.all(all.map((h) => h.then((s) => s.close(), () => undefined)));
}
