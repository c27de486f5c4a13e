/**
 * Apps that have windows on the X display but are not on the accessibility bus: without
 * them the app list says nothing runs, and a model starts a second copy. Their windows get handles
 * `x11:<window id>`, which the screenshot/OCR fallback and pointer input accept and tree reads refuse.
 */
import { existsSync } from 'node:fs';
import { procInfo, processAgeMs } from '../../../common/proc.js';
import type { AppInfo, WindowInfo } from '../../../protocol/nodes.js';
import { inaccessibleAdvice } from './advice.js';
import { processFacts } from './process.js';
import { withIdentity } from './identity.js';
import { ATSPI_ROOT_PROPERTY, JAVA_ATK_JAR } from './toolkits.js';
import type { XWindows } from '../x11/windows.js';

/** How long after its start a process with windows may still be registering on the accessibility bus. */
export const REGISTER_GRACE_MS = 5000;

/** The handle prefix of a window known only to the X server. */
export const X11_HANDLE = 'x11:';

/** True for a window handle made by `x11Handle`. */
export function isX11Handle(handle: string): boolean { return handle.startsWith(X11_HANDLE); }

/** The handle of an X window. */
export function x11Handle(xid: number): string { return `${X11_HANDLE}${xid}`; }

/** The X window id of an `x11:` handle, or undefined when malformed. */
export function xidOf(handle: string): number | undefined {
  const n = Number(handle.slice(X11_HANDLE.length));
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/** The X facts of one window, as a WindowInfo (never focused by our reckoning: no AT-SPI state to say). */
export async function x11WindowInfo(xw: XWindows, xid: number, app?: string): Promise<WindowInfo | undefined> {
  const [pid, title, geo] = await Promise.all([xw.pidOf(xid), xw.title(xid), xw.geometry(xid)]);
  if (!geo || !pid) return undefined;
  const w = withIdentity<WindowInfo>({ id: x11Handle(xid), title: title ?? '', app: app ?? commOf(pid), pid, role: 'window', focused: false, bounds: geo.rect }, procInfo(pid));
  const className = await xw.wmClass(xid);
  if (className) w.className = className;
  return w;
}

/**
 * The processes with top-level X windows (`_NET_CLIENT_LIST`) whose pid is not among `registered`, each as an
 * AppInfo with its windows and `inaccessible` = doctor's reason and fix. The driver's own windows are skipped.
 */
export async function inaccessibleApps(xw: XWindows, registered: ReadonlySet<number>, selfPid = process.pid): Promise<AppInfo[]> {
  const clients = await xw.clients();
  const byPid = new Map<number, number[]>();
  for (const c of clients) {
    if (c.pid === undefined || c.pid === selfPid || registered.has(c.pid)) continue;
    // An app maps its window before it registers on the bus: a young one is still registering, not inaccessible
    // (else a window_appears wait returns its X window, which has no tree).
    if ((processAgeMs(c.pid) ?? Infinity) < REGISTER_GRACE_MS) continue;
    byPid.set(c.pid, [...(byPid.get(c.pid) ?? []), c.id]);
  }
  if (byPid.size === 0) return [];
  const rootProp = (await xw.rootString(ATSPI_ROOT_PROPERTY).catch(() => undefined)) !== undefined;
  const jar = existsSync(JAVA_ATK_JAR);
  const apps = await Promise.all([...byPid].map(async ([pid, xids]): Promise<AppInfo | undefined> => {
    const facts = processFacts(pid);
    if (!facts) return undefined; // gone meanwhile, or not ours to read
    const name = facts.comm;
    const windows = (await Promise.all(xids.map((x) => x11WindowInfo(xw, x, name)))).filter((w): w is WindowInfo => w !== undefined);
    const advice = inaccessibleAdvice({ toolkit: facts.toolkit, env: facts.env, javaJarInstalled: jar, atspiRootProperty: rootProp });
    return withIdentity<AppInfo>({ name, pid, id: `x11-app:${pid}`, windows, inaccessible: { reason: advice.reason, ...(advice.fix ? { fix: advice.fix } : {}), remedy: advice.remedy } }, procInfo(pid));
  }));
  return apps.filter((a): a is AppInfo => a !== undefined);
}

function commOf(pid: number): string {
  return processFacts(pid)?.comm ?? String(pid);
}

/**
 * The X windows of a process (`_NET_CLIENT_LIST`): the windows of an app that is registered on the accessibility
 * bus but busy, not answering (claws-mail ran a modal error dialog inside the click that opened it, and answered
 * nothing until it closed). The display still lists them: OCR reads them and a pointer click reaches them.
 */
export async function displayWindowsOf(xw: XWindows, pid: number, app: string): Promise<WindowInfo[]> {
  const ids = (await xw.clients()).filter((c) => c.pid === pid).map((c) => c.id);
  const wins = await Promise.all(ids.map((x) => x11WindowInfo(xw, x, app).catch(() => undefined)));
  return wins.filter((w): w is WindowInfo => w !== undefined);
}
