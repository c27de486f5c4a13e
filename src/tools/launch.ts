import { Type } from '@sinclair/typebox';
import { escapeLine, jsonQuote, nameText, quoteText } from '../engine/escape.js';
import type { AppInfo } from '../engine/node.js';
import { redactText } from '../engine/redact.js';
import { identityView } from '../policy/gate.js';
import type { LaunchFacts } from '../policy/apps.js';
import type { LaunchResult } from '../protocol/methods.js';
import { exitText, launchApp } from '../session/launch.js';
import type { Session } from '../session/session.js';
import { processKey } from '../session/windows.js';
import { withHeader } from './format.js';
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
    // The processes this session saw before the launch: an instance among them was running already; another one
    // may have been started by this launch (Thunar's settings command starts Thunar and hands it the start).
    const seen = session.windows.processes();
    const before = (app: AppInfo): boolean => seen.has(processKey(app));
    const {
      launch,
      result: res,
      settled,
      later,
      busy,
    } = await launchApp(session, { stop, signal }, p.command, p.args ?? [], waitMs);
    const ran = `ran [${(res.argv ?? argv).map(jsonQuote).join(', ')}]`;
    // A window came: the argv is echoed only when it is not the one asked for (Chromium's 14 flags came back in
    // every eval launch, ~150 tokens each); an exit keeps it whole, as its diagnosis. The flags the driver added
    // for a browser engine are said once, in its own line.
    const asked = withoutAdded(res.argv, res.added?.args ?? []);
    const same = asked === undefined || (asked.length === argv.length && asked.every((a, i) => a === argv[i]));
    const ranShort = same ? `ran as given${res.added ? ' plus what the line above adds' : ''}` : ran;
    if (res.added) response.add(escapeLine(res.added.note));
    if (res.exited) {
      // A launch that failed is an error (the CLI exits non-zero); a start handed to a running instance is not.
      const line =
        `${nameText(p.command)} exited ${exitText(res.exited)} before any window appeared (pid ${res.pid}; ` +
        `${ran}).`;
      const running = res.exited.code === 0 ? await runningInstance(session, p.command, launch, res.pid) : undefined;
      if (running) response.add(line); else response.error('action_failed', line);
      // The program's own stderr is outside text: each line escaped, never a line the model could take for ours.
      if (res.exited.stderr.trim())
        response.add(
          `stderr (last lines):\n${res.exited.stderr
            .trimEnd()
            .split('\n')
            .map((l) => `  ${escapeLine(l)}`)
            .join('\n')}`,
        );
      // Firefox, gedit, soffice and Thunar hand a second start to the instance already running and exit with 0.
      if (running) {
        const windows = windowList(session, running);
        const listed = windows.length ? ` (${windows.join(', ')})` : '';
        const to = before(running)
          ? `its instance already running: ${nameText(running.name)} pid=${running.pid} was running before this ` +
            `launch${listed}`
          : `a process of its own (one running already, or one it started): ${nameText(running.name)} ` +
            `pid=${running.pid} runs now${listed}`;
        response.add(`It exited at once with code 0, as an app does that hands the start to ${to}, and what ` +
          'was asked (a file, a page) may have opened there: observe it.');
        return;
      }
      response.add('The program ended by itself: check its arguments (the app\'s own flags go in args), or it answered at once (a dialog with nobody to answer).');
      return;
    }
    if (res.window && res.inaccessible) {
      // Started, with a window the display shows but no tree: a success, with why and the way to read it.
      const ref = session.windows.refOf(res.window);
      const title = quoteText(redactText(res.window.title));
      response.add(`launched ${nameText(p.command)} pid=${res.pid} · window [${ref}] ${title} · ${ranShort}`);
      const fix = res.inaccessible.fix ? ` ${escapeLine(res.inaccessible.fix)}` : '';
      const why = escapeLine(res.inaccessible.reason);
      response.add(`Its window has no accessibility tree (not readable: ${why}).${fix} ` +
        `Read it with computer_screenshot window=${ref} (its text as oN refs, which computer_act clicks), ` +
        'and use computer_keys.');
      return;
    }
    if (res.window && !settled && busy) {
      // It started and shows its window, but answers nothing yet: a success to observe in a moment, not a failure.
      response.add(
        `launched ${nameText(p.command)} pid=${res.pid} · window [${session.windows.refOf(res.window)}] · ` +
          `${ranShort}`,
      );
      response.add('The app is busy (not answering) while it starts, so its window is not read yet: ' +
        `computer_observe window=${session.windows.refOf(res.window)} in a moment.`);
      return;
    }
    if (!res.window || !settled) {
      response.add(
        `launched ${nameText(p.command)} pid=${res.pid} (${ran}; no window yet after ${waitMs} ms: ` +
          `computer_wait until window_appears, or launch with a longer waitMs, up to 60000)`,
      );
      return;
    }
    // One line names the launch and its window (the snapshot's own header said the window's facts again):
    // `launched gnumeric pid=23478 · window [w1] "Book1.gnumeric - Gnumeric" [focused] · ran as given`.
    const w = settled.full.window;
    const text = session.present(settled.full);
    // The app and pid are said again only where they are not the launched ones (libreoffice starts soffice).
    const ours = nameText(w.app) === nameText(p.command) && w.pid === res.pid;
    const app = ours ? '' : ` · app ${nameText(w.app)}${w.pid === res.pid ? '' : ` pid=${w.pid}`}`;
    response.add(`launched ${nameText(p.command)} pid=${res.pid} · window ` +
      withHeader(session.windows.refOf(w), { text, window: w },
        { tail: `${app} · ${ranShort}`, app: false, role: w.role !== 'window' }));
    // Another instance of the app (its own profile, or a start that did not hand over) may already hold what was
    // asked: a second start of a spreadsheet found its file locked by the first and asked about it.
    // Matched by the window's app too: a script may start it under another name (libreoffice starts soffice).
    const other = await runningInstance(session, p.command, launch, res.pid, settled.full.window.app);
    if (other) {
      const windows = windowList(session, other);
      const listed = windows.length ? ` (${windows.join(', ')})` : '';
      response.add(`${nameText(other.name)} pid=${other.pid} ${before(other) ? 'was already running' : 'runs too'}` +
        `${listed}: what was asked may be open there already.`);
    }
    for (const l of later) {
      const name =
        `[${session.windows.refOf(l.window)}] ${escapeLine(l.window.role)} ` +
        `${quoteText(redactText(l.window.title))}`;
      if (l.snapshot)
        response.add(`new window ${name}, opened after the one above; it has the focus:\n${l.snapshot.text}`);
      else
        response.add(
          `also open: ${name}, opened after the one above (observe window=${session.windows.refOf(l.window)} reads it)`,
        );
    }
  },
});

