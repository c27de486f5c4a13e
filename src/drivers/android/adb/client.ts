/**
 * A client of the adb server over its own socket protocol (host services, then a device transport and a
 * service on it), one connection per call as adb itself does. The `adb` binary is needed only to start the
 * server (`adb start-server`); nothing here spawns it.
 */
import { AdbError } from './errors.js';
import { encodePacket, readShellV2, ShellPacket, MAX_SHELL_OUTPUT, type ShellResult } from './shell-v2.js';
import { connect, encodeRequest, serverAddress, type ByteReader, type ServerAddress } from './wire.js';

/** One device as `host:devices-l` lists it. */
export interface AdbDevice {
  serial: string;
  /** `device` (ready), `unauthorized`, `offline`, `recovery`, `sideload`, `bootloader`, … as the server says. */
  state: string;
  /** `model:`, `product:`, `device:`, `transport_id:` facts from the long listing. */
  facts: Record<string, string>;
}

/** Options of a client. */
export interface AdbClientOptions {
  address?: ServerAddress;
  /** Connect and per-reply timeout in ms. */
  timeoutMs?: number;
}

/** Talks to one adb server. */
export class AdbClient {
  readonly address: ServerAddress;
  private readonly timeoutMs: number;
  private readonly features = new Map<string, Set<string>>();

  constructor(options: AdbClientOptions = {}) {
    this.address = options.address ?? serverAddress();
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  /** The server's protocol version (`host:version`; 41 for adb 1.0.41). */
  async version(): Promise<number> {
    const text = await this.hostQuery('host:version');
    const v = Number.parseInt(text, 16);
    if (!Number.isFinite(v)) throw new AdbError('protocol', `host:version answered ${JSON.stringify(text)}`);
    return v;
  }

  /** The attached devices, with their state. */
  async devices(): Promise<AdbDevice[]> {
    return parseDeviceList(await this.hostQuery('host:devices-l'));
  }

  /** The features the device's adbd offers (`shell_v2`, `cmd`, `abb_exec`, …), asked once per serial. */
  async deviceFeatures(serial: string): Promise<Set<string>> {
    const known = this.features.get(serial);
    if (known) return known;
    const text = await this.hostQuery(`host-serial:${serial}:features`);
    const set = new Set(text.split(',').map((f) => f.trim()).filter(Boolean));
    this.features.set(serial, set);
    return set;
  }

  /**
   * Runs a command line in the device's shell (quote it with quote.ts's shellCommand) and waits for its exit,
   * within `timeoutMs`. Uses shell v2 (exit code, stderr apart) where the device has it.
   */
  async shell(serial: string, command: string, timeoutMs = this.timeoutMs): Promise<ShellResult> {
    const v2 = (await this.deviceFeatures(serial)).has('shell_v2');
    return this.onDevice(
      serial,
      v2 ? `shell,v2,raw:${command}` : `shell:${command}`,
      timeoutMs,
      async (reader, socket) => {
        if (!v2)
          return { stdout: await reader.readAll(MAX_SHELL_OUTPUT), stderr: Buffer.alloc(0), exitCode: undefined };
        // Nothing is typed into the command: close its stdin so a program that reads it gets EOF, not a hang.
        socket.write(encodePacket(ShellPacket.closeStdin));
        return readShellV2((n) => reader.read(n));
      },
    );
  }

  /** Runs a command with raw binary output (`exec:`, what `adb exec-out` uses) until it closes the stream. */
  async exec(serial: string, command: string, timeoutMs = this.timeoutMs, limit = MAX_SHELL_OUTPUT): Promise<Buffer> {
    return this.onDevice(serial, `exec:${command}`, timeoutMs, (reader) => reader.readAll(limit));
  }

  /** A host service that answers OKAY and one hex-length-prefixed string. */
  private async hostQuery(service: string): Promise<string> {
    const { socket, reader } = await connect(this.address, this.timeoutMs);
    try {
      return await withTimeout(this.timeoutMs, service, socket, async () => {
        socket.write(encodeRequest(service));
        await reader.readStatus(service);
        return reader.readHexString();
      });
    } finally { socket.destroy(); }
  }

  /** Switches a connection to the device's transport, then opens `service` on it. */
  private async onDevice<T>(
    serial: string,
    service: string,
    timeoutMs: number,
    body: (reader: ByteReader, socket: import('node:net').Socket) => Promise<T>,
  ): Promise<T> {
    const { socket, reader } = await connect(this.address, this.timeoutMs);
    try {
      return await withTimeout(timeoutMs, service, socket, async () => {
        const transport = `host:transport:${serial}`;
        socket.write(encodeRequest(transport));
        await reader.readStatus(transport);
        socket.write(encodeRequest(service));
        await reader.readStatus(service);
        return body(reader, socket);
      });
    } finally { socket.destroy(); }
  }
}

/** Runs `fn` and fails with a timeout (closing the socket) when it takes longer than `ms`. */
async function withTimeout<T>(
  ms: number,
  what: string,
  socket: import('node:net').Socket,
  fn: () => Promise<T>,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      socket.destroy();
      reject(new AdbError('timeout', `${what.split(':')[0]} got no answer within ${ms} ms`));
    }, ms);
  });
  try { return await Promise.race([fn(), expired]); } finally { clearTimeout(timer); }
}

