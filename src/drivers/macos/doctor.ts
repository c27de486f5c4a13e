/**
 * `computer-use doctor` on a Mac: the accessibility permission (read with AXIsProcessTrustedWithOptions(NULL),
 * so the system prompt never appears), which app must be granted, and whether apps and windows can be read.
 * Screen Recording (CGPreflightScreenCaptureAccess, no prompt either) is needed only for screen.capture, the image
 * mode of computer_screenshot: without it the check passes with a warning that says where to grant it.
 */
import { SCREEN_RECORDING_FIX } from './capture.js';
import { ACCESSIBILITY_FIX, responsibleApp } from './cf.js';
import { MacDriver, type MacDriverOptions } from './driver.js';
import type { DeviceCheck } from '../common/checks.js';

/** Runs the checks in the order a user fixes them; the app list is skipped while the permission is missing. */
export function doctorMac(options: MacDriverOptions = {}): DeviceCheck[] {
  const checks: DeviceCheck[] = [];
  let driver: MacDriver;
  try { driver = new MacDriver(options); } catch (e) {
    checks.push({
      name: 'accessibility API',
      ok: false,
      detail: `the frameworks could not be bound: ${(e as Error).message}`,
      fix: 'run computer-use on macOS 12 or later with Node 20+',
    });
    return checks;
  }
  try {
    if (!driver.trusted()) {
      checks.push({
        name: 'accessibility',
        ok: false,
        detail: `macOS does not trust ${responsibleApp()} for accessibility (asked without the system prompt)`,
        fix:
          `open ${ACCESSIBILITY_FIX}, turn it on for ${responsibleApp()} (add it with + if it is not ` +
          `listed), then restart it`,
      });
      return checks;
    }
    checks.push({ name: 'accessibility', ok: true, detail: `${responsibleApp()} is trusted for accessibility` });
    const apps = driver.apps();
    const windows = apps.reduce((n, a) => n + a.windows.length, 0);
    const busy = apps.filter((a) => a.busy).map((a) => a.name);
    checks.push({
      name: 'apps',
      ok: true,
      detail:
        `${apps.length} app${apps.length === 1 ? '' : 's'} with ${windows} window${windows === 1 ? '' : 's'}` +
        `${busy.length ? `; not answering: ${busy.join(', ')}` : ''}`,
    });
    checks.push(
      driver.api.CGPreflightScreenCaptureAccess() !== 0
        ? {
            name: 'screen recording',
            ok: true,
            detail:
              `${responsibleApp()} may record the screen (only screen.capture, the screenshot image mode, ` +
              `uses it)`,
          }
        : {
            name: 'screen recording',
            ok: true,
            warn: true,
            detail: 'not granted: everything but screenshots in image mode works without it',
            fix:
              `for image screenshots, open ${SCREEN_RECORDING_FIX}, turn it on for ${responsibleApp()}, then ` +
              `restart it`,
          },
    );
  } catch (e) {
    checks.push({ name: 'apps', ok: false, detail: (e as Error).message });
  } finally { driver.close(); }
  return checks;
}
