/**
 * `computer-use sandbox …`: start, stop, list and use headless desktops from a shell or a CI script.
 *
 *   sandbox up [--kind xvfb|weston] [--display N] [--no-wm] [--own-home] [--json]   start one and print it
 *   sandbox down [:N | --all]                      stop one (default: the only/first one) or all
 *   sandbox status [--json]                        list recorded sandboxes
 *   sandbox env [--json]                           `export K=V` lines for the current/first sandbox
 *   sandbox exec [--kind xvfb|weston] [--keep] [--own-home] -- <cmd> [args...]   run a command on a desktop
 *                                                  (reused or started)
 * `--kind` defaults to `COMPUTER_USE_SANDBOX_KIND`, else xvfb. A sandbox's apps, and the command `exec` runs, get a
 * HOME of the sandbox's own, empty at its start; `--own-home` (or `COMPUTER_USE_SANDBOX_HOME=own`) keeps the caller's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import { displayName, HOME_VARS, sandboxKind, shellExports } from '../../drivers/host.js';
import { asksHelp } from './args.js';
import {
  ensureDesktop, listSandboxes, sandboxEnv, startSandbox, stopSandbox, type SandboxInfo, type StartOptions,
} from '../../drivers/host.js';

const USAGE = `usage: computer-use sandbox <command>
  up [--kind xvfb|weston] [--display N] [--no-wm] [--own-home] [--json]
                                         start a headless desktop: xvfb (Xvfb + D-Bus + AT-SPI + openbox,
                                         the default) or weston (headless Wayland compositor + D-Bus +
                                         AT-SPI, no X server: element actions only, keys are input_blocked)
  down [:N | --all]                      stop a sandbox (default: the first one) or all of them
  status [--json]                        list sandboxes
  env [--json]                           print export lines for the current or first sandbox
  exec [--kind xvfb|weston] [--keep] [--own-home] -- <cmd> [args...]
                                         run a command on a desktop; a sandbox started for it is
                                         stopped afterwards unless --keep
--kind defaults to COMPUTER_USE_SANDBOX_KIND, else xvfb. The apps in a sandbox, and the command exec
runs, get a HOME of the sandbox's own, empty when it starts and removed when it stops (no settings
carried over); --own-home (or COMPUTER_USE_SANDBOX_HOME=own) starts one with your HOME instead.`;

/** Variables `sandbox env` prints. */
const ENV_KEYS = [
  'DISPLAY',
  'WAYLAND_DISPLAY',
  'XDG_SESSION_TYPE',
  'GDK_BACKEND',
  'QT_QPA_PLATFORM',
  'MOZ_ENABLE_WAYLAND',
  'DBUS_SESSION_BUS_ADDRESS',
  'AT_SPI_BUS_ADDRESS',
  'XDG_RUNTIME_DIR',
  'GSK_RENDERER',
  'COMPUTER_USE_SANDBOX',
  'COMPUTER_USE_HOME',
] as const;

/** What `sandbox env` prints of a sandbox: its home's variables too when it has a home of its own. */
function envKeys(info: SandboxInfo): readonly string[] {
  return info.home !== undefined ? [...ENV_KEYS, ...HOME_VARS] : ENV_KEYS;
}

/** The sandbox's own variables (never the rest of the caller's environment, which may hold secrets). */
function pickEnv(vars: Record<string, string>, info: SandboxInfo): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of envKeys(info)) if (vars[k] !== undefined) out[k] = vars[k];
  return out;
}

