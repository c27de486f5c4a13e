/**
 * What an app needs in its environment, and on the desktop, to expose its tree on the accessibility bus,
 * per toolkit. The driver's apps.launch applies it; doctor names the same recipe (advice.ts).
 *
 * Measured on Debian 12 (Qt 5.15.8, at-spi2-core 2.46, OpenJDK 17):
 * - Qt 5 reaches the accessibility bus in one of two ways. Through the session bus (org.a11y.Bus.GetAddress,
 *   answered asynchronously, then Status.ScreenReaderEnabled or QT_LINUX_ACCESSIBILITY_ALWAYS_ON) it
 *   registered in 3 of 6 starts: the bridge is sometimes set up on a connection that is not open yet and
 *   logs "Not connected to D-Bus server", and never retries. Through the `AT_SPI_BUS` property of the X root
 *   window (read synchronously when the bridge is created) it registered 8 of 8, with or without the QT_
 *   variables. at-spi-bus-launcher sets that property on a usual X desktop; the sandbox's did not.
 * - OpenJDK 17 loads `assistive_technologies` classes from the class path only: the wrapper's jar must be
 *   added, and `-Xbootclasspath/a:` does it for every way of starting a JVM (`-jar`, `-cp`, source files).
 * - Qt 6.4 never registered (0 of 3) when AT_SPI_BUS_ADDRESS was in its environment: it then connects in the
 *   bridge's constructor and announces "enabled" before anyone listens. Without the variable it asks the
 *   session bus and registered 3 of 3; featherpad, GTK 3 and the Java wrapper registered without it too.
 * - GTK 2 has no accessibility bridge of its own: it loads the gail and atk-bridge modules (Debian's libgail-common
 *   and libatk-adaptor) only when GTK_MODULES names them. LXTask (GTK 2.24) did not register in 20 s without them,
 *   and registered in 4 of 4 starts with GTK_MODULES=gail:atk-bridge (its process list a tree of cells).
 *   The sandbox strips an inherited GTK_MODULES (it may load
 *   modules that fight GTK 3's built-in bridge), so a launch adds it for a GTK 2 program only.
 */
import { closeSync, existsSync, openSync, readSync } from 'node:fs';

/** The Java ATK wrapper's jar as Debian's libatk-wrapper-java installs it. */
export const JAVA_ATK_JAR = '/usr/share/java/java-atk-wrapper.jar';
/** The assistive technology class of the Java ATK wrapper. */
export const JAVA_ATK_CLASS = 'org.GNOME.Accessibility.AtkWrapper';

/** The JVM options that load the ATK wrapper (for JAVA_TOOL_OPTIONS). */
export function javaA11yOptions(jar = JAVA_ATK_JAR): string {
  return `-Djavax.accessibility.assistive_technologies=${JAVA_ATK_CLASS} -Xbootclasspath/a:${jar}`;
}

/** The GTK 2 modules that put a GTK 2 app on the accessibility bus, in the order GTK loads them. */
export const GTK2_A11Y_MODULES = ['gail', 'atk-bridge'] as const;
/** Where Debian installs GTK 2 modules (multiarch first). */
const GTK2_MODULE_DIRS = [
  '/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib/i386-linux-gnu', '/usr/lib64', '/usr/lib',
].map((d) => `${d}/gtk-2.0/modules`);

/** What the launch environment depends on: which files exist (tests pass their own). */
export interface ToolkitFacts {
  /** The ATK wrapper jar, when installed. */
  javaJar?: string;
  /** GTK 2's gail and atk-bridge modules are installed. */
  gtk2Modules?: boolean;
}

/** The facts of this machine. */
export function toolkitFacts(): ToolkitFacts {
  return {
    ...(existsSync(JAVA_ATK_JAR) ? { javaJar: JAVA_ATK_JAR } : {}),
    ...(gtk2ModulesInstalled() ? { gtk2Modules: true } : {}),
  };
}

/** Whether GTK 2's gail and atk-bridge modules are installed (libgail-common, libatk-adaptor). */
export function gtk2ModulesInstalled(dirs: readonly string[] = GTK2_MODULE_DIRS): boolean {
  return dirs.some((d) => GTK2_A11Y_MODULES.every((m) => existsSync(`${d}/lib${m}.so`)));
}

