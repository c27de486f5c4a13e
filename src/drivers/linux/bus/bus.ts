/**
 * The accessibility bus connection: low-level D-Bus messages (no proxy objects, which introspect every
 * object first), each call with a timeout, errors mapped to protocol error codes.
 */
import dbus from 'dbus-next';
import { ComputerUseError } from '../../../protocol/errors.js';
import { PeerConnection } from './p2p.js';

const { Message } = dbus;

/** A D-Bus call target. */
export interface Target { dest: string; path: string }

/** Deadline of the ping that tells whether a busy app answers again. */
const PING_MS = 500;
/** A busy app is pinged at most this often; calls in between fail at once. */
const PING_RETRY_MS = 1000;

/** The path of an app's root accessible object. */
const APP_ROOT_PATH = '/org/a11y/atspi/accessible/root';
/** The properties getAll reads one by one where GetAll is unsafe (A11yBus.getAll). */
const PER_PROPERTY: Record<string, readonly string[]> = {
  'org.a11y.atspi.Accessible': ['Name', 'Description', 'ChildCount', 'AccessibleId', 'Parent'],
  'org.a11y.atspi.Value': ['CurrentValue', 'MinimumValue', 'MaximumValue', 'MinimumIncrement', 'Text'],
  'org.a11y.atspi.Text': ['CharacterCount', 'CaretOffset'],
  'org.a11y.atspi.Table': ['NRows', 'NColumns', 'Caption', 'Summary', 'NSelectedRows', 'NSelectedColumns'],
};

/** Thin wrapper over one dbus-next MessageBus. */
/** An app's toolkit as its application root names it ("" where it does not). */
export interface Toolkit { name: string; version: string }

/** Unique bus names whose pid is kept (apps come and go; each kept name costs a few bytes). */
const MAX_KNOWN_PIDS = 512;

export class A11yBus {
  private constructor(readonly bus: dbus.MessageBus, readonly address: string) {}

  /** Finds the accessibility bus address through the session bus (or AT_SPI_BUS_ADDRESS) and connects. */
  static async connect(timeoutMs = 5000): Promise<A11yBus> {
    const address = process.env['AT_SPI_BUS_ADDRESS'] || await a11yAddressFromSession(timeoutMs);
    const bus = await openBus(address, timeoutMs);
    return new A11yBus(bus, address);
  }

  /** Direct connections per app bus name (null: the app offers none, use the bus). */
  private readonly peers = new Map<string, Promise<PeerConnection | null>>();
  /** Use direct connections to apps where offered (COMPUTER_USE_NO_P2P=1 turns them off). */
  p2p = !process.env['COMPUTER_USE_NO_P2P'];

  /**
   * Calls a method and returns the reply body. Calls to an app go over its direct connection when it has one;
   * `viaBus` forces the bus (a settle ping must share the connection the app's events arrive on, so that
   * events sent before the reply are received before it).
   */
  async call(
    t: Target,
    iface: string,
    member: string,
    signature = '',
    body: unknown[] = [],
    timeoutMs = 3000,
    viaBus = false,
  ): Promise<any[]> {
    const app = t.dest.startsWith(':');
    if (app && this.busy.has(t.dest)) await this.stillBusy(t.dest);
    try {
      return await this.send(t, iface, member, signature, body, timeoutMs, viaBus);
    } catch (e) {
      // One time-out and the app is left alone: more calls would only queue up behind the one it is stuck on.
      if (app && e instanceof ComputerUseError && e.code === 'timeout' && !this.busy.has(t.dest))
        this.busy.set(t.dest, { probe: undefined, failedAt: -Infinity });
      throw e;
    }
  }

  /** Apps (unique bus names) that timed out once and have not answered a ping since. */
  private readonly busy = new Map<string, { probe: Promise<boolean> | undefined; failedAt: number }>();

  /** Whether an app is marked busy (it timed out and no ping has answered since). */
  isBusy(dest: string): boolean { return this.busy.has(dest); }

  /**
   * Resolves when a busy app answers a cheap ping (GetRole on its root, short deadline), and clears the mark;
   * rejects with `timeout` at once when it does not. Concurrent calls share one ping, and a ping that failed
   * less than PING_RETRY_MS ago is not repeated.
   */
  private async stillBusy(dest: string): Promise<void> {
    const mark = this.busy.get(dest);
    if (!mark) return;
    if (!mark.probe && performance.now() - mark.failedAt >= PING_RETRY_MS) {
      mark.probe = this.send(
        { dest, path: '/org/a11y/atspi/accessible/root' },
        'org.a11y.atspi.Accessible',
        'GetRole',
        '',
        [],
        PING_MS,
        false,
      ).then(
        () => true,
        (e: unknown) => isGone(e),
      );
      void mark.probe.then((answered) => {
        if (answered) this.busy.delete(dest);
        else { mark.failedAt = performance.now(); mark.probe = undefined; }
      });
    }
    if (mark.probe && await mark.probe) return;
    throw new ComputerUseError('timeout', 'the app is busy (not answering); try again in a moment');
  }

