/**
 * The Linux doctor module: what `computer-use doctor` reads of a Linux desktop itself, beside what it asks the
 * driver through the protocol (src/doctor/doctor.ts composes the report). The session type and what works in it,
 * the display's input (XTest, the Wayland portal), the accessibility bus status and its one fix, the toolkits'
 * switches and advice, and the facts of an app's process (/proc).
 */
import { inaccessibleAdvice } from './advice.js';
import { A11Y_FIX_COMMANDS, a11yStatus, atspiRootProperty, displayServer, onPath, setA11yEnabled, xtestExtension } from './prereq.js';
import { probeWaylandInput } from './portal.js';
import { findProcesses, flagOf, processFacts } from './process.js';
import { describeSession, sessionLine } from './doctor/session.js';
import { JAVA_ATK_JAR, javaA11yOptions } from './toolkits.js';

export type { ProcessFacts, Toolkit } from './process.js';
export type { SessionInfo } from './doctor/session.js';

/** The Linux facts doctor reads, one interface for the host's doctor. */
export const linuxDoctor = {
  // The session: which display server, headless or not, and what computer use can do there.
  displayServer, describeSession, sessionLine,
  // Synthetic input: XTest on X11, the RemoteDesktop portal's answer on Wayland.
  xtestExtension, probeWaylandInput,
  // The accessibility bus: its IsEnabled status, the root window's AT_SPI_BUS property, and the fix doctor applies.
  a11yStatus, atspiRootProperty, setA11yEnabled, a11yFixCommands: A11Y_FIX_COMMANDS, onPath,
  // Toolkits: the Java ATK wrapper, and the advice computer_apps shows beside an app off the bus.
  javaAtkJar: JAVA_ATK_JAR, javaA11yOptions, inaccessibleAdvice,
  // An app's process, read from /proc.
  processFacts, findProcesses, flagOf,
} as const;
