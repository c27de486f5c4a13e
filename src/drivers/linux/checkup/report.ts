/**
 * The Linux doctor: are the prerequisites of computer use met on this desktop, and why is an app's tree empty?
 * It talks to the Linux driver through the protocol (a DriverLink the host gives it, like the tools' device), and
 * checks the rest directly (display, XTest, session bus, /proc of the app). It reports; the one thing it changes,
 * toolkit accessibility (`org.a11y.Status.IsEnabled`), only with `fix` and after the user confirmed through a
 * FixConfirmer. src/doctor/doctor.ts runs it with the host's services.
 */
import { escapeLine, nameText, quoteText } from '../../../engine/escape.js';
import type { AppInfo, WindowInfo } from '../../../engine/node.js';
import { countNodes, walk } from '../../../engine/node.js';
import type { HelloResult, MethodName, ParamsOf, ResultOf } from '../../../protocol/methods.js';
import { existsSync } from 'node:fs';
import { remediesOf, type Remedy } from '../../../protocol/errors.js';
import { a11yFix, applyA11yFix, type DoctorFix, type FixConfirmer, type FixOutcome } from './fix.js';
import { describeSession, sessionLine, type SessionInfo } from './session.js';
import { a11yStatus, atspiRootProperty, displayServer, onPath, xtestExtension } from './prereq.js';
import { inaccessibleAdvice } from '../apps/advice.js';
import { gtk2ModulesInstalled, JAVA_ATK_JAR, javaA11yOptions } from '../apps/toolkits.js';
import { probeWaylandInput } from '../input/portal.js';
import { findProcesses, flagOf, processFacts, type ProcessFacts, type Toolkit } from '../apps/process.js';

/** The doctor's link to the Linux driver: the protocol, through the host's device. */
export interface DriverLink {
  hello(): Promise<HelloResult>;
  call<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>>;
}

/** How the host words remedies (names of its tools), for the fixes doctor prints. */
export type RemedyWords = (remedies: readonly Remedy[]) => string;

/** How a check came out: `info` is neither good nor bad (an optional part). */
export type CheckStatus = 'ok' | 'warn' | 'fail' | 'info';

/** One named check. */
export interface DoctorCheck {
  id: string;
  status: CheckStatus;
  /** What was found, one line. */
  summary: string;
  /** What to do about it, when something is to be done. */
  fix?: string;
}

/** Trees below this many nodes are "empty": a window frame without content (Chromium without a11y: 4). */
export const TINY_TREE = 20;

/** The "why is this tree empty" answer for one app. */
export interface AppDiagnosis {
  /** The name asked for, or the focused app's. */
  name: string;
  pid?: number;
  toolkit: Toolkit;
  /** Whether the app registered with the accessibility bus. */
  onBus: boolean;
  /**
   * Its windows: the nodes each one's tree has (read up to 400) and, for Chromium/Electron, the nodes of the
   * web content (inside document nodes).
   */
  windows: { title: string; nodes: number; webNodes?: number }[];
  status: CheckStatus;
  summary: string;
  /** Fixes, most direct first. */
  fixes: string[];
  /** The DevTools endpoint the app already listens on, when started with --remote-debugging-port. */
  cdpEndpoint?: string;
}

/** Everything doctor found. */
export interface DoctorReport {
  /** False when any check failed. */
  ok: boolean;
  platform: string;
  session: 'x11' | 'wayland' | 'none';
  /** The session in detail: headless sandbox or not, the variables that decided it, what works there. */
  sessionInfo?: SessionInfo;
  checks: DoctorCheck[];
  app?: AppDiagnosis;
  /** The driver's hello, when it started. */
  hello?: HelloResult;
  /** Fixes doctor can apply after the user confirms (`doctor --fix`, or `fix` with a Confirmer). */
  fixes?: DoctorFix[];
  /** What applying them did, when `fix` was asked for. */
  applied?: FixOutcome[];
}

/** Options of `runDoctor`. */
export interface DoctorOptions {
  /** Diagnose this app (name as on the accessibility bus or process name); default the focused app. */
  app?: string;
  /** Environment of the desktop (DISPLAY, DBUS_SESSION_BUS_ADDRESS, …); default the process's. */
  env?: Record<string, string>;
  /** The Linux driver, through the protocol. */
  device: DriverLink;
  /** The host's words for remedies. */
  remedyWords: RemedyWords;
  /**
   * Apply the fixes doctor offers, each only after `confirmer` got a yes; without an interactive confirmer
   * nothing is changed and the outcome says so.
   */
  fix?: boolean;
  /** Who confirms a fix (the CLI's TTY prompt, an MCP/pi host's dialog). */
  confirmer?: FixConfirmer;
}

