/**
 * A headless desktop for computer-use on Linux, of one of two kinds:
 * - `xvfb` (default): Xvfb + a private session bus + the AT-SPI accessibility bus + a window manager, on its
 *   own X display;
 * - `weston`: a headless Weston compositor (Wayland, no X server: no Xwayland) + the same two buses, for
 *   what a Wayland desktop allows (element actions) and refuses (synthetic keys and pointer).
 * Each has its own XDG_RUNTIME_DIR. State is kept in `cuPath('sandboxes', ':N.json')` so other processes (CLI,
 * drivers) can find and stop it; a Weston sandbox takes a number from the same pool as a name only.
 * Bring-up follows docs in shared/notes/linux-atspi.md, "Headless desktop bring-up".
 */
import { connect } from 'node:net';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cuHome, cuPath, sandboxDir, sandboxHome } from '../../../paths.js';
import { getA11yAddress } from './dbus.js';
import { homeTemplate, seedHome } from './home-template.js';
import {
  buildSandboxEnv, chooseDisplay, cleanEnv, displayName, homeEnv, ownHomeWanted, parseDbusLaunch, sandboxKind,
  takenDisplays, WESTON_SOCKET, type SandboxKind,
} from './env.js';
import { pidIs, pidsWithEnv, pollUntil, run, spawnDetached, terminate, type Spawned } from './processes.js';

/** A running (or recorded) headless desktop. */
export interface SandboxInfo {
  /** The sandbox's name, e.g. `:90`: its X display for `xvfb`, a slot number only for `weston` (no X server). */
  display: string;
  /** What runs the desktop; absent in state files written before there were two kinds (= `xvfb`). */
  kind?: SandboxKind;
  /** The Wayland socket name (relative to `runtimeDir`) of a `weston` sandbox. */
  waylandDisplay?: string;
  /** The sandbox's session bus (`DBUS_SESSION_BUS_ADDRESS`). */
  dbusAddress: string;
  /** The accessibility bus (`AT_SPI_BUS_ADDRESS`). */
  a11yAddress: string;
  /** Private `XDG_RUNTIME_DIR` (mode 0700); removed on stop. */
  runtimeDir: string;
  /**
   * The HOME its apps run with, made empty at the start inside `runtimeDir` (so removed on stop), with the XDG
   * folders inside it; absent when they run with the caller's HOME (`ownHome`, and state files written before).
   */
  home?: string;
  /** Processes started for the sandbox. */
  pids: { xvfb?: number; weston?: number; dbus: number; atspi: number; wm?: number };
  /** ISO time of the start. */
  startedAt: string;
  /** True when computer-use started it (and so may stop it). */
  owned: boolean;
}

/** Options for {@link startSandbox}. */
export interface StartOptions {
  /** Use this display number instead of the first free one from :90. */
  display?: number;
  /** Start openbox (default true; xvfb only, Weston is its own window manager). Some apps misplace dialogs without one. */
  wm?: boolean;
  /** `xvfb` (default, or `COMPUTER_USE_SANDBOX_KIND`) or `weston`. */
  kind?: SandboxKind;
  /**
   * Run the apps with the caller's HOME and XDG folders (their settings persist across sandboxes) instead of a home
   * of the sandbox's own. Default: `COMPUTER_USE_SANDBOX_HOME=own`, else false.
   */
  ownHome?: boolean;
}

/** A desktop to run apps and drivers in: the user's own, or a sandbox. */
export interface Desktop {
  kind: 'real' | 'sandbox';
  env: Record<string, string>;
  info?: SandboxInfo;
}

const X_READY_TIMEOUT_MS = 10_000;
const A11Y_READY_TIMEOUT_MS = 10_000;
/** The cmdline substrings that recorded pids must still match before we signal them (pid reuse). */
const PID_NAMES = {
  xvfb: 'Xvfb',
  weston: 'weston',
  dbus: 'dbus-daemon',
  atspi: 'at-spi-bus-launcher',
  wm: 'openbox',
} as const;
const WESTON_READY_TIMEOUT_MS = 10_000;

/** The kind a sandbox is started as: the option, else `COMPUTER_USE_SANDBOX_KIND`, else `xvfb`. */
export function defaultKind(opts: StartOptions = {}, env: NodeJS.ProcessEnv = process.env): SandboxKind {
  if (opts.kind) return opts.kind;
  const fromEnv = env['COMPUTER_USE_SANDBOX_KIND'];
  return fromEnv ? sandboxKind(fromEnv) : 'xvfb';
}

