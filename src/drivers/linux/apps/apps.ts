/**
 * Applications and windows from the AT-SPI registry, with the process identity the platform proves
 * (pid from the bus daemon; appId, start token, user and copies from /proc, see identity.ts).
 */
import { procInfo, type ProcessInfo } from '../../../common/proc.js';
import type { AppInfo, WindowInfo } from '../../../protocol/nodes.js';
import { LIMITS } from '../../../protocol/methods.js';
import { withIdentity } from './identity.js';
import { roleFromAtspi } from '../tree/roles.js';
import { ATSPI_ROLES } from '../bus/atspi-constants.generated.js';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { A11yBus, Target } from '../bus/bus.js';
import { isGone } from '../bus/bus.js';
import { decodeStates, handleOf } from '../tree/reader.js';

const ACC = 'org.a11y.atspi.Accessible';
const REGISTRY_ROOT: Target = { dest: 'org.a11y.atspi.Registry', path: '/org/a11y/atspi/accessible/root' };

/**
 * Lists the applications registered on the accessibility bus. `tops`, when given, collects the handles of every app
 * root and every top-level object (showing or not): the objects whose events may change the list (kept-window-list.ts).
 */
export async function listApps(bus: A11yBus, withWindows = true, tops?: Set<string>): Promise<AppInfo[]> {
  const [kids] = await bus.call(REGISTRY_ROOT, ACC, 'GetChildren');
  const roots = (kids as [string, string][]).map(([dest, path]) => ({ dest, path }));
  const apps = await Promise.all(roots.map(async (t): Promise<AppInfo | null> => {
    try {
      const [name, pid] = await Promise.all([bus.getProp(t, ACC, 'Name', 1500), bus.pidOf(t.dest)]);
      const app = withIdentity<AppInfo>(
        { name: String(name ?? '').slice(0, LIMITS.id), pid, id: handleOf(t), windows: [] },
        procInfo(pid),
      );
      tops?.add(handleOf(t));
      if (withWindows) app.windows = await listWindowsOf(bus, t, app.name, pid, tops);
      return app;
    } catch (e) {
      // Registered but not answering: listed as busy, not dropped (it has not gone away, it is stuck).
      if (!isGone(e) && (bus.isBusy(t.dest) || (e as { code?: string }).code === 'timeout')) {
        const pid = await bus.pidOf(t.dest);
        const proc = procInfo(pid);
        if (pid > 0 && proc)
          return withIdentity<AppInfo>(
            {
              name: commOf(pid) ?? basename(proc.executable ?? '') ?? '',
              pid,
              id: handleOf(t),
              windows: [],
              busy: true,
            },
            proc,
          );
      }
      return null; /* an app that exits while listed is simply not there */
    }
  }));
  return apps.filter((a): a is AppInfo => a !== null);
}

/** Top-level windows of one application root. */
export async function listWindowsOf(
  bus: A11yBus,
  appRoot: Target,
  appName: string,
  pid: number,
  tops?: Set<string>,
): Promise<WindowInfo[]> {
  const [kids] = await bus.call(appRoot, ACC, 'GetChildren', '', [], 1500);
  for (const [dest, path] of kids as [string, string][]) tops?.add(dest + path);
  const info = procInfo(pid);
  const wins = await Promise.all((kids as [string, string][]).map(async ([dest, path]): Promise<WindowInfo | null> => {
    const t = { dest, path };
    try {
      const [role, name, states, ext] = await Promise.all([
        bus.call(t, ACC, 'GetRole', '', [], 1500),
        bus.getProp(t, ACC, 'Name', 1500),
        bus.call(t, ACC, 'GetState', '', [], 1500),
        bus.call(t, 'org.a11y.atspi.Component', 'GetExtents', 'u', [0], 1500).catch(() => [[0, 0, 0, 0]]),
      ]);
      const st = decodeStates(states[0] as number[]);
      // Closed windows linger in some toolkits' trees; only windows that are showing count.
      if (!st.has('showing') && !st.has('visible')) return null;
      const win = withIdentity<WindowInfo>({
        id: handleOf(t), title: String(name ?? '').slice(0, LIMITS.text), app: appName, pid,
        role: roleFromAtspi(ATSPI_ROLES[Number(role[0])] ?? 'unknown'), focused: st.has('active'),
      }, info);
      const [x, y, w, h] = ext[0] as number[];
      if (w && h) win.bounds = [x ?? 0, y ?? 0, w, h];
      return win;
    } catch { return null; }
  }));
  return wins.filter((w): w is WindowInfo => w !== null);
}

/** The process name the kernel knows (/proc/<pid>/comm), for an app that cannot tell its own name. */
function commOf(pid: number): string | undefined {
  try { return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() || undefined; } catch { return undefined; }
}
