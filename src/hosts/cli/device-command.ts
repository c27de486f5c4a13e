/**
 * `computer-use device add | list | remove`: the devices every session of this home connects to besides this
 * machine. Kept in `<home>/devices.json` (0600). `add` checks the link before saving it.
 */
import { escapeLine, jsonQuote, nameText } from '../../engine/escape.js';
import { splitCommand } from '../../conformance/command.js';
import { Device } from '../../devices/manager.js';
import {
  COMMAND_URL,
  defaultDevicesPath,
  loadDevices,
  saveDevices,
  validateSpec,
  type DeviceSpec,
} from '../../devices/registry.js';
import { adbDriver, parseAdbUrl, formatAdbUrl } from '../../devices/adb.js';
import { classifySshFailure, formatSshUrl, parseRemoteCommand, parseSshUrl, sshDriver } from '../../devices/ssh.js';
import { ComputerUseError, isComputerUseError } from '../../protocol/errors.js';
import { parseArgs } from './args.js';
import { checkDevice, deviceOf } from '../../doctor/device.js';
import type { Confirmer } from '../../policy/confirm.js';
import { loadSettings } from '../../policy/settings.js';
import { permissionWords, splitWidening } from './kept-flags.js';
import { ttyConfirmer } from './policy-commands.js';

/**
 * A device's permissions as asked, less what lowers a question unless a person says yes on their own terminal:
 * the path every CLI permission flag takes (kept-flags.ts). Narrowing parts (a stricter mode, denied apps) hold.
 * The words never name a flag: a model reading them would add it to its next call.
 */
async function gateDevicePermissions(
  spec: DeviceSpec,
  confirmer: Confirmer,
  err: NodeJS.WritableStream,
): Promise<DeviceSpec> {
  const { settings } = loadSettings();
  const requested = {
    ...(spec.mode ? { mode: spec.mode } : {}),
    ...(spec.allowApps ? { allowApps: spec.allowApps } : {}),
  };
  const { widening } = splitWidening(requested, { mode: settings.mode, allowApps: settings.allowApps });
  if (!Object.keys(widening).length) return spec;
  const what = permissionWords(widening);
  const answer = confirmer.interactive ? await confirmer.confirm({
    title: `Lower computer-use's questions on device ${spec.name}?`,
    message: `This command adds device ${spec.name} with ${what}. ` +
      'That lowers what computer-use asks you before it acts there. ' +
      'A program at this shell (an AI agent) may have added it: say yes only if you did.',
    choices: ['allow_once', 'deny'], reason: 'other',
  }) : 'deny';
  if (answer === 'allow_once') {
    err.write(`computer-use: you confirmed ${what} for device ${spec.name}\n`);
    return spec;
  }
  err.write(
    `computer-use: not applied: ${what}. What lowers computer-use's questions on a device holds only after ` +
      `a person's ` +
      `yes on their own terminal; device ${spec.name} is added without it.\n`,
  );
  const out: DeviceSpec = { ...spec };
  if (widening.mode) delete out.mode;
  if (widening.allowApps) {
    const kept = (spec.allowApps ?? []).filter((a) => !widening.allowApps!.includes(a));
    if (kept.length) out.allowApps = kept; else delete out.allowApps;
  }
  return out;
}

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

/** Where `device add` writes and answers, and the person's terminal it asks on. */
interface AddContext {
  flags: Record<string, string | undefined>;
  devices: DeviceSpec[];
  path: string;
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
  confirmer: Confirmer;
}

/**
 * The end every `device add` shares: a name not taken, what widens asked of a person, the link checked (unless
 * --no-check), then saved. `whatToCheck` is the hint after a failed check; `described` names the device saved
 * around `where` (its device number and ref prefix).
 */
async function addChecked(asked: DeviceSpec, ctx: AddContext, nameHint: string, whatToCheck: string,
  described: (spec: DeviceSpec, where: string) => string): Promise<number> {
  const { devices, path, out, err } = ctx;
  if (devices.some((d) => d.name === asked.name)) {
    err.write(`A device named ${asked.name} exists; remove it first${nameHint}.\n`);
    return 1;
  }
  const spec = await gateDevicePermissions(asked, ctx.confirmer, err);
  if (ctx.flags['no-check'] === undefined) {
    const c = await checkDevice(spec);
    if (!c.ok) {
      err.write(`error ${c.code}: ${escapeLine(c.message)}\nNot added. (${whatToCheck}--no-check adds it anyway.)\n`);
      return 1;
    }
    out.write(`${spec.name}: ${c.line}\n`);
  }
  saveDevices([...devices, spec], path);
  out.write(
    `added ${spec.name} ${described(spec, `device ${devices.length + 2}: refs d${devices.length + 2}…`)} to ` +
      `${path}\n`,
  );
  return 0;
}

