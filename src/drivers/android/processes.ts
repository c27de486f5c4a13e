/**
 * The phone's processes and packages from what its shell prints (`/proc`, `pm list packages -U`, `dumpsys
 * activity recents`): parsed as untrusted text, never evaluated. Used for the app list and `process.identify`.
 */

/** What /proc says of one process. */
export interface ProcFacts {
  /** Start time in clock ticks since boot (/proc/PID/stat field 22): tells a reused pid apart. */
  startTicks: string;
  uid: number;
  /** The process name as the zygote set it (`com.android.settings`, `com.example.app:remote`). */
  processName: string;
  /** The package the process name claims (before any `:`), when it is a package name. */
  packageName?: string;
}

const PACKAGE = /^[A-Za-z][\w]*(\.[A-Za-z][\w]*)+$/;

/** Parses /proc/PID/stat, /proc/PID/status and /proc/PID/cmdline; undefined when the process is gone. */
export function parseProcessFacts(pid: number, stat: string, status: string, cmdline: string): ProcFacts | undefined {
  // The command name in stat is in parentheses and may hold spaces and ")": the fields start after the last ")".
  const close = stat.lastIndexOf(')');
  if (!stat.startsWith(`${pid} (`) || close < 0) return undefined;
  const fields = stat.slice(close + 2).trim().split(/\s+/);
  const startTicks = fields[19]; // field 22 overall; fields here start at field 3
  const uid = Number(/^Uid:\s*(\d+)/m.exec(status)?.[1]);
  if (!startTicks || !/^\d+$/.test(startTicks) || !Number.isInteger(uid)) return undefined;
  const processName = cmdline.split('\0')[0]!.trim();
  const claimed = processName.split(':')[0]!;
  return { startTicks, uid, processName, ...(PACKAGE.test(claimed) ? { packageName: claimed } : {}) };
}

/** `pm list packages -U [filter]`: "package:com.android.settings uid:1000" per line (the filter matches substrings). */
export function parsePackageUids(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of text.matchAll(/^package:([A-Za-z][\w.]*)\s+uid:(\d+)/gm)) out.set(m[1]!, Number(m[2]));
  return out;
}

/**
 * The packages of the recent-tasks list, most recent first, from `dumpsys activity recents`: each task line
 * names its affinity (`A=10123:com.example.app` on Android 10+, `A=com.example.app` before) or its intent's
 * component (`cmp=com.example.app/.Main`).
 */
export function parseRecentPackages(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (!/Recent #\d+:/.test(line)) continue;
    const m =
      /\bA=(?:\d+:)?([A-Za-z][\w.]*)/.exec(line) ??
      /\bcmp=([A-Za-z][\w.]*)\//.exec(line) ??
      /\bI=([A-Za-z][\w.]*)\//.exec(line);
    if (m && PACKAGE.test(m[1]!) && !out.includes(m[1]!)) out.push(m[1]!);
  }
  return out;
}
