/**
 * `computer-use doctor` on Windows, in the order a user fixes things: the .NET Framework's csc.exe (the helper's
 * compiler), the helper's build (cached or compiled now, with the compiler's own message on failure), UI
 * Automation through the helper, the input desktop (locked screen, UAC prompt), and the windows UIPI keeps from
 * a host of lower integrity. Platform-neutral: the tests run it with Mono's mcs and a replay recording.
 */
import { cuPath } from '../../paths.js';
import { ensureHelper, frameworkCsc, type BuiltHelper, type Compiler } from './build.js';
import { HelperClient, helperCommand } from './helper-client.js';
import { HELPER_SOURCES, type HelperSource } from './helper-sources.generated.js';
import type { HelperHello } from './driver.js';
import { blockedByUipi, integrityName, MEDIUM_INTEGRITY, type UiaWindow } from './nodes.js';
import { escapeLine, nameText } from '../../engine/escape.js';
import type { DeviceCheck } from '../common/checks.js';

/** Options of doctorWindows; every default is the real machine's. */
export interface WindowsDoctorOptions {
  sources?: readonly HelperSource[];
  /** The compiler; default the .NET Framework's csc.exe under %WINDIR% (undefined when there is none). */
  compiler?: Compiler | undefined;
  driversDir?: string;
  /** `COMPUTER_USE_DRIVER_WINDOWS`. */
  prebuilt?: string | undefined;
  /** Extra helper arguments (`--replay FILE` in tests). */
  helperArgs?: readonly string[];
  platform?: NodeJS.Platform;
}

/** The path csc.exe is looked for at, for the message when it is missing. */
const CSC_PATH = '%WINDIR%\\Microsoft.NET\\Framework64\\v4.0.30319\\csc.exe';

/** The desktop that takes input, as the helper's `desktop` op reports it. */
interface InputDesktop { open?: boolean; name?: string; error?: number }

/** Runs the checks; later ones are skipped once the helper cannot be built or started. */
export async function doctorWindows(o: WindowsDoctorOptions = {}): Promise<DeviceCheck[]> {
  const checks: DeviceCheck[] = [];
  const prebuilt = 'prebuilt' in o ? o.prebuilt : process.env['COMPUTER_USE_DRIVER_WINDOWS'];
  const compiler = 'compiler' in o ? o.compiler : frameworkCsc(process.env['WINDIR'] ?? 'C:\\Windows');
  if (prebuilt)
    checks.push({
      name: 'compiler',
      ok: true,
      detail: `not needed: COMPUTER_USE_DRIVER_WINDOWS names a prebuilt helper (${prebuilt})`,
    });
  else if (!compiler) {
    checks.push({
      name: 'compiler',
      ok: false,
      detail: `no C# compiler: ${CSC_PATH} (nor the 32-bit Framework's) does not exist`,
      fix:
        'the .NET Framework 4.8 is part of Windows 10 and 11: turn on ".NET Framework 4.8 Advanced Services" in Windows Features (optionalfeatures.exe), ' +
        'or set COMPUTER_USE_DRIVER_WINDOWS to a prebuilt helper',
    });
    return checks;
  } else checks.push({ name: 'compiler', ok: true, detail: `${compiler.id}: ${compiler.command}` });

  const driversDir = o.driversDir ?? cuPath('drivers');
  let built: BuiltHelper;
  try {
    built = await ensureHelper({ sources: o.sources ?? HELPER_SOURCES, driversDir, compiler, prebuilt });
  } catch (e) {
    checks.push({
      name: 'helper build',
      ok: false,
      detail: (e as Error).message
        .split('\n')
        .filter((l) => !l.startsWith('Run `computer-use doctor`'))
        .join('\n'),
      fix:
        `a compiler error in the helper is a bug of computer-use: report it with the message above; if the ` +
        `compiler could not write, check that ${driversDir} is writable and that antivirus does not block ` +
        `csc.exe there; meanwhile COMPUTER_USE_DRIVER_WINDOWS can name a prebuilt helper`,
    });
    return checks;
  }
  checks.push({
    name: 'helper build',
    ok: true,
    detail:
      built.origin === 'prebuilt'
        ? `prebuilt helper ${built.path}`
        : `${built.origin === 'cached' ? 'cached' : 'compiled now'} in ${driversDir} (entry ` +
          `${built.hash?.slice(0, 16) ?? '?'})`,
  });

  const helper = new HelperClient(helperCommand(built.path, o.helperArgs ?? [], o.platform));
  try {
    let hello: HelperHello;
    try { hello = await helper.request<HelperHello>('hello', {}, { timeoutMs: 20_000 }); } catch (e) {
      checks.push({
        name: 'ui automation',
        ok: false,
        detail: `the helper could not reach UI Automation: ${escapeLine((e as Error).message.split('\n')[0] ?? '')}`,
        fix: 'run computer-use in the signed-in user\'s desktop session: a service, a scheduled task without "run only when user is logged on", or an ssh login has no desktop to automate',
      });
      return checks;
    }
    const backend = hello.backend ?? 'unknown';
    checks.push(
      backend === 'uia' || backend === 'replay'
        ? {
            name: 'ui automation',
            ok: true,
            detail: `reachable (backend ${backend}${hello.os ? `, ${hello.os}` : ''})`,
          }
        : {
            name: 'ui automation',
            ok: false,
            detail: `the helper answered with backend ${backend}, not UI Automation`,
            fix: 'unset COMPUTER_USE_DRIVER_WINDOWS so the helper of this package is built',
          },
    );
    checks.push(
      desktopCheck(
        await helper
          .request<InputDesktop>('desktop', {}, { timeoutMs: 10_000 })
          .catch((e: Error) => ({ error: -1, message: e.message })),
      ),
    );
    const windows = await helper.request<{ windows: UiaWindow[] }>('windows', {}, { timeoutMs: 20_000 }).then(
      (r) => r.windows,
      () => undefined,
    );
    checks.push(...elevationChecks(hello, windows));
  } finally { helper.close(); }
  return checks;
}

