import { Type } from '@sinclair/typebox';
import { escapeLine, jsonQuote, nameText, quoteText } from '../engine/escape.js';
import type { AppInfo } from '../engine/node.js';
import { redactText } from '../engine/redact.js';
import { identityView } from '../policy/gate.js';
import type { LaunchFacts } from '../policy/apps.js';
import { checkLaunched } from '../policy/launched.js';
import { ComputerUseError, isComputerUseError } from '../protocol/errors.js';
import type { LaunchResult } from '../protocol/methods.js';
import { FIRST_LAYOUT, readUntilStable } from '../session/effects.js';
import { identifyOn } from '../session/identify.js';
import { perform } from '../session/pipeline.js';
import { launchStep } from '../session/steps.js';
import type { Session } from '../session/session.js';
import { CAPS, defineTool, DEVICE, PROP_UNLISTED, STRICT } from './tool.js';

export const launchTool = defineTool({
  schema: {
    name: 'computer_launch',
    title: 'Launch an app',
    description: 'Start an app (args: files, URLs) and snapshot its window.',
    inputSchema: Type.Object({
      device: DEVICE,
      command: Type.String({ minLength: 1, maxLength: CAPS.arg }),
      args: Type.Optional(Type.Array(Type.String({ maxLength: CAPS.arg }), { maxItems: 64 })),
      waitMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 60000, [PROP_UNLISTED]: true })),
    }, STRICT),
    type: 'destructive',
  },
  async handle({ session, stop, signal }, p, response) {
    const waitMs = p.waitMs ?? 15000;
    const argv = [p.command, ...(p.args ?? [])];
    // What will run, resolved by the device's driver where it runs; the policy decides from these facts.
    const launch = await resolveOn(session, p.command, p.args ?? []);
    const { result: res, settled } = await perform(session, { stop, signal }, {
      request: launchStep(argv, launch),
      dispatch: async (d) => {
        const r = await d.call('apps.launch', { command: p.command, args: p.args ?? [], waitForWindowMs: waitMs }, waitMs + 10000);
        // Defense in depth: what really started is checked again; a denied program is ended at once, by the
        // device's driver (the pid is the device's: on this machine it may be any other process).
        const facts = await identifyOn(d.call.bind(d), r.pid);
        const denied = checkLaunched(session.gate, r.window ?? { app: p.command, pid: r.pid, title: '' }, facts);
        if (denied) {
          const token = r.startToken ?? r.window?.startToken ?? facts?.startToken;
          // A driver that cannot end it (no apps.terminate, or it failed) leaves it running: it stays unseen.
          const ended = await d.call('apps.terminate', { pid: r.pid, ...(token ? { startToken: token } : {}) }).then((x) => x.ended, () => false);
          const where = session.device.name === 'local' ? `pid ${r.pid}` : `on device ${session.device.name}, pid ${r.pid} there`;
          throw new ComputerUseError('denied_by_policy', `The started program turned out to be one computer-use may not act on: ${denied}. ` +
            `${ended ? `It was ended (${where}).` : `It was not ended (${where}): it had already exited, or the device's driver could not end it; it is unseen and untouchable.`} ` +
            'Ask the user to close it and do this step themselves.');
        }
        return r;
      },
      // The launched window once its first layout is done: what the model sees first.
      settle: async (r) => (r.window ? session.snapshotOf((await readUntilStable(() => session.readWindow(r.window!), FIRST_LAYOUT)).last) : undefined),
      receipt: (r) => (r.window ? { status: 'confirmed', detail: `pid ${r.pid}; a window appeared` }
        : r.exited ? { status: 'failed', detail: `pid ${r.pid}; exited ${exitText(r.exited)} before any window appeared` }
          : { status: 'unknown', detail: `pid ${r.pid}; no window yet` }),
    });
    const ran = `ran [${(res.argv ?? argv).map(jsonQuote).join(', ')}]`;
    if (res.exited) {
      response.add(`${nameText(p.command)} exited ${exitText(res.exited)} before any window appeared (pid ${res.pid}; ${ran}).`);
      // The program's own stderr is outside text: each line escaped, never a line the model could take for ours.
      if (res.exited.stderr.trim()) response.add(`stderr (last lines):\n${res.exited.stderr.trimEnd().split('\n').map((l) => `  ${escapeLine(l)}`).join('\n')}`);
      // Firefox, gedit, soffice and Thunar hand a second start to the instance already running and exit with 0.
      const running = res.exited.code === 0 ? await runningInstance(session, p.command, launch, res.pid) : undefined;
      if (running) {
        const windows = running.windows.filter((w) => !session.hidden({ ...identityView(running), ...w })).slice(0, 3)
          .map((w) => `[${session.windows.refOf(w)}] ${quoteText(redactText(w.title))}`);
        response.add(`It exited at once with code 0, as an app does that hands the start to its instance already running: ${nameText(running.name)} ` +
          `pid=${running.pid} is running${windows.length ? ` (${windows.join(', ')})` : ''}, and what was asked (a file, a page) may have opened there: observe it.`);
        return;
      }
      response.add('The program ended by itself: check its arguments (the app\'s own flags go in args), or it answered at once (a dialog with nobody to answer).');
      return;
    }
    if (!res.window || !settled) { response.add(`launched ${nameText(p.command)} pid=${res.pid} (${ran}; no window yet after ${waitMs} ms: computer_wait until window_appears, or launch with a longer waitMs, up to 60000)`); return; }
    response.add(`launched ${nameText(p.command)} pid=${res.pid} · window [${session.windows.refOf(settled.full.window)}] · ${ran}`);
    response.add(settled.full.text);
  },
});

/** A running app the launched program may have handed its start to: the same executable, else the same name. */
async function runningInstance(session: Session, command: string, launch: LaunchFacts | undefined, pid: number): Promise<AppInfo | undefined> {
  const apps = (await session.apps().catch(() => [] as AppInfo[])).filter((a) => a.pid !== pid && !a.inaccessible && a.windows.length > 0);
  const want = command.split('/').pop()!.toLowerCase();
  return apps.find((a) => launch?.executable !== undefined && a.executable === launch.executable)
    ?? apps.find((a) => a.name.toLowerCase() === want || a.executable?.split('/').pop()?.toLowerCase() === want)
    ?? apps.find((a) => want.startsWith(a.name.toLowerCase()) && a.name.length >= 4);
}

/** "with code 2" / "on signal SIGTERM". */
function exitText(e: NonNullable<LaunchResult['exited']>): string {
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
