/**
 * The library API: `createComputer(options)` gives the same tools the MCP server, the pi extension and the
 * CLI expose, bound to one session on one desktop.
 */
import { Device, type DeviceOptions } from './devices/manager.js';
import { cdpDriver } from './devices/stdio.js';
import { keptDriverConnection } from './devices/kept-driver.js';
import { defaultDevicesPath, loadDevices, type DeviceSpec } from './devices/registry.js';
import { closedConnection, closeHubs, hubFor, type PairServer } from './devices/pair-link.js';
import { classifySshFailure, formatSshUrl, parseSshUrl, sshDriver } from './devices/ssh.js';
import { adbDriver } from './devices/adb.js';
import { DeviceSessions, devicePrefix, type DeviceEntry } from './session/devices.js';
import { ensureDesktop, findDesktop, stopSandbox, type SandboxInfo } from './drivers/host.js';
import { Session, type SettleOptions } from './session/session.js';
import { showPaused } from './session/activity.js';
import type { PolicyGate } from './policy/gate.js';
import type { Confirmer } from './policy/confirm.js';
import type { Decider } from './policy/decider/types.js';
import { createDecider, parseDeciderConfig, type DeciderHost } from './policy/decider/index.js';
import { defaultAuditPath } from './policy/audit.js';
import { DEFAULT_MODE, type Mode } from './policy/modes.js';
import { Policy } from './policy/policy.js';
import { addAllowedApp, defaultSettingsPath, loadSettings, updateSettings, type Settings } from './policy/settings.js';
import { StopController, requestResume, requestStop, withStop } from './policy/stop.js';
import { cuHome } from './paths.js';
import { TOOLS, toolByName } from './tools/index.js';
import type { ToolResult } from './tools/tool.js';
import { runTool } from './tools/tool.js';
import type { actTool } from './tools/act.js';
import type { appsTool } from './tools/apps.js';
import type { findTool } from './tools/find.js';
import type { keysTool } from './tools/keys.js';
import type { launchTool } from './tools/launch.js';
import type { observeTool } from './tools/observe.js';
import type { waitTool } from './tools/wait.js';
import type { screenshotTool } from './tools/screenshot.js';
import type { inputTool } from './tools/input.js';

export type { ToolResult } from './tools/tool.js';
export type { PolicyGate, ActionRequest, Decision } from './policy/gate.js';
export type { Confirmer, ConfirmRequest, ConfirmChoice } from './policy/confirm.js';
export type { Decider, ActionContext } from './policy/decider/types.js';
export { Policy, type PolicyOptions } from './policy/policy.js';
export { MODES, type Mode } from './policy/modes.js';
export type { Settings } from './policy/settings.js';
export { ComputerUseError, isComputerUseError, ERROR_CODES, type ErrorCode } from './protocol/errors.js';
export { TOOLS } from './tools/index.js';
export { Session } from './session/session.js';

