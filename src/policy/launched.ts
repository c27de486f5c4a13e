/**
 * The policy's view of a launch (docs/policy.md, "One app, one allow entry"): the facts the device's driver reported
 * for what a
 * `computer_launch` will run (`apps.resolveLaunch`), and, after the start, for what really started. The
 * resolution itself runs in the driver, on the machine the program runs on (drivers/linux/apps/resolve.ts); here
 * the facts become an AppIdentity the rules decide on, one route for a local and a remote device.
 */
import type { WindowInfo } from '../engine/node.js';
import type { Launcher } from '../protocol/identity.js';
import { signedIdOf, type AppIdentity, type LaunchFacts, type ProcessFacts } from './apps.js';
import type { PolicyGate } from './gate.js';

const baseName = (p: string): string => p.split(/[\\/]/).pop() ?? p;

/**
 * The identity a launch resolution gives the policy. Without facts (a driver that cannot resolve launches)
 * only the names of the command line are known: they may deny, never allow, so the launch is unproven.
 */
export function launchIdentity(argv: readonly string[], facts: LaunchFacts | undefined): AppIdentity {
  if (!facts)
    return {
      name: baseName(argv[0] ?? ''),
      also: argv.filter((w) => w.trim() !== ''),
      unproven: "the device's driver does not resolve launches (apps.resolveLaunch)",
    };
  const name = facts.executable ? baseName(facts.executable) : baseName(argv[0] ?? '');
  const same = facts.content?.sameAs ?? [];
  const app: AppIdentity = { name, also: [...facts.names, ...same], cmdline: [...facts.argv] };
  if (facts.executable) app.executable = facts.executable;
  if (facts.unproven) app.unproven = facts.unproven;
  const signed = signedIdOf(facts);
  if (signed) app.signedId = signed;
  // The installed launcher script it runs (LibreOffice's soffice under dash, Debian's /usr/bin/chromium) is named
  // by the commands the system gives it ("libreoffice"): the app the user knows, shown and allowed by that name.
  // The last launcher met is the script the interpreter runs (an earlier one may only be an argument to it).
  const launcher = [...(facts.launchers ?? [])].reverse().find((l) => facts.argv.includes(l.path));
  const names = launcher ? launcherNames(launcher, argv[0]) : [];
  if (names.length) {
    app.launcher = names;
    app.name = names[0] ?? name;
  }
  // A package only denies a launch: it holds other programs as well (LibreOffice's unopkg installs extensions,
  // uno.bin loads any library), so allowing one by its package would start them all (launch-one-entry.test.ts).
  if (facts.package) app.also!.push(...facts.package.split('/').filter(Boolean));
  return app;
}

/**
 * The commands an installed launcher script is named by (AppIdentity.launcher), the one a user knows first: its
 * package's name (source, then binary: "libreoffice"), else the command it was called by. None for a script that
 * is not the system's.
 */
export function launcherNames(l: Launcher, called?: string): string[] {
  if (!l.systemOwned || !l.commands?.length) return [];
  const wanted = [...(l.package?.split('/').reverse() ?? []), ...(called ? [baseName(called)] : [])].filter((w) =>
    l.commands!.includes(w),
  );
  return [...new Set([...wanted, ...l.commands])];
}

/** The window a launch produced, as the driver reported it, and what it proves about the started process. */
export type LaunchedWindow = Pick<WindowInfo, 'app' | 'pid' | 'title'> & {
  executable?: string;
  className?: string;
  sameAs?: string[];
};

/**
 * Defense in depth after a launch: why the launched process or its window is denied (by its proven executable,
 * the programs it is a copy of, its command line's script, app name, window class or title), or undefined.
 * The caller has the device end it when denied.
 */
export function checkLaunched(gate: PolicyGate, win: LaunchedWindow, facts?: ProcessFacts): string | undefined {
  const g = gate as PolicyGate & { rules?: { denied(app: AppIdentity): string | undefined } };
  const exe = facts?.executable ?? win.executable;
  const same = [...(win.sameAs ?? []), ...(facts?.sameAs ?? [])];
  const why = gate.visible({ name: win.app, pid: win.pid, title: win.title, ...(exe ? { executable: exe } : {}),
    ...(win.className ? { className: win.className } : {}), ...(same.length ? { sameAs: same } : {}) });
  if (why) return why;
  const app: AppIdentity = { name: win.app, pid: win.pid, title: win.title };
  if (exe) app.executable = exe;
  if (win.className) app.className = win.className;
  if (facts?.cmdline) app.cmdline = facts.cmdline;
  if (same.length) app.also = same;
  return g.rules?.denied(app);
}
