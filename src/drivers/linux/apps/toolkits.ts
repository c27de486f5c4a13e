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
 */
import { existsSync } from 'node:fs';

/** The Java ATK wrapper's jar as Debian's libatk-wrapper-java installs it. */
export const JAVA_ATK_JAR = '/usr/share/java/java-atk-wrapper.jar';
/** The assistive technology class of the Java ATK wrapper. */
export const JAVA_ATK_CLASS = 'org.GNOME.Accessibility.AtkWrapper';

/** The JVM options that load the ATK wrapper (for JAVA_TOOL_OPTIONS). */
export function javaA11yOptions(jar = JAVA_ATK_JAR): string {
  return `-Djavax.accessibility.assistive_technologies=${JAVA_ATK_CLASS} -Xbootclasspath/a:${jar}`;
}

/** What the launch environment depends on: which files exist (tests pass their own). */
export interface ToolkitFacts {
  /** The ATK wrapper jar, when installed. */
  javaJar?: string;
}

/** The facts of this machine. */
export function toolkitFacts(): ToolkitFacts {
  return existsSync(JAVA_ATK_JAR) ? { javaJar: JAVA_ATK_JAR } : {};
}

/**
 * The variables a launched app gets on top of `base` so that its toolkit exposes its tree: Qt's switches,
 * and for any JVM the app may start (directly or from a launcher script) the ATK wrapper, only when its jar
 * is installed (naming a missing class makes the JVM exit: "Assistive Technology not found"). Variables the
 * user set already are kept.
 */
export function toolkitLaunchEnv(base: NodeJS.ProcessEnv, facts: ToolkitFacts = toolkitFacts()): Record<string, string> {
  const out: Record<string, string> = {};
  if (base['QT_ACCESSIBILITY'] === undefined) out['QT_ACCESSIBILITY'] = '1';
  if (base['QT_LINUX_ACCESSIBILITY_ALWAYS_ON'] === undefined) out['QT_LINUX_ACCESSIBILITY_ALWAYS_ON'] = '1';
  const jto = base['JAVA_TOOL_OPTIONS'] ?? '';
  if (facts.javaJar && !jto.includes('assistive_technologies')) out['JAVA_TOOL_OPTIONS'] = `${jto} ${javaA11yOptions(facts.javaJar)}`.trim();
  return out;
}

/** The X root-window property through which Qt 5 (and GTK 2, Java) find the accessibility bus. */
export const ATSPI_ROOT_PROPERTY = 'AT_SPI_BUS';

/**
 * The whole environment of a launched app: `base` with the toolkit switches, then the caller's variables.
 * AT_SPI_BUS_ADDRESS is dropped when a session bus can tell the address (org.a11y.Bus), unless the caller
 * passes it: with it, Qt 6.4 apps never register (see above), and every other toolkit finds the bus without it.
 */
export function appLaunchEnv(base: NodeJS.ProcessEnv, caller: Record<string, string> = {}, facts: ToolkitFacts = toolkitFacts()): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, ...toolkitLaunchEnv(base, facts), ...caller };
  if (env['DBUS_SESSION_BUS_ADDRESS'] && caller['AT_SPI_BUS_ADDRESS'] === undefined) delete env['AT_SPI_BUS_ADDRESS'];
  return env;
}