/** The pid that keeps a sandbox alive (its X server or compositor) and the command name it must still have. */
function serverOf(s: Pick<SandboxInfo, 'pids' | 'kind'>): { pid: number | undefined; name: string } {
  return s.kind === 'weston'
    ? { pid: s.pids.weston, name: PID_NAMES.weston }
    : { pid: s.pids.xvfb, name: PID_NAMES.xvfb };
}

/** Displays being started by this process right now (two concurrent starts must not pick the same one). */
const starting = new Set<number>();

const sandboxesDir = (): string => cuPath('sandboxes');
const statePath = (display: string): string => cuPath('sandboxes', `${display}.json`);
const runtimeDirFor = sandboxDir;

/**
 * The environment for drivers and apps inside the sandbox: its own HOME when it has one, and this process's
 * computer-use home as `COMPUTER_USE_HOME`.
 */
export function sandboxEnv(info: SandboxInfo, base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return buildSandboxEnv({ ...info, toolHome: cuHome() }, base);
}

/** Whether a sandbox started with `opts` runs its apps with the caller's HOME. */
function wantsOwnHome(opts: StartOptions, env: NodeJS.ProcessEnv = process.env): boolean {
  return opts.ownHome ?? ownHomeWanted(env['COMPUTER_USE_SANDBOX_HOME']);
}

/**
 * Makes the sandbox's apps' HOME, mode 0700, with its XDG folders and the template's files (home-template.ts) and
 * nothing else; undefined when the apps keep the caller's. The runtime dir it lies in was just made afresh, so
 * nothing of an earlier sandbox on this display is left in it.
 */
async function freshHome(display: string, own: boolean): Promise<string | undefined> {
  if (own) return undefined;
  const home = sandboxHome(display);
  for (const dir of [home, ...Object.values(homeEnv(home))]) await mkdir(dir, { recursive: true, mode: 0o700 });
  const template = await homeTemplate();
  if (template) await seedHome(home, template);
  return home;
}

/** Starts a headless desktop and records it. Cleans up whatever it started if a step fails. */
export async function startSandbox(opts: StartOptions = {}): Promise<SandboxInfo> {
  await mkdir(sandboxesDir(), { recursive: true, mode: 0o700 });
  const attempts = opts.display === undefined ? 5 : 1;
  let lastError: unknown;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const n = opts.display ?? chooseDisplay(await takenNow());
    starting.add(n);
    try {
      const kind = defaultKind(opts);
      const own = wantsOwnHome(opts);
      return kind === 'weston' ? await startWeston(displayName(n), own)
        : await startOn(displayName(n), opts.wm ?? true, own);
    } catch (err) {
      lastError = err;
      // Another process may have taken the display between our check and Xvfb's lock: try the next one.
      if (!(err instanceof XvfbExited)) break;
    } finally {
      starting.delete(n);
    }
  }
  throw lastError;
}

class XvfbExited extends Error {
  override name = 'XvfbExited' as const;
}

async function takenNow(): Promise<Set<number>> {
  const x11 = await readdir('/tmp/.X11-unix').catch(() => [] as string[]);
  const tmp = await readdir('/tmp').catch(() => [] as string[]);
  const recorded = (await readStates()).map((s) => Number(s.display.slice(1)));
  return takenDisplays(x11, tmp, [...starting, ...recorded]);
}

/** Creates the sandbox's runtime dir afresh, mode 0700. */
async function freshRuntimeDir(display: string): Promise<string> {
  const runtimeDir = runtimeDirFor(display);
  if (runtimeDir.includes(':')) {
    throw new Error(`the sandbox runtime dir ${runtimeDir} contains ':', which breaks at-spi-bus-launcher; ` +
      'set COMPUTER_USE_HOME to a path without one');
  }
  await rm(runtimeDir, { recursive: true, force: true });
  await mkdir(runtimeDir, { recursive: true, mode: 0o700 });
  await chmod(runtimeDir, 0o700);
  return runtimeDir;
}

