/**
 * Synthetic input on Wayland. Wayland gives clients no synthetic input of their own; the
 * two sanctioned paths are the xdg-desktop-portal RemoteDesktop interface (the user agrees once, in the
 * system's own dialog) and libei. uinput is never used: it would bypass the compositor and the user's consent.
 *
 * Decision: keys and pointer on Wayland answer `input_blocked`, whether or not the portal is
 * there, and the driver never sends through it. Input goes where it was aimed or nowhere; on
 * X11 the driver proves that from the server (GetInputFocus inside the target's top-level, X-Resource pid, the
 * topmost window at a point). Wayland offers a client none of this: no global focus query, no window positions,
 * no "which surface is under this point". RemoteDesktop's NotifyKeyboardKeysym goes to whatever surface the
 * compositor focuses when it arrives (a dialog that popped up, another app), and absolute pointer events are in
 * ScreenCast-stream coordinates that no window geometry maps to. The only focus facts left are the apps' own
 * AT-SPI states (`active`, `focused`), which any app can claim or withhold: a window of another app that
 * stays silent would receive the keys. So the portal's presence changes nothing the model can do, and
 * `input_unavailable` (with its "install something" reading) would mislead: the code is `input_blocked` and the
 * reason says what exists and why it is not used. `input_unavailable` stays for sessions with no input path at all.
 *
 * What a safe design would take (not built): (1) a focus proof from the compositor itself, e.g. GNOME Shell's
 * `org.gnome.Shell.Introspect.GetWindows` (has-focus, app id; restricted to allow-listed callers since GNOME 41)
 * or KWin's scripting, cross-checked with the target's AT-SPI `active` window and `object:state-changed:focused`
 * events from the target's bus name, whose pid (GetConnectionUnixProcessID) and start time match; (2) the check
 * repeated after every key with a focus-change event watch that aborts the rest; (3) for the pointer, a
 * ScreenCast stream tied to the RemoteDesktop session plus window geometry from the compositor; (4) portal
 * version ≥ 2 for a consent that persists (Debian 12's GNOME portal is version 1: a dialog every session) and
 * a fix for the lost first keysym (measured on mutter 43). The RemoteDesktop client below is kept, tested
 * against a stub portal, for that day.
 *
 * `probeWaylandInput` says which path exists and gives the reason. `RemoteDesktopPortal` is a client of
 * org.freedesktop.portal.RemoteDesktop over dbus-next's low-level messages: CreateSession, SelectDevices, Start
 * (each answered by a Request object's Response signal), then NotifyKeyboardKeysym / NotifyPointer*.
 */
import { existsSync } from 'node:fs';
import dbus from 'dbus-next';
import { ComputerUseError } from '../../../protocol/errors.js';

const { Message, Variant } = dbus;

const PORTAL = 'org.freedesktop.portal.Desktop';
const PORTAL_PATH = '/org/freedesktop/portal/desktop';
const REMOTE = 'org.freedesktop.portal.RemoteDesktop';

/** RemoteDesktop device types (bit mask). */
export const DEVICE = { keyboard: 1, pointer: 2, touchscreen: 4 } as const;

/** What synthetic input Wayland offers here, and the answer the driver gives while it sends none. */
export interface WaylandInput {
  /** The RemoteDesktop portal's interface version and device types, when the portal offers it. */
  portal?: { version: number; deviceTypes: number };
  /** Whether libei (libei.so.1) is installed. */
  libei: boolean;
  /** Always `input_blocked` on Wayland (see the decision above); kept a union for callers that switch on it. */
  code: 'input_blocked' | 'input_unavailable';
  reason: string;
}

/** Why the driver sends no synthetic input on Wayland: the first sentence of every Wayland input error. */
export const WAYLAND_NO_PROOF =
  'Wayland: keys and pointer are blocked. Wayland lets no client prove which window has the keyboard focus ' +
  'or lies under a point ' +
  '(no X11 window proof: no server-side focus, no window positions, no window pid), so input could reach another app than the one aimed at.';