/** `device add adb:[SERIAL]`: checks that the phone answers (adb server, authorization, a dump), then saves it. */
async function addPhone(url: string, flags: Record<string, string | undefined>, devices: DeviceSpec[], path: string,
  out: NodeJS.WritableStream, err: NodeJS.WritableStream, confirmer: Confirmer): Promise<number> {
  const { serial } = parseAdbUrl(url);
  const asked = validateSpec({ name: flags['name'] ?? 'phone', url: formatAdbUrl(serial), kind: 'adb',
    ...(flags['mode'] !== undefined ? { mode: flags['mode'] } : {}) });
  return await addChecked(asked, { flags, devices, path, out, err, confirmer }, ' or pick --name',
    'computer-use doctor --device adb says what is missing; ', (spec, where) => `${spec.url} (${where})`);
}

/** `device add NAME --command 'COMMAND'`: a driver of the user's own, checked (hello) before it is saved. */
async function addCommand(name: string, flags: Record<string, string | undefined>, devices: DeviceSpec[], path: string,
  out: NodeJS.WritableStream, err: NodeJS.WritableStream, confirmer: Confirmer): Promise<number> {
  if (flags['command'] === undefined) {
    err.write(`device add ${nameText(name)} needs --command 'COMMAND' (the driver to run)\n${USAGE}`);
    return 2;
  }
  const list = (v: string | undefined): string[] | undefined =>
    v === undefined
      ? undefined
      : v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
  const asked = validateSpec({
    name,
    url: COMMAND_URL,
    kind: 'command',
    command: splitCommand(flags['command']),
    ...(flags['mode'] !== undefined ? { mode: flags['mode'] } : {}),
    ...(list(flags['allow-app']) ? { allowApps: list(flags['allow-app']) } : {}),
    ...(list(flags['deny-app']) ? { denyApps: list(flags['deny-app']) } : {}),
  });
  return await addChecked(asked, { flags, devices, path, out, err, confirmer }, '', '',
    (spec, where) => `(driver ${commandText(spec.command!)}; ${where})`);
}

/** A driver command as one line: each word as it is when plain, else as a JSON string. */
const commandText = (words: readonly string[]): string =>
  words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : jsonQuote(w))).join(' ');

export async function runDeviceCommand(
  args: string[],
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
  confirmer: Confirmer = ttyConfirmer(),
): Promise<number> {
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
        if (url.startsWith('adb:')) return await addPhone(url, flags, devices, path, out, err, confirmer);
        if (!url.includes(':')) return await addCommand(url, flags, devices, path, out, err, confirmer);
        const target = parseSshUrl(url);
        const name = flags['name'] ?? target.host.split('.')[0]!.replace(/[^A-Za-z0-9_-]/g, '-');
        const list = (v: string | undefined): string[] | undefined =>
          v === undefined
            ? undefined
            : v
                .split(',')
                .map((s) => s.trim())
                .filter(Boolean);
        const asked = validateSpec({
          name,
          url: formatSshUrl(target),
          ...(flags['command'] !== undefined
            ? { command: parseRemoteCommand(flags['command']) }
            : target.command.join(' ') !== 'computer-use driver linux'
              ? { command: target.command }
              : {}),
          ...(flags['ssh-config'] !== undefined ? { sshConfig: flags['ssh-config'] } : {}),
          ...(flags['mode'] !== undefined ? { mode: flags['mode'] } : {}),
          ...(list(flags['allow-app']) ? { allowApps: list(flags['allow-app']) } : {}),
          ...(list(flags['deny-app']) ? { denyApps: list(flags['deny-app']) } : {}),
        });
        return await addChecked(asked, { flags, devices, path, out, err, confirmer }, ' or pick --name', '',
          (spec, where) => `${spec.url} (${where})`);
      }
      case 'list': {
        out.write(`local  this machine\n`);
        for (const [i, d] of devices.entries()) {
          let status = '';
          if (flags['check'] !== undefined && d.kind !== 'paired') {
            const c = await checkDevice(d);
            status = c.ok ? `  ${c.line}` : `  error ${c.code}: ${escapeLine(c.message)}`;
          }
          out.write(
            `${d.name}  ${
              d.kind === 'paired'
                ? `paired, listens at ${d.url}`
                : d.kind === 'adb'
                  ? `android phone ${d.url}`
                  : d.kind === 'command'
                    ? `driver ${commandText(d.command ?? [])}`
                    : d.url
            }  refs d${i + 2}…${d.mode ? `  mode ${d.mode}` : ''}${status}\n`,
          );
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
        out.write(
          gone.kind === 'paired'
            ? `revoked ${name}: its credential is forgotten; a live link closes and reconnects are refused\n`
            : `removed ${name}\n`,
        );
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
