/**
 * The launch step: the device's driver resolves what a command will run (the policy decides from those facts),
 * the program starts through the acting pipeline, what really started is proven again, and a denied program is
 * ended by the device's driver, never by this host (its pid is the device's). The tool only words the outcome.
 */
import type { LaunchFacts } from '../policy/apps.js';
import { checkLaunched } from '../policy/launched.js';
import { escapeLine } from '../engine/escape.js';
import { ComputerUseError, isComputerUseError } from '../protocol/errors.js';
import type { LaunchResult, SnapshotResult } from '../protocol/methods.js';
import type { WindowInfo } from '../protocol/nodes.js';
import { FIRST_LAYOUT, readUntilStable } from './effects.js';
import { identifyOn } from './identify.js';
import { perform, type PipelineContext } from './pipeline.js';
import type { Snapshot } from '../engine/snapshot.js';
import { masked, type Session } from './session.js';
import { launchStep } from './steps.js';

/** What a launch did: the driver's resolution, its result, and the launched window's first laid-out snapshot. */
export interface Launched {
  launch: LaunchFacts | undefined;
  result: LaunchResult;
  settled: ReturnType<Session['snapshotOf']> | undefined;
  /** Windows of the app that opened while its first window was laid out (LibreOffice's Tip of the Day dialog). */
  later: LaterWindow[];
  /** The window came, but its app stayed busy (not answering) through the wait for its first layout. */
  busy?: boolean;
}

/** A window the launched app opened beside its first one; the one that holds the focus comes with its print. */
export interface LaterWindow { window: WindowInfo; snapshot?: Snapshot }

/** Starts `command args` on the session's device and reads its first window (waiting up to `waitMs` for one). */
export async function launchApp(
  session: Session,
  ctx: PipelineContext,
  command: string,
  args: string[],
  waitMs: number,
): Promise<Launched> {
  const argv = [command, ...args];
  // What will run, resolved by the device's driver where it runs; the policy decides from these facts.
  const launch = await resolveOn(session, command, args);
  let busy = false;
  const { result, settled } = await perform(session, ctx, {
    request: launchStep(argv, launch),
    dispatch: async (d) => {
      const r = await d.call('apps.launch', { command, args, waitForWindowMs: waitMs }, waitMs + 10000);
      // Defense in depth: what really started is checked again; a denied program is ended at once, by the
      // device's driver (the pid is the device's: on this machine it may be any other process).
      const facts = await identifyOn(d.call.bind(d), r.pid);
      const denied = checkLaunched(session.gate, r.window ?? { app: command, pid: r.pid, title: '' }, facts);
      if (denied) {
        const token = r.startToken ?? r.window?.startToken ?? facts?.startToken;
        // A driver that cannot end it (no apps.terminate, or it failed) leaves it running: it stays unseen.
        const ended = await d.call('apps.terminate', { pid: r.pid, ...(token ? { startToken: token } : {}) }).then(
          (x) => x.ended,
          () => false,
        );
        const where =
          session.device.name === 'local' ? `pid ${r.pid}` : `on device ${session.device.name}, pid ${r.pid} there`;
        throw new ComputerUseError(
          'denied_by_policy',
          `The started program turned out to be one computer-use may not act on: ${denied}. ` +
            (ended
              ? `It was ended (${where}). `
              : `It was not ended (${where}): it had already exited, or the device's driver could not end it; ` +
                'it is unseen and untouchable. ') +
            'Ask the user to close it and do this step themselves.',
        );
      }
      // The process the launch became (proven by the driver from its parent chain): the launch's entry covers it.
      if (r.window && r.startedHere === true && facts?.startToken !== undefined && facts.gone !== true) {
        session.noteLaunched({ pid: r.pid, startToken: facts.startToken }, argv, launch);
      }
      return r;
    },
    // The launched window once its first layout is done: what the model sees first.
    // A window off the accessibility bus has no tree to read: the tool says how to read it instead.
    settle: async (r) => {
      if (!r.window || r.inaccessible) return undefined;
      // An app busy while it starts (Thunar loading a folder of 3,000 files) launched fine: no snapshot yet.
      const laid = await firstLayout(session, r.pid, r.window).catch((e: unknown) => {
        if (isComputerUseError(e, 'timeout')) { busy = true; return undefined; }
        throw e;
      });
      return laid ? session.snapshotOf(laid) : undefined;
    },
    receipt: (r) => (r.window
      ? { status: 'confirmed', detail: `pid ${r.pid}; a window appeared${r.inaccessible ? ' (no tree)' : ''}` }
      : r.exited ? { status: 'failed', detail: `pid ${r.pid}; exited ${exitText(r.exited)} before any window appeared` }
        : { status: 'unknown', detail: `pid ${r.pid}; no window yet` }),
  });
  const later = settled ? await laterWindows(session, settled.full.window) : [];
  return { launch, result, settled, later, ...(busy ? { busy } : {}) };
}

