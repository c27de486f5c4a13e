/**
 * `computer-use doctor --report [--out DIR] [--desktop auto|sandbox|current] [--device adb[:SERIAL]]`: picks this
 * machine's platform (or the phone), its doctor, its own driver and its smoke task, runs the report
 * (report.ts) and prints where the two files are. Exit code 0 when everything passed, 1 otherwise, 2 for usage.
 */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { builtinDriver, type DriverCommand } from '../devices/stdio.js';
import type { DeviceCheck } from './device.js';
import { attachedPhoneSerials, doctorPhone, platformDoctor } from '../drivers/doctors.js';
import { buildReport, writeReport, type ReportCheck, type ReportOptions } from './report.js';
import { androidTask, fakeTasks, linuxTask, macosTask, windowsTask, type SmokeTask } from './smoke-tasks.js';

const USAGE = 'usage: computer-use doctor --report [--out DIR]' +
  ' [--desktop auto|sandbox|current] [--device adb[:SERIAL]]\n';

/** A platform doctor's checks as the report shows them. */
export function reportChecks(checks: readonly DeviceCheck[]): ReportCheck[] {
  return checks.map((c) => ({ name: c.name, status: c.ok ? c.warn ? 'warn' : 'ok' : 'fail', detail: c.detail }));
}

/** The first of `names` on PATH. */
function onPath(names: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  const dirs = (env['PATH'] ?? '').split(delimiter).filter(Boolean);
  return names.find((n) => dirs.some((d) => existsSync(join(d, n))));
}

/** Linux: the doctor on the desktop found or started, the editor and calculator a Debian desktop has. */
/** A report's options, and what stops the desktop started for it. */
type Prepared = { options: Omit<ReportOptions, 'outDir'>; stop?: () => Promise<void> };

async function linuxOptions(desktop: string): Promise<Prepared> {
  const sandbox = await import('../drivers/host.js');
  let env: Record<string, string> | undefined;
  let stop: (() => Promise<void>) | undefined;
  if (desktop === 'sandbox') {
    const info = await sandbox.startSandbox();
    env = sandbox.sandboxEnv(info);
    stop = () => sandbox.stopSandbox(info.display);
  } else if (desktop === 'auto') {
    const found = await sandbox.ensureDesktop();
    env = found.env;
    if (found.started && found.info) { const display = found.info.display; stop = () => sandbox.stopSandbox(display); }
  }
  const search = { ...process.env, ...(env ?? {}) };
  const editor = onPath(['gedit', 'gnome-text-editor', 'mousepad', 'kate', 'xed', 'pluma'], search) ?? 'gedit';
  const calculator = onPath(['galculator', 'gnome-calculator', 'mate-calc', 'kcalc'], search);
  const { runDoctor } = await import('./doctor.js');
  return {
    ...(stop ? { stop } : {}),
    options: {
      platform: 'linux', driver: builtinDriver('linux'), smoke: linuxTask(editor, calculator), ...(env ? { env } : {}),
      // The app diagnosis names windows of the user's apps: only the checks go into a report.
      checks: async () => (await runDoctor(env ? { env } : {})).checks
        .map((c) => ({ name: c.id, status: c.status, detail: c.summary })),
    },
  };
}

/**
 * The options for this machine (or the phone named). A test fake stands in through the same variables the
 * drivers read.
 */
export async function reportOptionsFor(device: string | undefined, desktop: string): Promise<Prepared> {
  if (device !== undefined) {
    const { parseAdbUrl, adbDriver } = await import('../devices/adb.js');
    const serial = parseAdbUrl(device === 'adb' ? 'adb:' : device).serial;
    const driver: DriverCommand = adbDriver(device === 'adb' ? 'adb:' : device);
    // The fake phone behind a test's adb server shows one Settings page and no launcher.
    const fake = process.env['COMPUTER_USE_REPORT_FAKE'] === '1';
    // Every attached phone's serial is shown only as its hash (the doctor's lines name the phone by it).
    const serials = await attachedPhoneSerials();
    return { options: {
      platform: 'android', driver, smoke: fake ? fakeTasks.android : androidTask, privateFacts: { serials },
      checks: async () => reportChecks(await doctorPhone(serial)) } };
  }
  const own = platformDoctor();
  if (own?.platform === 'macos') {
    // The fake AX library (COMPUTER_USE_MACOS_AX_LIB) stands in for a Mac in tests.
    const fake = process.platform !== 'darwin';
    return { options: { platform: 'macos', driver: builtinDriver('macos'), smoke: fake ? fakeTasks.macos : macosTask,
      checks: async () => reportChecks(await own.run()) } };
  }
  if (own?.platform === 'windows') {
    return { options: { platform: 'windows', driver: builtinDriver('windows'), smoke: windowsTask,
      checks: async () => reportChecks(await own.run()) } };
  }
  return linuxOptions(desktop);
}

/** The command. */
export async function runReportCommand(args: readonly string[], out: NodeJS.WritableStream = process.stdout):
  Promise<number> {
  let outDir = '.';
  let desktop = 'auto';
  let device: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--report') continue;
    if (a === '--out') outDir = args[++i] ?? '';
    else if (a.startsWith('--out=')) outDir = a.slice(6);
    else if (a === '--desktop') desktop = args[++i] ?? '';
    else if (a.startsWith('--desktop=')) desktop = a.slice(10);
    else if (a === '--device') device = args[++i];
    else if (a.startsWith('--device=')) device = a.slice(9);
    else if (a === '-h' || a === '--help') { out.write(USAGE); return 0; }
    else { out.write(`doctor --report: unknown argument ${a}\n${USAGE}`); return 2; }
  }
  const badDevice = device !== undefined && device !== 'adb' && !device.startsWith('adb:');
  if (!outDir || !['auto', 'sandbox', 'current'].includes(desktop) || badDevice) {
    out.write(`doctor --report: bad argument\n${USAGE}`);
    return 2;
  }
  out.write('computer-use doctor --report: the doctor checks, the conformance kit, then a short task on this OS\'s ' +
    'own apps ' +
    '(nothing is saved or changed; do not use the keyboard or mouse meanwhile) …\n');
  const { options, stop } = await reportOptionsFor(device, desktop);
  try {
    const report = await buildReport({ ...options, outDir });
    const files = writeReport(report, outDir);
    out.write(`${report.ok ? 'Everything passed.' : 'Something failed: the report says what.'}\n` +
      `Report written:\n  ${files.markdown}\n  ${files.json}\n` +
      'Send it: open an issue on the computer-use repository with the two files attached (read them first).\n');
    return report.ok ? 0 : 1;
  } finally { await stop?.(); }
}
