/**
 * Pairing, the parts without I/O on the network: the one-time code the server shows, the
 * credentials a pairing derives, the device's own credential file, and the rules about where a pairing
 * server may listen.
 *
 * The code is short-lived, single use and rate-limited: a few wrong tries lock it for good (a new `pairing
 * start` makes a new one). Codes and secrets are compared in constant time (on their SHA-256, so the lengths
 * always agree). The server keeps only the hash of a device's secret; the device keeps the secret, 0600.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cuHome } from '../paths.js';
import { ComputerUseError } from '../protocol/errors.js';

/** SHA-256 of a string, hex. */
export const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

/** Compares two strings in constant time (for their length: both are hashed first). */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a, 'utf8').digest();
  const hb = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(ha, hb);
}

/** Why a code was refused. */
export type CodeRefusal = 'wrong' | 'expired' | 'used' | 'locked';

/** Options of a one-time code. */
export interface CodeOptions {
  /** Lifetime in ms (default 5 min). */
  ttlMs?: number;
  /** Wrong tries before the code is locked (default 5). */
  maxTries?: number;
  /** The clock (tests). */
  now?: () => number;
}

/** A one-time pairing code: `123-456`, short-lived, single use, locked after a few wrong tries. */
export class PairingCode {
  /** The code as shown to the user. */
  readonly text: string;
  readonly expiresAt: number;
  private readonly hash: string;
  private readonly maxTries: number;
  private readonly now: () => number;
  private wrong = 0;
  private used = false;

  constructor(options: CodeOptions = {}) {
    this.now = options.now ?? Date.now;
    const digits = String(randomInt(0, 1_000_000)).padStart(6, '0');
    this.text = `${digits.slice(0, 3)}-${digits.slice(3)}`;
    this.hash = sha256(digits);
    this.expiresAt = this.now() + (options.ttlMs ?? 5 * 60_000);
    this.maxTries = options.maxTries ?? 5;
  }

  /** Wrong tries left before the code locks. */
  get triesLeft(): number { return Math.max(0, this.maxTries - this.wrong); }

  /** Whether the code can still be used. */
  get live(): boolean { return !this.used && this.wrong < this.maxTries && this.now() < this.expiresAt; }

  /**
   * Checks a code a device sent (any separators ignored). Consumes it when it matches; counts a wrong try
   * otherwise. Returns null when accepted, else why not.
   */
  redeem(given: unknown): CodeRefusal | null {
    if (this.used) return 'used';
    if (this.wrong >= this.maxTries) return 'locked';
    if (this.now() >= this.expiresAt) return 'expired';
    const digits = typeof given === 'string' ? given.replace(/[\s-]/g, '').slice(0, 64) : '';
    if (!safeEqual(sha256(digits), this.hash)) {
      this.wrong++;
      return this.wrong >= this.maxTries ? 'locked' : 'wrong';
    }
    this.used = true;
    return null;
  }
}

/** The credentials one pairing derives: an id naming the pairing and a random secret proving it. */
export interface PairCredentials { id: string; secret: string }

/** New random credentials (128-bit id, 256-bit secret). */
export function newCredentials(): PairCredentials {
  return { id: randomBytes(16).toString('hex'), secret: randomBytes(32).toString('base64url') };
}

/** Whether a secret matches the hash the server stored, in constant time. */
export const secretMatches = (secret: unknown, storedHash: string): boolean =>
  typeof secret === 'string' && secret.length <= 256 && safeEqual(sha256(secret), storedHash);

/** Where a pairing server listens, parsed from `ws://host:port` / `wss://host:port`. */
export interface PairAddress { tls: boolean; host: string; port: number }

/** Whether a host is loopback. */
export const isLoopback = (host: string): boolean =>
  host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);