/** Options of createComputer. */
export interface ComputerOptions {
  /**
   * Which desktop: 'auto' reuses the current desktop or a running sandbox and starts a sandbox when there is
   * none; 'sandbox' always starts a fresh one; 'current' uses the process environment as it is.
   */
  desktop?: 'auto' | 'sandbox' | 'current';
  /**
   * The kind of sandbox to start or reuse: `xvfb` (X11) or `weston` (Wayland, element actions only); default
   * `COMPUTER_USE_SANDBOX_KIND`, else xvfb. With 'auto', a kind asked for skips the real desktop.
   */
  sandboxKind?: 'xvfb' | 'weston';
  /** Stop a sandbox this computer started when it is closed (default true). */
  stopSandboxOnClose?: boolean;
  /** Persist refs between processes in this file, or in the file this function names for the desktop (the CLI does). */
  statePath?: string | ((desktop: Computer['desktop']) => string);
  /** Snapshot token budget (default 2000). */
  maxTokens?: number;
  settle?: Partial<SettleOptions>;
  /**
   * How long an element act waits, event-driven, for its element to be visible, enabled (editable) and stable
   * before failing with element_disabled / not_visible (default 2000 ms; 0 checks without waiting).
   */
  actionTimeoutMs?: number;
  /**
   * A gate of your own instead of the built-in Policy (the emergency stop still applies in front of it).
   * Tests that must not prompt pass `allowAllGate`, or better `mode: 'bypass'` with `allowApps`.
   */
  gate?: PolicyGate;
  /** Permission mode (default: settings.json `mode`, else `default`). */
  mode?: Mode;
  /** Apps allowed without a first-use question, added to settings.json `allowApps`. */
  allowApps?: string[];
  /** Terminals whose typed command lines run without a question, added to settings.json `allowCommands`. */
  allowCommands?: string[];
  /** Apps never acted on, added to settings.json `denyApps` and the built-in deny list. */
  denyApps?: string[];
  /** In unattended mode, allow irreversible actions on allow-listed apps (default: settings.json). */
  allowIrreversibleUnattended?: boolean;
  /** The human channel (MCP elicitation, pi's confirm, a TTY prompt); without it questions are refused. */
  confirmer?: Confirmer;
  /**
   * Decider model (default: settings.json `decider`) consulted when the irreversibility rules are silent (it can
   * only add a confirmation), and by computer_find to pick among tied candidates (it only reorders them).
   */
  decider?: Decider;
  /** What the host lends a decider configured in settings: pi's model registry (`registry` mode), a gateway. */
  deciderHost?: Pick<DeciderHost, 'gateway' | 'registry'>;
  /** Settings file (default `<home>/settings.json`). */
  settingsPath?: string;
  /** Audit log (default `<home>/plugin-data/computer-use/audit.jsonl`). */
  auditPath?: string;
  /** Per-call driver timeout in ms. */
  timeoutMs?: number;
  /**
   * Which driver: the platform's accessibility tree (default), or 'cdp' to read and act on a Chromium/Electron
   * app through its DevTools endpoint (`cdpEndpoint`, e.g. http://127.0.0.1:9222); results then start with
   * `channel: cdp`.
   */
  driver?: 'native' | 'cdp';
  /** DevTools endpoint for `driver: 'cdp'`. */
  cdpEndpoint?: string;
  /**
   * A driver of the user's own instead of this machine's (`--driver COMMAND`): its words, run as they are (no
   * shell). Set only from a person's configuration (a host flag, the environment), never from a tool call. No local
   * desktop is prepared for it (no sandbox starts): it drives whatever it drives.
   */
  driverCommand?: string[];
  /**
   * Keep each driver command's process between hosts that live one command each (the CLI): a keeper serves it
   * on a socket of the home (devices/kept-driver.ts), so one driver process serves the whole CLI session.
   */
  keepDrivers?: boolean;
  /** Where the refs of another device persist (default: the local state path + `.<name>`). */
  deviceStatePath?: (name: string) => string;
  /**
   * Allow computer_screenshot mode "image" (default: settings.json `allowScreenshots`, else false). Images
   * are returned only when `imageInput` is true as well.
   */
  allowScreenshots?: boolean;
  /** Frame the target window and show a status window while acting (default: settings `showActivity`, else true). */
  showActivity?: boolean;
  /** The host's model takes images (MCP then returns an image content item). Default false. */
  imageInput?: boolean;
  /**
   * The host asks its user before each acting tool call (an MCP client without elicitation): that approval
   * stands in for the per-app first-use question in default mode, unless settings.json has `strictFirstUse`.
   */
  hostApprovesFirstUse?: boolean;
  /** Connects to a driver without a process (the in-memory fake driver in tests); wins over `driver`. */
  connect?: DeviceOptions['connect'];
  /**
   * Other devices besides this machine: default the home's devices.json (`computer-use device add`).
   * Device N ≥ 2 prints refs as `dN…`; every tool takes `device`. An entry with `connect` is an in-memory
   * driver (tests).
   */
  devices?: (
    DeviceSpec | (Omit<DeviceSpec, 'url'> & { url?: string; connect: NonNullable<DeviceOptions['connect']> })
  )[];
  /** The devices file read when `devices` is not given (default `<home>/devices.json`). */
  devicesPath?: string;
  /**
   * Permission options known once the desktop is (the CLI's flags kept per desktop, docs/cli.md): its mode
   * stands when `mode` is not given, its lists are added to the options' lists.
   */
  desktopPolicy?: (desktop: Computer['desktop']) => KeptPolicy | Promise<KeptPolicy>;
}