/** Runs every check. */
export async function runDoctor(opts: DoctorOptions): Promise<DoctorReport> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...(opts.env ?? {}) };
  const session = displayServer(env);
  const sessionInfo = describeSession(env);
  const checks: DoctorCheck[] = [];
  const add = (c: DoctorCheck): void => { checks.push(c); };

  // Display server: the session type, the variables that decided it, what works there.
  add({
    id: 'session',
    status: 'info',
    summary:
      `${sessionLine(sessionInfo)}. Works: ${sessionInfo.works.join('; ') || 'nothing'}.` +
      (sessionInfo.notHere.length ? ` Not here: ${sessionInfo.notHere.join('; ')}.` : ''),
  });
  if (session === 'none')
    add({
      id: 'display',
      status: 'fail',
      summary: 'No display: DISPLAY and WAYLAND_DISPLAY are unset.',
      fix: 'Run inside a desktop session, or start a headless one with `computer-use sandbox up`.',
    });
  else if (session === 'wayland') {
    add({
      id: 'display',
      status: 'warn',
      summary:
        `Wayland session (WAYLAND_DISPLAY=${env['WAYLAND_DISPLAY'] ?? ''}): element actions work, synthetic ` +
        `keys and pointer are blocked.`,
      fix: 'Use element actions; for keys and pointer run the apps in an X11 session (or `computer-use sandbox up`).',
    });
    // The portal's presence does not change the answer (see src/drivers/linux/input/portal.ts): no install advice.
    const w = await probeWaylandInput(env);
    add({
      id: 'wayland_input',
      status: 'warn',
      summary: `${w.code}: ${w.reason}`,
      fix: 'Use element actions (click, set_value, type, toggle, select, scroll); keys and pointer need an X11 session.',
    });
  } else add({ id: 'display', status: 'ok', summary: `X11 display ${env['DISPLAY']}.` });

  // Synthetic input: XTest requests the driver sends over its own X connection (no helper program).
  const xtest = await xtestExtension(env);
  let status = await a11yStatus(env);
  const fixes: DoctorFix[] = [];
  const applied: FixOutcome[] = [];
  if (status.reachable && status.isEnabled === false) {
    const fix = a11yFix();
    fixes.push(fix);
    if (opts.fix) {
      applied.push(await applyA11yFix(fix, env, opts.confirmer));
      status = await a11yStatus(env);
    }
  }
  if (session !== 'x11')
    add({
      id: 'xtest',
      status: 'warn',
      summary:
        `No X11 display: computer_keys and pointer input are ` +
        `${session === 'wayland' ? 'blocked' : 'unavailable'}.`,
      fix: 'Run the apps in an X11 session (or `computer-use sandbox up`).',
    });
  else if (xtest === undefined)
    add({
      id: 'xtest',
      status: 'warn',
      summary: `The X display ${env['DISPLAY'] ?? ''} cannot be reached: synthetic keys and pointer input will fail.`,
      fix: 'Check DISPLAY and the X authority (XAUTHORITY).',
    });
  else if (!xtest)
    add({
      id: 'xtest',
      status: 'warn',
      summary: 'The X server has no XTEST extension: synthetic keys will not arrive.',
      fix: 'Start Xvfb/Xorg with XTEST enabled (the default).',
    });
  else
    add({ id: 'xtest', status: 'ok', summary: 'XTEST extension on: keys and pointer are sent over the X protocol.' });

  // The AT-SPI status: toolkits read IsEnabled to decide whether to expose their tree.
  if (!status.reachable)
    add({
      id: 'a11y_status',
      status: 'fail',
      summary: `org.a11y.Bus is not reachable on the session bus (${status.error ?? 'no answer'}).`,
      fix: 'Install at-spi2-core and run in a desktop session (or `computer-use sandbox up`).',
    });
  else if (status.isEnabled === false)
    add({
      id: 'a11y_status',
      status: 'warn',
      summary: 'org.a11y.Status.IsEnabled is false: GTK/Qt apps may not expose their trees.',
      fix:
        `${a11yFix().commands.join('; ')} (\`computer-use doctor --fix\` runs them after you confirm), then ` +
        `restart the apps.`,
    });
  else
    add({
      id: 'a11y_status',
      status: 'ok',
      summary: `org.a11y.Status.IsEnabled is ${String(status.isEnabled ?? 'unset')}.`,
    });

  // The driver: connects to the accessibility bus and lists apps.
  const device = opts.device;
  let hello: HelloResult | undefined;
  let apps: AppInfo[] = [];
  /** Apps with X windows that are not on the accessibility bus. */
  let offBus: AppInfo[] = [];
  try {
    hello = await device.hello();
    const listed = (await device.call('apps.list', { withWindows: true })).apps;
    apps = listed.filter((a) => !a.inaccessible);
    offBus = listed.filter((a) => a.inaccessible);
    add({
      id: 'a11y_bus',
      status: 'ok',
      summary:
        `Accessibility bus reachable; ${apps.length} app${apps.length === 1 ? '' : 's'} registered` +
        `${
          apps.length
            ? `: ${apps
                .map((a) => a.name || '(unnamed)')
                .slice(0, 8)
                .join(', ')}`
            : ''
        }.`,
    });
  } catch (e) {
    add({
      id: 'a11y_bus',
      status: 'fail',
      summary: `The Linux driver cannot read the accessibility bus: ${(e as Error).message.split('\n')[0]}`,
      fix: 'Run inside a desktop session with AT-SPI (at-spi2-core), or `computer-use sandbox up`.',
    });
  }

  for (const a of offBus.slice(0, 8))
    add({
      id: 'app_off_bus',
      status: 'warn',
      summary:
        `${a.name} (pid ${a.pid}) has windows but is not on the accessibility bus: ` +
        `${a.inaccessible?.reason ?? ''}.`,
      ...offBusFix(a, opts.remedyWords),
    });
  // Toolkit environment for apps started from here. computer_launch sets the Qt and Java switches itself.
  const qt = env['QT_ACCESSIBILITY'];
  add(
    qt === '1'
      ? {
          id: 'qt_accessibility',
          status: 'ok',
          summary: 'QT_ACCESSIBILITY=1: Qt apps started from here turn accessibility on.',
        }
      : {
          id: 'qt_accessibility',
          status: 'info',
          summary:
            `QT_ACCESSIBILITY is ${qt === undefined ? 'unset' : `"${qt}"`}: Qt apps started outside ` +
            `computer_launch may stay off the accessibility bus (computer_launch sets it).`,
          fix: 'export QT_ACCESSIBILITY=1 QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 before starting Qt apps yourself.',
        },
  );
  // GTK 2 has no bridge of its own: computer_launch gives a GTK 2 program these modules, when they are installed.
  add(gtk2ModulesInstalled()
    ? { id: 'gtk2_modules', status: 'ok', summary: 'GTK 2\'s gail and atk-bridge modules are installed: GTK 2 apps ' +
      'started through computer_launch are readable (it sets GTK_MODULES=gail:atk-bridge for them).' }
    : { id: 'gtk2_modules', status: 'info', summary: 'GTK 2\'s gail and atk-bridge modules are not installed: GTK 2 ' +
      'apps stay unreadable.', fix: 'apt-get install libgail-common libatk-adaptor' });
  // Qt 5 finds the bus reliably only through the root window's AT_SPI_BUS (3 of 6 starts without it, 8 of 8 with).
  const rootProp = session === 'x11' ? await atspiRootProperty(env) : undefined;
  if (rootProp === null) {
    add({
      id: 'atspi_root_property',
      status: 'warn',
      summary:
        'The X root window has no AT_SPI_BUS property: Qt 5 apps started outside computer_launch reach the ' +
        'accessibility bus only now and then (computer_launch sets it).',
      fix:
        `xprop -root -f AT_SPI_BUS 8s -set AT_SPI_BUS "$(gdbus call --session --dest org.a11y.Bus ` +
        `--object-path /org/a11y/bus --method org.a11y.Bus.GetAddress | cut -d"'" -f2)", then restart the Qt ` +
        `apps (a headless Xvfb needs -noreset, or it drops the property when its last client leaves).`,
    });
  } else if (typeof rootProp === 'string')
    add({
      id: 'atspi_root_property',
      status: 'ok',
      summary: 'The X root window names the accessibility bus (AT_SPI_BUS): Qt 5 apps find it.',
    });
  const javaJar = existsSync(JAVA_ATK_JAR);
  add(
    javaJar
      ? {
          id: 'java_atk_wrapper',
          status: 'ok',
          summary:
            `Java ATK wrapper installed (${JAVA_ATK_JAR}); computer_launch starts JVMs with JAVA_TOOL_OPTIONS="` +
            `${javaA11yOptions()}".`,
        }
      : {
          id: 'java_atk_wrapper',
          status: 'info',
          summary: 'Java ATK wrapper not installed (optional: Java Swing/AWT apps).',
          fix: 'apt-get install libatk-wrapper-java-jni',
        },
  );
  const gsk = env['GSK_RENDERER'];
  add(
    gsk === 'cairo' || session !== 'x11'
      ? { id: 'gtk4_renderer', status: 'ok', summary: `GSK_RENDERER=${gsk ?? 'unset'}.` }
      : {
          id: 'gtk4_renderer',
          status: 'info',
          summary:
            `GSK_RENDERER is ${gsk === undefined ? 'unset' : `"${gsk}"`}: under Xvfb, GTK 4.8 apps may never ` +
            `register their tree.`,
          fix: 'export GSK_RENDERER=cairo before starting GTK4 apps on a virtual display.',
        },
  );
  if (env['NO_AT_BRIDGE'] === '1')
    add({
      id: 'no_at_bridge',
      status: 'warn',
      summary: 'NO_AT_BRIDGE=1: GTK apps started from here do not connect to AT-SPI.',
      fix: 'unset NO_AT_BRIDGE',
    });
  add(
    onPath('tesseract', env)
      ? { id: 'ocr', status: 'ok', summary: 'tesseract present (optional OCR fallback).' }
      : {
          id: 'ocr',
          status: 'info',
          summary: 'tesseract not installed (optional: OCR fallback for trees that stay empty).',
          fix: 'apt-get install tesseract-ocr',
        },
  );

  const report: DoctorReport = { ok: false, platform: 'linux', session, sessionInfo, checks };
  if (hello) report.hello = hello;
  if (fixes.length) report.fixes = fixes;
  if (opts.fix) report.applied = applied;
  if (opts.app !== undefined || apps.some((a) => a.windows.some((w) => w.focused))) {
    report.app = await diagnoseApp(
      device,
      apps,
      opts.app,
      hello !== undefined,
      rootProp === undefined ? undefined : rootProp !== null,
      opts.remedyWords,
    );
  }
  report.ok = !checks.some((c) => c.status === 'fail') && report.app?.status !== 'fail';
  return report;
}

