/**
 * A fake adb server on loopback that speaks the server's real socket protocol: host services, the switch to a
 * device transport, and the shell v2 / legacy shell / exec services. The real `adb` client (Debian's) talks to it
 * in test/unit/android-adb-wire, so the bytes are checked against the client adb ships, not against our reading
 * of the protocol. What a command does is the device's business (fake-device.ts runs it through mksh).
 */
import { createServer, type Server, type Socket } from 'node:net';
import { ByteReader } from '../../src/drivers/android/adb/wire.js';
import { encodePacket, ShellPacket } from '../../src/drivers/android/adb/shell-v2.js';

/** What a fake device answers to one command. */
export interface CommandResult { stdout: Buffer | string; stderr?: Buffer | string; exitCode?: number }

/** A device the fake server lists. */
export interface FakeAdbDevice {
  serial: string;
  /** `device`, `unauthorized`, `offline`. */
  state: string;
  features: string[];
  /** `model:Pixel_7 product:… device:…` facts for `host:devices-l`. */
  facts?: Record<string, string>;
  run(command: string): Promise<CommandResult>;
}

/** The fake server's view of the traffic, for assertions. */
export interface FakeAdbLog { requests: string[]; services: string[] }

const hex4 = (n: number): string => n.toString(16).padStart(4, '0');
const okay = (text?: string): Buffer => {
  if (text === undefined) return Buffer.from('OKAY');
  const body = Buffer.from(text, 'utf8');
  return Buffer.concat([Buffer.from(`OKAY${hex4(body.length)}`), body]);
};
const fail = (text: string): Buffer => {
  const body = Buffer.from(text, 'utf8');
  return Buffer.concat([Buffer.from(`FAIL${hex4(body.length)}`), body]);
};

/** A running fake server. */
export class FakeAdbServer {
  readonly log: FakeAdbLog = { requests: [], services: [] };
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;
  /** When set, a device connection is dropped after OKAY of this service prefix (a cable pulled mid-call). */
  dropOn: string | undefined;
  /** When set, the device leaves the server's list at this service prefix and its connection drops (unplugged mid-call). */
  vanishOn: string | undefined;

  constructor(readonly devices: FakeAdbDevice[]) {}

  async start(): Promise<number> {
    this.server = createServer((s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
      void this.serve(s).catch(() => s.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const addr = this.server.address();
    this.port = typeof addr === 'object' && addr ? addr.port : 0;
    return this.port;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server ? this.server.close(() => resolve()) : resolve());
  }

  private async request(reader: ByteReader): Promise<string> {
    const len = Number.parseInt((await reader.read(4)).toString('ascii'), 16);
    return (await reader.read(len)).toString('utf8');
  }

  private async serve(socket: Socket): Promise<void> {
    const reader = new ByteReader(socket);
    let device: FakeAdbDevice | undefined;
    for (;;) {
      const req = await this.request(reader);
      this.log.requests.push(req);
      if (device) { await this.service(socket, reader, device, req); return; }
      const m = /^host(?:-serial:([^:]+))?:(.*)$/.exec(req);
      if (!m) { socket.end(fail(`unknown request ${req}`)); return; }
      const [, serial, what = ''] = m;
      // The real server closes a host query's connection after the reply; the client waits for that orderly shutdown.
      if (what === 'version') { socket.end(okay(hex4(41))); return; }
      if (what === 'devices' || what === 'devices-l') {
        const long = what === 'devices-l';
        socket.end(
          okay(
            this.devices
              .map((d) =>
                long
                  ? `${d.serial.padEnd(22)} ${d.state} ` +
                    `${Object.entries(d.facts ?? {})
                      .map(([k, v]) => `${k}:${v}`)
                      .join(' ')}\n`
                  : `${d.serial}\t${d.state}\n`,
              )
              .join(''),
          ),
        );
        return;
      }
      if (what === 'features' || what === 'get-state') {
        const d = this.pick(serial);
        if (typeof d === 'string') { socket.end(fail(d)); return; }
        socket.end(okay(what === 'features' ? d.features.join(',') : d.state));
        return;
      }
      if (what === 'kill') { socket.end(okay()); return; }
      const t = /^(tport:serial:|tport:any$|transport:|transport-any$)(.*)$/.exec(what);
      if (t) {
        const d = this.pick(t[2] || undefined);
        if (typeof d === 'string') { socket.end(fail(d)); return; }
        if (d.state === 'unauthorized') {
          socket.end(
            fail(
              "device unauthorized.\nThis adb server's $ADB_VENDOR_KEYS is not set\nTry 'adb kill-server' if " +
                'that seems wrong.\nOtherwise check for a confirmation dialog on your device.',
            ),
          );
          return;
        }
        if (d.state !== 'device') { socket.end(fail(`device ${d.state}`)); return; }
        device = d;
        const id = Buffer.alloc(8); id.writeBigUInt64LE(1n);
        socket.write(t[1]!.startsWith('tport') ? Buffer.concat([okay(), id]) : okay());
        continue;
      }
      socket.end(fail(`unknown host service ${what}`));
      return;
    }
  }

  private pick(serial: string | undefined): FakeAdbDevice | string {
    if (serial) return this.devices.find((d) => d.serial === serial) ?? `device '${serial}' not found`;
    if (this.devices.length === 0) return 'no devices/emulators found';
    if (this.devices.length > 1) return 'more than one device/emulator';
    return this.devices[0]!;
  }

  private async service(socket: Socket, reader: ByteReader, device: FakeAdbDevice, req: string): Promise<void> {
    this.log.services.push(req);
    const v2 = /^shell,v2,[^:]*:(.*)$/s.exec(req);
    const legacy = /^shell:(.*)$/s.exec(req);
    const exec = /^exec:(.*)$/s.exec(req);
    const command = v2?.[1] ?? legacy?.[1] ?? exec?.[1];
    if (command === undefined) { socket.end(fail(`unknown service ${req.split(':')[0]}`)); return; }
    if (command === '') { socket.end(fail('interactive shells are not supported by the fake device')); return; }
    socket.write(okay());
    if (this.dropOn && req.startsWith(this.dropOn)) { socket.destroy(); return; }
    if (this.vanishOn && req.startsWith(this.vanishOn)) {
      this.devices.splice(this.devices.indexOf(device), 1);
      socket.destroy();
      return;
    }
    if (v2) void reader.read(5).catch(() => undefined); // the client's close-stdin packet; nothing reads stdin here
    const r = await device.run(command);
    const out = Buffer.from(r.stdout);
    const err = Buffer.from(r.stderr ?? '');
    if (v2) {
      if (out.length) socket.write(encodePacket(ShellPacket.stdout, out));
      if (err.length) socket.write(encodePacket(ShellPacket.stderr, err));
      socket.end(encodePacket(ShellPacket.exit, Buffer.from([r.exitCode ?? 0])));
    } else socket.end(exec ? out : Buffer.concat([out, err]));
  }
}