/** The permission options a host keeps between its calls (`desktopPolicy`). */
export type KeptPolicy = Pick<ComputerOptions, 'mode' | 'allowApps' | 'allowCommands' | 'denyApps'>;

/** Params of a tool, as its handler types them. */
type P<T extends { handle: (...a: never[]) => unknown }> = Parameters<T['handle']>[1];

/** Typed tool functions. */
export interface ComputerTools {
  apps(p?: P<typeof appsTool>): Promise<ToolResult>;
  launch(p: P<typeof launchTool>): Promise<ToolResult>;
  observe(p?: P<typeof observeTool>): Promise<ToolResult>;
  find(p: P<typeof findTool>): Promise<ToolResult>;
  act(p: P<typeof actTool>): Promise<ToolResult>;
  wait(p: P<typeof waitTool>): Promise<ToolResult>;
  keys(p: P<typeof keysTool>): Promise<ToolResult>;
  screenshot(p?: P<typeof screenshotTool>): Promise<ToolResult>;
  input(p: P<typeof inputTool>): Promise<ToolResult>;
}

/** A computer: tools plus the session and desktop behind them. */
export interface Computer {
  tools: ComputerTools;
  /** Calls a tool by its MCP name (computer_observe, …). */
  call(name: string, params: unknown, signal?: AbortSignal): Promise<ToolResult>;
  /** The session of the first device (this machine). */
  session: Session;
  /** Every device and its session; `devices.pick(params)` says which one a call goes to. */
  devices: DeviceSessions;
  desktop: { kind: 'real' | 'sandbox'; env: Record<string, string>; sandbox?: SandboxInfo; started: boolean };
  /** Policy controls for hosts (`/computer stop`, status line, allow/deny). */
  policy: PolicyControls;
  close(): Promise<void>;
}

/** What a host can do with the policy of a computer. */
export interface PolicyControls {
  /** The built-in policy (undefined when a custom `gate` was given). */
  readonly policy: Policy | undefined;
  /** Pause state shared by every computer of this home. */
  readonly stopper: StopController;
  /** One line: mode, allow/deny lists, paused or not, audit path. */
  status(): string;
  /** Pauses every session of this home (same as `computer-use stop`). */
  stop(): void;
  resume(): void;
  /** Allows an app always (settings.json) and for this session. */
  allowApp(app: string): void;
  /** Denies an app (settings.json) and for this session. */
  denyApp(app: string): void;
  /** Allows an app for this session only (not saved). */
  allowAppForSession(app: string): void;
  /** Lets the next action on an app pass without the app question (not saved). */
  allowAppOnce(app: string): void;
  /** Removes an app from allowApps or denyApps (settings.json) and from this session's lists. */
  removeApp(app: string, list: 'allow' | 'deny'): void;
  /** The settings file these controls write (atomically, mode 0600). */
  readonly settingsPath: string;
  /** Problems found in the settings file (ignored fields). */
  readonly warnings: readonly string[];
}

/** The app-list controls of a settings file alone. */
export type SettingsAppControls = Pick<PolicyControls, 'allowApp' | 'denyApp' | 'removeApp' | 'settingsPath'>;

/**
 * The allow/deny controls of a settings file, for a host that has no computer yet (pi's `/computer allow` before
 * the first tool call): they write what a computer's `PolicyControls` write, which add the session's own lists.
 */