  /** One call with its deadline, over the app's direct connection when it has one. */
  private async send(
    t: Target,
    iface: string,
    member: string,
    signature: string,
    body: unknown[],
    timeoutMs: number,
    viaBus: boolean,
  ): Promise<any[]> {
    const msg = new Message({ destination: t.dest, path: t.path, interface: iface, member, signature, body });
    const peer = !viaBus && this.p2p && t.dest.startsWith(':') ? await this.peerFor(t.dest) : null;
    const reply = await withTimeout(peer ? peer.call(msg) : this.bus.call(msg), timeoutMs, `${iface}.${member}`);
    return reply?.body ?? [];
  }

  private peerFor(dest: string): Promise<PeerConnection | null> {
    let p = this.peers.get(dest);
    const settled = p;
    if (settled) {
      return settled.then((c) => {
        if (c && c.isClosed) { this.peers.delete(dest); return null; }
        return c;
      });
    }
    p = (async () => {
      try {
        const msg = new Message({
          destination: dest,
          path: '/org/a11y/atspi/accessible/root',
          interface: 'org.a11y.atspi.Application',
          member: 'GetApplicationBusAddress',
        });
        const reply = await withTimeout(this.bus.call(msg), 1000, 'GetApplicationBusAddress');
        const address = String(reply?.body?.[0] ?? '');
        if (!address) return null;
        return await PeerConnection.open(address, 1000);
      } catch { return null; }
    })();
    this.peers.set(dest, p);
    return p;
  }

  /** Reads one property value (unwrapped from its variant). */
  async getProp(t: Target, iface: string, prop: string, timeoutMs = 3000, viaBus = false): Promise<any> {
    const [v] = await this.call(t, 'org.freedesktop.DBus.Properties', 'Get', 'ss', [iface, prop], timeoutMs, viaBus);
    return (v as { value: unknown } | undefined)?.value;
  }

  /**
   * Reads all properties of one interface as a plain object. Qt 5 apps get one Get per known property
   * instead: Qt 5.15's AT-SPI adaptor reads a second argument of every Properties call, and GetAll has
   * none, so GetAll crashes the app (SIGSEGV in QVariant::toString; featherpad and KeePassXC, every time).
   */
  async getAll(t: Target, iface: string, timeoutMs = 3000): Promise<Record<string, any>> {
    if (!(await this.getAllIsSafe(t.dest))) {
      // Never a GetAll on Qt: an interface without a known property list is refused, not risked (it kills the app).
      const known = PER_PROPERTY[iface];
      if (!known)
        throw new ComputerUseError(
          'unsupported',
          `Reading all ${iface.split('.').pop()} properties at once crashes this toolkit (Qt); not asked.`,
        );
      const values = await Promise.all(known.map((k) => this.getProp(t, iface, k, timeoutMs).then((v: unknown) => [k, v] as const, (e: unknown) => {
        if (e instanceof ComputerUseError && e.code === 'timeout') throw e;
        return [k, undefined] as const; // a property the object lacks
      })));
      return Object.fromEntries(values.filter(([, v]) => v !== undefined));
    }
    const [v] = await this.call(t, 'org.freedesktop.DBus.Properties', 'GetAll', 's', [iface], timeoutMs);
    const out: Record<string, any> = {};
    for (const [k, val] of Object.entries((v ?? {}) as Record<string, { value: unknown }>)) out[k] = val.value;
    return out;
  }

  /** Per app (unique bus name): its toolkit's name and version ("" when it does not say). */
  private readonly toolkits = new Map<string, Promise<Toolkit>>();

  /** The app's ToolkitName (GTK, Qt, Gecko, …) from its application root, cached per unique bus name. */
  async toolkitName(dest: string): Promise<string> {
    return (await this.toolkit(dest)).name;
  }

  /** The app's ToolkitName and toolkit Version, read once per unique bus name (names are never reused). */
  toolkit(dest: string): Promise<Toolkit> {
    let known = this.toolkits.get(dest);
    if (!known) {
      const read = (prop: string): Promise<string> =>
        this.getProp({ dest, path: APP_ROOT_PATH }, 'org.a11y.atspi.Application', prop, 1500)
          .then((v: unknown) => String(v ?? ''), () => '');
      known = Promise.all([read('ToolkitName'), read('Version')]).then(([name, version]) => ({ name, version }));
      this.toolkits.set(dest, known);
      // The map only grows with apps seen (a bounded number per session).
    }
    return known;
  }

