/**
 * The one /proc parser (Linux): what the kernel proves about a process. Both the policy (app identity, pid
 * reuse, the agent host's ancestry) and the Linux driver (identity on every app and window) read it here.
 */
import { readFileSync, readlinkSync, realpathSync } from 'node:fs';

/** What the platform proves about a process. */
export interface ProcessInfo {
  /** Realpath of /proc/<pid>/exe (symlinks resolved, " (deleted)" stripped); absent when not readable. */
  executable?: string;
  /** Start time in clock ticks since boot (field 22 of /proc/<pid>/stat): tells a reused pid apart. */
  startTime?: number;
  /** Parent pid. */
  ppid?: number;
  /** Real user id (first field of `Uid:` in /proc/<pid>/status). */
  uid?: number;
  /** The argument vector (NUL-separated /proc/<pid>/cmdline), when readable; the process can rewrite it. */
  cmdline?: string[];
}

/** Reads /proc/<pid>; undefined off Linux, for an invalid pid, or when the process is gone. */
export function procInfo(pid: number): ProcessInfo | undefined {
  if (process.platform !== 'linux' || !Number.isInteger(pid) || pid <= 0) return undefined;
  const info: ProcessInfo = {};
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: the fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = Number(fields[19]);
    const ppid = Number(fields[1]);
    if (Number.isFinite(start)) info.startTime = start;
    if (Number.isFinite(ppid)) info.ppid = ppid;
  } catch { return undefined; }
  try {
    const uid = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    if (uid !== undefined) info.uid = Number(uid);
  } catch { /* gone between the reads */ }
  const exe = executableOf(pid);
  if (exe) info.executable = exe;
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (raw) info.cmdline = raw.replace(/\0$/, '').split('\0');
  } catch { /* not ours to read */ }
  return info;
}

/** Realpath of a process's executable, when readable (another user's process is not). */
function executableOf(pid: number): string | undefined {
  try {
    // The link reads the path as the kernel opened it; a replaced or removed file reads "<path> (deleted)".
    const path = readlinkSync(`/proc/${pid}/exe`).replace(/ \(deleted\)$/, '');
    try { return realpathSync(path); } catch { return path; }
  } catch { return undefined; }
}

/** Kernel clock ticks per second of /proc start times (USER_HZ: 100 on every Linux architecture Node runs on). */
const CLOCK_TICKS = 100;

/** How long a process has been running, in ms, from its /proc start time and the system uptime; undefined if gone. */
export function processAgeMs(pid: number): number | undefined {
  const start = procInfo(pid)?.startTime;
  if (start === undefined) return undefined;
  try {
    const uptime = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
    return Number.isFinite(uptime) ? Math.max(0, uptime * 1000 - (start / CLOCK_TICKS) * 1000) : undefined;
  } catch { return undefined; }
}
