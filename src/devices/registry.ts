/**
 * The devices a user added (`computer-use device add …`), kept in `<home>/devices.json`, owner-only (0600),
 * written atomically. Every host (MCP, pi, CLI) reads it, so a device added once is there in every session.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cuHome } from '../paths.js';
import { parseMode, type Mode } from '../policy/modes.js';
import { ComputerUseError } from '../protocol/errors.js';
import { formatPairUrl, parsePairUrl, requireSafeTransport } from './pairing.js';
import { parseAdbUrl } from './adb.js';
import { parseRemoteCommand, parseSshUrl } from './ssh.js';

/** One added device. */
export interface DeviceSpec {
  /** Short name the model and the user use (`device: "lab"`); letters, digits, - and _. */
  name: string;
  /** Where it is: `ssh://user@host[:port]`; for a paired device, where this side listens for it (`ws://127.0.0.1:PORT`,
  * `wss://…`). */
  url: string;
  /**
   * "paired" for a device that dialed in with a code (`computer-use pair`); "adb" for a phone on this machine's adb
   * server; "command" for a driver of the user's own run on this machine (`device add NAME --command`); ssh when
   * absent.
   */
  kind?: 'paired' | 'adb' | 'command';
  /** The pairing's id (paired devices). */
  pairId?: string;
  /** SHA-256 of the device's secret (paired devices); the secret itself stays on the device. */
  secretHash?: string;
  /**
   * The token a paired phone gave when pairing (the AccessibilityService app): this side sends it back in the
   * link's `ok` frame, proving to the phone that it talks to the host it paired with, not to another program on
   * the phone listening on the paired port. Kept here (0600) because the phone checks it on every link.
   */
  linkToken?: string;
  /** TLS certificate and key files the pairing listener uses (wss://), absolute. */
  tlsCert?: string;
  tlsKey?: string;
  /**
   * ssh: remote command words instead of `computer-use driver linux` (a package not installed globally). "command":
   * the driver's argv on this machine, run as it is (no shell).
   */
  command?: string[];
  /** An ssh_config file for this device (`ssh -F`), absolute. */
  sshConfig?: string;
  /** Permission mode on this device (default: the session's). */
  mode?: Mode;
  /** Apps acted on without a first-use question on this device (added to the session's list). */
  allowApps?: string[];
  /** Apps never read or acted on on this device (added to the session's list). */
  denyApps?: string[];
}

/** The url of a driver-command device: it runs here. */
export const COMMAND_URL = 'local';

/** Names the model and the CLI use; never the reserved name of the local device. */
export const DEVICE_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;

/** The devices file of a home. */
export const defaultDevicesPath = (home: string = cuHome()): string => join(home, 'devices.json');

/** Checks one spec (from the file or the CLI); throws invalid_params naming the problem. */
export function validateSpec(raw: unknown): DeviceSpec {
  const bad = (why: string): ComputerUseError =>
    new ComputerUseError('invalid_params', `Device entry refused: ${why}.`);
  if (typeof raw !== 'object' || raw === null) throw bad('not an object');
  const r = raw as Record<string, unknown>;
  const name = r['name'];
  if (typeof name !== 'string' || !DEVICE_NAME.test(name))
    throw bad('name must be a letter then up to 31 letters, digits, - or _');
  if (name.toLowerCase() === 'local') throw bad('"local" is the name of this machine');
  // `d3` would read as the ref prefix of device 3.
  if (/^d\d+$/i.test(name)) throw bad(`${name} reads as a device ref prefix (d2, d3…); pick another name`);
  const url = r['url'];
  if (typeof url !== 'string') throw bad('no url');
  if (r['kind'] === 'paired') return validatePaired(name, url, r, bad);
  if (r['kind'] === 'adb') {
    parseAdbUrl(url);
    const out: DeviceSpec = { name, url, kind: 'adb' };
    policyFields(out, r, bad);
    return out;
  }
  if (r['kind'] === 'command') {
    const c = r['command'];
    const word = (w: unknown): boolean => typeof w === 'string' && w.length <= 4096 && !w.includes('\0');
    if (!Array.isArray(c) || c.length === 0 || c.length > 256 || !c.every(word) || c[0] === '')
      throw bad('command must be a list of 1 to 256 words');
    const out: DeviceSpec = { name, url: COMMAND_URL, kind: 'command', command: c as string[] };
    policyFields(out, r, bad);
    return out;
  }
  if (r['kind'] !== undefined) throw bad(`unknown kind ${JSON.stringify(String(r['kind']).slice(0, 20))}`);
  parseSshUrl(url);
  const out: DeviceSpec = { name, url };
  if (r['command'] !== undefined) {
    if (!Array.isArray(r['command']) || !r['command'].every((w) => typeof w === 'string'))
      throw bad('command must be a list of words');
    out.command = parseRemoteCommand((r['command'] as string[]).join(' '));
  }
  if (r['sshConfig'] !== undefined) {
    if (typeof r['sshConfig'] !== 'string' || !r['sshConfig'].startsWith('/'))
      throw bad('sshConfig must be an absolute path');
    out.sshConfig = r['sshConfig'];
  }
  policyFields(out, r, bad);
  return out;
}