/** Parses `host:devices-l` (`SERIAL<spaces>STATE key:value…` per line). */
export function parseDeviceList(text: string): AdbDevice[] {
  const devices: AdbDevice[] = [];
  for (const line of text.split('\n')) {
    const words = line.trim().split(/\s+/).filter(Boolean);
    const [serial, state, ...rest] = words;
    if (!serial || !state) continue;
    const facts: Record<string, string> = {};
    for (const w of rest) { const i = w.indexOf(':'); if (i > 0) facts[w.slice(0, i)] = w.slice(i + 1); }
    devices.push({ serial, state, facts });
  }
  return devices;
}

/** Picks the device to use: the one named, or the only one attached; a clear error otherwise. */
export function chooseDevice(devices: readonly AdbDevice[], serial?: string): AdbDevice {
  if (serial !== undefined) {
    const d = devices.find((x) => x.serial === serial);
    if (!d)
      throw new AdbError(
        'not_found',
        `no Android device "${serial}" is attached (adb lists ` + `${devices.length ? listDevices(devices) : 'none'})`,
      );
    return usable(d);
  }
  if (devices.length === 0)
    throw new AdbError(
      'not_found',
      'no Android device is attached: connect one with USB debugging on (or start an emulator), then check ' +
        '`adb devices`',
    );
  if (devices.length > 1)
    throw new AdbError(
      'ambiguous',
      `${devices.length} Android devices are attached (${listDevices(devices)}): name one as adb:SERIAL`,
    );
  return usable(devices[0]!);
}

/** The devices adb lists, each with its state: "emulator-5554 (ready), R58N31 (unauthorized: accept on the phone)". */
export function listDevices(devices: readonly AdbDevice[]): string {
  const says: Record<string, string> = {
    device: 'ready',
    unauthorized: 'unauthorized: accept "Allow USB debugging?" on the phone',
    offline: 'offline: reconnect it',
  };
  // The serial and state are the adb server's text: printable ASCII only, so a forged one cannot add lines.
  const clean = (s: string): string => s.replace(/[^\x21-\x7e]/g, '?').slice(0, 64);
  return (
    devices
      .slice(0, 16)
      .map((d) => `${clean(d.serial)} (${says[d.state] ?? clean(d.state)})`)
      .join(', ') + (devices.length > 16 ? `, and ${devices.length - 16} more` : '')
  );
}

/** A device that is not ready says why. */
function usable(d: AdbDevice): AdbDevice {
  if (d.state === 'device') return d;
  if (d.state === 'unauthorized')
    throw new AdbError(
      'unauthorized',
      `the device ${d.serial} has not authorized this computer: unlock it and accept "Allow USB debugging?"`,
    );
  if (d.state === 'offline')
    throw new AdbError('offline', `the device ${d.serial} is offline: reconnect it, or run \`adb reconnect\``);
  throw new AdbError('failed', `the device ${d.serial} is in state "${d.state}", not ready for commands`);
}
