/**
 * `computer-use device add | list | remove`: the devices every session of this home connects to besides this
 * machine. Kept in `<home>/devices.json` (0600). `add` checks the link before saving it.
 */
import { escapeLine, jsonQuote, nameText } from '../../engine/escape.js';
import { splitCommand } from '../../conformance/command.js';
import { Device } from '../../devices/manager.js';
import { COMMAND_URL, defaultDevicesPath, loadDevices, saveDevices, validateSpec, type DeviceSpec } from '../../devices/registry.js';
import { adbDriver, parseAdbUrl, formatAdbUrl } from '../../devices/adb.js';
import { classifySshFailure, formatSshUrl, parseRemoteCommand, parseSshUrl, sshDriver } from '../../devices/ssh.js';
import { ComputerUseError, isComputerUseError } from '../../protocol/errors.js';
import { parseArgs } from './args.js';
import { checkDevice, deviceOf } from '../../doctor/device.js';

const USAGE = `usage: computer-use device add ssh://user@host[:port] [--name N] [--command "node /path/main.js driver linux"]
       computer-use device add adb:[SERIAL] [--name N]   (an Android phone on this machine's adb server)
       computer-use device add NAME --command 'COMMAND'   (a driver of your own, run on this machine: its words split
                                 like a shell's, run without one; one process serves a CLI session)
                                 [--ssh-config /abs/ssh_config] [--mode M] [--allow-app a,b] [--deny-app c] [--no-check]
       computer-use device list [--check]
       computer-use device remove <name> | device revoke <name>
       (paired devices: computer-use pairing start, then computer-use pair <url> --code … on the device)
  The device runs \`computer-use driver linux\` over your own ssh (your config, keys and known_hosts; never a
  password prompt). Refs of the Nth device read dN… (d2e14); every tool takes device: "<name>".\n`;

/** `device add adb:[SERIAL]`: checks that the phone answers (adb server, authorization, a dump), then saves it. */
async function addPhone(url: string, flags: Record<string, string | undefined>, devices: DeviceSpec[], path: string,
  out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const { serial } = parseAdbUrl(url);
  const spec = validateSpec({ name: flags['name'] ?? 'phone', url: formatAdbUrl(serial), kind: 'adb',
    ...(flags['mode'] !== undefined ? { mode: flags['mode'] } : {}) });
  if (devices.some((d) => d.name === spec.name)) { err.write(`A device named ${spec.name} exists; remove it first or pick --name.\n`); return 1; }
  if (flags['no-check'] === undefined) {
    const c = await checkDevice(spec);
    if (!c.ok) { err.write(`error ${c.code}: ${c.message}\nNot added. (computer-use doctor --device adb says what is missing; --no-check adds it anyway.)\n`); return 1; }
    out.write(`${spec.name}: ${c.line}\n`);
  }
  saveDevices([...devices, spec], path);
  out.write(`added ${spec.name} ${spec.url} (device ${devices.length + 2}: refs d${devices.length + 2}…) to ${path}\n`);
  return 0;
}

/** `device add NAME --command 'COMMAND'`: a driver of the user's own, checked (hello) before it is saved. */
async function addCommand(name: string, flags: Record<string, string | undefined>, devices: DeviceSpec[], path: string,
  out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  if (flags['command'] === undefined) { err.write(`device add ${nameText(name)} needs --command 'COMMAND' (the driver to run)\n${USAGE}`); return 2; }
  const list = (v: string | undefined): string[] | undefined => (v === undefined ? undefined : v.split(',').map((s) => s.trim()).filter(Boolean));
  const spec = validateSpec({ name, url: COMMAND_URL, kind: 'command', command: splitCommand(flags['command']),
    ...(flags['mode'] !== undefined ? { mode: flags['mode'] } : {}),
    ...(list(flags['allow-app']) ? { allowApps: list(flags['allow-app']) } : {}), ...(list(flags['deny-app']) ? { denyApps: list(flags['deny-app']) } : {}) });
  if (devices.some((d) => d.name === spec.name)) { err.write(`A device named ${spec.name} exists; remove it first.\n`); return 1; }
  if (flags['no-check'] === undefined) {
    const c = await checkDevice(spec);
    if (!c.ok) { err.write(`error ${c.code}: ${escapeLine(c.message)}\nNot added. (--no-check adds it anyway.)\n`); return 1; }
    out.write(`${spec.name}: ${c.line}\n`);
  }
  saveDevices([...devices, spec], path);
  out.write(`added ${spec.name} (driver ${commandText(spec.command!)}; device ${devices.length + 2}: refs d${devices.length + 2}…) to ${path}\n`);
  return 0;
}

