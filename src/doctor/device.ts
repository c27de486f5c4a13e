/**
 * `computer-use doctor --device <name>`: checks a remote device the way a session would reach it: ssh gets in without a
 * prompt and with a known host key, Node runs there, and the driver answers.
 */
import { spawn } from 'node:child_process';
import type { DeviceSpec } from '../devices/registry.js';
import { classifySshFailure, formatSshUrl, parseSshUrl, sshArgs } from '../devices/ssh.js';
import { escapeLine, nameText } from '../engine/escape.js';
import { Device } from '../devices/manager.js';
import { adbDriver } from '../devices/adb.js';
import { sshDriver } from '../devices/ssh.js';
import { ComputerUseError, isComputerUseError } from '../protocol/errors.js';
import type { DeviceCheck } from '../drivers/common/checks.js';

/** The Device of a saved spec (ssh). */
export function deviceOf(spec: DeviceSpec, timeoutMs = 20_000): Device {
  if (spec.kind === 'paired')
    throw new ComputerUseError(
      'unsupported',
      `${spec.name} is a paired device: it dials in while a session runs; it cannot be checked from here.`,
    );
  if (spec.kind === 'adb') return new Device({ name: spec.name, timeoutMs, driver: adbDriver(spec.url) });
  // A driver of one's own is checked as a process of its own (a kept one is a session's, not the doctor's).
  if (spec.kind === 'command')
    return new Device({
      name: spec.name,
      timeoutMs,
      driver: { command: spec.command![0]!, args: spec.command!.slice(1) },
    });
  const target = parseSshUrl(spec.url);
  if (spec.command) target.command = spec.command;
  return new Device({
    name: spec.name,
    timeoutMs,
    driver: sshDriver(target, spec.sshConfig ? { configFile: spec.sshConfig } : {}),
    classifyStartError: (stderr) => classifySshFailure(stderr, `device ${spec.name} (${formatSshUrl(target)})`),
  });
}

/** Connects once and says hello: the platform and session type, or the error. The device is the spec's own unless given (tests). */
export async function checkDevice(
  spec: DeviceSpec,
  device = deviceOf(spec),
): Promise<{ ok: true; line: string } | { ok: false; code: string; message: string }> {
  try {
    const h = await device.hello();
    if (h.platform === 'android')
      return {
        ok: true,
        line:
          `reachable: driver android ${nameText(h.version)}, ${escapeLine(h.facts?.['model'] ?? 'phone')} ` +
          `(Android ${escapeLine(h.facts?.['android'] ?? '?')}, API ` +
          `${escapeLine(h.facts?.['api_level'] ?? '?')})` +
          `${h.permissions['screen_unlocked'] === false ? ', screen LOCKED' : ''}`,
      };
    return {
      ok: true,
      line:
        `reachable: driver ${nameText(h.platform)} ${nameText(h.version)}` +
        `${h.session ? ` (${escapeLine(h.session)})` : ''}, a11y bus ` +
        `${h.permissions['a11y_bus'] === false ? 'NOT reachable' : 'ok'}`,
    };
  } catch (e) {
    return {
      ok: false,
      code: isComputerUseError(e) ? e.code : 'error',
      message: escapeLine((e as Error).message.split('\n').slice(0, 4).join('\n')),
    };
  } finally {
    await device.close();
  }
}

export type { DeviceCheck };

/** Runs one remote command over the device's ssh (validated words), with a time limit. */
function runRemote(
  spec: DeviceSpec,
  words: string[],
  timeoutMs = 20_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const target = { ...parseSshUrl(spec.url), command: words };
  const args = sshArgs(target, spec.sshConfig ? { configFile: spec.sshConfig } : {});
  return new Promise((resolve) => {
    const child = spawn('ssh', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout = (stdout + d).slice(-4096); });
    child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr = (stderr + d).slice(-4096); });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ code: null, stdout, stderr: `${stderr}\n${e.message}` });
    });
    child.on('exit', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}

/** The checks of one device, in order; later ones are skipped once ssh itself fails. */
export async function doctorDevice(spec: DeviceSpec): Promise<DeviceCheck[]> {
  if (spec.kind === 'paired') return doctorPaired(spec);
  if (spec.kind === 'command') {
    const c = await checkDevice(spec);
    return [
      {
        name: 'driver',
        ok: c.ok,
        detail: c.ok ? c.line : `${c.code}: ${c.message}`,
        fix: 'run the command by hand: it must answer hello on stdio (docs/protocol.md)',
      },
    ];
  }
  const target = parseSshUrl(spec.url);
  const where = `device ${spec.name} (${formatSshUrl(target)})`;
  const checks: DeviceCheck[] = [];
  const node = await runRemote(spec, ['node', '--version']);
  if (node.code === 255) {
    const known = classifySshFailure(node.stderr, where);
    checks.push({
      name: 'ssh',
      ok: false,
      detail: known ? `${known.code}: ${known.message}` : (node.stderr.trim().split('\n')[0] ?? 'ssh failed'),
      fix: 'ssh must log in with a key and a known host key, with no prompt (BatchMode=yes): try `ssh <host> true` by hand',
    });
    return checks;
  }
  checks.push({ name: 'ssh', ok: true, detail: 'logs in without a prompt; host key known' });
  const version = /^v(\d+)\./.exec(node.stdout.trim());
  const nodeOk = node.code === 0 && version !== null && Number(version[1]) >= 20;
  checks.push({
    name: 'node',
    ok: nodeOk,
    detail: node.code === 0 ? `node ${node.stdout.trim()} on the device` : "node is not on the device's PATH",
    ...(nodeOk ? {} : { fix: 'install Node.js 20 or newer on the device (Debian: apt-get install nodejs)' }),
  });
  const driver = await checkDevice(spec);
  const command = (spec.command ?? target.command).join(' ');
  checks.push(
    driver.ok
      ? { name: 'driver', ok: true, detail: `\`${command}\` ${driver.line}` }
      : {
          name: 'driver',
          ok: false,
          detail: `\`${command}\`: ${driver.code}: ${driver.message.split('\n')[0]}`,
          fix: 'install the package on the device (npm i -g computer-use), or give the command with --command when adding the device',
        },
  );
  return checks;
}

/**
 * A paired device dials in, so nothing can be run on it from here: the checks say what this side can know
 * (the entry, whether a session listens for it now) and what to run on the device.
 */
async function doctorPaired(spec: DeviceSpec): Promise<DeviceCheck[]> {
  const { parsePairUrl } = await import('../devices/pairing.js');
  const { connect } = await import('node:net');
  const a = parsePairUrl(spec.url);
  const listening = await new Promise<boolean>((resolve) => {
    const s = connect(a.port, a.host);
    s.setTimeout(2000, () => { s.destroy(); resolve(false); });
    s.once('connect', () => { s.destroy(); resolve(true); });
    s.once('error', () => resolve(false));
  });
  return [
    {
      name: 'pairing',
      ok: true,
      detail: `paired device; it dials ${spec.url} (the credential's hash is in the devices file)`,
    },
    {
      name: 'listener',
      ok: true,
      detail: listening
        ? `something listens at ${spec.url} (a session of this home, or pairing start)`
        : `nothing listens at ${spec.url} now: a session of this home listens while it runs`,
      ...(listening ? {} : { fix: 'start a session (computer-use mcp, or the library); the device redials by itself' }),
    },
    {
      name: 'device',
      ok: true,
      detail:
        'checks on the device itself run there: `computer-use doctor`, and `computer-use pair` to serve its driver',
    },
  ];
}
