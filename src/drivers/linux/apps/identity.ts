/**
 * Process identity on Linux (protocol/identity.ts): what /proc proves about a process, reported as the
 * platform-neutral facts the policy decides from. `appId` is the executable's realpath, `startToken` the /proc
 * start time in clock ticks, `user` the real uid. Identity by content: the executable is compared with the
 * programs on PATH (and its own directory) by size, then SHA-256, so a renamed copy of seahorse reports
 * `/usr/bin/seahorse` in `sameAs` (the policy denies it by that name); listings and hashes are cached by
 * device, inode, size and mtime, so a read pays for a hash only when a same-size program exists.
 */
import { readlinkSync } from 'node:fs';
import { procInfo, type ProcessInfo } from '../../../common/proc.js';
import { contentOf, sameAs } from '../../common/content.js';
import { packageOf } from './packages.js';
import { scriptLauncher } from './resolve.js';
import type { IdentifyParams, IdentifyResult, TerminateParams, TerminateResult } from '../../../protocol/identity.js';

/** The identity fields of apps and windows. */
export interface IdentityFacts {
  appId?: string;
  executable?: string;
  startToken?: string;
  user?: string;
  package?: string;
  sameAs?: string[];
}

/** The start token of a process (its /proc start time), or undefined when it is gone. */
export function startTokenOf(pid: number): string | undefined {
  const t = procInfo(pid)?.startTime;
  return t === undefined ? undefined : String(t);
}

/**
 * How long the facts of one process (pid, start time, executable, user) are reused. A window list asks them for every
 * app and window, and each snapshot for its window: the package and the copies on PATH cost ~0.4 ms of file system
 * calls each time, and for a process that keeps running they change only when programs on PATH do.
 */
const FACTS_MS = 2000;
const recentFacts = new Map<string, { at: number; facts: IdentityFacts }>();
const MAX_RECENT_FACTS = 256;

/** The identity fields /proc proves for a process (`sameAs` only when it has copies). */
export function factsOf(info: ProcessInfo | undefined): IdentityFacts {
  const key = info?.executable && info.startTime !== undefined
    ? `${info.startTime}\n${info.uid ?? ''}\n${info.executable}` : undefined;
  const now = performance.now();
  const hit = key !== undefined ? recentFacts.get(key) : undefined;
  if (hit && now - hit.at <= FACTS_MS) return copyFacts(hit.facts);
  const facts = readFacts(info);
  if (key !== undefined) {
    recentFacts.delete(key);
    if (recentFacts.size >= MAX_RECENT_FACTS) recentFacts.delete(recentFacts.keys().next().value!);
    recentFacts.set(key, { at: now, facts: copyFacts(facts) });
  }
  return facts;
}

function copyFacts(f: IdentityFacts): IdentityFacts {
  return f.sameAs ? { ...f, sameAs: [...f.sameAs] } : { ...f };
}

function readFacts(info: ProcessInfo | undefined): IdentityFacts {
  const out: IdentityFacts = {};
  if (info?.executable) { out.appId = info.executable; out.executable = info.executable; }
  if (info?.startTime !== undefined) out.startToken = String(info.startTime);
  if (info?.uid !== undefined) out.user = String(info.uid);
  if (info?.executable) {
    const pkg = packageOf(info.executable);
    if (pkg) out.package = pkg;
    const same = sameAs(info.executable);
    if (same.length) out.sameAs = same;
  }
  return out;
}

/** Copies the identity facts of a process onto an app or window. */
export function withIdentity<T extends IdentityFacts>(target: T, info: ProcessInfo | undefined): T {
  return Object.assign(target, factsOf(info));
}

/** `process.identify`. */
export function identify(p: IdentifyParams): IdentifyResult {
  const info = procInfo(p.pid);
  if (!info) return { pid: p.pid, gone: true };
  const { sameAs: _same, ...facts } = factsOf(info);
  const out: IdentifyResult = { pid: p.pid, ...facts };
  if (info.ppid !== undefined) out.ppid = info.ppid;
  if (info.cmdline) out.argv = info.cmdline.slice(0, 4096);
  try { out.cwd = readlinkSync(`/proc/${p.pid}/cwd`); } catch { /* another user's process */ }
  // An interpreter running an installed script (meld: python3 /usr/bin/meld) is named by that script's commands.
  const launcher =
    info.executable && out.argv && out.cwd ? scriptLauncher(info.executable, out.argv, out.cwd) : undefined;
  if (launcher) out.launcher = launcher;
  if (!info.executable) out.unreadable = true;
  if (p.content && info.executable) {
    const c = contentOf(info.executable, p.compareWith ?? []);
    if (c) out.content = c;
  }
  return out;
}

/** What node.act's `expect` says about the process behind the element (protocol NodeExpectation). */
export interface ProcessExpectation { pid?: number; startToken?: string; appId?: string }

/**
 * Why the process `pid` (the one the bus daemon says owns the element's connection) is not the one expected, or
 * undefined when /proc proves it is: same pid, same start time (a reused pid has another), same executable (a
 * process that exec'd another program keeps its pid and start time). No pid expected: nothing to prove.
 */
export function processMismatch(expect: ProcessExpectation, pid: number): string | undefined {
  if (expect.pid === undefined) return undefined;
  if (pid <= 0) return 'the process behind the element cannot be proven';
  if (pid !== expect.pid) return `the element belongs to process ${pid}, not ${expect.pid}`;
  const info = procInfo(pid);
  if (info?.startTime === undefined) return `process ${pid} has exited`;
  if (expect.startToken !== undefined && String(info.startTime) !== expect.startToken)
    return `pid ${pid} now belongs to another process (another start time)`;
  if (expect.appId !== undefined && info.executable !== expect.appId) return `process ${pid} now runs another program`;
  return undefined;
}

/** `apps.terminate`: SIGKILL, only while the pid still has the start token the caller saw. */
export function terminate(p: TerminateParams): TerminateResult {
  const now = startTokenOf(p.pid);
  if (now === undefined || (p.startToken !== undefined && now !== p.startToken)) return { ended: false };
  try { process.kill(p.pid, 'SIGKILL'); return { ended: true }; } catch { return { ended: false }; }
}

export { contentOf, sameAs };
