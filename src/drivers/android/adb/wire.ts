/**
 * The adb server's socket protocol, the byte level: a request is its length as four hex digits then the text;
 * a reply starts with `OKAY` or `FAIL`, and a FAIL (and some OKAYs) carry a hex-length-prefixed string. This is
 * what the `adb` client itself sends to the server on port 5037; the driver speaks it directly so that a call
 * is one socket round trip, not one `adb` process.
 */
import { Socket } from 'node:net';
import { AdbError, classifyFailure } from './errors.js';

/** The largest request the server accepts (adb's MAX_PAYLOAD for host services is 1 MiB; 64 KiB is plenty here). */
export const MAX_REQUEST_BYTES = 64 * 1024;

/** Encodes one host or device service request: `000chost:version`. */
export function encodeRequest(service: string): Buffer {
  const body = Buffer.from(service, 'utf8');
  if (body.length > MAX_REQUEST_BYTES)
    throw new AdbError('protocol', `adb request of ${body.length} bytes is over ${MAX_REQUEST_BYTES}`);
  return Buffer.concat([Buffer.from(body.length.toString(16).padStart(4, '0'), 'ascii'), body]);
}

/**
 * A socket read as a byte stream with exact-length reads: the adb replies are length-prefixed, and a TCP chunk
 * may hold half of one reply or two of them.
 */
export class ByteReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private ended = false;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly socket: Socket) {
    socket.on('data', (d: Buffer) => { this.chunks.push(d); this.buffered += d.length; this.notify(); });
    socket.on('end', () => { this.ended = true; this.notify(); });
    socket.on('close', () => { this.ended = true; this.notify(); });
    socket.on('error', (e) => { this.failure = e; this.notify(); });
  }

  private notify(): void { const w = this.wake; this.wake = undefined; w?.(); }

  /** Reads exactly `n` bytes; fails when the stream ends first. */
  async read(n: number): Promise<Buffer> {
    while (this.buffered < n) {
      if (this.failure) throw new AdbError('closed', `adb connection failed: ${this.failure.message}`);
      if (this.ended) throw new AdbError('closed', `adb connection closed after ${this.buffered} of ${n} bytes`);
      await new Promise<void>((resolve) => { this.wake = resolve; });
    }
    const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    const out = all.subarray(0, n);
    const rest = all.subarray(n);
    this.chunks = rest.length ? [rest] : [];
    this.buffered = rest.length;
    return out;
  }

  /** Reads up to the end of the stream (exec: services). `limit` caps what is kept. */
  async readAll(limit: number): Promise<Buffer> {
    while (!this.ended && !this.failure) {
      if (this.buffered > limit) throw new AdbError('protocol', `adb output over ${limit} bytes`);
      await new Promise<void>((resolve) => { this.wake = resolve; });
    }
    if (this.failure && !this.ended) throw new AdbError('closed', `adb connection failed: ${this.failure.message}`);
    const all = Buffer.concat(this.chunks);
    this.chunks = [];
    this.buffered = 0;
    if (all.length > limit) throw new AdbError('protocol', `adb output over ${limit} bytes`);
    return all;
  }

  /** Reads a string prefixed by its length in four hex digits. */
  async readHexString(): Promise<string> {
    const lenText = (await this.read(4)).toString('ascii');
    const len = Number.parseInt(lenText, 16);
    if (!/^[0-9a-fA-F]{4}$/.test(lenText) || !Number.isFinite(len))
      throw new AdbError('protocol', `adb reply length ${JSON.stringify(lenText)} is not hex`);
    return (await this.read(len)).toString('utf8');
  }

  /** Reads `OKAY`, or turns `FAIL <message>` into the error it names. */
  async readStatus(request: string): Promise<void> {
    const status = (await this.read(4)).toString('ascii');
    if (status === 'OKAY') return;
    if (status === 'FAIL') throw classifyFailure(await this.readHexString(), request);
    throw new AdbError(
      'protocol',
      `adb answered ${JSON.stringify(status)} to ${request.split(':')[0]}, expected OKAY or FAIL`,
    );
  }
}

/** Where the adb server listens. */
export interface ServerAddress { host: string; port: number }

/** The address from `ADB_SERVER_SOCKET=tcp:HOST:PORT` (as the adb client reads it), else 127.0.0.1:5037. */
export function serverAddress(env: NodeJS.ProcessEnv = process.env): ServerAddress {
  const spec = env.ADB_SERVER_SOCKET;
  const m = spec ? /^tcp:(?:([^:]+):)?(\d{1,5})$/.exec(spec) : null;
  if (m) return { host: m[1] ?? '127.0.0.1', port: Number(m[2]) };
  const port = Number(env.ANDROID_ADB_SERVER_PORT ?? 5037);
  return { host: '127.0.0.1', port: Number.isInteger(port) && port > 0 && port < 65536 ? port : 5037 };
}

/** Opens a connection to the adb server within `timeoutMs`. */
export function connect(addr: ServerAddress, timeoutMs: number): Promise<{ socket: Socket; reader: ByteReader }> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new AdbError('timeout', `no answer from the adb server at ${addr.host}:${addr.port} within ${timeoutMs} ms`),
      );
    }, timeoutMs);
    socket.once('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(e.code === 'ECONNREFUSED'
        ? new AdbError('no_server', `no adb server listens at ${addr.host}:${addr.port}`)
        : new AdbError('closed', `cannot reach the adb server at ${addr.host}:${addr.port}: ${e.message}`));
    });
    const reader = new ByteReader(socket);
    socket.connect(addr.port, addr.host, () => { clearTimeout(timer); resolve({ socket, reader }); });
  });
}
