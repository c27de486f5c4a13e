/**
 * App identity from the code signature (docs/policy.md, "One app, one allow entry"): what Security.framework proves
 * about a running
 * process (SecCodeCopyGuestWithAttributes by pid) or a bundle on disk (SecStaticCodeCreateWithPath). The signing
 * identifier (an app's bundle id) and team id are read with SecCodeCopySigningInformation, but believed only
 * after the signature is validated against a requirement that names them: "anchor apple" for Apple's own code,
 * `anchor apple generic and certificate leaf[subject.OU] = "TEAM"` for a Developer ID or App Store app. The
 * signing information alone is not checked by macOS (an ad-hoc signature can claim any identifier and team), so
 * an ad-hoc, unsigned, tampered or otherwise unproven signature gives no appId from the signature: the app is
 * then known by its executable path, as on Linux.
 */
import type { AppIdKind } from '../../protocol/identity.js';
import { readValue, type CfScope } from './cf.js';
import type { CFRef, MacApi } from './ffi.js';

/** How a piece of code is signed, as proven. */
export type Signing = 'apple' | 'developer' | 'adhoc' | 'unsigned' | 'invalid';

/** What the signature proves: `bundleId` and `teamId` only when `signing` is apple or developer. */
export interface SignatureFacts { signing: Signing; bundleId?: string; teamId?: string }

/** kSecCSSigningInformation (SecCode.h). */
const SIGNING_INFORMATION = 1 << 1;
/** kSecCodeSignatureAdhoc (CSCommon.h). */
const SIGNATURE_ADHOC = 0x0002;
/** kCFNumberSInt32Type. */
const CF_NUMBER_SINT32 = 3;
/** A team id is ten upper-case letters or digits (Apple's format); anything else never reaches a requirement. */
const TEAM_ID = /^[A-Z0-9]{10}$/;
/** A bundle id as Apple allows it (reverse DNS: letters, digits, hyphen, dot), capped. */
const BUNDLE_ID = /^[A-Za-z0-9][A-Za-z0-9.-]{0,254}$/;

/** A CFURL for a file path, owned by the scope. */
export function fileUrl(s: CfScope, path: string): CFRef {
  const bytes = Buffer.from(path, 'utf8');
  return s.own(s.api.CFURLCreateFromFileSystemRepresentation(null, bytes, bytes.length, 0));
}

/** The file path of a CFURL (borrowed or owned by the caller). */
export function urlPath(api: MacApi, url: CFRef): string | undefined {
  const buf = new Uint8Array(4096);
  if (!url || !api.CFURLGetFileSystemRepresentation(url, 1, buf, buf.length)) return undefined;
  const end = buf.indexOf(0);
  return Buffer.from(buf.subarray(0, end < 0 ? buf.length : end)).toString('utf8');
}

/** The signature of the running process `pid`; undefined when no such process has code. */
export function signatureOfPid(s: CfScope, pid: number): SignatureFacts | undefined {
  const api = s.api;
  const pidKey = api.kSecGuestAttributePid;
  const attrs = s.own(
    api.CFDictionaryCreate(
      null,
      [pidKey],
      [s.own(api.CFNumberCreate(null, CF_NUMBER_SINT32, Int32Array.of(pid)))],
      1,
      api.kCFTypeDictionaryKeyCallBacks,
      api.kCFTypeDictionaryValueCallBacks,
    ),
  );
  const out: [CFRef] = [null];
  if (api.SecCodeCopyGuestWithAttributes(null, attrs, 0, out) !== 0 || !out[0]) return undefined;
  const code = s.own(out[0]);
  return signatureOf(s, code, (req) => api.SecCodeCheckValidity(code, 0, req));
}

/** The signature of a bundle or executable on disk; undefined when there is no code at that path. */
export function signatureOfPath(s: CfScope, path: string): SignatureFacts | undefined {
  const api = s.api;
  const out: [CFRef] = [null];
  if (api.SecStaticCodeCreateWithPath(fileUrl(s, path), 0, out) !== 0 || !out[0]) return undefined;
  const code = s.own(out[0]);
  return signatureOf(s, code, (req) => api.SecStaticCodeCheckValidity(code, 0, req));
}

function signatureOf(s: CfScope, code: CFRef, check: (req: CFRef) => number): SignatureFacts {
  const api = s.api;
  const out: [CFRef] = [null];
  if (api.SecCodeCopySigningInformation(code, SIGNING_INFORMATION, out) !== 0 || !out[0]) return { signing: 'invalid' };
  const info = s.own(out[0]);
  const identifier = readValue(api, api.CFDictionaryGetValue(info, api.kSecCodeInfoIdentifier));
  const team = readValue(api, api.CFDictionaryGetValue(info, api.kSecCodeInfoTeamIdentifier));
  const flags = readValue(api, api.CFDictionaryGetValue(info, api.kSecCodeInfoFlags));
  if (typeof identifier !== 'string') return { signing: 'unsigned' };
  if (typeof flags === 'number' && (flags & SIGNATURE_ADHOC) !== 0) return { signing: 'adhoc' };
  if (!BUNDLE_ID.test(identifier)) return { signing: 'invalid' };
  const satisfies = (text: string): boolean => {
    const req: [CFRef] = [null];
    if (api.SecRequirementCreateWithString(s.string(text), 0, req) !== 0 || !req[0]) return false;
    return check(s.own(req[0])) === 0;
  };
  if (satisfies('anchor apple')) return { signing: 'apple', bundleId: identifier };
  if (
    typeof team === 'string' &&
    TEAM_ID.test(team) &&
    satisfies(`anchor apple generic and certificate leaf[subject.OU] = "${team}"`)
  ) {
    return { signing: 'developer', bundleId: identifier, teamId: team };
  }
  return { signing: 'invalid' };
}

/**
 * The appId of a signed app: `bundle id@team id`, `bundle id@apple` for Apple's own code (which has no team
 * id), of kind `signed`; an app the signature does not prove is known by its executable path (kind `executable`).
 */
export function appIdOf(
  sig: SignatureFacts | undefined,
  executable: string | undefined,
): { appId?: string; appIdKind?: AppIdKind } {
  if (sig?.bundleId && sig.signing === 'apple') return { appId: `${sig.bundleId}@apple`, appIdKind: 'signed' };
  if (sig?.bundleId && sig.teamId && sig.signing === 'developer')
    return { appId: `${sig.bundleId}@${sig.teamId}`, appIdKind: 'signed' };
  return executable ? { appId: executable, appIdKind: 'executable' } : {};
}
