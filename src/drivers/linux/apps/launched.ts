/**
 * Processes a launch started that show no window anywhere, so the app list never makes them invisible. In a trial
 * Chromium waited, windowless, for a keyring prompt the model could not see, and `apps` did not list it: the model
 * could neither tell it was running nor why. A launch puts LAUNCH_MARKER in the app's environment (inherited by what
 * it starts, and read back from /proc whatever driver process started it: each CLI call has its own); a marked
 * process whose parent is not marked is where a launch began. The marker only makes a process listed: it grants
 * nothing, and the policy judges each listed app by its proven facts as ever.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { procInfo, processAgeMs } from '../../../common/proc.js';
import type { AppInfo } from '../../../protocol/nodes.js';
import { withIdentity } from './identity.js';

/** The variable a launch sets in the started app's environment. */
export const LAUNCH_MARKER = 'COMPUTER_USE_LAUNCHED';

/**
 * The marker's value: the desktop the launch went to (its X display, else its Wayland display), so the app list of
 * one desktop never lists another desktop's launches (two sandboxes on one machine each listed the other's).
 */
export function launchMark(env: NodeJS.ProcessEnv = process.env): string {
  return `desktop ${env['DISPLAY'] ?? env['WAYLAND_DISPLAY'] ?? 'none'}`;
}
/** Most parent links followed from a listed process up to where its launch began. */
const MAX_DEPTH = 16;

/**
 * The launches still running of which no process is among `listed` (the pids that show a window or are on the
 * accessibility bus), each as an app with no windows and `windowless.ageMs`.
 */
export function windowlessLaunches(listed: ReadonlySet<number>, env: NodeJS.ProcessEnv = process.env): AppInfo[] {
  const mark = `${LAUNCH_MARKER}=${launchMark(env)}`;
  const parentOf = new Map<number, number>();
  let pids: number[] = [];
  try { pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number); } catch { return []; }
  for (const pid of pids) {
    if (pid === process.pid || !marked(pid, mark)) continue;
    parentOf.set(pid, procInfo(pid)?.ppid ?? 0);
  }
  const roots = [...parentOf].filter(([, ppid]) => !parentOf.has(ppid)).map(([pid]) => pid);
  // A launch whose process or any process under it is listed shows up already (oosplash → soffice.bin).
  const shown = new Set<number>();
  for (const pid of listed) {
    let p: number | undefined = pid;
    for (let i = 0; p !== undefined && parentOf.has(p) && i < MAX_DEPTH; i++) {
      if (!parentOf.has(parentOf.get(p)!)) { shown.add(p); break; }
      p = parentOf.get(p);
    }
  }
  return roots.filter((pid) => !shown.has(pid)).flatMap((pid) => {
    const info = procInfo(pid);
    if (!info) return [];
    const name = comm(pid) ?? String(pid);
    const windowless = { ageMs: Math.round(processAgeMs(pid) ?? 0) };
    return [withIdentity<AppInfo>({ name, pid, id: `launched:${pid}`, windows: [], windowless }, info)];
  });
}

/** Whether the process's environment carries the launch marker (readable only for the driver's own user's processes). */
function marked(pid: number, mark: string): boolean {
  try { return `\0${readFileSync(`/proc/${pid}/environ`, 'latin1')}`.includes(`\0${mark}\0`); } catch { return false; }
}

function comm(pid: number): string | undefined {
  try { return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() || undefined; } catch { return undefined; }
}
