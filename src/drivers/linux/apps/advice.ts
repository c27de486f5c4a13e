/**
 * The toolkit advice doctor gives for an app that is not on the accessibility bus, and that the app list
 * shows beside such an app (AppInfo.inaccessible). Pure: it works from the facts /proc gave (process.ts).
 * Each recipe here was run and seen to work (Debian 12; see toolkits.ts for the numbers). It lives with the
 * Linux driver, which reports it on each such app, and doctor imports it from here (drivers import no doctor).
 */
import { GTK2_A11Y_MODULES, JAVA_ATK_CLASS, JAVA_ATK_JAR, javaA11yOptions } from './toolkits.js';
import type { Toolkit } from './process.js';
import type { Remedy } from '../../../protocol/errors.js';

/** The process facts the advice needs. */
export interface AdviceFacts {
  toolkit: Toolkit;
  /** Its environment variables that matter (QT_*, JAVA_TOOL_OPTIONS, GSK_RENDERER, NO_AT_BRIDGE). */
  env: Record<string, string>;
  /** Whether the Java ATK wrapper jar is installed on this machine. */
  javaJarInstalled?: boolean;
  /** The X root window's AT_SPI_BUS property is set (Qt 5 finds the bus reliably only through it). */
  atspiRootProperty?: boolean;
  /** Whether GTK 2's gail and atk-bridge modules are installed on this machine. */
  gtk2ModulesInstalled?: boolean;
}

/**
 * Why the app is not readable and what makes it readable (`fix` absent when only a remedy helps). `remedy` names
 * what the host can do about it (protocol/errors.ts REMEDIES): the host writes those words in its tools' names.
 */
export interface Advice { reason: string; fix?: string; remedy: Remedy[] }

/** A start by the host sets the switch up (toolkits.ts), and the pixels stay readable whatever happens. */
const RELAUNCH: Remedy[] = ['relaunch', 'read_pixels'];
/** Only the pixels: no start by the host changes what the app does. */
const PIXELS: Remedy[] = ['read_pixels'];

/** Advice for a process with windows that never registered with the accessibility bus. */
export function inaccessibleAdvice(f: AdviceFacts): Advice {
  switch (f.toolkit) {
    case 'qt': {
      const qtOff = f.env['QT_ACCESSIBILITY'] !== '1' && f.env['QT_LINUX_ACCESSIBILITY_ALWAYS_ON'] === undefined;
      const why =
        f.env['AT_SPI_BUS_ADDRESS'] !== undefined
          ? 'a Qt app started with AT_SPI_BUS_ADDRESS in its environment (Qt 6.4 then never registers; Qt 5 ' +
            'only now and then)'
          : f.atspiRootProperty === false
            ? 'a Qt app started while the X root window had no AT_SPI_BUS property (Qt 5 then finds the ' +
              'accessibility bus only now and then)'
            : qtOff
              ? 'a Qt app started without QT_ACCESSIBILITY=1'
              : 'a Qt app whose accessibility bridge did not connect when it started';
      return {
        reason: why,
        fix:
          'It needs QT_ACCESSIBILITY=1, QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1, no AT_SPI_BUS_ADDRESS, and the ' +
          'AT_SPI_BUS root-window property when it starts.',
        remedy: RELAUNCH,
      };
    }
    case 'java': {
      const jto = f.env['JAVA_TOOL_OPTIONS'] ?? '';
      if (!f.javaJarInstalled)
        return {
          reason: 'a Java app, and the Java ATK wrapper is not installed',
          fix: 'apt-get install libatk-wrapper-java-jni, then start it again.',
          remedy: RELAUNCH,
        };
      const why = jto.includes(JAVA_ATK_CLASS)
        ? jto.includes(JAVA_ATK_JAR)
          ? 'a Java app whose ATK wrapper did not register'
          : 'a Java app started with the ATK wrapper named but not on its class path'
        : 'a Java app started without the ATK wrapper';
      return {
        reason: why,
        fix: `It needs JAVA_TOOL_OPTIONS="${javaA11yOptions()}" when it starts.`,
        remedy: RELAUNCH,
      };
    }
    case 'gtk4':
      return {
        reason: 'a GTK 4 app that did not register (GTK 4.8 under Xvfb needs GSK_RENDERER=cairo)',
        fix: 'It needs GSK_RENDERER=cairo when it starts.',
        remedy: RELAUNCH,
      };
    case 'gtk2': {
      // GTK 2 has no bridge of its own: it speaks AT-SPI only through the modules GTK_MODULES names.
      if (f.gtk2ModulesInstalled === false) {
        return {
          reason: 'a GTK 2 app, and GTK 2\'s accessibility modules (gail, atk-bridge) are not installed',
          fix: 'apt-get install libgail-common libatk-adaptor, then start it again through launch.',
          remedy: RELAUNCH,
        };
      }
      const loaded = (f.env['GTK_MODULES'] ?? '').split(':');
      return GTK2_A11Y_MODULES.every((m) => loaded.includes(m))
        ? { reason: 'a GTK 2 app whose gail and atk-bridge modules did not register', remedy: RELAUNCH }
        : {
          reason: 'a GTK 2 app started without the gail and atk-bridge modules (GTK 2 has no accessibility bridge ' +
            'of its own)',
          fix: 'Start it again through launch, which adds GTK_MODULES=gail:atk-bridge for a GTK 2 program.',
          remedy: RELAUNCH,
        };
    }
    case 'gtk3':
      return f.env['NO_AT_BRIDGE'] === '1'
        ? { reason: 'a GTK app started with NO_AT_BRIDGE=1', fix: 'Restart it without NO_AT_BRIDGE.', remedy: PIXELS }
        : { reason: 'a GTK app that did not register with the accessibility bus', remedy: RELAUNCH };
    case 'chromium': case 'electron':
      return {
        reason: 'a Chromium-based app that is not on the accessibility bus',
        fix: 'Restart it with --force-renderer-accessibility.',
        remedy: PIXELS,
      };
    default:
      return { reason: 'its toolkit does not speak AT-SPI', fix: 'No switch makes it readable.', remedy: PIXELS };
  }
}

/**
 * Whether an app off the bus may still register: false when its facts say it never will (no toolkit that speaks
 * AT-SPI, GTK 2 without its modules, GTK 3 with NO_AT_BRIDGE=1), so a launch answers with its window at once
 * instead of waiting for a tree that cannot come.
 */
export function mayStillRegister(f: Pick<AdviceFacts, 'toolkit' | 'env'>): boolean {
  switch (f.toolkit) {
    case 'unknown': return false;
    case 'gtk2': {
      const loaded = (f.env['GTK_MODULES'] ?? '').split(':');
      return GTK2_A11Y_MODULES.every((m) => loaded.includes(m));
    }
    case 'gtk3': return f.env['NO_AT_BRIDGE'] !== '1';
    default: return true;
  }
}