/** Whether input goes to the user's desktop; the secure desktop (lock screen, UAC, Ctrl+Alt+Del) takes none from us. */
export function desktopCheck(d: InputDesktop & { message?: string }): DeviceCheck {
  const fix =
    'unlock the screen, or answer the UAC prompt / close the Ctrl+Alt+Del screen yourself: computer-use ' +
    'never drives the secure desktop';
  if (d.open === true && (d.name === undefined || d.name.toLowerCase() === 'default'))
    return { name: 'desktop', ok: true, detail: "input goes to the user's desktop (Default)" };
  if (d.open === true)
    return {
      name: 'desktop',
      ok: false,
      detail:
        `input goes to the desktop "${d.name ?? ''}", not the user's (Default): the screen is locked or a secure ` +
        `prompt is up`,
      fix,
    };
  if (d.error === -1)
    return {
      name: 'desktop',
      ok: false,
      detail: `the helper could not tell which desktop takes input: ${(d.message ?? '').split('\n')[0]}`,
      fix: 'run `computer-use doctor` again; if it persists, report it',
    };
  return {
    name: 'desktop',
    ok: false,
    detail:
      `the input desktop cannot be opened (Windows error ${d.error ?? '?'}): the screen is locked, or a UAC ` +
      `prompt or the Ctrl+Alt+Del screen (the secure desktop) is up`,
    fix,
  };
}

/**
 * The host's elevation, and the windows UIPI keeps from it: a process of lower integrity may neither read much of
 * nor send input to one of higher integrity (an app run as administrator), so those windows are refused with
 * `elevation_required`, never driven half-way.
 */
export function elevationChecks(hello: HelperHello, windows: readonly UiaWindow[] | undefined): DeviceCheck[] {
  const self = hello.self ?? {};
  const own = self.integrity;
  const checks: DeviceCheck[] = [
    {
      name: 'elevation',
      ok: true,
      detail:
        `computer-use runs ${self.elevated ? 'elevated (as administrator)' : 'not elevated'}` +
        `${own !== undefined ? `, ${integrityName(own)} integrity` : ''}`,
    },
  ];
  if (!windows) {
    checks.push({
      name: 'windows',
      ok: false,
      detail: 'the helper could not list windows',
      fix: "run `computer-use doctor` again in the signed-in user's desktop session",
    });
    return checks;
  }
  const blocked = windows.filter((w) => blockedByUipi(w, own ?? MEDIUM_INTEGRITY));
  // Executable names and titles are the apps' text: quoted by the one escaping boundary.
  const apps = [
    ...new Set(blocked.map((w) => nameText((w.process?.image ?? '').split('\\').pop() || w.title.slice(0, 40)))),
  ];
  checks.push(
    blocked.length === 0
      ? {
          name: 'windows',
          ok: true,
          detail: `${windows.length} window${windows.length === 1 ? '' : 's'}, none blocked by elevation`,
        }
      : {
          name: 'windows',
          ok: true,
          warn: true,
          detail:
            `${blocked.length} of ${windows.length} windows belong to apps running with more privileges than ` +
            `computer-use (${apps.slice(0, 6).join(', ')}): Windows (UIPI) keeps them from being read or ` +
            `typed into`,
          fix: 'start those apps without "Run as administrator"; only if you mean the agent to drive elevated apps, run computer-use itself elevated',
        },
  );
  return checks;
}
