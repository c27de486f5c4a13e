/**
 * Prerequisites of the Linux driver that can be checked cheaply, for the driver's `hello` and for doctor:
 * display server, XTest (over the driver's own X connection), the AT-SPI status on the session bus, and the toolkit
 * environment
 * variables that decide whether apps expose a tree at all.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import dbus from 'dbus-next';
import { ComputerUseError } from '../../../protocol/errors.js';
import { X11 } from '../x11/connection.js';
import { XWindows } from '../x11/windows.js';

const { Message } = dbus;

/** True when `command` is an executable on PATH. */
export function onPath(command: string, env: NodeJS.ProcessEnv = process.env): boolean {
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (!dir) continue;
    try { accessSync(join(dir, command), constants.X_OK); return true; } catch { /* next */ }
  }
  return false;
}

/** Which display server the environment points at. */
export function displayServer(env: NodeJS.ProcessEnv = process.env): 'x11' | 'wayland' | 'none' {
  if (env['XDG_SESSION_TYPE'] === 'wayland' || (env['WAYLAND_DISPLAY'] && !env['DISPLAY'])) return 'wayland';
  return env['DISPLAY'] ? 'x11' : 'none';
}

/** Environment facts that decide whether toolkits expose their accessibility tree. */
export function toolkitEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of [
    'DISPLAY',
    'WAYLAND_DISPLAY',
    'XDG_SESSION_TYPE',
    'QT_ACCESSIBILITY',
    'QT_LINUX_ACCESSIBILITY_ALWAYS_ON',
    'GSK_RENDERER',
    'GTK_MODULES',
    'NO_AT_BRIDGE',
    'AT_SPI_BUS_ADDRESS',
  ]) {
    const v = env[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** `org.a11y.Status` on the session bus: whether toolkits are told to turn accessibility on. */
export interface A11yStatus { reachable: boolean; isEnabled?: boolean; screenReaderEnabled?: boolean; error?: string }

/** Reads `org.a11y.Status.IsEnabled` / `ScreenReaderEnabled` from `org.a11y.Bus` on the session bus. */
export async function a11yStatus(env: NodeJS.ProcessEnv = process.env, timeoutMs = 1500): Promise<A11yStatus> {
  const address = env['DBUS_SESSION_BUS_ADDRESS'];
  if (!address) return { reachable: false, error: 'DBUS_SESSION_BUS_ADDRESS is unset' };
  const bus = dbus.sessionBus({ busAddress: address });
  bus.on('error', () => undefined);
  let timer: NodeJS.Timeout | undefined;
  try {
    const work = (async () => {
      await new Promise<void>((resolve, reject) => {
        bus.once('connect', () => resolve());
        bus.once('error', (e: Error) => reject(e));
      });
      const reply = await bus.call(
        new Message({
          destination: 'org.a11y.Bus',
          path: '/org/a11y/bus',
          interface: 'org.freedesktop.DBus.Properties',
          member: 'GetAll',
          signature: 's',
          body: ['org.a11y.Status'],
          flags: dbus.MessageFlag.NO_AUTO_START /* never start a second bus launcher */,
        }),
      );
      const props = (reply?.body?.[0] ?? {}) as Record<string, { value: unknown }>;
      const out: A11yStatus = { reachable: true };
      if (typeof props['IsEnabled']?.value === 'boolean') out.isEnabled = props['IsEnabled'].value;
      if (typeof props['ScreenReaderEnabled']?.value === 'boolean')
        out.screenReaderEnabled = props['ScreenReaderEnabled'].value;
      return out;
    })();
    const timeout = new Promise<A11yStatus>((resolve) => {
      timer = setTimeout(() => resolve({ reachable: false, error: `no answer within ${timeoutMs} ms` }), timeoutMs);
    });
    return await Promise.race([work, timeout]);
  } catch (e) {
    return { reachable: false, error: (e as Error).message };
  } finally {
    clearTimeout(timer);
    try { bus.disconnect(); } catch { /* not connected */ }
  }
}

/**
 * Whether the X server offers the XTEST extension, asked over a short-lived X connection of our own
 * (undefined when there is no X display or it cannot be reached).
 */
export async function xtestExtension(
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = 2000,
): Promise<boolean | undefined> {
  if (!env['DISPLAY']) return undefined;
  let x: X11 | undefined;
  try {
    x = await X11.open(env['DISPLAY'], timeoutMs);
    await x.extension('xtest');
    return true;
  } catch (e) {
    return x && e instanceof ComputerUseError && e.code === 'unsupported' ? false : undefined;
  } finally {
    x?.close();
  }
}

/**
 * The X root window's AT_SPI_BUS property (how Qt 5 finds the accessibility bus reliably): its value, null
 * when it is not set, undefined when there is no X display to ask.
 */
export async function atspiRootProperty(
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = 2000,
): Promise<string | null | undefined> {
  if (!env['DISPLAY']) return undefined;
  let x: X11 | undefined;
  try {
    x = await X11.open(env['DISPLAY'], timeoutMs);
    return (await new XWindows(x).rootString('AT_SPI_BUS')) ?? null;
  } catch { return undefined; } finally { x?.close(); }
}

/**
 * The one-step fix when `org.a11y.Status.IsEnabled` is false, as the commands a user can run. Doctor and
 * `hello` offer them; `setA11yEnabled` (and `gsettings` when present) apply them, only after the user confirms.
 */
export const A11Y_FIX_COMMANDS = [
  'gsettings set org.gnome.desktop.interface toolkit-accessibility true',
  "gdbus call --session --dest org.a11y.Bus --object-path /org/a11y/bus --method org.freedesktop.DBus.Properties.Set org.a11y.Status IsEnabled '<true>'",
] as const;

/** Sets `org.a11y.Status.IsEnabled` on the session bus of `env` (Properties.Set on org.a11y.Bus). */
export async function setA11yEnabled(
  value: boolean,
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = 2000,
): Promise<void> {
  const address = env['DBUS_SESSION_BUS_ADDRESS'];
  if (!address) throw new Error('DBUS_SESSION_BUS_ADDRESS is unset');
  const bus = dbus.sessionBus({ busAddress: address });
  let timer: NodeJS.Timeout | undefined;
  const failed = new Promise<never>((_, reject) => {
    bus.on('error', (e: unknown) => reject(e instanceof Error ? e : new Error(String(e))));
    timer = setTimeout(() => reject(new Error(`no answer from org.a11y.Bus within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([
      bus.call(
        new Message({
          destination: 'org.a11y.Bus',
          path: '/org/a11y/bus',
          interface: 'org.freedesktop.DBus.Properties',
          member: 'Set',
          signature: 'ssv',
          body: ['org.a11y.Status', 'IsEnabled', new dbus.Variant('b', value)],
          flags: dbus.MessageFlag.NO_AUTO_START,
        }),
      ),
      failed,
    ]);
  } finally {
    clearTimeout(timer);
    failed.catch(() => undefined);
    try { bus.disconnect(); } catch { /* not connected */ }
  }
}
