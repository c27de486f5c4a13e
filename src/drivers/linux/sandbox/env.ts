/**
 * Pure parts of the headless desktop: parsing `dbus-launch` output, choosing a free X display, and building
 * the environment handed to the sandbox's processes. No I/O here, so all of it is unit-tested.
 */

/** What `dbus-launch --sh-syntax` reports about the session bus it started. */
export interface DbusLaunchResult {
  /** `DBUS_SESSION_BUS_ADDRESS`, e.g. `unix:path=/tmp/dbus-abc,guid=…`. */
  address: string;
  /** `DBUS_SESSION_BUS_PID`: the forked `dbus-daemon`. */
  pid: number;
}

/**
 * Parses `dbus-launch --sh-syntax` output:
 * ```
 * DBUS_SESSION_BUS_ADDRESS='unix:path=/tmp/dbus-x,guid=y';
 * export DBUS_SESSION_BUS_ADDRESS;
 * DBUS_SESSION_BUS_PID=1234;
 * ```
 * Throws when the address or the pid is missing.
 */
export function parseDbusLaunch(output: string): DbusLaunchResult {
  const vars = new Map<string, string>();
  for (const raw of output.split('\n')) {
    const m = /^\s*([A-Z_][A-Z0-9_]*)=(.*?);?\s*$/.exec(raw);
    if (!m || m[1] === undefined || m[2] === undefined) continue;
    vars.set(m[1], unquoteShell(m[2]));
  }
  const address = vars.get('DBUS_SESSION_BUS_ADDRESS');
  const pid = Number(vars.get('DBUS_SESSION_BUS_PID'));
  if (!address) throw new Error(`dbus-launch printed no DBUS_SESSION_BUS_ADDRESS: ${JSON.stringify(output)}`);
  if (!Number.isInteger(pid) || pid <= 0) {
    throw new Error(`dbus-launch printed no valid DBUS_SESSION_BUS_PID: ${JSON.stringify(output)}`);
  }
  return { address, pid };
}