const LIB_DIRS = [
  '/usr/lib/x86_64-linux-gnu',
  '/usr/lib/aarch64-linux-gnu',
  '/usr/lib64',
  '/usr/lib',
  '/usr/local/lib',
];

/** True when libei's shared library is installed. */
export function libeiInstalled(dirs: readonly string[] = LIB_DIRS): boolean {
  return dirs.some((d) => existsSync(`${d}/libei.so.1`));
}

function typesText(mask: number): string {
  const names = Object.entries(DEVICE).filter(([, bit]) => (mask & bit) !== 0).map(([n]) => n);
  return names.length ? names.join('+') : 'no devices';
}

/**
 * Asks the session bus for the RemoteDesktop portal (its `version` and `AvailableDeviceTypes`) and looks for
 * libei; returns `input_blocked` and the reason keys and pointer fail with on this Wayland session.
 */
export async function probeWaylandInput(env: NodeJS.ProcessEnv = process.env, timeoutMs = 2000): Promise<WaylandInput> {
  const libei = libeiInstalled();
  let portal: WaylandInput['portal'];
  let why = 'DBUS_SESSION_BUS_ADDRESS is unset';
  const address = env['DBUS_SESSION_BUS_ADDRESS'];
  if (address) {
    try {
      const p = await RemoteDesktopPortal.connect(address, timeoutMs);
      try { portal = await p.properties(); } finally { p.close(); }
    } catch (e) { why = (e as Error).message.split('\n')[0] ?? 'no answer'; }
  }
  const portalText =
    portal && (portal.deviceTypes & (DEVICE.keyboard | DEVICE.pointer)) !== 0
      ? `The RemoteDesktop portal (version ${portal.version}, ${typesText(portal.deviceTypes)}) is on this ` +
        `session bus and could send input after you agree in the system's dialog, ` +
        'but the driver does not send through it: the portal delivers to whatever the compositor focuses.'
      : portal
        ? `The RemoteDesktop portal offers ${typesText(portal.deviceTypes)} here, and would not be used either.`
        : `There is no xdg-desktop-portal RemoteDesktop interface on the session bus (${why}), and it would ` +
          `not be used either.`;
  const libeiText = libei ? 'libei is installed, but this driver has no libei client' : 'libei is not installed';
  return { ...(portal ? { portal } : {}), libei, code: 'input_blocked', reason:
    `${WAYLAND_NO_PROOF} ${portalText} ${libeiText}; uinput is never used. Nothing was sent. ` +
    'Use element actions instead (click, set_value, type, toggle, select, scroll): they reach the element itself.' };
}

/** A value of an a{sv} dictionary, unwrapped. */
function unwrap(dict: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries((dict ?? {}) as Record<string, unknown>))
    out[k] = v instanceof Variant ? v.value : v;
  return out;
}

let tokens = 0;

/** The devices and restore token Start answered with. */
export interface RemoteDesktopStarted { devices: number; restoreToken?: string }

/** A client of org.freedesktop.portal.RemoteDesktop on one session-bus connection. */
export class RemoteDesktopPortal {
  session: string | undefined;

  private constructor(
    private readonly bus: dbus.MessageBus,
    private readonly sender: string,
    private readonly timeoutMs: number,
  ) {}