/**
 * The other windows of the launched window's process once that window is laid out: an app that opens a dialog
 * just after its main window (LibreOffice's Tip of the Day, a crash-recovery question) takes the focus there, and
 * the model learnt of it one call later, when its keys had gone to the dialog. The focused one is read and printed
 * whole (the model's next step is in it); other dialogs are named.
 */
async function laterWindows(session: Session, first: WindowInfo): Promise<LaterWindow[]> {
  const listed: WindowInfo[] = await session.device.call('windows.list', { pid: first.pid }).then(
    (r) => r.windows,
    () => [],
  );
  // Dialogs and the window that took the focus: Chromium keeps helper windows of its own title beside the page's.
  const others = listed.map((w) => masked(w)).filter((w) => w.id !== first.id && !session.hidden(w)
    && (w.focused || w.role === 'dialog' || w.role === 'alert'));
  const out: LaterWindow[] = [];
  for (const w of others) {
    session.windows.refOf(w);
    if (!w.focused) { out.push({ window: w }); continue; }
    const raw = await readUntilStable(() => session.readWindow(w), FIRST_LAYOUT).then((r) => r.last, () => undefined);
    const snapshot = raw ? session.snapshotOf(raw).full : undefined;
    if (snapshot) session.notePrinted(snapshot);
    out.push({ window: raw?.window ?? w, ...(snapshot ? { snapshot } : {}) });
  }
  return out;
}

/** How long a launch waits for the window that replaces a first window that closed (a splash screen's), or for a busy app. */
const REPLACED_WAIT_MS = 10_000;
/** The pause before a busy app is asked again for its window's tree. */
const BUSY_RETRY_MS = 300;

/**
 * The first window's tree once laid out. A first window that closes while it is read (a splash screen giving way
 * to the app's window) is followed to the window of the same process that replaced it: the launch worked, and
 * answering "window_not_found: The element is gone" made it read as failed.
 */
async function firstLayout(session: Session, pid: number, first: WindowInfo): Promise<SnapshotResult> {
  let window = first;
  const deadline = performance.now() + REPLACED_WAIT_MS;
  for (;;) {
    try {
      return (await readUntilStable(() => session.readWindow(window), FIRST_LAYOUT)).last;
    } catch (e) {
      // A busy app (not answering while it starts) is asked again until the deadline.
      if (isComputerUseError(e, 'timeout') && performance.now() < deadline) {
        await new Promise((r) => setTimeout(r, BUSY_RETRY_MS));
        continue;
      }
      const closed = isComputerUseError(e, 'window_not_found') || isComputerUseError(e, 'stale_ref');
      if (!closed || performance.now() > deadline) throw e;
      const next = await nextWindowOf(session, pid, window.id, deadline);
      if (!next) throw e;
      window = next;
    }
  }
}

/** A window of `pid` other than `gone` (the focused one first), waiting for one until the deadline. */
async function nextWindowOf(
  session: Session,
  pid: number,
  gone: string,
  deadline: number,
): Promise<WindowInfo | undefined> {
  while (performance.now() < deadline) {
    const { windows } = await session.device
      .call('windows.list', { pid })
      .catch(() => ({ windows: [] as WindowInfo[] }));
    const others = windows.filter((w) => w.id !== gone);
    const next = others.find((w) => w.focused) ?? others[others.length - 1];
    if (next) return next;
    await new Promise((r) => setTimeout(r, 200));
  }
  return undefined;
}

/** "with code 2" / "on signal SIGTERM". */
export function exitText(e: NonNullable<LaunchResult['exited']>): string {
  return e.signal ? `on signal ${escapeLine(e.signal)}` : `with code ${e.code ?? 'unknown'}`;
}

/** The driver's resolution of a launch; undefined from a driver that does not implement it (names only then). */
async function resolveOn(session: Session, command: string, args: string[]): Promise<LaunchFacts | undefined> {
  try {
    return await session.device.call('apps.resolveLaunch', { command, args });
  } catch (e) {
    if (isComputerUseError(e) && e.code === 'unsupported') return undefined;
    throw e;
  }
}
