/**
 * Applications and windows from the AT-SPI registry, with the process identity the platform proves
 * (pid from the bus daemon, start time from /proc against pid reuse).
 */
import { readFileSync, readlinkSync } from 'node:fs';
import type { AppInfo, WindowInfo } from '../../engine/node.js';
import { roleFromAtspi } from '../../engine/role.js';
import { ATSPI_ROLES } from './atspi-constants.generated.js';
import type { A11yBus, Target } from './bus.js';
import { decodeStates, handleOf } from './reader.js';

const ACC = 'org.a11y.atspi.Accessible';
const REGISTRY_ROOT: Target = { dest: 'org.a11y.atspi.Registry', path: '/org/a11y/atspi/accessible/root' };

/** Process start time in clock ticks since boot (field 22 of /proc/pid/stat), or undefined. */
export function processStartTime(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[19]);
  } catch { return undefined; }
}

/** Executable path of a process, when readable. */
export function processExecutable(pid: number): string | undefined {
  try { return readlinkSync(`/proc/${pid}/exe`); } catch { return undefined; }
}

/** Lists the applications registered on the accessibility bus. */
export async function listApps(bus: A11yBus, withWindows = true): Promise<AppInfo[]> {
  const [kids] = await bus.call(REGISTRY_ROOT, ACC, 'GetChildren');
  const roots = (kids as [string, string][]).map(([dest, path]) => ({ dest, path }));
  const apps = await Promise.all(roots.map(async (t): Promise<AppInfo | null> => {
    try {
      const [name, pid] = await Promise.all([bus.getProp(t, ACC, 'Name', 1500), bus.pidOf(t.dest)]);
      const app: AppInfo = { name: String(name ?? ''), pid, id: handleOf(t), windows: [] };
      const exe = processExecutable(pid);
      if (exe) app.executable = exe;
      if (withWindows) app.windows = await listWindowsOf(bus, t, app.name, pid);
      return app;
    } catch { return null; /* an app that exits while listed is simply not there */ }
  }));
  return apps.filter((a): a is AppInfo => a !== null);
}

/** Top-level windows of one application root. */
export async function listWindowsOf(bus: A11yBus, appRoot: Target, appName: string, pid: number): Promise<WindowInfo[]> {
  const [kids] = await bus.call(appRoot, ACC, 'GetChildren', '', [], 1500);
  const startTime = processStartTime(pid);
  const wins = await Promise.all((kids as [string, string][]).map(async ([dest, path]): Promise<WindowInfo | null> => {
    const t = { dest, path };
    try {
      const [role, name, states, ext] = await Promise.all([
        bus.call(t, ACC, 'GetRole', '', [], 1500), bus.getProp(t, ACC, 'Name', 1500), bus.call(t, ACC, 'GetState', '', [], 1500),
        bus.call(t, 'org.a11y.atspi.Component', 'GetExtents', 'u', [0], 1500).catch(() => [[0, 0, 0, 0]]),
      ]);
      const st = decodeStates(states[0] as number[]);
      // Closed windows linger in some toolkits' trees; only windows that are showing count.
      if (!st.has('showing') && !st.has('visible')) return null;
      const win: WindowInfo = {
        id: handleOf(t), title: String(name ?? ''), app: appName, pid,
        role: roleFromAtspi(ATSPI_ROLES[Number(role[0])] ?? 'unknown'), focused: st.has('active'),
      };
      if (startTime !== undefined) win.startTime = startTime;
      const [x, y, w, h] = ext[0] as number[];
      if (w && h) win.bounds = [x ?? 0, y ?? 0, w, h];
      return win;
    } catch { return null; }
  }));
  return wins.filter((w): w is WindowInfo => w !== null);
}