/** Starts the session bus and the AT-SPI bus launcher (recording their pids in `partial` as they start). */
async function startBuses(
  baseEnv: Record<string, string>,
  partial: Teardown & { a11yAddress?: string },
  log: (name: string) => string,
): Promise<{ dbus: { address: string; pid: number }; atspi: number; a11yAddress: string }> {
  const bus = parseDbusLaunch(await run('dbus-launch', ['--sh-syntax'], { env: baseEnv, timeoutMs: 10_000 }));
  partial.pids.dbus = bus.pid;
  partial.dbusAddress = bus.address;
  const busEnv = { ...baseEnv, DBUS_SESSION_BUS_ADDRESS: bus.address };

  const atspi = spawnDetached('/usr/libexec/at-spi-bus-launcher', ['--launch-immediately', '--a11y=1'], busEnv,
    log('atspi'));
  partial.pids.atspi = atspi.pid;
  // NO_AUTO_START: while the launcher we started has not claimed org.a11y.Bus yet, the call must fail
  // rather than let D-Bus activation start a second launcher.
  partial.a11yAddress = await pollUntil('AT-SPI bus (org.a11y.Bus.GetAddress)',
    () => getA11yAddress(bus.address, { noAutoStart: true, timeoutMs: 1000 }), {
      timeoutMs: A11Y_READY_TIMEOUT_MS,
      abort: () => {
        const exit = atspi.exited();
        return exit ? `at-spi-bus-launcher exited (${exit}); see ${log('atspi')}` : undefined;
      },
    });
  return { dbus: bus, atspi: atspi.pid, a11yAddress: partial.a11yAddress };
}

/** Tears down what a failed start began, after quoting its logs' tails into the error (they go with the runtime dir). */
async function failCleanly(
  err: unknown,
  partial: Teardown,
  log: (name: string) => string,
  logs: readonly string[],
): Promise<void> {
  const tails = await Promise.all(logs.map(async (n) => {
    const text = (await readFile(log(n), 'utf8').catch(() => '')).trim();
    return text ? `\n--- ${n}.log ---\n${text.split('\n').slice(-8).join('\n')}` : '';
  }));
  await teardown(partial);
  if (err instanceof Error) err.message += tails.join('');
}

async function startOn(display: string, wm: boolean, ownHome: boolean): Promise<SandboxInfo> {
  const runtimeDir = await freshRuntimeDir(display);
  const home = await freshHome(display, ownHome);
  const log = (name: string): string => join(runtimeDir, `${name}.log`);
  const partial: Teardown & { a11yAddress?: string } = { display, runtimeDir, pids: {} };
  try {
    // The home goes to the buses too: D-Bus activation starts dconf-service and the like with the bus's environment.
    const baseEnv = { ...cleanEnv(process.env), ...(home ? homeEnv(home) : {}), DISPLAY: display,
      XDG_RUNTIME_DIR: runtimeDir };

    // -noreset: without it Xvfb resets when its last client disconnects, which drops the AT_SPI_BUS root-window
    // property at-spi-bus-launcher sets (and closes its display after); Qt 5 needs that property (toolkits.ts).
    const xvfb: Spawned = spawnDetached(
      'Xvfb',
      [display, '-screen', '0', '1280x1024x24', '-nolisten', 'tcp', '-noreset'],
      baseEnv,
      log('xvfb'),
    );
    partial.pids.xvfb = xvfb.pid;
    await pollUntil(`Xvfb ${display}`, async () => {
      await run('xdpyinfo', ['-display', display], { env: baseEnv, timeoutMs: 2000 });
      return true;
    }, {
      timeoutMs: X_READY_TIMEOUT_MS,
      abort: () => {
        const exit = xvfb.exited();
        if (exit) throw new XvfbExited(`Xvfb ${display} exited (${exit}); see ${log('xvfb')}`);
        return undefined;
      },
    });

    const { dbus, atspi, a11yAddress } = await startBuses(baseEnv, partial, log);
    const info: SandboxInfo = {
      display, kind: 'xvfb', dbusAddress: dbus.address, a11yAddress, runtimeDir, ...(home ? { home } : {}),
      pids: { xvfb: xvfb.pid, dbus: dbus.pid, atspi }, startedAt: new Date().toISOString(), owned: true,
    };
    if (wm) {
      const openbox = spawnDetached('openbox', ['--sm-disable'], sandboxEnv(info), log('openbox'));
      info.pids.wm = openbox.pid;
      partial.pids.wm = openbox.pid;
    }
    await writeState(info);
    return info;
  } catch (err) {
    await failCleanly(err, partial, log, ['xvfb', 'atspi', 'openbox']);
    throw err;
  }
}

/**
 * A Weston sandbox: headless backend with its default no-op renderer (nothing is drawn: no screen capture is
 * implemented on Wayland, and `--use-pixman` only cost CPU), desktop shell, no Xwayland, no idle lock
 * (`--idle-time=0`: a locked screen would deactivate every window), on
 * the socket {@link WESTON_SOCKET} of a private XDG_RUNTIME_DIR; then the session bus and the AT-SPI bus.
 */