/** Runs `computer-use sandbox <args>` and resolves with the process exit code. */
export async function runSandboxCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  // `sandbox up --help` prints the usage; it neither starts a desktop nor calls --help an unexpected argument.
  if (sub !== undefined && asksHelp(rest)) { process.stdout.write(USAGE + '\n'); return 0; }
  try {
    switch (sub) {
      case 'up': return await up(rest);
      case 'down': return await down(rest);
      case 'status': return await status(rest);
      case 'env': return await env(rest);
      case 'exec': return await exec(rest);
      case undefined: case 'help': case '--help': case '-h':
        process.stdout.write(USAGE + '\n');
        return sub === undefined ? 2 : 0;
      default:
        process.stderr.write(`unknown sandbox command: ${sub}\n${USAGE}\n`);
        return 2;
    }
  } catch (err) {
    process.stderr.write(`computer-use sandbox ${sub}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

function flag(args: string[], name: string): boolean {
  const i = args.indexOf(name);
  if (i < 0) return false;
  args.splice(i, 1);
  return true;
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const value = args[i + 1];
  if (value === undefined) throw new Error(`${name} needs a value`);
  args.splice(i, 2);
  return value;
}

function rejectExtra(args: string[]): void {
  if (args.length > 0) throw new Error(`unexpected argument(s): ${args.join(' ')}`);
}

function describe(info: SandboxInfo, alive?: boolean): string {
  const pids = Object.entries(info.pids).map(([k, v]) => `${k}=${v}`).join(' ');
  const state = alive === undefined ? '' : alive ? ' alive' : ' DEAD (run `sandbox down` to clean up)';
  const kind = info.kind === 'weston' ? ` weston (Wayland socket ${info.waylandDisplay ?? ''}, no X server)` : ' xvfb';
  return `${info.display}${kind}${state}  started ${info.startedAt}\n  a11y bus ${info.a11yAddress}\n  pids ${pids}`;
}

async function up(args: string[]): Promise<number> {
  const json = flag(args, '--json');
  const noWm = flag(args, '--no-wm');
  const ownHome = flag(args, '--own-home');
  const display = option(args, '--display');
  const kind = option(args, '--kind');
  rejectExtra(args);
  const opts: StartOptions = { wm: !noWm, ...(ownHome ? { ownHome } : {}) };
  if (kind !== undefined) opts.kind = sandboxKind(kind);
  if (display !== undefined) opts.display = Number(displayName(display).slice(1));
  const t0 = Date.now();
  const info = await startSandbox(opts);
  const ms = Date.now() - t0;
  if (json)
    process.stdout.write(JSON.stringify({ ...info, env: pickEnv(sandboxEnv(info), info), startupMs: ms }) + '\n');
  else process.stdout.write(`started ${describe(info)}\n  in ${ms} ms; use: eval "$(computer-use sandbox env)"\n`);
  return 0;
}

async function down(args: string[]): Promise<number> {
  const all = flag(args, '--all');
  const target = args.shift();
  rejectExtra(args);
  const known = await listSandboxes();
  let displays: string[];
  if (all) displays = known.map((s) => s.display);
  else if (target !== undefined) displays = [displayName(target)];
  else {
    const named = process.env['COMPUTER_USE_SANDBOX'];
    const pick = known.find((s) => s.display === named) ?? known[0];
    displays = pick ? [pick.display] : [];
  }
  if (displays.length === 0) {
    process.stdout.write('no sandbox to stop\n');
    return 0;
  }
  for (const d of displays) {
    const t0 = Date.now();
    await stopSandbox(d);
    process.stdout.write(`stopped ${d} in ${Date.now() - t0} ms\n`);
  }
  return 0;
}

async function status(args: string[]): Promise<number> {
  const json = flag(args, '--json');
  rejectExtra(args);
  const list = await listSandboxes();
  if (json) process.stdout.write(JSON.stringify(list) + '\n');
  else if (list.length === 0) process.stdout.write('no sandboxes\n');
  else process.stdout.write(list.map((s) => describe(s, s.alive)).join('\n') + '\n');
  return 0;
}

async function env(args: string[]): Promise<number> {
  const json = flag(args, '--json');
  rejectExtra(args);
  const alive = (await listSandboxes()).filter((s) => s.alive);
  const named = process.env['COMPUTER_USE_SANDBOX'];
  const info = alive.find((s) => s.display === named) ?? alive[0];
  if (!info) {
    process.stderr.write('no running sandbox; start one with `computer-use sandbox up`\n');
    return 1;
  }
  const vars = sandboxEnv(info);
  if (json) process.stdout.write(JSON.stringify(pickEnv(vars, info)) + '\n');
  else process.stdout.write(shellExports(vars, envKeys(info)) + '\n');
  return 0;
}

async function exec(args: string[]): Promise<number> {
  const sep = args.indexOf('--');
  const own = sep < 0 ? args : args.slice(0, sep);
  const command = sep < 0 ? [] : args.slice(sep + 1);
  const keep = flag(own, '--keep');
  const ownHome = flag(own, '--own-home');
  const kind = option(own, '--kind');
  rejectExtra(own);
  const [cmd, ...cmdArgs] = command;
  if (cmd === undefined) throw new Error('nothing to run: sandbox exec [--keep] -- <cmd> [args...]');

  // Signals are caught from here on, so one arriving while the sandbox starts still tears it down.
  let child: ChildProcess | undefined;
  let firstSignal: NodeJS.Signals | undefined;
  let killTimer: NodeJS.Timeout | undefined;
  const onSignal = (sig: NodeJS.Signals): void => {
    // Pass the signal on; the child's exit then runs the teardown below. A child that does not exit
    // within 5 s, or a second signal, gets SIGKILL: teardown must not wait forever.
    const again = firstSignal !== undefined;
    firstSignal ??= sig;
    if (!child) return;
    try { child.kill(again ? 'SIGKILL' : sig); } catch { /* already gone */ }
    killTimer ??= setTimeout(() => { try { child?.kill('SIGKILL'); } catch { /* gone */ } }, 5000);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let started: SandboxInfo | undefined;
  try {
    const desktop = await ensureDesktop({
      ...(kind !== undefined ? { kind: sandboxKind(kind) } : {}), ...(ownHome ? { ownHome } : {}),
    });
    if (desktop.started) started = desktop.info;
    if (firstSignal) return signalCode(firstSignal);
    const where = desktop.started ? `started ${started?.display}${keep ? ' (kept afterwards)' : ''}`
      : desktop.info ? `running on sandbox ${desktop.info.display}` : 'running on the current desktop';
    process.stderr.write(`[sandbox] ${where}\n`);

    const proc = spawn(cmd, cmdArgs, { env: desktop.env, stdio: 'inherit' });
    child = proc;
    return await new Promise<number>((resolve) => {
      proc.on('error', (err) => {
        process.stderr.write(`[sandbox] could not run ${cmd}: ${err.message}\n`);
        resolve(127);
      });
      proc.on('exit', (c, sig) => resolve(c ?? (sig ? signalCode(sig) : 1)));
    });
  } finally {
    clearTimeout(killTimer);
    if (started && !keep) await stopSandbox(started.display);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** The shell's exit code for death by `sig` (128 + signal number). */
function signalCode(sig: NodeJS.Signals): number {
  return 128 + (osConstants.signals[sig] ?? 0);
}