/** Undoes POSIX shell single quoting (`'a'\''b'` → `a'b`); unquoted text is returned as is. */
function unquoteShell(value: string): string {
  let out = '';
  let i = 0;
  while (i < value.length) {
    const c = value[i]!;
    if (c === "'") {
      const end = value.indexOf("'", i + 1);
      if (end < 0) return out + value.slice(i + 1);
      out += value.slice(i + 1, end);
      i = end + 1;
    } else if (c === '\\' && i + 1 < value.length) {
      out += value[i + 1];
      i += 2;
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

/** First display number we try; low numbers belong to real desktops and other tools. */
export const FIRST_DISPLAY = 90;

/**
 * Display numbers that are in use, given the entries of `/tmp/.X11-unix` (`X0`, `X90`) and of `/tmp`
 * (`.X90-lock`), plus numbers reserved elsewhere (sandbox state files, starts in progress).
 */
export function takenDisplays(x11UnixEntries: readonly string[], tmpEntries: readonly string[],
  reserved: Iterable<number> = []): Set<number> {
  const taken = new Set<number>(reserved);
  for (const e of x11UnixEntries) {
    const m = /^X(\d+)$/.exec(e);
    if (m?.[1] !== undefined) taken.add(Number(m[1]));
  }
  for (const e of tmpEntries) {
    const m = /^\.X(\d+)-lock$/.exec(e);
    if (m?.[1] !== undefined) taken.add(Number(m[1]));
  }
  return taken;
}

/** The lowest display number ≥ `start` not in `taken`; throws after `span` candidates. */
export function chooseDisplay(taken: ReadonlySet<number>, start = FIRST_DISPLAY, span = 200): number {
  for (let n = start; n < start + span; n++) if (!taken.has(n)) return n;
  throw new Error(`no free X display between :${start} and :${start + span - 1}`);
}

/** Normalizes `90`, `'90'` or `':90'` to `':90'`. */
export function displayName(display: number | string): string {
  const s = String(display).trim();
  const n = s.startsWith(':') ? s.slice(1) : s;
  if (!/^\d+$/.test(n)) throw new Error(`not an X display: ${JSON.stringify(display)}`);
  return `:${Number(n)}`;
}

/**
 * Variables that would point a child at the wrong desktop or switch accessibility off. They are removed
 * from the inherited environment before the sandbox's own values are added.
 */
export const STRIPPED_VARS = [
  'NO_AT_BRIDGE', // disables the GTK/Qt AT-SPI bridge outright
  'GTK_MODULES', // may load modules that conflict with the built-in bridge
  'GTK_A11Y', // `none` disables GTK4 accessibility
  'WAYLAND_DISPLAY', // GTK would prefer a real Wayland compositor over our Xvfb
  'AT_SPI_BUS_ADDRESS',
  'DBUS_SESSION_BUS_ADDRESS',
  'DBUS_SESSION_BUS_PID',
  'DBUS_SESSION_BUS_WINDOWID',
  'XAUTHORITY',
  'COMPUTER_USE_SANDBOX',
  'GDK_BACKEND', // an inherited `x11`/`wayland` would pick the wrong server for the sandbox's kind
  'QT_QPA_PLATFORM',
] as const;

/** A copy of `base` without undefined values and without {@link STRIPPED_VARS}. */
export function cleanEnv(base: NodeJS.ProcessEnv | Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined) env[k] = v;
  for (const k of STRIPPED_VARS) delete env[k];
  return env;
}

/**
 * What a sandbox runs: `xvfb` (an X server, the default) or `weston` (a headless Wayland compositor, no X
 * server at all). Both get the same private session bus and AT-SPI bus.
 */
export type SandboxKind = 'xvfb' | 'weston';

/** The kinds `--kind` / `COMPUTER_USE_SANDBOX_KIND` accept. */
export const SANDBOX_KINDS: readonly SandboxKind[] = ['xvfb', 'weston'];

/** Parses a sandbox kind (`xvfb`, `x11`, `weston`, `wayland`); throws on anything else. */
export function sandboxKind(value: string): SandboxKind {
  const v = value.trim().toLowerCase();
  if (v === 'xvfb' || v === 'x11') return 'xvfb';
  if (v === 'weston' || v === 'wayland') return 'weston';
  throw new Error(`unknown sandbox kind ${JSON.stringify(value.slice(0, 40))}: use xvfb or weston`);
}

/** The Wayland socket name of a Weston sandbox, relative to its private XDG_RUNTIME_DIR. */
export const WESTON_SOCKET = 'wayland-cu';

/**
 * `HOME` and the XDG base folders of a sandbox's own home, laid out as the XDG defaults under it (an app that reads
 * `$HOME/.config` rather than `XDG_CONFIG_HOME` lands in the same place).
 */
export function homeEnv(home: string): Record<string, string> {
  return {
    HOME: home,
    XDG_CONFIG_HOME: `${home}/.config`,
    XDG_DATA_HOME: `${home}/.local/share`,
    XDG_CACHE_HOME: `${home}/.cache`,
    XDG_STATE_HOME: `${home}/.local/state`,
  };
}

/** The variables {@link homeEnv} sets: an isolated sandbox never passes the caller's values of them on. */
export const HOME_VARS = ['HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME'] as const;

/**
 * Whether a new sandbox gets a home of its own (the default) or runs its apps with the caller's HOME:
 * `COMPUTER_USE_SANDBOX_HOME=own` (or `caller`, `user`) keeps the caller's; `fresh` (or unset) is the default.
 */
export function ownHomeWanted(value: string | undefined): boolean {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '' || v === 'fresh' || v === 'isolated' || v === 'sandbox') return false;
  if (v === 'own' || v === 'caller' || v === 'user') return true;
  throw new Error(`COMPUTER_USE_SANDBOX_HOME=${JSON.stringify(value?.slice(0, 40))}: use fresh (the default) or own`);
}

/** The parts of a sandbox that its environment is built from. */
export interface SandboxEnvParts {
  /** The sandbox's name `:N`: the X display of an Xvfb sandbox, only a slot number for a Weston one. */
  display: string;
  runtimeDir: string;
  /**
   * The sandbox's own HOME (XDG folders inside it); undefined: the apps run with the caller's HOME (the opt-out,
   * and sandboxes recorded before homes of their own).
   */
  home?: string;
  /**
   * computer-use's own home of whoever started the sandbox, passed on as `COMPUTER_USE_HOME`: a computer-use
   * process inside the sandbox (`sandbox exec -- …`, a driver) keeps its settings, audit log and the sandbox's state
   * file instead of looking for them under the sandbox's HOME.
   */
  toolHome?: string;
  dbusAddress?: string;
  a11yAddress?: string;
  /** Default `xvfb`. */
  kind?: SandboxKind;
  /** The Wayland socket name (Weston sandboxes). */
  waylandDisplay?: string;
}

/**
 * The environment for processes inside a sandbox: the cleaned `base` plus `XDG_RUNTIME_DIR`, the session and
 * accessibility bus addresses (when known) and `COMPUTER_USE_SANDBOX`; with a `home`, `HOME` and the XDG base
 * folders inside it (never the caller's: its apps' settings stay out of the sandbox and the sandbox's out of
 * them); with a `toolHome`, `COMPUTER_USE_HOME`; and then per kind:
 * - xvfb: `DISPLAY`, `XDG_SESSION_TYPE=x11`, `GSK_RENDERER=cairo` (GTK4 under Xvfb never registers with the
 *   AT-SPI registry without it);
 * - weston: `WAYLAND_DISPLAY`, `XDG_SESSION_TYPE=wayland`, the toolkits told to use Wayland (`GDK_BACKEND`,
 *   `QT_QPA_PLATFORM`, `MOZ_ENABLE_WAYLAND`), and `DISPLAY` set to the empty string: not deleted, because this
 *   environment is merged over the caller's (Device, spawnDriver), where an outer X desktop's DISPLAY would
 *   otherwise leak back in and the apps would open on that X server instead.
 */
export function buildSandboxEnv(parts: SandboxEnvParts,
  base: NodeJS.ProcessEnv | Record<string, string>): Record<string, string> {
  const env = cleanEnv(base);
  env['XDG_RUNTIME_DIR'] = parts.runtimeDir;
  env['COMPUTER_USE_SANDBOX'] = parts.display;
  if (parts.home !== undefined) Object.assign(env, homeEnv(parts.home));
  if (parts.toolHome !== undefined) env['COMPUTER_USE_HOME'] = parts.toolHome;
  if ((parts.kind ?? 'xvfb') === 'weston') {
    env['DISPLAY'] = '';
    env['WAYLAND_DISPLAY'] = parts.waylandDisplay ?? WESTON_SOCKET;
    env['XDG_SESSION_TYPE'] = 'wayland';
    env['GDK_BACKEND'] = 'wayland';
    env['QT_QPA_PLATFORM'] = 'wayland';
    env['MOZ_ENABLE_WAYLAND'] = '1';
  } else {
    env['DISPLAY'] = parts.display;
    env['XDG_SESSION_TYPE'] = 'x11';
    env['GSK_RENDERER'] = 'cairo';
  }
  if (parts.dbusAddress !== undefined) env['DBUS_SESSION_BUS_ADDRESS'] = parts.dbusAddress;
  if (parts.a11yAddress !== undefined) env['AT_SPI_BUS_ADDRESS'] = parts.a11yAddress;
  return env;
}

/** `export K='V'` lines for a POSIX shell. */
export function shellExports(env: Record<string, string>, keys: readonly string[]): string {
  return keys
    .filter((k) => env[k] !== undefined)
    .map((k) => `export ${k}='${env[k]!.replace(/'/g, `'\\''`)}'`)
    .join('\n');
}
