/**
 * How long an app's accessibility events must stay quiet before a settle calls its update done, per toolkit.
 * Each figure rests on bench/event_quiet_toolkits.sh (the longest gap between two events of one act's burst, per
 * toolkit; the table and the runs are in docs/settle.md). What comes late from an idle handler or a timer is
 * covered elsewhere in the settle: the pings (answered only when the app's main loop is free), the wait for a first
 * event after an input, and the longer tail after structural changes (a window, a dialog, children added).
 */
import { DEFAULT_QUIET_MS } from '../../../protocol/methods.js';
import type { Toolkit } from './bus.js';

/** One toolkit's quiet time: the toolkit's name (and major version) as its application root reports them. */
interface QuietRule { name: RegExp; major?: number; ms: number }

/**
 * Measured quiet times: 1.5 times the longest gap seen between two events of one act's burst, at least 20 ms (the
 * pings and a loaded machine's scheduling), at most the default. Qt is not listed: its acts sent one event each
 * (115 ms after the action), so no gap was seen to set a shorter window by. LibreOffice names itself "gtk" 3 (its
 * VCL plug-in) and behaves as GTK 3 but for a first toolbar toggle's ~300 ms timer, which no quiet window shorter
 * than the structural tail catches; the late-event correction in EventWatcher covers such apps.
 * An app whose toolkit is not listed gets DEFAULT_QUIET_MS.
 */
export const TOOLKIT_QUIET: readonly QuietRule[] = [
  { name: /^gtk$/i, major: 3, ms: 20 },
  { name: /^gtk$/i, major: 4, ms: 50 },
  { name: /^gecko$/i, ms: 20 },
  { name: /^chromium$/i, ms: 20 },
];

/** The quiet time for an app of `toolkit`: its measured figure, else the safe default. */
export function quietTimeFor(toolkit: Toolkit): number {
  const major = Number.parseInt(toolkit.version, 10);
  const rule = TOOLKIT_QUIET.find((r) =>
    r.name.test(toolkit.name.trim()) && (r.major === undefined || r.major === major));
  return rule?.ms ?? DEFAULT_QUIET_MS;
}