export function settingsAppControls(settingsPath: string = defaultSettingsPath()): SettingsAppControls {
  return {
    settingsPath,
    allowApp: (app) => { addAllowedApp(settingsPath, app); },
    denyApp: (app) => {
      updateSettings(settingsPath, (s) => {
        const list = Array.isArray(s['denyApps'])
          ? (s['denyApps'] as unknown[]).filter((x): x is string => typeof x === 'string')
          : [];
        if (!list.includes(app)) list.push(app);
        s['denyApps'] = list;
      });
    },
    removeApp: (app, list) => {
      const field = list === 'allow' ? 'allowApps' : 'denyApps';
      const norm = app.trim().toLowerCase();
      updateSettings(settingsPath, (s) => {
        if (Array.isArray(s[field]))
          s[field] = (s[field] as unknown[]).filter((x) => typeof x !== 'string' || x.trim().toLowerCase() !== norm);
      });
    },
  };
}

/**
 * The built-in driver of this machine's own desktop, and whether that desktop is the one to drive (no sandbox:
 * Xvfb is Linux's). Node names the platforms darwin and win32; every other one is driven through AT-SPI.
 */
export function nativeDesktop(nodePlatform: string): { platform: 'linux' | 'windows' | 'macos'; ownDesktop: boolean } {
  if (nodePlatform === 'win32') return { platform: 'windows', ownDesktop: true };
  if (nodePlatform === 'darwin') return { platform: 'macos', ownDesktop: true };
  return { platform: 'linux', ownDesktop: false };
}

