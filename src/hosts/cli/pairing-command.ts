/**
 * `computer-use pairing start` (the server side shows a one-time code and waits for one device) and
 * `computer-use pair <server-url> --code 123-456` / `pair --revoke` / `unpair` (the device side dials, then
 * serves its driver).
 */
import { isAbsolute } from 'node:path';
import { servePaired, pairWithCode, unpair, localDriverArgs } from '../../devices/pair-client.js';
import { PairServer } from '../../devices/pair-link.js';
import { CLOSE, PairingCode, defaultCredentialPath, loadCredential, parsePairUrl } from '../../devices/pairing.js';
import { DEVICE_NAME, defaultDevicesPath, loadDevices } from '../../devices/registry.js';
import { isComputerUseError } from '../../protocol/errors.js';
import { parseArgs } from './args.js';

const START_USAGE = `usage: computer-use pairing start [--listen ws://127.0.0.1:7787] [--name N] [--ttl SECONDS]
                                [--tls-cert /abs/cert.pem --tls-key /abs/key.pem  (then --listen wss://host:port)]
  Shows a one-time code (single use, 5 minutes, locked after 5 wrong tries) and waits for one device to pair.
  Without a certificate it listens on loopback only: reach it from another machine through an SSH tunnel
  (on the device: ssh -N -L 7787:127.0.0.1:7787 you@this-host, then pair with ws://127.0.0.1:7787).\n`;

const PAIR_USAGE = `usage: computer-use pair <server-url> --code 123-456 [--ca /abs/ca.pem] [--desktop sandbox]
       computer-use pair                 serve again with the stored pairing (redials with backoff)
       computer-use pair --revoke | unpair   forget this device's pairing (the server is told when reachable)\n`;

const DEFAULT_LISTEN = 'ws://127.0.0.1:7787';

/** `pairing start`. */
export async function runPairingCommand(
  args: string[],
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'start') { (sub === 'help' ? out : err).write(START_USAGE); return sub === 'help' ? 0 : 2; }
  const { flags } = parseArgs(rest);
  try {
    const address = parsePairUrl(flags['listen'] ?? DEFAULT_LISTEN);
    if (flags['name'] !== undefined && !DEVICE_NAME.test(flags['name'])) {
      err.write('--name: a letter then up to 31 letters, digits, - or _\n');
      return 2;
    }
    for (const k of ['tls-cert', 'tls-key'])
      if (flags[k] !== undefined && !isAbsolute(flags[k])) {
        err.write(`--${k} must be an absolute path\n`);
        return 2;
      }
    if (
      flags['name'] !== undefined &&
      loadDevices(defaultDevicesPath()).devices.some((d) => d.name === flags['name'])
    ) {
      err.write(
        `A device named ${flags['name']} exists; revoke it first (computer-use device revoke ` +
          `${flags['name']}) or pick another --name.\n`,
      );
      return 1;
    }
    const ttlS = Math.max(10, Math.min(600, Number(flags['ttl'] ?? 300) || 300));
    const code = new PairingCode({ ttlMs: ttlS * 1000 });
    let done: (rc: number) => void = () => undefined;
    const finished = new Promise<number>((r) => { done = r; });
    const server = await PairServer.listen({ address, devicesPath: defaultDevicesPath(), code,
      ...(flags['tls-cert'] ? { tlsCert: flags['tls-cert'] } : {}), ...(flags['tls-key'] ? { tlsKey: flags['tls-key'] } : {}),
      ...(flags['name'] ? { name: flags['name'] } : {}),
      onEvent: (e) => {
        if (e.kind === 'paired') {
          out.write(
            `paired: ${e.spec.name} (saved to ${defaultDevicesPath()}); sessions of this home now wait for it ` +
              `at ${e.spec.url}\n`,
          );
          done(0);
        } else if (e.kind === 'refused') {
          err.write(`a device tried a code: ${e.why}\n`);
          if (!code.live) done(1);
        } else if (e.kind === 'unpaired') out.write(`${e.name} unpaired itself\n`);
      } });
    out.write(`pairing code: ${code.text}  (single use, valid ${Math.round(ttlS / 60 * 10) / 10} min)\n` +
      `on the device: computer-use pair ${server.url} --code ${code.text}\n`);
    // After the code expires the listener stays a minute, so a device that comes late is told why, not refused a
    // connection.
    const timer = setTimeout(() => {
      err.write('the code expired; nothing paired (run pairing start again)\n');
      setTimeout(() => done(1), 60_000).unref();
    }, ttlS * 1000);
    const rc = await finished;
    clearTimeout(timer);
    // Let the 'paired' frame and close reach the device before the listener goes.
    await new Promise((r) => setTimeout(r, 200));
    await server.close();
    return rc;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      err.write(
        `error address_in_use: ${flags['listen'] ?? DEFAULT_LISTEN} is in use: a session of this home may be ` +
          `listening there for paired devices. ` +
          'Stop it while pairing, or pair on another --listen address.\n',
      );
      return 1;
    }
    err.write(`error ${isComputerUseError(e) ? e.code : 'error'}: ${(e as Error).message}\n`);
    return isComputerUseError(e) ? 2 : 1;
  }
}

/** `pair` and `unpair` on the device. */
export async function runPairCommand(
  args: string[],
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  const { pos, flags } = parseArgs(args, ['revoke', 'once']);
  const path = defaultCredentialPath();
  const log = (line: string): void => { err.write(`computer-use pair: ${line}\n`); };
  try {
    if (flags['revoke'] !== undefined) {
      const r = await unpair(path);
      if (!r.told && r.reason === 'this device is not paired') { err.write('this device is not paired\n'); return 1; }
      const server = r.told
        ? 'the server forgot it and closed its link'
        : `the server could not be told (${r.reason || 'not reachable'}): ` +
          'run `computer-use device revoke <name>` there';
      out.write(`pairing deleted on this device; ${server}\n`);
      return 0;
    }
    const desktop =
      flags['desktop'] === undefined ? undefined : flags['desktop'] === 'sandbox' ? ('sandbox' as const) : null;
    if (desktop === null) { err.write('--desktop takes only "sandbox"\n'); return 2; }
    for (const k of ['ca'])
      if (flags[k] !== undefined && !isAbsolute(flags[k])) {
        err.write(`--${k} must be an absolute path\n`);
        return 2;
      }
    const server = pos[0];
    if (flags['code'] !== undefined) {
      if (!server) { err.write(PAIR_USAGE); return 2; }
      const cred = await pairWithCode(server, flags['code'], path, flags['ca']);
      out.write(`paired with ${server} as ${cred.name ?? '?'}; the credential is in ${path} (0600)\n`);
    } else {
      const cred = loadCredential(path);
      if (!cred) { err.write(`this device is not paired: ${PAIR_USAGE}`); return 2; }
      if (server && server !== cred.server) {
        err.write(`this device is paired with ${cred.server}, not ${server}; unpair first\n`);
        return 2;
      }
    }
    const end = await servePaired(path, localDriverArgs(desktop), log);
    out.write(
      end.code === CLOSE.refused
        ? `the server refused this pairing (${end.reason}): it was revoked there; the credential is deleted\n`
        : end.code === CLOSE.unpaired
          ? `unpaired (${end.reason})\n`
          : `stopped (${end.code} ${end.reason})\n`,
    );
    return end.code === CLOSE.refused ? 1 : 0;
  } catch (e) {
    err.write(`error ${isComputerUseError(e) ? e.code : 'error'}: ${(e as Error).message}\n`);
    return isComputerUseError(e) ? 2 : 1;
  }
}