/** Window tree sizes of an app on the bus, with the web content's size. */
async function treeSizes(device: DriverLink, windows: WindowInfo[]): Promise<AppDiagnosis['windows']> {
  return Promise.all(windows.map(async (w) => {
    const r = await device.call('tree.snapshot', { window: w.id, maxNodes: 400 }).catch(() => null);
    let webNodes = 0;
    if (r) walk(r.root, (n, anc) => { if (anc.some((a) => a.role === 'document')) webNodes++; });
    return { title: w.title, nodes: r ? countNodes(r.root) : 0, webNodes };
  }));
}

/** How long to wait before the second read of a Chromium window whose web content was missing. */
export const CHROMIUM_REREAD_MS = 1500;

const CHROMIUM_FLAG = '--force-renderer-accessibility';

/** Why an app's tree is empty (or that it is not). */
export async function diagnoseApp(
  device: DriverLink,
  apps: AppInfo[],
  name: string | undefined,
  busUp: boolean,
  rootProperty: boolean | undefined,
  remedyWords: RemedyWords,
): Promise<AppDiagnosis> {
  const want = name?.toLowerCase();
  const onBus = want === undefined ? apps.find((a) => a.windows.some((w) => w.focused))
    : apps.find((a) => a.name.toLowerCase() === want) ?? apps.find((a) => a.name.toLowerCase().includes(want))
      ?? apps.find((a) => a.executable?.toLowerCase().endsWith(`/${want}`));
  let proc: ProcessFacts | undefined = onBus ? processFacts(onBus.pid) : undefined;
  if (!onBus && want) proc = findProcesses(want)[0];
  // Without /proc (another user's process, a fake driver) the bus name still tells Chromium apart.
  const toolkit: Toolkit =
    proc?.toolkit && proc.toolkit !== 'unknown'
      ? proc.toolkit
      : /chrom/i.test(onBus?.name ?? '')
        ? 'chromium'
        : (proc?.toolkit ?? 'unknown');
  const diag: AppDiagnosis = {
    name: onBus?.name ?? name ?? '(focused app)',
    toolkit,
    onBus: onBus !== undefined,
    windows: [],
    status: 'ok',
    summary: '',
    fixes: [],
  };
  const pid = onBus?.pid ?? proc?.pid;
  if (pid !== undefined) diag.pid = pid;
  const port = proc ? flagOf(proc.argv, 'remote-debugging-port') : undefined;
  if (typeof port === 'string' && port !== '0') diag.cdpEndpoint = `http://127.0.0.1:${port}`;
  const cdpFix = diag.cdpEndpoint
    ? `Or read it through its DevTools endpoint: \`computer-use driver cdp --endpoint ${diag.cdpEndpoint}\` ` +
      `/ createComputer({ driver: 'cdp', cdpEndpoint: '${diag.cdpEndpoint}' }).`
    : 'Or start it with --remote-debugging-port=9222 and use the DevTools channel: createComputer({ driver: ' +
      "'cdp', cdpEndpoint: 'http://127.0.0.1:9222' }) / `computer-use driver cdp --endpoint " +
      'http://127.0.0.1:9222`.';
  const toolkitFixes = (): string[] => {
    switch (toolkit) {
      case 'chromium':
      case 'electron':
        return [`Restart it with ${CHROMIUM_FLAG} (Chromium exposes web content to AT-SPI only with it).`, cdpFix];
      case 'java':
      case 'qt':
      case 'gtk2': {
        // The same advice computer_apps shows beside the app (advice.ts), each recipe verified by an e2e test.
        const a = inaccessibleAdvice({
          toolkit,
          env: proc?.env ?? {},
          javaJarInstalled: existsSync(JAVA_ATK_JAR),
          gtk2ModulesInstalled: gtk2ModulesInstalled(),
          ...(rootProperty !== undefined ? { atspiRootProperty: rootProperty } : {}),
        });
        return [
          `${a.reason[0]?.toUpperCase() ?? ''}${a.reason.slice(1)}. ${a.fix ?? ''} ${remedyWords(a.remedy)}`
            .replace(/\s+/g, ' ')
            .trim(),
        ];
      }
      case 'gtk4':
        return [
          `Restart it with GSK_RENDERER=cairo (GTK 4.8 under Xvfb does not register otherwise)` +
            `${proc?.env['GSK_RENDERER'] ? `; it runs with GSK_RENDERER=${proc.env['GSK_RENDERER']}` : ''}.`,
        ];
      case 'gtk3':
        return proc?.env['NO_AT_BRIDGE'] === '1' ? ['It was started with NO_AT_BRIDGE=1: restart it without.'] : [];
      default:
        return [];
    }
  };

  if (!busUp) {
    diag.status = 'fail';
    diag.summary = 'The accessibility bus is not reachable, so no app can expose a tree.';
    return diag;
  }
  if (!onBus) {
    if (!proc) {
      diag.status = 'fail';
      diag.summary = name
        ? `No app named "${name}" is registered on the accessibility bus or running.`
        : 'No focused app found.';
      return diag;
    }
    diag.status = 'fail';
    diag.summary =
      `${proc.comm} (pid ${proc.pid}, ${toolkit}) is running but never registered with the accessibility bus.`;
    diag.fixes = toolkitFixes();
    if (!diag.fixes.length)
      diag.fixes = [
        'Its toolkit does not speak AT-SPI: the OCR fallback (when available) or a screenshot are the ' +
          'remaining channels.',
      ];
    return diag;
  }
  if (onBus.busy) {
    diag.status = 'fail';
    diag.summary =
      `${onBus.name} (pid ${onBus.pid}) is registered with the accessibility bus but busy: it does not ` + `answer.`;
    diag.fixes = [
      'Wait a moment and try again; if it stays busy, restart it (a huge list read by another client can ' +
        'wedge it).',
    ];
    return diag;
  }
  const chromiumLike = toolkit === 'chromium' || toolkit === 'electron';
  diag.windows = await treeSizes(device, onBus.windows);
  // Chromium exposes its own UI (toolbar, tabs: ~140 nodes) either way; what goes missing is the web content.
  const size = (ws: AppDiagnosis['windows']): number =>
    Math.max(0, ...ws.map((w) => (chromiumLike ? (w.webNodes ?? 0) : w.nodes)));
  let biggest = size(diag.windows);
  let lateContent = false;
  if (chromiumLike && onBus.windows.length > 0 && biggest < TINY_TREE) {
    // Chromium may turn renderer accessibility on when an assistive technology first reads it: read again.
    await new Promise((r) => setTimeout(r, CHROMIUM_REREAD_MS));
    diag.windows = await treeSizes(device, onBus.windows);
    biggest = size(diag.windows);
    lateContent = biggest >= TINY_TREE;
  }
  const noFlag = proc !== undefined && flagOf(proc.argv, CHROMIUM_FLAG.slice(2)) === undefined;
  if (onBus.windows.length === 0) {
    diag.status = 'warn';
    diag.summary = `${onBus.name} is on the accessibility bus but shows no window.`;
    diag.fixes = toolkitFixes();
  } else if (lateContent) {
    diag.status = 'warn';
    diag.summary =
      `${onBus.name}'s web content was missing from the first read and appeared ${CHROMIUM_REREAD_MS} ms ` +
      `later (${biggest} nodes): ` +
      `Chromium turned accessibility on only when read${noFlag ? `; it was started without ${CHROMIUM_FLAG}` : ''}.`;
    diag.fixes = toolkitFixes();
  } else if (biggest < TINY_TREE) {
    diag.status = 'fail';
    diag.summary = chromiumLike
      ? `${onBus.name}'s web content is not exposed: ${biggest} node${biggest === 1 ? '' : 's'} inside its ` +
        `pages${noFlag ? ` (started without ${CHROMIUM_FLAG})` : ''}.`
      : `${onBus.name}'s largest window tree has ${biggest} node${biggest === 1 ? '' : 's'}: the app exposes ` +
        `(almost) nothing.`;
    diag.fixes = toolkitFixes();
    if (!diag.fixes.length)
      diag.fixes = [
        'The app draws its own UI without accessible children: the OCR fallback (when available) or a ' +
          'screenshot are the remaining channels.',
      ];
  } else {
    diag.summary =
      `${onBus.name} exposes ${biggest}${biggest >= 400 ? '+' : ''} ` +
      `${chromiumLike ? 'web content nodes' : 'nodes'} in its largest window.`;
    if (chromiumLike && diag.cdpEndpoint)
      diag.fixes = [`It also listens for DevTools at ${diag.cdpEndpoint} (the cdp channel reads pages faster).`];
  }
  return diag;
}