/** Creates a computer on the chosen desktop. */
export async function createComputer(options: ComputerOptions = {}): Promise<Computer> {
  const mode = options.desktop ?? 'auto';
  // Windows and macOS have no sandbox desktop (Xvfb is Linux's): their own desktop is driven, by their driver.
  const native = nativeDesktop(process.platform);
  let desktop: Computer['desktop'];
  if (mode === 'current' || options.driverCommand || (native.ownDesktop && mode === 'auto')) {
    desktop = { kind: 'real', env: {}, started: false };
  } else if (mode === 'sandbox') {
    const { startSandbox, sandboxEnv } = await import('./drivers/host.js');
    const info = await startSandbox(options.sandboxKind ? { kind: options.sandboxKind } : {});
    desktop = { kind: 'sandbox', env: sandboxEnv(info), sandbox: info, started: true };
  } else {
    const found = await ensureDesktop(options.sandboxKind ? { kind: options.sandboxKind } : {});
    desktop = {
      kind: found.info ? 'sandbox' : 'real',
      env: found.env,
      started: found.started,
      ...(found.info ? { sandbox: found.info } : {}),
    };
  }
  const statePath = typeof options.statePath === 'function' ? options.statePath(desktop) : options.statePath;
  const device = new Device({
    platform: native.platform,
    env: desktop.env,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.driver === 'cdp' ? { driver: cdpDriver(options.cdpEndpoint ?? 'http://127.0.0.1:9222') } : {}),
    ...(options.driverCommand
      ? commandDriver(options.driverCommand, options.keepDrivers ?? false, options.timeoutMs)
      : {}),
    ...(options.connect ? { connect: options.connect } : {}),
  });
  const { gate, controls, settings, decider, policyFor } = buildPolicy(
    withKeptPolicy(options, await options.desktopPolicy?.(desktop)),
  );
  const session = new Session({
    device,
    ...(statePath ? { statePath } : {}),
    ...(options.maxTokens ? { maxTokens: options.maxTokens } : {}),
    ...(options.settle ? { settle: options.settle } : {}),
    ...(options.actionTimeoutMs !== undefined ? { actionTimeoutMs: options.actionTimeoutMs } : {}),
    gate,
    screenshots: {
      allowed: options.allowScreenshots ?? settings.allowScreenshots ?? false,
      imageInput: options.imageInput ?? false,
    },
    showActivity: options.showActivity ?? settings.showActivity ?? true,
    paused: () => controls.stopper.paused,
  });
  const entries: DeviceEntry[] = [{ name: 'local', index: 1, kind: 'local', session }];
  const fromFile = options.devices ? undefined : loadDevices(options.devicesPath ?? defaultDevicesPath());
  const loaded = options.devices ?? fromFile?.devices ?? [];
  for (const w of fromFile?.warnings ?? []) (controls.warnings as string[]).push(w);
  // Paired devices dial in: this session listens where they were paired (one listener per address).
  const hubs = new Map<string, PairServer | string>();
  for (const spec of loaded) {
    if ('connect' in spec || spec.kind !== 'paired' || hubs.has(spec.url)) continue;
    try {
      hubs.set(spec.url, await hubFor(spec, options.devicesPath ?? defaultDevicesPath(), options.timeoutMs));
    } catch (e) {
      const why =
        `cannot listen for paired devices at ${spec.url}: ${(e as Error).message} (is \`computer-use pairing ` +
        `start\` or another session using it?)`;
      hubs.set(spec.url, why);
      (controls.warnings as string[]).push(why);
    }
  }
  for (const spec of loaded) {
    const index = entries.length + 1;
    const remote = remoteDevice(spec, options.timeoutMs, hubs, options.keepDrivers ?? false);
    const deviceState = options.deviceStatePath?.(spec.name) ?? (statePath ? `${statePath}.${spec.name}` : undefined);
    entries.push({
      name: spec.name,
      index,
      kind: 'connect' in spec ? 'fake' : (spec.kind ?? 'ssh'),
      ...(spec.url ? { url: spec.url } : {}),
      session: new Session({
        device: remote,
        refPrefix: devicePrefix(index),
        ...(deviceState ? { statePath: deviceState } : {}),
        ...(options.maxTokens ? { maxTokens: options.maxTokens } : {}),
        ...(options.settle ? { settle: options.settle } : {}),
        gate: policyFor(spec),
        screenshots: {
          allowed: options.allowScreenshots ?? settings.allowScreenshots ?? false,
          imageInput: options.imageInput ?? false,
        },
        // The frame and status window are drawn on the device's own screen by its driver.
        showActivity: options.showActivity ?? settings.showActivity ?? true,
        paused: () => controls.stopper.paused,
      }),
    });
  }
  const devices = new DeviceSessions(entries);
  // The emergency stop reaches every device: each shows it paused, and the shared stop signal aborts every call in
  // flight.
  const unwatchPause = controls.stopper.onChange((paused) => {
    for (const e of entries) showPaused(e.session, paused);
  });
  const call = (name: string, params: unknown, signal?: AbortSignal): Promise<ToolResult> => {
    const tool = toolByName(name);
    if (!tool)
      return Promise.resolve({
        text: `error unsupported: no tool named ${name}; tools: ${TOOLS.map((t) => t.schema.name).join(', ')}`,
        isError: true,
        code: 'unsupported',
      });
    return runTool(
      tool,
      {
        session: devices.last.session,
        devices,
        ...(signal ? { signal } : {}),
        stop: controls.stopper.signal,
        ...(decider ? { decider } : {}),
      },
      params ?? {},
    );
  };
  return {
    session, devices, desktop, call,
    tools: {
      apps: (p = {}) => call('computer_apps', p),
      launch: (p) => call('computer_launch', p),
      observe: (p = {}) => call('computer_observe', p),
      find: (p) => call('computer_find', p),
      act: (p) => call('computer_act', p),
      wait: (p) => call('computer_wait', p),
      keys: (p) => call('computer_keys', p),
      screenshot: (p = {}) => call('computer_screenshot', p),
      input: (p) => call('computer_input', p),
    },
    policy: controls,
    async close() {
      unwatchPause();
      controls.stopper.release();
      await devices.close();
      if (hubs.size > 0) await closeHubs();
      if (desktop.started && desktop.sandbox && options.stopSandboxOnClose !== false)
        await stopSandbox(desktop.sandbox.display);
    },
  };
}

