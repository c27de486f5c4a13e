/**
 * `apps.resolveLaunch` and `process.identify` on macOS (docs/policy.md, "One app, one allow entry"): what the OS
 * proves, never what
 * an app calls itself. A launch names a bundle id (kind `bundle`: Launch Services' first app for it), an .app
 * path, an app name (looked up as NAME.app in the standard application folders, in order) or an absolute
 * executable; it resolves to one bundle whose executable (CFBundleCopyExecutableURL) and signature
 * (codesign.ts) are the facts, and `apps.launch` starts that same bundle by its path, so what was judged is
 * what runs. A process is identified by libproc (start time, uid, parent, executable) plus the signature of its
 * running code, cached per pid and start time (a process's code does not change identity while it runs), and
 * its argument vector and working directory (procargs.ts), read afresh: a process may rewrite its arguments.
 */
import { realpathSync } from 'node:fs';
import { basename } from 'node:path';
import type {
  AppIdKind,
  IdentifyParams,
  IdentifyResult,
  ResolveLaunchParams,
  ResolveLaunchResult,
} from '../../protocol/identity.js';
import { contentOf } from '../common/content.js';
import { arrayItems, readValue, withScope, type CfScope } from './cf.js';
import { appIdOf, fileUrl, signatureOfPath, signatureOfPid, urlPath, type SignatureFacts } from './codesign.js';
import type { MacApi } from './ffi.js';
import { procIdentity, type ProcIdentity } from './proc.js';
import { procArgs, procCwd } from './procargs.js';

/** Where `open -a NAME` finds an app by name, in the order tried here (user folder last). */
export const APP_FOLDERS = [
  '/System/Applications',
  '/System/Applications/Utilities',
  '/Applications',
  '/Applications/Utilities',
];

/** Options of resolution (tests point them at the fake's bundles). */
export interface ResolveOptions {
  appFolders?: readonly string[];
  /** realpath(3); the fake's bundles are not on disk. */
  realpath?: (path: string) => string;
}

/** A launch resolved to a bundle (or a bare executable). */
export interface ResolvedApp { bundle?: string; executable: string; bundleId?: string; signature?: SignatureFacts }

/** The signature of each live process, by pid and start time. */
export class SignatureCache {
  private readonly byProcess = new Map<string, SignatureFacts | undefined>();
  constructor(private readonly api: MacApi) {}

  /** The signature of a process (undefined: it has no code, or it is gone). */
  of(pid: number, id: ProcIdentity): SignatureFacts | undefined {
    const key = `${pid}:${id.startTime}`;
    if (this.byProcess.has(key)) return this.byProcess.get(key);
    const sig = withScope(this.api, (s) => signatureOfPid(s, pid));
    if (this.byProcess.size >= 4096) this.byProcess.clear(); // bounded: pids come and go
    this.byProcess.set(key, sig);
    return sig;
  }
}

/** The identity fields of an app or window: appId from the signature, else the executable path. */
export function identityFields(
  pid: number,
  id: ProcIdentity,
  sig: SignatureFacts | undefined,
): { pid: number; startToken: string; executable?: string; appId?: string; appIdKind?: AppIdKind; user: string } {
  return {
    pid,
    startToken: String(id.startTime),
    user: String(id.uid),
    ...(id.executable ? { executable: id.executable } : {}),
    ...appIdOf(sig, id.executable),
  };
}

/** `process.identify`. */
export function identify(api: MacApi, cache: SignatureCache, p: IdentifyParams): IdentifyResult {
  const id = procIdentity(api, p.pid);
  if (!id) return { pid: p.pid, gone: true };
  const sig = cache.of(p.pid, id);
  const out: IdentifyResult = { ...identityFields(p.pid, id, sig), signing: sig?.signing ?? 'unsigned' };
  if (id.ppid) out.ppid = id.ppid;
  if (!id.executable) out.unreadable = true;
  // Which script an interpreter runs (procargs.ts): without argv an interpreted app is never allowed.
  const argv = procArgs(api, p.pid);
  if (argv) out.argv = argv;
  const cwd = procCwd(api, p.pid);
  if (cwd) out.cwd = cwd;
  if (p.content && id.executable) {
    const c = contentOf(id.executable, p.compareWith ?? []);
    if (c) out.content = c;
  }
  return out;
}

