/**
 * A minimal WebSocket client (RFC 6455) for the DevTools endpoint on localhost: text messages only, client
 * frames masked, fragmented and 64-bit-length server frames reassembled, pings answered. Node 20 has no
 * WebSocket without a flag, and this is all CDP needs, so the driver carries no dependency for it.
 */
import { randomBytes, createHash } from 'node:crypto';
import { request } from 'node:http';
import type { Socket } from 'node:net';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** An open WebSocket: send text, receive text messages, close. */
export class TextSocket {
  private buffer: Buffer = Buffer.alloc(0);
  private fragments: Buffer[] = [];
  private closed = false;
  private readonly closeHandlers: ((reason: string) => void)[] = [];
  onMessage: (text: string) => void = () => undefined;

  private constructor(private readonly socket: Socket, head: Buffer) {
    socket.setNoDelay(true);
    socket.on('data', (d: Buffer) => this.receive(d));
    socket.on('close', () => this.finish('connection closed'));
    socket.on('error', (e) => this.finish(e.message));
    if (head.length) this.receive(head);
  }

  /** Opens `ws://host:port/path`. */
  static connect(url: string, timeoutMs = 5000): Promise<TextSocket> {
    const u = new URL(url);
    if (u.protocol !== 'ws:') return Promise.reject(new Error(`only ws:// endpoints are supported, got ${url}`));
    const key = randomBytes(16).toString('base64');
    return new Promise((resolve, reject) => {
      const req = request({
        host: u.hostname,
        port: u.port || 80,
        path: u.pathname + u.search,
        timeout: timeoutMs,
        headers: {
          Connection: 'Upgrade',
          Upgrade: 'websocket',
          'Sec-WebSocket-Version': '13',
          'Sec-WebSocket-Key': key,
        },
      });
      req.on('upgrade', (res, socket, head) => {
        const accept = createHash('sha1').update(key + GUID).digest('base64');
        if (res.headers['sec-websocket-accept'] !== accept) {
          socket.destroy();
          reject(new Error('bad WebSocket handshake'));
          return;
        }
        resolve(new TextSocket(socket, head));
      });
      req.on('response', (res) => {
        reject(new Error(`WebSocket upgrade refused: HTTP ${res.statusCode}`));
        res.resume();
      });
      req.on('timeout', () => { req.destroy(new Error(`WebSocket connect to ${url} timed out`)); });
      req.on('error', reject);
      req.end();
    });
  }

  get isClosed(): boolean { return this.closed; }

  onClose(handler: (reason: string) => void): void { this.closeHandlers.push(handler); }

  send(text: string): void {
    if (this.closed) throw new Error('WebSocket is closed');
    this.socket.write(frame(0x1, Buffer.from(text, 'utf8')));
  }

  close(): void {
    if (this.closed) return;
    try { this.socket.write(frame(0x8, Buffer.alloc(0))); } catch { /* already gone */ }
    this.socket.end();
    this.finish('closed by client');
  }

  private finish(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.destroy();
    for (const h of this.closeHandlers) h(reason);
  }

  private receive(data: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, data]) : data;
    for (;;) {
      const b = this.buffer;
      if (b.length < 2) return;
      const fin = (b[0]! & 0x80) !== 0;
      const opcode = b[0]! & 0x0f;
      const masked = (b[1]! & 0x80) !== 0;
      let len = b[1]! & 0x7f;
      let off = 2;
      if (len === 126) { if (b.length < 4) return; len = b.readUInt16BE(2); off = 4; }
      else if (len === 127) { if (b.length < 10) return; len = Number(b.readBigUInt64BE(2)); off = 10; }
      const maskOff = off;
      if (masked) off += 4;
      if (b.length < off + len) return;
      let payload = b.subarray(off, off + len);
      if (masked) {
        const mask = b.subarray(maskOff, maskOff + 4);
        payload = Buffer.from(payload.map((x, i) => x ^ mask[i % 4]!));
      }
      this.buffer = b.subarray(off + len);
      if (opcode === 0x8) { this.finish('closed by server'); return; }
      if (opcode === 0x9) { this.socket.write(frame(0xa, payload)); continue; }
      if (opcode === 0xa) continue;
      if (opcode === 0x1 || opcode === 0x2 || opcode === 0x0) {
        this.fragments.push(Buffer.from(payload));
        if (fin) {
          const text = Buffer.concat(this.fragments).toString('utf8');
          this.fragments = [];
          this.onMessage(text);
        }
      }
    }
  }
}

/** One masked client frame. */
function frame(opcode: number, payload: Buffer): Buffer {
  const len = payload.length;
  const head = len < 126 ? 2 : len < 65536 ? 4 : 10;
  const out = Buffer.alloc(head + 4 + len);
  out[0] = 0x80 | opcode;
  if (len < 126) out[1] = 0x80 | len;
  else if (len < 65536) { out[1] = 0x80 | 126; out.writeUInt16BE(len, 2); }
  else { out[1] = 0x80 | 127; out.writeBigUInt64BE(BigInt(len), 2); }
  const mask = randomBytes(4);
  mask.copy(out, head);
  for (let i = 0; i < len; i++) out[head + 4 + i] = payload[i]! ^ mask[i % 4]!;
  return out;
}