/** Kept permission options with newer ones on top: the newer mode replaces, the lists add up. */
export function mergeKeptPolicy(kept: KeptPolicy, given: KeptPolicy): KeptPolicy {
  const out: KeptPolicy = {};
  const mode = given.mode ?? kept.mode;
  if (mode) out.mode = mode;
  for (const k of ['allowApps', 'allowCommands', 'denyApps'] as const) {
    const all = [...new Set([...(kept[k] ?? []), ...(given[k] ?? [])])];
    if (all.length) out[k] = all;
  }
  return out;
}

/** The options with a host's kept permission options under them (`desktopPolicy`). */
function withKeptPolicy(options: ComputerOptions, kept: KeptPolicy | undefined): ComputerOptions {
  if (!kept) return options;
  const { mode, allowApps, allowCommands, denyApps, ...rest } = options;
  const given: KeptPolicy = {
    ...(mode ? { mode } : {}),
    ...(allowApps ? { allowApps } : {}),
    ...(allowCommands ? { allowCommands } : {}),
    ...(denyApps ? { denyApps } : {}),
  };
  return { ...rest, ...mergeKeptPolicy(kept, given) };
}

/** The policy of a computer from its options and the settings file. */
function buildPolicy(options: ComputerOptions): {
  policy: Policy | undefined;
  gate: PolicyGate;
  controls: PolicyControls;
  settings: Settings;
  decider: Decider | undefined;
  policyFor: (spec: RemoteSpec) => PolicyGate;
} {
  const home = cuHome();
  const settingsPath = options.settingsPath ?? defaultSettingsPath();
  const { settings, warnings } = loadSettings(settingsPath);
  const stopper = StopController.acquire(home);
  const union = (a: string[] | undefined, b: string[] | undefined): string[] => [
    ...new Set([...(a ?? []), ...(b ?? [])]),
  ];
  // The decider of the options, else the one configured in settings (`computer-use decider …`, pi's /computer decider).
  const decider =
    options.decider ??
    createDecider(parseDeciderConfig(settings.decider), { ...options.deciderHost, warn: (m) => warnings.push(m) });
  const policy = options.gate ? undefined : new Policy({
    mode: options.mode ?? settings.mode ?? DEFAULT_MODE,
    allowApps: union(settings.allowApps, options.allowApps),
    allowCommands: union(settings.allowCommands, options.allowCommands),
    denyApps: union(settings.denyApps, options.denyApps),
    allowIrreversibleUnattended: options.allowIrreversibleUnattended ?? settings.allowIrreversibleUnattended ?? false,
    settingsPath, audit: options.auditPath ?? defaultAuditPath(), stop: stopper,
    ...(options.confirmer ? { confirmer: options.confirmer } : {}), ...(decider ? { decider } : {}),
    ...(options.hostApprovesFirstUse && !settings.strictFirstUse ? { hostApprovesFirstUse: true } : {}),
  });
  const gate = policy ?? withStop(options.gate!, stopper);
  // A device's own policy: its mode and lists on top of the session's; identity facts come from its driver
  // (process.identify, apps.resolveLaunch, as for the local device), and no pid there is this host's.
  const policyFor = (spec: RemoteSpec): PolicyGate => (options.gate ? gate : new Policy({
    mode: spec.mode ?? options.mode ?? settings.mode ?? DEFAULT_MODE,
    allowApps: union(union(settings.allowApps, options.allowApps), spec.allowApps),
    allowCommands: union(settings.allowCommands, options.allowCommands),
    denyApps: union(union(settings.denyApps, options.denyApps), spec.denyApps),
    allowIrreversibleUnattended: options.allowIrreversibleUnattended ?? settings.allowIrreversibleUnattended ?? false,
    settingsPath, audit: options.auditPath ?? defaultAuditPath(), stop: stopper, device: spec.name,
    hostPids: [],
    ...(options.confirmer ? { confirmer: options.confirmer } : {}), ...(decider ? { decider } : {}),
    ...(options.hostApprovesFirstUse && !settings.strictFirstUse ? { hostApprovesFirstUse: true } : {}),
  }));
  const lists = settingsAppControls(settingsPath);
  const controls: PolicyControls = {
    policy, stopper, warnings, settingsPath,
    status: () => policy
      ? `mode ${policy.mode} · allowApps ${policy.rules.allow.join(', ') || 'none'} · ` +
        `denyApps ${policy.rules.deny.join(', ') || 'none'} (+ built-in list) · ` +
        `${stopper.paused ? 'PAUSED' : 'running'} · audit ${policy.audit?.path ?? 'off'}`
      : `custom gate · ${stopper.paused ? 'PAUSED' : 'running'}`,
    stop: () => { requestStop(home, 'host command'); },
    resume: () => { requestResume(home); },
    allowApp: (app) => {
      lists.allowApp(app);
      policy?.rules.allow.push(app.trim().toLowerCase());
    },
    denyApp: (app) => {
      lists.denyApp(app);
      policy?.rules.deny.push(app.trim().toLowerCase());
    },
    allowAppForSession: (app) => { policy?.grantSession(app); },
    allowAppOnce: (app) => { policy?.grantOnce(app); },
    removeApp: (app, list) => {
      const norm = app.trim().toLowerCase();
      lists.removeApp(app, list);
      const rules = policy ? (list === 'allow' ? policy.rules.allow : policy.rules.deny) : [];
      for (let i = rules.length - 1; i >= 0; i--) if (rules[i] === norm) rules.splice(i, 1);
    },
  };
  return { policy, gate, controls, settings, decider, policyFor };
}