/** The bundle at a path, if it is one: its executable and bundle id (CFBundle reads Info.plist, binary or XML). */
function bundleAt(s: CfScope, path: string): { executable: string; bundleId?: string } | undefined {
  const api = s.api;
  const bundle = s.own(api.CFBundleCreate(null, fileUrl(s, path)));
  if (!bundle) return undefined;
  const executable = urlPath(api, s.own(api.CFBundleCopyExecutableURL(bundle)));
  if (!executable) return undefined;
  const id = readValue(api, api.CFBundleGetIdentifier(bundle));
  return { executable, ...(typeof id === 'string' ? { bundleId: id } : {}) };
}

/** The first app Launch Services has for a bundle id. */
function bundleOfId(s: CfScope, bundleId: string): string | undefined {
  const api = s.api;
  const err: [unknown] = [null];
  const urls = s.own(api.LSCopyApplicationURLsForBundleIdentifier(s.string(bundleId), err));
  s.own(err[0]);
  if (!urls) return undefined;
  const first = arrayItems(api, urls)[0];
  return first ? urlPath(api, first) : undefined;
}

/**
 * What a launch names, resolved: a bundle and its executable, or an error text saying why nothing is proven.
 * A relative path and a name with a slash are not resolved (open would read them against its own directory).
 */
export function resolveApp(
  api: MacApi,
  p: { command: string; kind?: string },
  opts: ResolveOptions = {},
): ResolvedApp | { unproven: string } {
  const real = opts.realpath ?? realpathSync;
  return withScope(api, (s) => {
    const fromBundle = (path: string): ResolvedApp | undefined => {
      let bundle: string;
      try { bundle = real(path); } catch { return undefined; }
      const b = bundleAt(s, bundle);
      if (!b) return undefined;
      const sig = signatureOfPath(s, bundle);
      return { bundle, ...b, ...(sig ? { signature: sig } : {}) };
    };
    const cmd = p.command;
    if ((p.kind ?? 'command') === 'bundle') {
      const path = bundleOfId(s, cmd);
      return (
        (path && fromBundle(path)) || {
          unproven: `no installed app has the bundle id ${JSON.stringify(cmd.slice(0, 200))}`,
        }
      );
    }
    if ((p.kind ?? 'command') !== 'command')
      return { unproven: `launch targets of kind ${p.kind ?? ''} do not exist on macOS` };
    if (cmd.startsWith('/')) {
      const b = fromBundle(cmd.replace(/\/+$/, ''));
      if (b) return b;
      if (/\.app\/*$/.test(cmd)) return { unproven: `${cmd} is not an app bundle` };
      let executable: string;
      try { executable = real(cmd); } catch { return { unproven: `${cmd} does not exist` }; }
      const sig = signatureOfPath(s, executable);
      return { executable, ...(sig ? { signature: sig } : {}) };
    }
    if (cmd.includes('/'))
      return { unproven: 'a relative path names no app; give an app name, an .app path or a bundle id' };
    const name = cmd.replace(/\.app$/, '');
    for (const folder of opts.appFolders ?? APP_FOLDERS) {
      const b = fromBundle(`${folder}/${name}.app`);
      if (b) return b;
    }
    return {
      unproven:
        `no ${name}.app in ${(opts.appFolders ?? APP_FOLDERS).join(', ')}; Launch Services could pick any app ` +
        `of that name`,
    };
  });
}

/** `apps.resolveLaunch`. */
export function resolveLaunch(api: MacApi, p: ResolveLaunchParams, opts: ResolveOptions = {}): ResolveLaunchResult {
  const args = p.args ?? [];
  const r = resolveApp(api, p, opts);
  if ('unproven' in r) return { argv: [p.command, ...args], names: [p.command], unproven: r.unproven };
  const names = [p.command, r.executable, basename(r.executable)];
  if (r.bundle) names.push(r.bundle, basename(r.bundle).replace(/\.app$/, ''));
  if (r.bundleId) names.push(r.bundleId);
  const out: ResolveLaunchResult = {
    executable: r.executable,
    argv: [r.executable, ...args],
    names: [...new Set(names)],
    signing: r.signature?.signing ?? 'unsigned',
  };
  Object.assign(out, appIdOf(r.signature, r.executable));
  const c = contentOf(r.executable);
  if (c) out.content = c;
  return out;
}