async function startWeston(display: string, ownHome: boolean): Promise<SandboxInfo> {
  const runtimeDir = await freshRuntimeDir(display);
  const home = await freshHome(display, ownHome);
  const log = (name: string): string => join(runtimeDir, `${name}.log`);
  const partial: Teardown & { a11yAddress?: string } = { display, runtimeDir, pids: {}, kind: 'weston' };
  try {
    // No DISPLAY: Weston would otherwise pick its X11 backend's environment up, and the buses would know an X server.
    const baseEnv: Record<string, string> = { ...cleanEnv(process.env), ...(home ? homeEnv(home) : {}),
      XDG_RUNTIME_DIR: runtimeDir };
    delete baseEnv['DISPLAY'];
    const weston = spawnDetached('weston', ['--backend=headless-backend.so', `--socket=${WESTON_SOCKET}`,
      '--idle-time=0', '--width=1280', '--height=1024', `--log=${log('weston')}`], baseEnv, log('weston-stderr'));
    partial.pids.weston = weston.pid;
    const socket = join(runtimeDir, WESTON_SOCKET);
    await pollUntil(`Weston on ${socket}`, () => canConnect(socket), {
      timeoutMs: WESTON_READY_TIMEOUT_MS,
      abort: () => {
        const exit = weston.exited();
        return exit ? `weston exited (${exit}); see ${log('weston')}` : undefined;
      },
    });
    const { dbus, atspi, a11yAddress } = await startBuses(baseEnv, partial, log);
    const info: SandboxInfo = {
      display,
      kind: 'weston',
      waylandDisplay: WESTON_SOCKET,
      dbusAddress: dbus.address,
      a11yAddress,
      runtimeDir,
      ...(home ? { home } : {}),
      pids: { weston: weston.pid, dbus: dbus.pid, atspi },
      startedAt: new Date().toISOString(),
      owned: true,
    };
    await writeState(info);
    return info;
  } catch (err) {
    await failCleanly(err, partial, log, ['weston', 'weston-stderr', 'atspi']);
    throw err;
  }
}

/** Resolves true once a client can connect to the Unix socket at `path`, undefined while it cannot. */
function canConnect(path: string): Promise<true | undefined> {
  return new Promise((resolve) => {
    const sock = connect(path);
    const done = (ok: boolean): void => { sock.destroy(); resolve(ok ? true : undefined); };
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
    sock.setTimeout(1000, () => done(false));
  });
}

/** Stops the sandbox on `display` (`:90` or `90`): its processes, its state file and its runtime dir. */
export async function stopSandbox(display: string): Promise<void> {
  const name = displayName(display);
  const info = await readState(name);
  await teardown(info ?? { display: name, runtimeDir: runtimeDirFor(name), pids: {} });
}

type Teardown = Pick<SandboxInfo, 'display' | 'runtimeDir'> & Partial<Pick<SandboxInfo, 'dbusAddress' | 'kind'>> &
  { pids: Partial<SandboxInfo['pids']> };

async function teardown(s: Teardown): Promise<void> {
  const recorded: number[] = [];
  for (const key of ['wm', 'atspi', 'dbus', 'xvfb', 'weston'] as const) {
    const pid = s.pids[key];
    if (pid !== undefined && (await pidIs(pid, PID_NAMES[key]))) recorded.push(pid);
  }
  const envMarks = [`XDG_RUNTIME_DIR=${s.runtimeDir}`];
  if (s.dbusAddress) envMarks.push(`DBUS_SESSION_BUS_ADDRESS=${s.dbusAddress}`);
  // Everything else in the session: registryd, dconf, apps, Chromium helpers. Two sweeps, because D-Bus
  // activation can start a service while the first sweep is being torn down.
  await terminate([...recorded, ...(await pidsWithEnv(envMarks))]);
  for (let i = 0; i < 2; i++) {
    const rest = await pidsWithEnv(envMarks);
    if (rest.length === 0) break;
    await terminate(rest, 500, 1000);
  }
  await rm(statePath(s.display), { force: true });
  await rm(s.runtimeDir, { recursive: true, force: true });
}

