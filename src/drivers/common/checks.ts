/** What a platform's doctor reports, the same for every platform and for a remote device. */

/** One check of a device. */
export interface DeviceCheck {
  name: string;
  ok: boolean;
  detail: string;
  fix?: string;
  /** Passed, but with something the user should know (an elevated app computer-use cannot reach). */
  warn?: boolean;
}