/** What the launched program is, as far as its toolkit switches go (tests pass their own). */
export interface ProgramFacts {
  /** The program is linked against GTK 2 (see `isGtk2Program`). */
  gtk2?: boolean;
}

/** The name GTK 2's library is needed by (DT_NEEDED), with its terminating NUL as the ELF string table holds it. */
const GTK2_NEEDED = Buffer.from('libgtk-x11-2.0.so.0\0', 'latin1');
/** Bytes of a program read for its dynamic string table (it sits near the start of the file, before the code). */
const ELF_HEAD_BYTES = 4 * 1024 * 1024;

/**
 * Whether `file` is an ELF program that needs GTK 2 (libgtk-x11-2.0.so.0 among the names of its dynamic string
 * table). Read before the start, so only a GTK 2 program gets GTK 2's modules: GTK 3 and 4 have their bridge
 * built in, and Qt and Java apps never read GTK_MODULES. A program that reaches GTK 2 only through a library of its
 * own, or a script, is not seen: it is listed as a GTK 2 app once running, and the advice says how to start it.
 */
export function isGtk2Program(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buf = Buffer.alloc(ELF_HEAD_BYTES);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const head = buf.subarray(0, n);
    return head.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46])) && head.includes(GTK2_NEEDED);
  } catch { return false; } finally { if (fd !== undefined) closeSync(fd); }
}

/** `GTK_MODULES` with GTK 2's accessibility modules added to what is there, or undefined when it names both. */
export function withGtk2Modules(current: string | undefined): string | undefined {
  const have = (current ?? '').split(':').filter(Boolean);
  const missing = GTK2_A11Y_MODULES.filter((m) => !have.includes(m));
  return missing.length ? [...have, ...missing].join(':') : undefined;
}

/**
 * The variables a launched app gets on top of `base` so that its toolkit exposes its tree: GTK 2's modules for a
 * GTK 2 program, Qt's switches,
 * and for any JVM the app may start (directly or from a launcher script) the ATK wrapper, only when its jar
 * is installed (naming a missing class makes the JVM exit: "Assistive Technology not found"). Variables the
 * user set already are kept.
 */
export function toolkitLaunchEnv(base: NodeJS.ProcessEnv, facts: ToolkitFacts = toolkitFacts(),
  program: ProgramFacts = {}): Record<string, string> {
  const out: Record<string, string> = {};
  // GTK 2 only: a GTK 3 app would try to load GTK 2's modules too and warn on every start.
  const modules = program.gtk2 && facts.gtk2Modules ? withGtk2Modules(base['GTK_MODULES']) : undefined;
  if (modules !== undefined) out['GTK_MODULES'] = modules;
  if (base['QT_ACCESSIBILITY'] === undefined) out['QT_ACCESSIBILITY'] = '1';
  if (base['QT_LINUX_ACCESSIBILITY_ALWAYS_ON'] === undefined) out['QT_LINUX_ACCESSIBILITY_ALWAYS_ON'] = '1';
  const jto = base['JAVA_TOOL_OPTIONS'] ?? '';
  if (facts.javaJar && !jto.includes('assistive_technologies'))
    out['JAVA_TOOL_OPTIONS'] = `${jto} ${javaA11yOptions(facts.javaJar)}`.trim();
  return out;
}

/** The X root-window property through which Qt 5 (and GTK 2, Java) find the accessibility bus. */
export const ATSPI_ROOT_PROPERTY = 'AT_SPI_BUS';

/**
 * The whole environment of a launched app: `base` with the toolkit switches, then the caller's variables.
 * AT_SPI_BUS_ADDRESS is dropped when a session bus can tell the address (org.a11y.Bus), unless the caller
 * passes it: with it, Qt 6.4 apps never register (see above), and every other toolkit finds the bus without it.
 */
export function appLaunchEnv(base: NodeJS.ProcessEnv, caller: Record<string, string> = {},
  facts: ToolkitFacts = toolkitFacts(), program: ProgramFacts = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, ...toolkitLaunchEnv(base, facts, program), ...caller };
  if (env['DBUS_SESSION_BUS_ADDRESS'] && caller['AT_SPI_BUS_ADDRESS'] === undefined) delete env['AT_SPI_BUS_ADDRESS'];
  return env;
}