/** A device entry of the options. */
type RemoteSpec = NonNullable<ComputerOptions['devices']>[number];

/**
 * How a driver command of the user's own is run: a child of this process, or (`keep`: hosts that live one command
 * each) one process kept between them behind a socket of the home.
 */
function commandDriver(
  argv: string[],
  keep: boolean,
  timeoutMs: number | undefined,
): Pick<DeviceOptions, 'driver' | 'connect'> {
  if (!keep) return { driver: { command: argv[0]!, args: argv.slice(1) } };
  return { connect: () => keptDriverConnection(argv, timeoutMs ?? 20_000) };
}

/** The Device of a remote entry: ssh with heartbeat and backoff, or an in-memory driver (tests). */
function remoteDevice(
  spec: RemoteSpec,
  timeoutMs: number | undefined,
  hubs: Map<string, PairServer | string>,
  keep: boolean,
): Device {
  const common = { name: spec.name, heartbeatMs: 15_000, ...(timeoutMs !== undefined ? { timeoutMs } : {}) };
  if ('connect' in spec) return new Device({ ...common, connect: spec.connect });
  // A driver of one's own runs on this machine: like a local driver, no heartbeat.
  if (spec.kind === 'command')
    return new Device({ ...common, heartbeatMs: 0, ...commandDriver(spec.command!, keep, timeoutMs) });
  if (spec.kind === 'paired') {
    const hub = hubs.get(spec.url);
    return new Device({
      ...common,
      connect: () => (typeof hub === 'object' ? hub.connection(spec.name) : closedConnection(hub ?? 'no listener')),
    });
  }
  // A phone's driver runs here, next to the adb server; the adb link itself is checked by every call.
  if (spec.kind === 'adb') return new Device({ ...common, heartbeatMs: 0, driver: adbDriver(spec.url) });
  const target = parseSshUrl(spec.url);
  if (spec.command) target.command = spec.command;
  return new Device({ ...common, driver: sshDriver(target, spec.sshConfig ? { configFile: spec.sshConfig } : {}),
    classifyStartError: (stderr) => classifySshFailure(stderr, `device ${spec.name} (${formatSshUrl(target)})`) });
}

export { findDesktop };
