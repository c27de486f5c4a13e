/**
 * A phone reached through this machine's adb server: `adb:` (the only one attached) or `adb:SERIAL`. The driver
 * is a local process (`computer-use driver android`) that talks to the adb server's socket; the phone itself
 * needs nothing installed.
 */
import { ComputerUseError } from '../protocol/errors.js';
import { builtinDriver, type DriverCommand } from './stdio.js';

/** adb serials: USB serials, `emulator-5554`, `host:port` for network devices. */
const SERIAL = /^[A-Za-z0-9._:-]{1,64}$/;

/** The serial an `adb:` url names (undefined: the only device attached). */
export function parseAdbUrl(url: string): { serial?: string } {
  const m = /^adb:(?:\/\/)?(.*)$/.exec(url);
  if (!m)
    throw new ComputerUseError(
      'invalid_params',
      `${JSON.stringify(url.slice(0, 80))} is not an adb device (adb: or adb:SERIAL)`,
    );
  const serial = m[1] ?? '';
  if (serial === '') return {};
  if (!SERIAL.test(serial))
    throw new ComputerUseError(
      'invalid_params',
      'an adb serial has letters, digits, ".", ":", "_" and "-" only (see `adb devices`)',
    );
  return { serial };
}

/** The `adb:` url of a serial. */
export const formatAdbUrl = (serial?: string): string => (serial ? `adb:${serial}` : 'adb:');

/** The local driver process of a phone. */
export function adbDriver(url: string): DriverCommand {
  const { serial } = parseAdbUrl(url);
  const base = builtinDriver('android');
  return { ...base, args: [...base.args, ...(serial ? ['--serial', serial] : [])] };
}
