/**
 * What the driver reads from the phone besides the view tree: its facts (model, API level, screen, density,
 * lock state), the app in the foreground, and the tree itself through `uiautomator dump`. Every read is one shell
 * round trip over the adb server protocol; the outputs are the phone's text and are parsed, never trusted.
 */
import { ComputerUseError } from '../../protocol/errors.js';
import type { AdbClient } from './adb/client.js';
import { shellCommand } from './adb/quote.js';

/** Facts of a phone, for hello and doctor. */
export interface DeviceFacts {
  model: string;
  manufacturer: string;
  /** Android release ("14") and API level (34). */
  release: string;
  apiLevel: number;
  /** Physical pixels, and the override when `wm size` set one. */
  screen: { width: number; height: number };
  density: number;
  locked: boolean;
  /** The foreground app and activity, when one is focused. */
  foreground?: Foreground;
}

/** The app and activity that hold the focus. */
export interface Foreground { packageName: string; activity: string }

const MARK = '__cu_fact__';

/** Reads all facts in one round trip. */
export async function readFacts(client: AdbClient, serial: string): Promise<DeviceFacts> {
  const parts = [
    ['getprop', 'ro.product.model'], ['getprop', 'ro.product.manufacturer'], ['getprop', 'ro.build.version.release'],
    ['getprop', 'ro.build.version.sdk'], ['wm', 'size'], ['wm', 'density'], ['dumpsys', 'window'],
  ];
  const cmd = parts.map((p) => `${shellCommand(p)};echo ${MARK}`).join(';');
  const out = (await client.shell(serial, cmd)).stdout.toString('utf8').split(`${MARK}\n`);
  const at = (i: number): string => (out[i] ?? '').trim();
  const window = out[6] ?? '';
  const facts: DeviceFacts = {
    model: at(0), manufacturer: at(1), release: at(2), apiLevel: Number(at(3)) || 0,
    screen: parseWmSize(at(4)), density: parseWmDensity(at(5)), locked: isLocked(window),
  };
  const fg = parseForeground(window);
  if (fg) facts.foreground = fg;
  return facts;
}

/** `wm size`: "Physical size: 1080x2400" and maybe "Override size: 720x1600" (the override is what apps get). */
export function parseWmSize(text: string): { width: number; height: number } {
  const pick = /Override size:\s*(\d+)x(\d+)/.exec(text) ?? /Physical size:\s*(\d+)x(\d+)/.exec(text);
  return pick ? { width: Number(pick[1]), height: Number(pick[2]) } : { width: 0, height: 0 };
}

/** `wm density`: "Physical density: 420", maybe with an override. */
export function parseWmDensity(text: string): number {
  const pick = /Override density:\s*(\d+)/.exec(text) ?? /Physical density:\s*(\d+)/.exec(text);
  return pick ? Number(pick[1]) : 0;
}

/**
 * The focused app from `dumpsys window`: `mCurrentFocus=Window{… u0 PACKAGE/ACTIVITY}` (the window that has the
 * keys), else `mFocusedApp=ActivityRecord{… u0 PACKAGE/ACTIVITY t12}`. A leading `.` in the activity is relative
 * to the package. Package names are `[A-Za-z0-9_.]`, so anything else in that spot is not a package.
 */
export function parseForeground(dumpsysWindow: string): Foreground | undefined {
  for (const key of ['mCurrentFocus', 'mFocusedApp']) {
    const m = new RegExp(`${key}=\\S*\\{[^}\\n]*?\\s([A-Za-z][\\w.]*)/([\\w.$]+)[\\s}]`).exec(dumpsysWindow);
    if (m) {
      const packageName = m[1]!;
      const activity = m[2]!.startsWith('.') ? packageName + m[2]! : m[2]!;
      return { packageName, activity };
    }
  }
  return undefined;
}

/** Whether the keyguard is showing, by the flags `dumpsys window` prints on Android 5–14. */
export function isLocked(dumpsysWindow: string): boolean {
  return /\b(mShowingLockscreen|mDreamingLockscreen|isStatusBarKeyguard|mKeyguardShowing)=true\b/.test(dumpsysWindow);
}

/** A dump and what it cost. */
export interface DumpResult { xml: string; ms: number; attempts: number }

/** Why a dump can fail for a moment: the screen is animating, or the service is restarting. */
const TRANSIENT = /could not get idle state|null root node|UiAutomationService .* already registered|Killed/i;
/** uiautomator's words when the screen never went idle (it dumps only an idle screen). */
const NOT_IDLE = /could not get idle state/i;

/**
 * A screen that never went idle: an app that animates without pause (a video, a spinner, a live wallpaper) never
 * gives uiautomator the idle moment it waits for, however often it is asked. Said as what it is, with the ways out.
 */
export function neverIdleError(attempts: number, ms: number, said: string): ComputerUseError {
  return new ComputerUseError(
    'timeout',
    `the phone's screen never went idle in ${attempts} tries over ${ms} ms (uiautomator: ${said}): it reads ` +
      'only a screen that stops changing, and the app in front keeps animating (a video, a progress spinner, a live ' +
      'wallpaper). Pause or leave the animation, or turn animations off (Developer options › Animator duration scale › ' +
      'Animation off); the AccessibilityService app (android/service, paired as its own device) reads a screen while it ' +
      'animates. Nothing was sent.',
    { reason: 'not_idle' },
  );
}

/**
 * Dumps the view tree: `uiautomator dump --compressed /dev/tty` over exec (the XML on stdout, no temp file),
 * then without `--compressed` (older images reject it), retrying with backoff while the screen animates. Fails
 * with the device's own words after the last attempt.
 */
export async function dumpUi(
  client: AdbClient,
  serial: string,
  options: { attempts?: number; backoffMs?: number; sleep?: (ms: number) => Promise<void> } = {},
): Promise<DumpResult> {
  const attempts = options.attempts ?? 4;
  const backoff = options.backoffMs ?? 250;
  const sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  const started = Date.now();
  let last = '';
  let compressed = true;
  for (let i = 1; i <= attempts; i++) {
    const argv = compressed ? ['uiautomator', 'dump', '--compressed', '/dev/tty'] : ['uiautomator', 'dump', '/dev/tty'];
    const out = (await client.exec(serial, shellCommand(argv), 20_000)).toString('utf8');
    const end = out.lastIndexOf('</hierarchy>');
    if (out.includes('<hierarchy') && end >= 0)
      return { xml: out.slice(0, end + '</hierarchy>'.length), ms: Date.now() - started, attempts: i };
    if (/<hierarchy[^>]*\/>/.test(out)) return { xml: out, ms: Date.now() - started, attempts: i };
    last = out.trim().split('\n').slice(-3).join(' ').slice(0, 300);
    if (compressed && /unrecognized|unknown option|Usage/i.test(out)) { compressed = false; continue; }
    if (!TRANSIENT.test(out) || i === attempts) {
      if (NOT_IDLE.test(out))
        throw neverIdleError(i, Date.now() - started, out.trim().split('\n').slice(-1)[0]!.slice(0, 200));
      break;
    }
    await sleep(backoff * 2 ** (i - 1));
  }
  throw new Error(`uiautomator could not dump the screen (${last || 'no output'})`);
}