/** Parses a pairing server address; throws invalid_params. */
export function parsePairUrl(url: string): PairAddress {
  const bad = (why: string): ComputerUseError =>
    new ComputerUseError(
      'invalid_params',
      `Not a usable pairing address (${why}). Write ws://127.0.0.1:PORT, or wss://host:PORT with a TLS ` +
        `certificate.`,
    );
  let u: URL;
  try { u = new URL(url); } catch { throw bad('not a URL'); }
  if (u.protocol !== 'ws:' && u.protocol !== 'wss:') throw bad(`scheme ${u.protocol} is not ws: or wss:`);
  if (u.username || u.password) throw bad('credentials in the address');
  if ((u.pathname && u.pathname !== '/') || u.search || u.hash) throw bad('a path, query or fragment');
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (!/^[A-Za-z0-9.:-]{1,253}$/.test(host) || host.startsWith('-')) throw bad('the host is malformed');
  const port = Number(u.port || (u.protocol === 'wss:' ? 443 : 80));
  // 0: any free port (a listener says which it got).
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw bad('the port is not 0–65535');
  return { tls: u.protocol === 'wss:', host, port };
}

/** The address as a URL. */
export const formatPairUrl = (a: PairAddress): string =>
  `${a.tls ? 'wss' : 'ws'}://${a.host.includes(':') ? `[${a.host}]` : a.host}:${a.port}`;

/**
 * Refuses a plain (no TLS) pairing link off loopback: the secret would cross the network in the clear.
 * Used by both ends (where the server listens, where the device dials).
 */
export function requireSafeTransport(a: PairAddress): void {
  if (!a.tls && !isLoopback(a.host)) {
    throw new ComputerUseError(
      'invalid_params',
      `Pairing without TLS is only allowed on loopback, not on ${a.host}: codes and secrets would cross the ` +
        `network in the clear. ` +
        'Give a certificate and key (pairing start --tls-cert F --tls-key F, and the device dials wss://), or keep it on 127.0.0.1 and reach it through an SSH tunnel (ssh -L).',
    );
  }
}

/** What a paired device keeps about its server. */
export interface DeviceCredential { server: string; id: string; secret: string; name?: string; ca?: string }

/** The device's credential file of a home. */
export const defaultCredentialPath = (home: string = cuHome()): string => join(home, 'paired-server.json');

/** Writes a file owner-only (0600), atomically. */
export function writePrivate(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

/** Saves the device's credential (0600). */
export function saveCredential(c: DeviceCredential, path: string = defaultCredentialPath()): void {
  writePrivate(path, JSON.stringify({ version: 1, ...c }, null, 2) + '\n');
}

/** Reads the device's credential; undefined when there is none or it is not safe to use (not owner-only). */
export function loadCredential(path: string = defaultCredentialPath()): DeviceCredential | undefined {
  let text: string;
  try { text = readFileSync(path, 'utf8'); } catch { return undefined; }
  const st = statSync(path);
  if ((st.mode & 0o077) !== 0)
    throw new ComputerUseError(
      'invalid_params',
      `${path} is readable by others; it holds a device secret. Pair again (computer-use pair --revoke, then ` +
        `pair).`,
    );
  const j = JSON.parse(text) as Record<string, unknown>;
  if (typeof j['server'] !== 'string' || typeof j['id'] !== 'string' || typeof j['secret'] !== 'string')
    return undefined;
  return {
    server: j['server'],
    id: j['id'],
    secret: j['secret'],
    ...(typeof j['name'] === 'string' ? { name: j['name'] } : {}),
    ...(typeof j['ca'] === 'string' ? { ca: j['ca'] } : {}),
  };
}

/** Deletes the device's credential. */
export function deleteCredential(path: string = defaultCredentialPath()): void { rmSync(path, { force: true }); }

/** WebSocket close codes of the pairing link. */
export const CLOSE = {
  /** Paired: reconnect with the credentials (the pairing listener ends). */
  paired: 4000,
  /** Credentials unknown or revoked: do not retry. */
  refused: 4001,
  /** The code was wrong, expired, used or locked. */
  badCode: 4003,
  /** The device unpaired itself. */
  unpaired: 4004,
} as const;
