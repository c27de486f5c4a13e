/**
 * Apps that have windows on the X display but are not on the accessibility bus: without
 * them the app list says nothing runs, and a model starts a second copy. Their windows get handles
 * `x11:<window id>`, which the screenshot/OCR fallback and pointer input accept and tree reads refuse.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { procInfo, processAgeMs } from '../../../common/proc.js';
import type { AppInfo, WindowInfo } from '../../../protocol/nodes.js';
import { inaccessibleAdvice, mayStillRegister } from './advice.js';
import { processFacts, type ProcessFacts } from './process.js';
import { withIdentity } from './identity.js';
import { ATSPI_ROOT_PROPERTY, gtk2ModulesInstalled, JAVA_ATK_JAR } from './toolkits.js';
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
  const w = withIdentity<WindowInfo>(
    {
      id: x11Handle(xid),
      title: title ?? '',
      app: app ?? commOf(pid),
      pid,
      role: 'window',
      focused: false,
      bounds: geo.rect,
    },
    procInfo(pid),
  );
  const className = await xw.wmClass(xid);
  if (className) w.className = className;
  return w;
}

/**
 * The processes with top-level X windows (`_NET_CLIENT_LIST`) whose pid is not among `registered`, each as an
 * AppInfo with its windows and `inaccessible` = doctor's reason and fix. The driver's own windows are skipped.
 */
export async function inaccessibleApps(xw: XWindows, registered: ReadonlySet<number>, selfPid = process.pid,
  factsOf: (pid: number) => ProcessFacts | undefined = processFacts, seen?: { young: boolean }): Promise<AppInfo[]> {
  const clients = await xw.clients();
  const byPid = new Map<number, number[]>();
  for (const c of clients) {
    if (c.pid === undefined || c.pid === selfPid || registered.has(c.pid)) continue;
    // An app maps its window before it registers on the bus: a young one is still registering, not inaccessible
    // (else a window_appears wait returns its X window, which has no tree). One that never registers is listed at
    // once: a launch answers with its window, and the model's next call must find it.
    if ((processAgeMs(c.pid) ?? Infinity) < REGISTER_GRACE_MS && !neverRegisters(c.pid, factsOf)) {
      if (seen) seen.young = true; // listed once its grace ends, with no event to say so
      continue;
    }
    byPid.set(c.pid, [...(byPid.get(c.pid) ?? []), c.id]);
  }
  if (byPid.size === 0) return [];
  const machine = await machineFacts(xw);
  const apps = await Promise.all([...byPid].map(([pid, xids]) => offBusApp(xw, pid, xids, machine, factsOf)));
  return apps.flatMap((a) => (a ? [a.app] : []));
}

/** Whether the process's facts say it will never be on the bus (advice.ts `mayStillRegister`). */
function neverRegisters(pid: number, factsOf: (pid: number) => ProcessFacts | undefined): boolean {
  const facts = factsOf(pid);
  return facts !== undefined && !mayStillRegister(facts);
}

/**
 * Whether the process has child processes running: those of any of its threads (`/proc/<pid>/task/<tid>/children`;
 * LibreOffice's oosplash starts soffice.bin from a worker thread, so its main thread lists none); false when
 * unreadable.
 */
export function startedOthers(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/task`).some((tid) => {
      try { return readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim() !== ''; } catch { return false; }
    });
  } catch {
    return false;
  }
}

/** The machine facts the advice needs, read once per listing. */
interface MachineFacts { rootProp: boolean; jar: boolean; gtk2: boolean }

async function machineFacts(xw: XWindows): Promise<MachineFacts> {
  const rootProp = (await xw.rootString(ATSPI_ROOT_PROPERTY).catch(() => undefined)) !== undefined;
  return { rootProp, jar: existsSync(JAVA_ATK_JAR), gtk2: gtk2ModulesInstalled() };
}

/** An app off the bus with its windows and advice, and whether it may still register (advice.ts). */
interface OffBusApp {
  app: AppInfo;
  mayRegister: boolean;
  /** Its process started others that still run: a launcher's splash, answered only when nothing else came. */
  launcher?: boolean;
}

/** One process's X windows as an app off the bus, or undefined when it is gone or not ours to read. */
async function offBusApp(xw: XWindows, pid: number, xids: number[], m: MachineFacts,
  factsOf: (pid: number) => ProcessFacts | undefined = processFacts): Promise<OffBusApp | undefined> {
  const facts = factsOf(pid);
  if (!facts) return undefined;
  const name = facts.comm;
  const windows = (await Promise.all(xids.map((x) => x11WindowInfo(xw, x, name))))
    .filter((w): w is WindowInfo => w !== undefined);
  const advice = inaccessibleAdvice({ toolkit: facts.toolkit, env: facts.env, javaJarInstalled: m.jar,
    gtk2ModulesInstalled: m.gtk2, atspiRootProperty: m.rootProp });
  const inaccessible = { reason: advice.reason, ...(advice.fix ? { fix: advice.fix } : {}), remedy: advice.remedy };
  const app = withIdentity<AppInfo>({ name, pid, id: `x11-app:${pid}`, windows, inaccessible }, procInfo(pid));
  return { app, mayRegister: mayStillRegister(facts) };
}

/**
 * The app a launch started that shows X windows but is not on the bus (`ours`: the launched process or one under
 * it), however young: a launch answers with such a window instead of waiting for a tree (it says whether the app
 * may still register, so the launch waits a short grace for those only).
 */
export async function launchedOffBus(xw: XWindows, ours: (pid: number) => boolean,
  registered: ReadonlySet<number>): Promise<OffBusApp | undefined> {
  const byPid = new Map<number, number[]>();
  for (const c of await xw.clients()) {
    if (c.pid === undefined || registered.has(c.pid) || !ours(c.pid)) continue;
    byPid.set(c.pid, [...(byPid.get(c.pid) ?? []), c.id]);
  }
  if (byPid.size === 0) return undefined;
  const machine = await machineFacts(xw);
  for (const [pid, xids] of byPid) {
    const off = await offBusApp(xw, pid, xids, machine);
    // A launcher that started the app shows a splash off the bus (LibreOffice's oosplash draws it with Xlib) while
    // the app it started registers: its window is answered only after the grace, like one that may register.
    if (off && off.app.windows.length) return { ...off, launcher: startedOthers(pid) };
  }
  return undefined;
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