  /** Connects to the session bus at `address`. */
  static async connect(address: string, timeoutMs = 5000): Promise<RemoteDesktopPortal> {
    const bus = dbus.sessionBus({ busAddress: address });
    let timer: NodeJS.Timeout | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`no session bus answer within ${timeoutMs} ms`)), timeoutMs);
        bus.once('connect', () => resolve());
        bus.once('error', (e: unknown) => reject(e instanceof Error ? e : new Error(String(e))));
      });
    } catch (e) {
      try { bus.disconnect(); } catch { /* not connected */ }
      throw e;
    } finally { clearTimeout(timer); }
    bus.on('error', () => undefined);
    const name = (bus as unknown as { name?: string }).name ?? '';
    return new RemoteDesktopPortal(bus, name.replace(/^:/, '').replace(/\./g, '_'), timeoutMs);
  }

  private async call(
    member: string,
    signature: string,
    body: unknown[],
    iface = REMOTE,
    path = PORTAL_PATH,
    timeoutMs = this.timeoutMs,
  ): Promise<unknown[]> {
    const destination = iface === 'org.freedesktop.DBus' ? 'org.freedesktop.DBus' : PORTAL;
    let timer: NodeJS.Timeout | undefined;
    try {
      const reply = await Promise.race([
        this.bus.call(new Message({ destination, path, interface: iface, member, signature, body })),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`${iface}.${member}: no answer within ${timeoutMs} ms`)),
            timeoutMs,
          );
        }),
      ]);
      return reply?.body ?? [];
    } finally { clearTimeout(timer); }
  }

  /** The portal's RemoteDesktop `version` and `AvailableDeviceTypes`. */
  async properties(): Promise<{ version: number; deviceTypes: number }> {
    const get = async (prop: string): Promise<number> => {
      const [v] = await this.call('Get', 'ss', [REMOTE, prop], 'org.freedesktop.DBus.Properties');
      return Number(v instanceof Variant ? v.value : v);
    };
    return { version: await get('version'), deviceTypes: await get('AvailableDeviceTypes') };
  }

  /**
   * Calls a portal method that answers through a Request object: subscribes to the Response signal on the
   * request path first (no race), then calls, then waits for the response (`timeoutMs`: the user's dialog).
   */
  private async request(
    member: string,
    signature: string,
    body: (token: string) => unknown[],
    timeoutMs = this.timeoutMs,
  ): Promise<Record<string, unknown>> {
    const token = `computer_use_${process.pid}_${++tokens}`;
    let path = `/org/freedesktop/portal/desktop/request/${this.sender}/${token}`;
    const rule = `type='signal',interface='org.freedesktop.portal.Request',member='Response',path='${path}'`;
    await this.call('AddMatch', 's', [rule], 'org.freedesktop.DBus', '/org/freedesktop/DBus').catch(() => undefined);
    let onMessage: ((m: dbus.Message) => void) | undefined;
    let timer: NodeJS.Timeout | undefined;
    const response = new Promise<[number, Record<string, unknown>]>((resolve, reject) => {
      onMessage = (m) => {
        if (
          m.type === dbus.MessageType.SIGNAL &&
          m.interface === 'org.freedesktop.portal.Request' &&
          m.member === 'Response' &&
          m.path === path
        ) {
          resolve([Number(m.body[0]), unwrap(m.body[1])]);
        }
      };
      this.bus.on('message', onMessage);
      timer = setTimeout(
        () => reject(new ComputerUseError('timeout', `${REMOTE}.${member}: no response within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    response.catch(() => undefined);
    try {
      const [handle] = await this.call(member, signature, body(token));
      if (typeof handle === 'string') path = handle; // an older portal may answer on another path
      const [code, results] = await response;
      if (code === 1)
        throw new ComputerUseError(
          'input_blocked',
          `The user declined remote control in the system's dialog (${member}); nothing was sent.`,
        );
      if (code !== 0)
        throw new ComputerUseError(
          'input_unavailable',
          `The RemoteDesktop portal ended ${member} (response ${code}); nothing was sent.`,
        );
      return results;
    } finally {
      clearTimeout(timer);
      if (onMessage) this.bus.removeListener('message', onMessage);
      void this.call('RemoveMatch', 's', [rule], 'org.freedesktop.DBus', '/org/freedesktop/DBus').catch(
        () => undefined,
      );
    }
  }

  /** CreateSession: a remote-desktop session; returns its handle. */
  async createSession(): Promise<string> {
    const results = await this.request('CreateSession', 'a{sv}', (token) => [{
      handle_token: new Variant('s', token), session_handle_token: new Variant('s', `${token}_session`),
    }]);
    const handle = results['session_handle'];
    if (typeof handle !== 'string' || !handle)
      throw new ComputerUseError('input_unavailable', 'The RemoteDesktop portal created no session.');
    this.session = handle;
    return handle;
  }

  private need(): string {
    if (!this.session)
      throw new ComputerUseError('input_unavailable', 'No RemoteDesktop session: call createSession first.');
    return this.session;
  }

  /**
   * SelectDevices: the devices to ask the user for; with version ≥ 2, `persist` asks the portal to remember the
   * consent (persist_mode 2) and `restoreToken` reuses an earlier one, so the user agrees once.
   */
  async selectDevices(
    types: number = DEVICE.keyboard | DEVICE.pointer,
    opts: { persist?: boolean; restoreToken?: string } = {},
  ): Promise<void> {
    const session = this.need();
    await this.request('SelectDevices', 'oa{sv}', (token) => [session, {
      handle_token: new Variant('s', token), types: new Variant('u', types),
      ...(opts.persist ? { persist_mode: new Variant('u', 2) } : {}),
      ...(opts.restoreToken ? { restore_token: new Variant('s', opts.restoreToken) } : {}),
    }]);
  }

  /** Start: the system shows its consent dialog; resolves with the devices granted once the user agreed. */
  async start(timeoutMs = 120_000): Promise<RemoteDesktopStarted> {
    const session = this.need();
    const results = await this.request(
      'Start',
      'osa{sv}',
      (token) => [session, '', { handle_token: new Variant('s', token) }],
      timeoutMs,
    );
    const out: RemoteDesktopStarted = { devices: Number(results['devices'] ?? 0) };
    if (typeof results['restore_token'] === 'string') out.restoreToken = results['restore_token'];
    return out;
  }

  /** NotifyKeyboardKeysym: presses (true) or releases (false) a keysym. */
  async keysym(keysym: number, pressed: boolean): Promise<void> {
    await this.call('NotifyKeyboardKeysym', 'oa{sv}iu', [this.need(), {}, keysym, pressed ? 1 : 0]);
  }

  /** NotifyPointerMotionAbsolute: moves the pointer within a ScreenCast stream's coordinates. */
  async pointerMotionAbsolute(stream: number, x: number, y: number): Promise<void> {
    await this.call('NotifyPointerMotionAbsolute', 'oa{sv}udd', [this.need(), {}, stream, x, y]);
  }

  /** NotifyPointerMotion: moves the pointer relatively. */
  async pointerMotion(dx: number, dy: number): Promise<void> {
    await this.call('NotifyPointerMotion', 'oa{sv}dd', [this.need(), {}, dx, dy]);
  }

  /** NotifyPointerButton: an evdev button code (BTN_LEFT = 0x110) pressed or released. */
  async pointerButton(button: number, pressed: boolean): Promise<void> {
    await this.call('NotifyPointerButton', 'oa{sv}iu', [this.need(), {}, button, pressed ? 1 : 0]);
  }

  /** NotifyPointerAxisDiscrete: wheel steps on axis 0 (vertical) or 1 (horizontal). */
  async pointerAxisDiscrete(axis: 0 | 1, steps: number): Promise<void> {
    await this.call('NotifyPointerAxisDiscrete', 'oa{sv}ui', [this.need(), {}, axis, steps]);
  }

  /** Closes the session (org.freedesktop.portal.Session.Close) and the bus connection. */
  close(): void {
    const session = this.session;
    this.session = undefined;
    if (session) {
      try {
        this.bus.send(
          new Message({
            destination: PORTAL,
            path: session,
            interface: 'org.freedesktop.portal.Session',
            member: 'Close',
          }),
        );
      } catch {
        /* gone */
      }
    }
    setImmediate(() => { try { this.bus.disconnect(); } catch { /* not connected */ } });
  }
}