  /** True for Qt apps (their AT-SPI adaptor differs from ATK's in ways that crash or corrupt, see callers). */
  async isQt(dest: string): Promise<boolean> {
    return dest.startsWith(':') && /^qt/i.test(await this.toolkitName(dest));
  }

  /** False for Qt apps (ToolkitName "Qt" on the application root), true otherwise or when unknown. */
  async getAllIsSafe(dest: string): Promise<boolean> {
    return !(await this.isQt(dest));
  }

  /** Sets one property. */
  async setProp(t: Target, iface: string, prop: string, signature: string, value: unknown): Promise<void> {
    await this.call(t, 'org.freedesktop.DBus.Properties', 'Set', 'ssv', [
      iface,
      prop,
      new dbus.Variant(signature, value),
    ]);
  }

  /** Adds a match rule on the bus daemon. */
  async addMatch(rule: string): Promise<void> {
    await this.call(
      { dest: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus' },
      'org.freedesktop.DBus',
      'AddMatch',
      's',
      [rule],
    );
  }

  /** Pids of unique bus names asked before: a daemon never gives a unique name (":1.42") to a second connection. */
  private readonly pids = new Map<string, number>();

  /** The pid owning a bus name, or 0. */
  async pidOf(busName: string): Promise<number> {
    const known = this.pids.get(busName);
    if (known !== undefined) return known;
    try {
      const [pid] = await this.call(
        { dest: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus' },
        'org.freedesktop.DBus',
        'GetConnectionUnixProcessID',
        's',
        [busName],
      );
      const n = Number(pid ?? 0);
      if (n > 0 && busName.startsWith(':')) {
        if (this.pids.size >= MAX_KNOWN_PIDS) this.pids.delete(this.pids.keys().next().value!);
        this.pids.set(busName, n);
      }
      return n;
    } catch { return 0; }
  }

  disconnect(): void {
    for (const p of this.peers.values()) void p.then((c) => c?.close());
    try { this.bus.disconnect(); } catch { /* already closed */ }
  }
}

/** Opens a bus connection, waiting for the handshake so early disconnects cannot crash the process. */
async function openBus(address: string, timeoutMs: number): Promise<dbus.MessageBus> {
  const bus = dbus.sessionBus({ busAddress: address });
  await withTimeout(new Promise<void>((resolve, reject) => {
    bus.once('connect', () => resolve());
    bus.once('error', (e: Error) => reject(e));
  }), timeoutMs, `connect ${address}`).catch((e: Error) => {
    throw new ComputerUseError(
      'permission_denied',
      `Cannot reach the accessibility bus (${e.message}). Start a desktop session with AT-SPI, or run ` +
        `\`computer-use sandbox up\`.`,
    );
  });
  // A late socket error must not crash the driver: it is reported through failing calls instead.
  bus.on('error', () => undefined);
  return bus;
}

/** Asks org.a11y.Bus on the session bus for the accessibility bus address. */
async function a11yAddressFromSession(timeoutMs: number): Promise<string> {
  if (!process.env['DBUS_SESSION_BUS_ADDRESS']) {
    throw new ComputerUseError('permission_denied',
      'No D-Bus session (DBUS_SESSION_BUS_ADDRESS is unset). Run inside a desktop session or use `computer-use sandbox up`.');
  }
  const session = await openBus(process.env['DBUS_SESSION_BUS_ADDRESS'], timeoutMs);
  try {
    const reply = await withTimeout(session.call(new Message({
      destination: 'org.a11y.Bus', path: '/org/a11y/bus', interface: 'org.a11y.Bus', member: 'GetAddress',
    })), timeoutMs, 'org.a11y.Bus.GetAddress');
    const address = reply?.body?.[0] as string | undefined;
    if (!address) throw new Error('empty address');
    return address;
  } catch (e) {
    throw new ComputerUseError(
      'permission_denied',
      `The AT-SPI bus is not running (${(e as Error).message}). Install at-spi2-core and enable ` +
        `accessibility, or use \`computer-use sandbox up\`.`,
    );
  } finally {
    session.disconnect();
  }
}

/** Rejects with a `timeout` error when `p` does not settle in time. */
export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(new ComputerUseError('timeout', `${what} did not answer within ${ms} ms; the app may be busy or hung.`)),
      ms,
    );
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/** True when a D-Bus error means the object is gone (destroyed element or exited app). */
export function isGone(e: unknown): boolean {
  const type = (e as { type?: string }).type ?? '';
  const text = `${type} ${(e as Error).message ?? ''}`;
  // NoReply and timeouts mean busy, not gone: the caller reports them instead of dropping the element.
  return /UnknownObject|UnknownMethod|ServiceUnknown|Disconnected|UnknownInterface|does not exist|not exist/i.test(
    text,
  );
}
