/**
 * `computer-use doctor` per platform, each platform's checks in its own folder: each desktop OS other than Linux
 * puts its checks behind one interface, and the command picks the one that applies here; a phone is checked over
 * adb. Linux keeps its richer report (linux/checkup/report.ts: the app diagnosis, fixes applied after a
 * confirmation), which reads the driver through the protocol (src/doctor/doctor.ts gives it the host's device).
 * The others answer a list of checks, each with its fix.
 */
import type { DeviceCheck } from './common/checks.js';

export {
  CHROMIUM_REREAD_MS,
  diagnoseApp,
  formatDoctor,
  runDoctor as runLinuxDoctor,
  TINY_TREE,
  type AppDiagnosis,
  type CheckStatus,
  type DoctorCheck,
  type DoctorOptions as LinuxDoctorOptions,
  type DoctorReport,
  type DriverLink,
  type RemedyWords,
} from './linux/checkup/report.js';
export type { DoctorFix, FixConfirmer, FixOutcome } from './linux/checkup/fix.js';

/** The doctor of one platform. */
export interface PlatformDoctor {
  /** The platform's name in the report ("macos", "windows"). */
  readonly platform: string;
  /** Whether this machine is that platform (or a test stands in for it). */
  applies(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): boolean;
  /** Runs the checks in the order a user fixes them. */
  run(): Promise<DeviceCheck[]>;
}

/** The doctors of the platforms that are not Linux, first match wins. */
export const PLATFORM_DOCTORS: readonly PlatformDoctor[] = [
  {
    platform: 'macos',
    // The fake AX library stands in for a Mac in tests.
    applies: (env, platform) => platform === 'darwin' || Boolean(env['COMPUTER_USE_MACOS_AX_LIB']),
    run: async () => (await import('./macos/doctor.js')).doctorMac(),
  },
  {
    platform: 'windows',
    applies: (_env, platform) => platform === 'win32',
    run: async () => (await import('./windows/doctor.js')).doctorWindows(),
  },
];

/** The doctor for this machine, or undefined on Linux (doctor.ts). */
export function platformDoctor(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): PlatformDoctor | undefined {
  return PLATFORM_DOCTORS.find((d) => d.applies(env, platform));
}

/** The checks of the Android phone with adb serial `serial` (the only one attached, when undefined). */
export async function doctorPhone(serial: string | undefined): Promise<DeviceCheck[]> {
  return (await import('./android/doctor.js')).doctorPhone(serial);
}

/** The serials of the phones adb lists (none when there is no adb server): a report shows them only hashed. */
export async function attachedPhoneSerials(): Promise<string[]> {
  const { AdbClient } = await import('./android/adb/client.js');
  return (await new AdbClient().devices().catch(() => [])).map((d) => d.serial);
}