/** Human-readable report. */
export function formatDoctor(r: DoctorReport): string {
  const mark: Record<CheckStatus, string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL', info: 'info' };
  const lines = [
    `computer-use doctor · ${r.platform} · ${r.session}` +
      `${r.sessionInfo?.headless ? ` (headless ${r.sessionInfo.headless})` : ''}` +
      `${r.hello ? ` · driver ${nameText(r.hello.platform)} ${nameText(r.hello.version)}` : ''}`,
  ];
  // Summaries and fixes quote what the driver, the device and the apps said: one line each (engine/escape.ts).
  for (const c of r.checks) {
    lines.push(`${mark[c.status]} ${c.id}: ${escapeLine(c.summary)}`);
    if (c.fix && c.status !== 'ok') lines.push(`     fix: ${escapeLine(c.fix)}`);
  }
  if (r.app) {
    const a = r.app;
    lines.push(
      `${mark[a.status]} app ${nameText(a.name)}${a.pid !== undefined ? ` pid=${a.pid}` : ''} (${a.toolkit}` +
        `${a.onBus ? '' : ', not on the accessibility bus'}): ${escapeLine(a.summary)}`,
    );
    const web = a.toolkit === 'chromium' || a.toolkit === 'electron';
    for (const w of a.windows) {
      const inWeb = w.webNodes !== undefined && web ? `, ${w.webNodes} in web content` : '';
      lines.push(`     window ${quoteText(w.title)}: ${w.nodes} nodes${inWeb}`);
    }
    for (const f of a.fixes) lines.push(`     fix: ${escapeLine(f)}`);
  }
  for (const f of r.applied ?? []) {
    lines.push(
      `${f.result === 'applied' ? 'ok  ' : f.result === 'failed' ? 'FAIL' : 'info'} fix ${f.id}: ${f.result}` +
        `${f.isEnabledAfter !== undefined ? ` (IsEnabled now ${String(f.isEnabledAfter)})` : ''}`,
    );
    for (const d of f.detail) lines.push(`     ${escapeLine(d)}`);
  }
  lines.push(r.ok ? 'All required checks passed.' : 'Some checks failed: see the fixes above.');
  return lines.join('\n');
}

/** The fix doctor prints for an app off the bus: the driver's words for the human, then the remedies in tools' names. */
function offBusFix(a: AppInfo, remedyWords: RemedyWords): { fix?: string } {
  const fix = `${a.inaccessible?.fix ?? ''} ${remedyWords(remediesOf(a.inaccessible ?? {}))}`.trim();
  return fix ? { fix } : {};
}