function policyFields(out: DeviceSpec, r: Record<string, unknown>, bad: (why: string) => ComputerUseError): void {
  if (r['mode'] !== undefined) out.mode = parseMode(String(r['mode']));
  for (const k of ['allowApps', 'denyApps'] as const) {
    const v = r[k];
    if (v === undefined) continue;
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string' && x.length > 0 && x.length <= 200))
      throw bad(`${k} must be a list of app names`);
    out[k] = v as string[];
  }
}

/** A phone's link token (PairClient.newToken: 256 bits, base64url). */
export const LINK_TOKEN = /^[A-Za-z0-9_-]{22,256}$/;

/** A paired device: where this side listens, the pairing id and the hash of the device's secret. */
function validatePaired(
  name: string,
  url: string,
  r: Record<string, unknown>,
  bad: (why: string) => ComputerUseError,
): DeviceSpec {
  const addr = parsePairUrl(url);
  if (addr.port === 0) throw bad('a paired device needs a fixed port');
  if (addr.tls && (typeof r['tlsCert'] !== 'string' || typeof r['tlsKey'] !== 'string'))
    throw bad('a wss:// listener needs tlsCert and tlsKey');
  if (!addr.tls) requireSafeTransport(addr);
  if (typeof r['pairId'] !== 'string' || !/^[0-9a-f]{32}$/.test(r['pairId'])) throw bad('pairId must be 32 hex digits');
  if (typeof r['secretHash'] !== 'string' || !/^[0-9a-f]{64}$/.test(r['secretHash']))
    throw bad('secretHash must be a SHA-256 in hex');
  const out: DeviceSpec = {
    name,
    url: formatPairUrl(addr),
    kind: 'paired',
    pairId: r['pairId'],
    secretHash: r['secretHash'],
  };
  if (r['linkToken'] !== undefined) {
    if (typeof r['linkToken'] !== 'string' || !LINK_TOKEN.test(r['linkToken']))
      throw bad('linkToken must be 22–256 base64url characters');
    out.linkToken = r['linkToken'];
  }
  for (const k of ['tlsCert', 'tlsKey'] as const) {
    if (r[k] === undefined) continue;
    if (typeof r[k] !== 'string' || !r[k].startsWith('/')) throw bad(`${k} must be an absolute path`);
    out[k] = r[k];
  }
  policyFields(out, r, bad);
  return out;
}

/** Reads the devices file; a missing file is no devices. Entries that do not check out are skipped with a warning. */
export function loadDevices(path: string = defaultDevicesPath()): { devices: DeviceSpec[]; warnings: string[] } {
  let text: string;
  try { text = readFileSync(path, 'utf8'); } catch { return { devices: [], warnings: [] }; }
  const warnings: string[] = [];
  try {
    // Other users must not be able to point this session at their machine.
    const st = statSync(path);
    if (typeof process.getuid === 'function' && st.uid !== process.getuid())
      return { devices: [], warnings: [`${path} is not owned by you; ignored`] };
    if ((st.mode & 0o022) !== 0)
      return { devices: [], warnings: [`${path} is writable by others; ignored (chmod 600 it)`] };
  } catch { /* read above succeeded */ }
  let json: unknown;
  try { json = JSON.parse(text); } catch { return { devices: [], warnings: [`${path} is not JSON; ignored`] }; }
  const list = (json as { devices?: unknown }).devices;
  if (!Array.isArray(list)) return { devices: [], warnings: [`${path} has no "devices" list; ignored`] };
  const devices: DeviceSpec[] = [];
  for (const d of list) {
    try {
      const spec = validateSpec(d);
      if (devices.some((x) => x.name === spec.name)) throw new Error(`duplicate name ${spec.name}`);
      devices.push(spec);
    } catch (e) { warnings.push(`${path}: ${(e as Error).message}`); }
  }
  return { devices, warnings };
}

/** Writes the devices file (0600, atomically). */
export function saveDevices(devices: DeviceSpec[], path: string = defaultDevicesPath()): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ version: 1, devices }, null, 2) + '\n', { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}
