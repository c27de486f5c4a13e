/**
 * Process identity from libproc (what the OS proves, never a name): the start time of a pid (proc_bsdinfo's
 * pbi_start_tvsec/usec in µs, the wire's macOS start token, so a reused pid reads as another process), its
 * real uid, its parent and its executable path.
 */
import type { MacApi } from './ffi.js';

/** PROC_PIDTBSDINFO and sizeof(struct proc_bsdinfo) (libproc.h / sys/proc_info.h). */
const PROC_PIDTBSDINFO = 3;
const BSDINFO_SIZE = 136;
/** PROC_PIDPATHINFO_MAXSIZE. */
const PATH_MAX = 4096;

/** What the OS proves about a process. */
export interface ProcIdentity { startTime: number; uid: number; ppid: number; executable?: string }

/** The identity of a live process, or undefined when no process has that pid. */
export function procIdentity(api: MacApi, pid: number): ProcIdentity | undefined {
  const info = new Uint8Array(BSDINFO_SIZE);
  if (api.proc_pidinfo(pid, PROC_PIDTBSDINFO, 0n, info, BSDINFO_SIZE) !== BSDINFO_SIZE) return undefined;
  const v = new DataView(info.buffer);
  // µs since the epoch stays below 2^53 until the year 2255.
  const startTime = Number(v.getBigUint64(120, true)) * 1_000_000 + Number(v.getBigUint64(128, true));
  const uid = v.getUint32(28, true); // pbi_ruid
  const ppid = v.getUint32(16, true); // pbi_ppid
  const path = new Uint8Array(PATH_MAX);
  const n = api.proc_pidpath(pid, path, PATH_MAX);
  const executable = n > 0 ? Buffer.from(path.subarray(0, n)).toString('utf8') : undefined;
  return { startTime, uid, ppid, ...(executable ? { executable } : {}) };
}
