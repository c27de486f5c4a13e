/**
 * `computer-use doctor` on Linux, from the host's side: the report is the Linux platform's
 * (drivers/linux/checkup/report.ts, through drivers/doctors.ts); the host gives it the driver through the protocol
 * (a Device), its words for remedies (the names of its tools), and who confirms a fix.
 */
import { Device } from '../devices/manager.js';
import type { AppInfo } from '../engine/node.js';
import {
  diagnoseApp as diagnose,
  runLinuxDoctor,
  type AppDiagnosis,
  type DoctorReport,
  type DriverLink,
  type FixConfirmer,
} from '../drivers/doctors.js';
import { remedyAdvice } from '../tools/remedy.js';

export { CHROMIUM_REREAD_MS, formatDoctor, TINY_TREE } from '../drivers/doctors.js';
export type {
  AppDiagnosis,
  CheckStatus,
  DoctorCheck,
  DoctorFix,
  DoctorReport,
  FixOutcome,
} from '../drivers/doctors.js';

/** Options of `runDoctor`. */
export interface DoctorOptions {
  /** Diagnose this app (name as on the accessibility bus or process name); default the focused app. */
  app?: string;
  /** Environment of the desktop (DISPLAY, DBUS_SESSION_BUS_ADDRESS, …); default the process's. */
  env?: Record<string, string>;
  /** A device to use instead of starting the Linux driver (tests). */
  device?: Device;
  /**
   * Apply the fixes doctor offers, each only after `confirmer` got a yes; without an interactive confirmer
   * nothing is changed and the outcome says so.
   */
  fix?: boolean;
  /** Who confirms a fix (the CLI's TTY prompt, an MCP/pi host's dialog). */
  confirmer?: FixConfirmer;
}

/** Runs every check, with the Linux driver started here unless `opts.device` is given. */
export async function runDoctor(opts: DoctorOptions = {}): Promise<DoctorReport> {
  const device = opts.device ?? new Device({ platform: 'linux', env: opts.env ?? {}, timeoutMs: 10_000 });
  const report = await runLinuxDoctor({ ...opts, device, remedyWords: remedyAdvice });
  if (!opts.device) await device.close();
  return report;
}

/** Why an app's tree is empty (or that it is not), with the host's words for remedies. */
export function diagnoseApp(
  device: DriverLink,
  apps: AppInfo[],
  name: string | undefined,
  busUp: boolean,
  rootProperty?: boolean,
): Promise<AppDiagnosis> {
  return diagnose(device, apps, name, busUp, rootProperty, remedyAdvice);
}