/** All recorded sandboxes, each with `alive` (its Xvfb or Weston still runs). */
export async function listSandboxes(): Promise<(SandboxInfo & { alive: boolean })[]> {
  const states = await readStates();
  return Promise.all(states.map(async (s) => {
    const server = serverOf(s);
    return { ...s, alive: server.pid !== undefined && await pidIs(server.pid, server.name) };
  }));
}

/**
 * A desktop that is already there: the sandbox named by `COMPUTER_USE_SANDBOX` if alive, else the real
 * desktop when `DISPLAY`/`WAYLAND_DISPLAY` is set and an accessibility bus answers, else the first alive
 * sandbox; null if none. With a `kind`, only a sandbox of that kind qualifies (never the real desktop).
 */
export async function findDesktop(kind?: SandboxKind): Promise<Desktop | null> {
  const sandboxes = (await listSandboxes()).filter(
    (s) => s.alive && (kind === undefined || (s.kind ?? 'xvfb') === kind),
  );
  const named = process.env['COMPUTER_USE_SANDBOX'];
  const preferred = named ? sandboxes.find((s) => s.display === named) : undefined;
  if (preferred) return asDesktop(preferred);
  if (kind === undefined && await realDesktopReachable()) {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    return { kind: 'real', env };
  }
  const first = sandboxes[0];
  return first ? asDesktop(first) : null;
}

function asDesktop(s: SandboxInfo & { alive?: boolean }): Desktop {
  const { alive: _alive, ...info } = s;
  return { kind: 'sandbox', env: sandboxEnv(info), info };
}

async function realDesktopReachable(): Promise<boolean> {
  const env = process.env;
  if (!env['DISPLAY'] && !env['WAYLAND_DISPLAY']) return false;
  if (env['AT_SPI_BUS_ADDRESS']) return true;
  let session = env['DBUS_SESSION_BUS_ADDRESS'];
  if (!session && env['XDG_RUNTIME_DIR'] && existsSync(join(env['XDG_RUNTIME_DIR'], 'bus'))) {
    session = `unix:path=${join(env['XDG_RUNTIME_DIR'], 'bus')}`;
  }
  if (!session) return false;
  try {
    await getA11yAddress(session, { timeoutMs: 1500 });
    return true;
  } catch {
    return false;
  }
}

/**
 * {@link findDesktop}, or a new sandbox when there is none (`started` says which). A kind asked for (the option
 * or `COMPUTER_USE_SANDBOX_KIND`) is only met by a sandbox of that kind.
 */
export async function ensureDesktop(opts: StartOptions = {}):
  Promise<{ env: Record<string, string>; info?: SandboxInfo; started: boolean }> {
  const kind = opts.kind ?? (process.env['COMPUTER_USE_SANDBOX_KIND'] ? defaultKind(opts) : undefined);
  const found = await findDesktop(kind);
  if (found)
    return found.info ? { env: found.env, info: found.info, started: false } : { env: found.env, started: false };
  const info = await startSandbox(opts);
  return { env: sandboxEnv(info), info, started: true };
}

async function writeState(info: SandboxInfo): Promise<void> {
  const path = statePath(info.display);
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(info, null, 2) + '\n', { mode: 0o600 });
  await rename(tmp, path);
}

async function readState(display: string): Promise<SandboxInfo | undefined> {
  try {
    const parsed = JSON.parse(await readFile(statePath(display), 'utf8')) as unknown;
    return isSandboxInfo(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

async function readStates(): Promise<SandboxInfo[]> {
  const names = await readdir(sandboxesDir()).catch(() => [] as string[]);
  const states = await Promise.all(names.filter((n) => /^:\d+\.json$/.test(n)).map((n) => readState(n.slice(0, -5))));
  return states.filter((s): s is SandboxInfo => s !== undefined)
    .sort((a, b) => Number(a.display.slice(1)) - Number(b.display.slice(1)));
}

function isSandboxInfo(v: unknown): v is SandboxInfo {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  const pids = o['pids'] as Record<string, unknown> | undefined;
  return (
    typeof o['display'] === 'string' &&
    /^:\d+$/.test(o['display']) &&
    typeof o['dbusAddress'] === 'string' &&
    typeof o['a11yAddress'] === 'string' &&
    typeof o['runtimeDir'] === 'string' &&
    (o['home'] === undefined || typeof o['home'] === 'string') &&
    (o['kind'] === undefined || o['kind'] === 'xvfb' || o['kind'] === 'weston') &&
    typeof pids === 'object' &&
    pids !== null &&
    typeof (o['kind'] === 'weston' ? pids['weston'] : pids['xvfb']) === 'number'
  );
}
