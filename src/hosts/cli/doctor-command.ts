/**
 * `computer-use doctor [--app NAME] [--json] [--fix]`: runs the checks on the current desktop (or a running
 * sandbox when there is no display) and prints them. Exit code 0 when every required check passed, 1 otherwise.
 * With --fix, the fixes doctor can apply (toolkit accessibility switched off) are asked on the terminal and
 * applied only on a yes; when stdin is no terminal, their commands are printed and nothing is changed.
 */
import { findDesktop } from '../../drivers/host.js';
import { ttyConfirmer } from './policy-commands.js';
import type { DeviceCheck } from '../../doctor/device.js';
import { formatDoctor, runDoctor } from '../../doctor/doctor.js';
import { doctorPhone, platformDoctor } from '../../drivers/doctors.js';

const USAGE =
  'usage: computer-use doctor [--app NAME] [--json] [--fix] | doctor --device NAME|adb[:SERIAL] [--json]\n' +
  '       computer-use doctor --report [--out DIR] [--desktop auto|sandbox|current] [--device adb[:SERIAL]]\n' +
  '       computer-use doctor --conformance --driver "<command>" [--scenarios FILE] [--record FILE] [--json]\n';

/** Writes a list of checks (one line each, or JSON with `head`); exit code 1 when one failed. */
function writeChecks(
  out: NodeJS.WritableStream,
  json: boolean,
  head: Record<string, string>,
  checks: readonly DeviceCheck[],
): number {
  const ok = checks.every((c) => c.ok);
  out.write(
    (json
      ? JSON.stringify({ ...head, ok, checks }, null, 2)
      : checks
          .map(
            (c) =>
              `${c.ok ? (c.warn ? 'warn' : 'ok  ') : 'FAIL'} ${c.name}: ${c.detail}` +
              `${c.fix ? `\n     fix: ${c.fix}` : ''}`,
          )
          .join('\n')) + '\n',
  );
  return ok ? 0 : 1;
}

export async function runDoctorCommand(
  args: readonly string[],
  out: NodeJS.WritableStream = process.stdout,
): Promise<number> {
  if (args.includes('--report')) return (await import('../../doctor/report-command.js')).runReportCommand(args, out);
  if (args.includes('--conformance'))
    return (await import('../../doctor/conformance.js')).runConformanceCommand(args, out);
  let app: string | undefined;
  let json = false;
  let fix = false;
  let device: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--json') json = true;
    else if (a === '--fix') fix = true;
    else if (a === '--app') app = args[++i];
    else if (a === '--device') device = args[++i];
    else if (a.startsWith('--device=')) device = a.slice(9);
    else if (a.startsWith('--app=')) app = a.slice(6);
    else if (a === '-h' || a === '--help') { out.write(USAGE); return 0; }
    else if (!a.startsWith('-') && app === undefined) app = a;
    else { out.write(`doctor: unknown argument ${a}\n${USAGE}`); return 2; }
  }
  if (device !== undefined) {
    const { loadDevices } = await import('../../devices/registry.js');
    const spec = loadDevices().devices.find((d) => d.name === device);
    // `adb` / `adb:SERIAL` is the phone on this machine's adb server, saved or not.
    const phone = spec?.kind === 'adb' ? spec.url : device === 'adb' || device.startsWith('adb:') ? device : undefined;
    if (!spec && phone === undefined) {
      out.write(`doctor: no device named ${device} (computer-use device list; an Android phone: --device adb)\n`);
      return 2;
    }
    let checks;
    if (phone !== undefined) {
      const { parseAdbUrl } = await import('../../devices/adb.js');
      checks = await doctorPhone(parseAdbUrl(phone === 'adb' ? 'adb:' : phone).serial);
    } else checks = await (await import('../../doctor/device.js')).doctorDevice(spec!);
    return writeChecks(out, json, { device }, checks);
  }
  // A Mac or a Windows machine has its own checks (platform.ts).
  const own = platformDoctor();
  if (own) return writeChecks(out, json, { platform: own.platform }, await own.run());
  // The desktop the tools would use; never start one just to diagnose.
  const desktop = await findDesktop().catch(() => null);
  const report = await runDoctor({ ...(app !== undefined ? { app } : {}), ...(desktop ? { env: desktop.env } : {}),
    ...(fix ? { fix: true, confirmer: ttyConfirmer() } : {}) });
  out.write((json ? JSON.stringify(report, null, 2) : formatDoctor(report)) + '\n');
  return report.ok ? 0 : 1;
}