/** The argv that ran without the flags the driver added after the command (engines.ts), to compare with the asked one. */
function withoutAdded(ran: string[] | undefined, added: readonly string[]): string[] | undefined {
  if (!ran || added.length === 0) return ran;
  return added.every((a, i) => ran[i + 1] === a) ? [ran[0] ?? '', ...ran.slice(added.length + 1)] : ran;
}

/** Up to three of a running app's windows the model may see, as `[wN] "title"`. */
function windowList(session: Session, app: AppInfo): string[] {
  return app.windows.filter((w) => !session.hidden({ ...identityView(app), ...w })).slice(0, 3)
    .map((w) => `[${session.windows.refOf(w)}] ${quoteText(redactText(w.title))}`);
}

/** A running app the launched program may have handed its start to: the same executable, else the same name. */
async function runningInstance(
  session: Session,
  command: string,
  launch: LaunchFacts | undefined,
  pid: number,
  appName?: string,
): Promise<AppInfo | undefined> {
  const apps = (await session.apps().catch(() => [] as AppInfo[])).filter(
    (a) => a.pid !== pid && !a.inaccessible && a.windows.length > 0,
  );
  const want = command.split('/').pop()!.toLowerCase();
  return apps.find((a) => launch?.executable !== undefined && a.executable === launch.executable)
    ?? apps.find((a) => appName !== undefined && a.name === appName)
    ?? apps.find((a) => a.name.toLowerCase() === want || a.executable?.split('/').pop()?.toLowerCase() === want)
    ?? apps.find((a) => want.startsWith(a.name.toLowerCase()) && a.name.length >= 4);
}

