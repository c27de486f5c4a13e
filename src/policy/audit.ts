/**
 * The audit log: JSON lines under `<home>/plugin-data/computer-use/audit.jsonl`, mode 0600.
 * A `decided` record is written and fsynced before dispatch; a `done` record with the same id completes it (written,
 * not waited on to reach the disk: the next fsync carries it).
 * A crash between the two leaves the decision on disk. Typed text is stored as its length and a keyed digest
 * prefix (HMAC-SHA-256 with a random per-install key, so a short password cannot be recovered by trying a
 * dictionary against the log), never in clear; app text (element names, commands) goes through the engine's
 * secret redaction. A crash mid-write leaves a torn last line: the next writer starts a new line first, and the
 * readers (`read`, the panel's index) skip torn lines and count them, so no complete record is lost.
 */
import { escapeLine, nameText, quoteText } from '../engine/escape.js';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fchmodSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { redactText } from '../engine/redact.js';
import { cuPath } from '../paths.js';

/** Default audit path under the home (COMPUTER_USE_HOME or ~/.computer-use). */
export function defaultAuditPath(): string { return cuPath('plugin-data', 'computer-use', 'audit.jsonl'); }

/** A digest of typed text: its length and the first 16 hex digits of its HMAC-SHA-256 under the install key. */
export interface TextDigest { len: number; hmac: string }

/** Default key path: `<home>/plugin-data/computer-use/audit.key`. */
export function defaultAuditKeyPath(): string { return cuPath('plugin-data', 'computer-use', 'audit.key'); }

const KEY_BYTES = 32;
const keys = new Map<string, Buffer>();

/**
 * The per-install secret key (32 random bytes, mode 0600), created on first use. Shared by the audit
 * digests and the settings confirmation. A key file that is not exactly 32 bytes, or that others can read,
 * is refused (throws): the caller then writes no digest (nothing is sent).
 */
export function installKey(path: string = defaultAuditKeyPath()): Buffer {
  const cached = keys.get(path);
  if (cached) return cached;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
    const key = randomBytes(KEY_BYTES);
    try { fchmodSync(fd, 0o600); writeSync(fd, key); fsyncSync(fd); } finally { closeSync(fd); }
    keys.set(path, key);
    return key;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  fd = openSync(path, 'r');
  try {
    const st = fstatSync(fd);
    if ((st.mode & 0o077) !== 0 || (typeof process.getuid === 'function' && st.uid !== process.getuid())) {
      throw new Error(
        `${path} is readable by other users or not owned by this user; remove it (a new key is made) or ` +
          `chmod 600 it`,
      );
    }
    const key = Buffer.alloc(KEY_BYTES + 1);
    const n = readSync(fd, key, 0, KEY_BYTES + 1, 0);
    if (n !== KEY_BYTES) throw new Error(`${path} is not a ${KEY_BYTES}-byte key; remove it and a new one is made`);
    const out = key.subarray(0, KEY_BYTES);
    keys.set(path, out);
    return out;
  } finally { closeSync(fd); }
}

/** Length + keyed digest prefix of a value (never the value). */
export function digestText(s: string, key: Buffer = installKey()): TextDigest {
  return { len: [...s].length, hmac: createHmac('sha256', key).update(s, 'utf8').digest('hex').slice(0, 16) };
}

/** The decision part of a record. */
export type AuditDecision = 'allowed' | 'denied' | 'declined' | 'confirmation_required' | 'paused' | 'stale';

/** Written before dispatch (or as the only record of a refusal). */
export interface DecidedRecord {
  v: 1;
  phase: 'decided';
  id: string;
  time: string;
  session: string;
  device: string;
  mode: string;
  tool: string;
  app?: string;
  executable?: string;
  pid?: number;
  window?: string;
  ref?: string;
  /** Hash of the element fingerprint (window, pid, start time, role, name, stable id, path, index). */
  fingerprint?: string;
  op?: string;
  role?: string;
  /** Element name as the app labels it, secret-redacted and cut. */
  name?: string;
  /** Typed text or value as length + digest. */
  value?: TextDigest;
  /** Shortcut keys in clear, or length + digest when they type characters. */
  keys?: string | TextDigest;
  command?: string;
  /** Screen pixel of pointer input ("x,y" or "x,y→x,y"). */
  point?: string;
  /** True when something was stored as a digest or masked. */
  redacted: boolean;
  decision: AuditDecision;
  /** Why (the rule, the mode, the user's answer). */
  reason: string;
  /** What the human answered, when asked. */
  answer?: string;
  /** "host": the MCP host's own tool approval stood in for the per-app question. */
  approved_by?: 'host';
}

/** Written after dispatch with the receipt. */
export interface DoneRecord {
  v: 1;
  phase: 'done';
  id: string;
  time: string;
  receipt: string;
  detail?: string;
  ms: number;
}

export type AuditRecord = DecidedRecord | DoneRecord;

/** Appends records durably. Throws when the log cannot be written (the caller then sends nothing). */
export class AuditLog {
  /** The install key next to the log (`audit.key` in the same folder). */
  readonly keyPath: string;

  constructor(readonly path: string = defaultAuditPath()) {
    this.keyPath = join(dirname(path), 'audit.key');
  }

