/**
 * Process identity on Windows (protocol/identity.ts, docs/policy.md, "One app, one allow entry"): what the helper's
 * Win32 calls prove
 * about a process, as the platform-neutral facts the policy decides from, the same way as on Linux. `appId` is the
 * package's AUMID for a packaged app, else the image's final path (QueryFullProcessImageNameW, then
 * GetFinalPathNameByHandleW: links and junctions resolved); `startToken` the creation FILETIME as a decimal
 * string; `user` the token owner's SID. Content facts (SHA-256, copies on PATH) are read here from the image,
 * since the driver runs on the machine the process runs on.
 */
import { realpathSync } from 'node:fs';
import { contentOf } from '../common/content.js';
import type {
  IdentifyParams,
  IdentifyResult,
  Privilege,
  ResolveLaunchParams,
  ResolveLaunchResult,
  TerminateParams,
  TerminateResult,
} from '../../protocol/identity.js';
import { ComputerUseError } from '../../protocol/errors.js';
import { resolveProgram, type ResolveOptions } from './cmdline.js';

/** What the helper's `identify` (and `windows`, `launch`) report per process (helper/Win32.cs ProcessFacts). */
export interface HelperProcess {
  pid?: number;
  /** The image's final path. */
  image?: string;
  /** Creation FILETIME, decimal. */
  startToken?: string;
  /** The token owner's SID. */
  user?: string;
  /** Application User Model ID of a packaged app. */
  aumid?: string;
  /** Mandatory integrity RID (0x2000 medium, 0x3000 high). */
  integrity?: number;
  elevated?: boolean;
  /** OpenProcess refused (a protected or higher-integrity process). */
  denied?: boolean;
  gone?: boolean;
}

/** A string fact within the protocol's bounds, else nothing (a helper answer is checked, never trusted). */
const bounded = (v: unknown, max: number, shape?: RegExp): string | undefined =>
  typeof v === 'string' && v.length > 0 && v.length <= max && !v.includes('\0') && (!shape || shape.test(v))
    ? v
    : undefined;

/** A FILETIME in decimal: what the helper reports as the start token. */
const FILETIME = /^[0-9]{1,20}$/;
/** A SID string as ConvertSidToStringSidW writes it. */
const SID = /^S-1-[0-9]+(-[0-9]+){0,15}$/;
/** An AUMID: "PackageFamilyName!AppId". */
const AUMID = /^[A-Za-z0-9._-]+_[a-z0-9]{13}![A-Za-z0-9._-]+$/;

/** The start token the helper reported, if it is one. */
export function startTokenOf(p: HelperProcess | undefined): string | undefined {
  return bounded(p?.startToken, 64, FILETIME);
}

/**
 * ApplicationFrameHost.exe frames every UWP app's window (helper/AppWindow.cs): its facts say nothing about which
 * app a window is, and an allow entry naming it would reach them all. The helper reports the app's own process;
 * facts of the frame host itself prove no identity.
 */
const FRAME_HOST = /(^|[\\/])applicationframehost\.exe$/i;

/** The identity fields of a process for apps, windows and process.identify. */
export function identityFields(
  p: HelperProcess | undefined,
): Pick<IdentifyResult, 'appId' | 'executable' | 'startToken' | 'user'> {
  const out: Pick<IdentifyResult, 'appId' | 'executable' | 'startToken' | 'user'> = {};
  if (p?.image !== undefined && FRAME_HOST.test(p.image)) return out;
  const image = bounded(p?.image, 4096);
  const aumid = bounded(p?.aumid, 4096, AUMID);
  if (image) out.executable = image;
  if (aumid ?? image) out.appId = (aumid ?? image)!;
  const token = startTokenOf(p);
  if (token) out.startToken = token;
  const user = bounded(p?.user, 256, SID);
  if (user) out.user = user;
  return out;
}

/** The integrity level's name: 0x1000 low, 0x2000 medium, 0x3000 high, 0x4000 system. */
export function integrityName(rid: number): NonNullable<Privilege['level']> {
  return rid >= 0x4000
    ? 'system'
    : rid >= 0x3000
      ? 'high'
      : rid >= 0x2000
        ? 'medium'
        : rid >= 0x1000
          ? 'low'
          : 'untrusted';
}

/** The token's integrity level and elevation, when the helper read them (a process it cannot open has neither). */
export function privilegeOf(p: HelperProcess): Privilege | undefined {
  const out: Privilege = {};
  if (Number.isSafeInteger(p.integrity) && p.integrity! >= 0) out.level = integrityName(p.integrity!);
  if (typeof p.elevated === 'boolean') out.elevated = p.elevated;
  return out.level !== undefined || out.elevated !== undefined ? out : undefined;
}

/** `process.identify` from the helper's facts. */
export function toIdentify(
  pid: number,
  p: HelperProcess,
  params: Pick<IdentifyParams, 'content' | 'compareWith'> = {},
): IdentifyResult {
  if (p.gone === true) return { pid, gone: true };
  const out: IdentifyResult = { pid, ...identityFields(p) };
  // The process is there but Windows shows nothing of it (a protected or elevated process): nothing proves what it is.
  if (!out.executable) out.unreadable = true;
  const privilege = privilegeOf(p);
  if (privilege) out.privilege = privilege;
  if (params.content && out.executable) {
    const c = contentOf(out.executable, params.compareWith ?? []);
    if (c) out.content = c;
  }
  return out;
}

/** The path with links and junctions resolved, as the helper reports a running image (on Windows only). */
function finalPath(p: string): string {
  if (process.platform !== 'win32') return p;
  try { return realpathSync.native(p); } catch { return p; }
}

/** `apps.terminate`: the helper ends the process only while its start token matches (helper/Win32.cs Terminate). */
export function terminateArgs(p: TerminateParams): Record<string, unknown> {
  return { pid: p.pid, ...(p.startToken !== undefined ? { startToken: p.startToken } : {}) };
}

/** A terminate answer, believed only in its one field. */
export function toTerminate(r: { ended?: unknown }): TerminateResult {
  return { ended: r.ended === true };
}

/**
 * `apps.resolveLaunch`: the program a launch would start, found exactly as `apps.launch` finds it (cmdline.ts
 * resolveProgram: System32, the Windows folder, PATH; never the current directory), without starting anything.
 * AUMIDs and URIs are not launched by this driver yet, so they resolve to nothing.
 */
export function resolveLaunch(p: ResolveLaunchParams, o: ResolveOptions, content = true): ResolveLaunchResult {
  if (p.kind !== undefined && p.kind !== 'command')
    throw new ComputerUseError(
      'unsupported',
      `the Windows driver starts programs by path or name; a ${p.kind} launch is not supported yet`,
    );
  const executable = finalPath(resolveProgram(p.command, o));
  const args = p.args ?? [];
  const out: ResolveLaunchResult = {
    executable,
    appId: executable,
    argv: [executable, ...args],
    names: [...new Set([p.command, executable, ...args])],
  };
  if (content) {
    const c = contentOf(executable);
    if (c) out.content = c;
  }
  return out;
}
