/**
 * A process's argument vector and working directory on macOS, for the policy's judgement of interpreters (an
 * interpreter is allowed only with the script its command line runs, docs/policy.md, "One app, one allow entry"). The
 * argument
 * vector comes from sysctl KERN_PROCARGS2 (what ps shows), the working directory from proc_pidinfo
 * PROC_PIDVNODEPATHINFO.
 *
 * KERN_PROCARGS2 hands back a copy of the top of the process's stack: `int argc` (the kernel's count), the
 * executable path, NUL padding, then argc NUL-terminated arguments, then the environment. The strings are the
 * process's own memory, which it may rewrite, and the copy may be cut at the buffer's end, so the parser trusts
 * nothing: it never reads past argc strings (the environment holds secrets), and it reports a prefix of the
 * arguments it could read whole and as UTF-8 (at most MAX_ARGS of at most MAX_ARG_UNITS UTF-16 units each, the
 * protocol's caps). A prefix is safe for the policy: the script an interpreter runs is the first non-option word,
 * so a prefix names the same script or none, and without a script an interpreter is never allowed.
 */
import type { MacApi } from './ffi.js';

/** CTL_KERN, KERN_ARGMAX, KERN_PROCARGS2 (sys/sysctl.h). */
const CTL_KERN = 1;
const KERN_ARGMAX = 8;
const KERN_PROCARGS2 = 49;
/** The most bytes read for one process (kern.argmax is 1 MiB on current macOS; a larger claim is not believed). */
const MAX_PROCARGS = 4 * 1024 * 1024;
/** The protocol's caps on `argv` (protocol/identity.ts IdentifyResult). */
export const MAX_ARGS = 4096;
export const MAX_ARG_UNITS = 65_536;

/** PROC_PIDVNODEPATHINFO and sizeof(struct proc_vnodepathinfo): two vnode_info_path of 152 + MAXPATHLEN bytes. */
const PROC_PIDVNODEPATHINFO = 9;
const VNODE_INFO_SIZE = 152;
const MAXPATHLEN = 1024;
const VNODEPATHINFO_SIZE = 2 * (VNODE_INFO_SIZE + MAXPATHLEN);

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The arguments in a KERN_PROCARGS2 buffer: a prefix of argv (see above), or undefined when the buffer does not
 * even hold a count and a terminated executable path, or the count is negative.
 */
export function parseProcArgs(buf: Uint8Array): string[] | undefined {
  if (buf.length < 4) return undefined;
  const argc = new DataView(buf.buffer, buf.byteOffset, buf.byteLength).getInt32(0, true);
  if (argc < 0) return undefined;
  let at = buf.indexOf(0, 4);
  if (at < 0) return undefined; // the executable path runs to the end: nothing after it can be read
  // NUL padding after the path (ps and libproc skip it the same way; an empty argv[0] reads as padding).
  while (at < buf.length && buf[at] === 0) at++;
  const args: string[] = [];
  while (args.length < Math.min(argc, MAX_ARGS)) {
    const end = buf.indexOf(0, at);
    if (end < 0) break; // cut by the buffer's end: the partial argument is not reported
    let arg: string;
    try { arg = utf8.decode(buf.subarray(at, end)); } catch { break; }
    if (arg.length > MAX_ARG_UNITS) break;
    args.push(arg);
    at = end + 1;
  }
  return args;
}

/** kern.argmax: the size of a process's argument area, bounded. */
function argMax(api: MacApi): number {
  const out = new Uint8Array(4);
  const len: [bigint | number] = [4];
  if (api.sysctl(Int32Array.of(CTL_KERN, KERN_ARGMAX), 2, out, len, null, 0) !== 0) return 256 * 1024;
  const n = new DataView(out.buffer).getInt32(0, true);
  return n > 0 ? Math.min(n, MAX_PROCARGS) : 256 * 1024;
}

/** The arguments of a process (a prefix, see above), or undefined when macOS gives none (gone, another user's). */
export function procArgs(api: MacApi, pid: number): string[] | undefined {
  const size = argMax(api);
  const buf = new Uint8Array(size);
  const len: [bigint | number] = [size];
  if (api.sysctl(Int32Array.of(CTL_KERN, KERN_PROCARGS2, pid), 3, buf, len, null, 0) !== 0) return undefined;
  const got = Math.max(0, Math.min(Number(len[0]), size));
  return parseProcArgs(buf.subarray(0, got));
}

/** The working directory of a process (pvi_cdir.vip_path), or undefined when unreadable or not a terminated absolute path. */
export function procCwd(api: MacApi, pid: number): string | undefined {
  const buf = new Uint8Array(VNODEPATHINFO_SIZE);
  if (api.proc_pidinfo(pid, PROC_PIDVNODEPATHINFO, 0n, buf, VNODEPATHINFO_SIZE) !== VNODEPATHINFO_SIZE)
    return undefined;
  const path = buf.subarray(VNODE_INFO_SIZE, VNODE_INFO_SIZE + MAXPATHLEN);
  const end = path.indexOf(0);
  if (end <= 0) return undefined;
  let cwd: string;
  try { cwd = utf8.decode(path.subarray(0, end)); } catch { return undefined; }
  return cwd.startsWith('/') ? cwd : undefined;
}