  /** Keyed digest of a value for a record. */
  digest(s: string): TextDigest { return digestText(s, installKey(this.keyPath)); }

  /** A new record id. */
  static newId(): string { return randomUUID(); }

  /**
   * Appends one record and fsyncs it; creates the file with mode 0600 and its folder with 0700. A file that
   * does not end in a newline has a torn last line (a writer killed mid-write): the record starts a new line,
   * else it would be glued onto the torn one and lost to every reader. `durable: false` (a `done` record) writes
   * without waiting for the disk (~2 ms an act): a process crash loses nothing written, a machine's crash at most
   * the last `done` records, since the next fsynced record flushes the file; a decision is always on disk before
   * its input is sent.
   */
  append(record: AuditRecord, opts: { durable?: boolean } = {}): void {
    const line = JSON.stringify(record) + '\n';
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const fresh = !existsSync(this.path);
    const fd = openSync(this.path, 'a+', 0o600);
    try {
      if (fresh) fchmodSync(fd, 0o600);
      writeSync(fd, endsTorn(fd) ? '\n' + line : line);
      if (opts.durable !== false) fsyncSync(fd);
    } finally { closeSync(fd); }
  }

  /** Reads every record; torn lines (a crash mid-write) are skipped. */
  read(): AuditRecord[] { return this.readAll().records; }

  /** Every complete record, and how many torn lines were skipped. */
  readAll(): { records: AuditRecord[]; torn: number } {
    let text: string;
    try { text = readFileSync(this.path, 'utf8'); } catch { return { records: [], torn: 0 }; }
    const records: AuditRecord[] = [];
    let torn = 0;
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      const parsed = parseAuditLine(line);
      torn += parsed.torn;
      if (parsed.record) records.push(parsed.record);
    }
    return { records, torn };
  }
}

/** True when the open file's last byte is not a newline (a torn last line). */
function endsTorn(fd: number): boolean {
  const size = fstatSync(fd).size;
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  return readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 10;
}

/** How every record line starts (JSON.stringify of a record whose first field is `v`). */
const RECORD_START = '{"v":1,"phase":"';

/**
 * One line of the log: its record, or none when the line is torn. A line written before torn tails were
 * healed may hold a torn record with a whole one glued after it: that one is recovered (`at` is its character
 * offset in the line). `torn` counts the torn pieces.
 */
export function parseAuditLine(line: string): { record?: AuditRecord; at: number; torn: number } {
  const whole = recordOf(line);
  if (whole) return { record: whole, at: 0, torn: 0 };
  const at = line.lastIndexOf(RECORD_START);
  const glued = at > 0 ? recordOf(line.slice(at)) : undefined;
  return glued ? { record: glued, at, torn: 1 } : { at: 0, torn: 1 };
}

/** A line parsed as a record of this log (an object with a known phase and an id), else undefined. */
function recordOf(line: string): AuditRecord | undefined {
  try {
    const r = JSON.parse(line) as Partial<AuditRecord> | null;
    return r && typeof r === 'object' && (r.phase === 'decided' || r.phase === 'done') && typeof r.id === 'string'
      ? (r as AuditRecord)
      : undefined;
  } catch { return undefined; }
}

/** Secret-redacted, cut app text for a record. */
export function auditText(s: string, max = 120): string {
  const r = redactText(s);
  return [...r].length > max ? [...r].slice(0, max - 1).join('') + '…' : r;
}

/** One line per decision for `computer-use audit`: decided records joined with their done record. */
export function formatAudit(records: AuditRecord[], tail?: number): string[] {
  const done = new Map<string, DoneRecord>();
  for (const r of records) if (r.phase === 'done') done.set(r.id, r);
  let decided = records.filter((r): r is DecidedRecord => r.phase === 'decided');
  if (tail !== undefined) decided = decided.slice(-tail);
  return decided.map((r) => {
    const d = done.get(r.id);
    // Names, details and reasons hold app and driver text, read by a human in a terminal: one line each, no
    // ANSI (engine/escape.ts).
    const what =
      r.tool === 'computer_keys'
        ? `keys ${typeof r.keys === 'string' ? quoteText(r.keys) : `<${r.keys?.len ?? 0} chars>`}`
        : r.tool === 'computer_launch'
          ? `launch ${quoteText(r.command ?? '')}`
          : `${r.op ?? '?'} ${r.ref ?? ''}${r.role ? ` ${escapeLine(r.role)}` : ''}` +
            `${r.name ? ` ${quoteText(r.name)}` : ''}` +
            `${r.value ? ` <${r.value.len} chars ${r.value.hmac}>` : ''}`;
    const outcome =
      r.decision !== 'allowed'
        ? ''
        : d
          ? ` → ${d.receipt}${d.detail ? ` (${escapeLine(d.detail)})` : ''}`
          : ' → (no completion record: interrupted)';
    return (
      `${r.time} ${r.mode.padEnd(12)} ${r.decision.padEnd(10)} ${r.app ? nameText(r.app) : '?'}: ${what} · ` +
      `${escapeLine(r.reason)}${r.answer ? ` [user: ${r.answer}]` : ''}` +
      `${r.approved_by ? ` [approved by the ${r.approved_by}]` : ''}${outcome}`
    );
  });
}