/** A driver command as one line: each word as it is when plain, else as a JSON string. */
const commandText = (words: readonly string[]): string => words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : jsonQuote(w))).join(' ');

export async function runDeviceCommand(args: string[], out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  const [sub, ...rest] = args;
  const { pos, flags } = parseArgs(rest, ['no-check', 'check']);
  const path = defaultDevicesPath();
  const { devices, warnings } = loadDevices(path);
  for (const w of warnings) err.write(`computer-use: ${w}\n`);
  try {
    switch (sub) {
      case 'add': {
        const url = pos[0];
        if (!url) { err.write(USAGE); return 2; }
        if (url.startsWith('adb:')) return await addPhone(url, flags, devices, path, out, err);
        if (!url.includes(':')) return await addCommand(url, flags, devices, path, out, err);
        const target = parseSshUrl(url);
        const name = flags['name'] ?? target.host.split('.')[0]!.replace(/[^A-Za-z0-9_-]/g, '-');
        const list = (v: string | undefined): string[] | undefined => (v === undefined ? undefined : v.split(',').map((s) => s.trim()).filter(Boolean));
        const spec = validateSpec({ name, url: formatSshUrl(target),
          ...(flags['command'] !== undefined ? { command: parseRemoteCommand(flags['command']) } : target.command.join(' ') !== 'computer-use driver linux' ? { command: target.command } : {}),
          ...(flags['ssh-config'] !== undefined ? { sshConfig: flags['ssh-config'] } : {}), ...(flags['mode'] !== undefined ? { mode: flags['mode'] } : {}),
          ...(list(flags['allow-app']) ? { allowApps: list(flags['allow-app']) } : {}), ...(list(flags['deny-app']) ? { denyApps: list(flags['deny-app']) } : {}) });
        if (devices.some((d) => d.name === spec.name)) { err.write(`A device named ${spec.name} exists; remove it first or pick --name.\n`); return 1; }
        if (flags['no-check'] === undefined) {
          const c = await checkDevice(spec);
          if (!c.ok) { err.write(`error ${c.code}: ${escapeLine(c.message)}\nNot added. (--no-check adds it anyway.)\n`); return 1; }
          out.write(`${spec.name}: ${c.line}\n`);
        }
        saveDevices([...devices, spec], path);
        out.write(`added ${spec.name} ${spec.url} (device ${devices.length + 2}: refs d${devices.length + 2}…) to ${path}\n`);
        return 0;
      }
      case 'list': {
        out.write(`local  this machine\n`);
        for (const [i, d] of devices.entries()) {
          let status = '';
          if (flags['check'] !== undefined && d.kind !== 'paired') { const c = await checkDevice(d); status = c.ok ? `  ${c.line}` : `  error ${c.code}: ${escapeLine(c.message)}`; }
          out.write(`${d.name}  ${d.kind === 'paired' ? `paired, listens at ${d.url}` : d.kind === 'adb' ? `android phone ${d.url}`
            : d.kind === 'command' ? `driver ${commandText(d.command ?? [])}` : d.url}  refs d${i + 2}…${d.mode ? `  mode ${d.mode}` : ''}${status}\n`);
        }
        return 0;
      }
      case 'remove': case 'revoke': {
        const name = pos[0];
        if (!name) { err.write(USAGE); return 2; }
        const left = devices.filter((d) => d.name !== name);
        if (left.length === devices.length) { err.write(`No device named ${name}.\n`); return 1; }
        saveDevices(left, path);
        const gone = devices.find((d) => d.name === name)!;
        // A paired device's credential is forgotten with its entry: a session holding its link closes it within a
        // second, and its reconnects are refused.
        out.write(gone.kind === 'paired' ? `revoked ${name}: its credential is forgotten; a live link closes and reconnects are refused\n` : `removed ${name}\n`);
        return 0;
      }
      default:
        (sub === 'help' || sub === undefined ? out : err).write(USAGE);
        return sub === 'help' ? 0 : 2;
    }
  } catch (e) {
    err.write(`error ${isComputerUseError(e) ? e.code : 'error'}: ${escapeLine((e as Error).message)}\n`);
    return 2;
  }
}
