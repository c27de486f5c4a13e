/**
 * Transcripts: what a host and a driver said to each other, as JSONL, so a session recorded on a real machine
 * (a Windows box, a Mac, a phone) becomes a golden test anywhere: the ReplayDriver (drivers/replay/) serves it
 * back. Line 1 is the header (format, version, where and with what it was recorded); every further line is one
 * message: a request the host sent, the driver's result or error for it, or a notification either side sent.
 * A line the host sent that was not a message (the wire rules send junk on purpose) is kept only as its size.
 */
import { writeFileSync } from 'node:fs';

/** The format name in every header. */
export const TRANSCRIPT_FORMAT = 'computer-use-transcript';
export const TRANSCRIPT_VERSION = 1;

/** The first line: where and with what the session was recorded. */
export interface TranscriptHeader {
  type: 'header';
  format: typeof TRANSCRIPT_FORMAT;
  version: number;
  recordedAt: string;
  /** The machine the host ran on (os.platform, os.release). */
  host: { os: string; release: string };
  /** The driver as its hello described itself (platform, version, protocolVersion, facts). */
  driver: Record<string, unknown>;
  /** The apps whose windows the session read, with their versions where the driver reported them. */
  apps: { name: string; version?: string }[];
  /** Free text: what was recorded (e.g. "doctor --conformance"). */
  note?: string;
}

/** One message line. `from` is who sent it. */
export type TranscriptEntry =
  | { type: 'request'; id: string | number; method: string; params?: unknown }
  | { type: 'result'; id: string | number | null; result: unknown }
  | { type: 'error'; id: string | number | null; error: { code: number; message: string; data?: unknown } }
  | { type: 'notification'; from: 'host' | 'driver'; method: string; params?: unknown }
  | { type: 'raw'; from: 'host'; bytes: number }
  | { type: 'restart'; why: string };

/** A whole transcript. */
export interface Transcript { header: TranscriptHeader; entries: TranscriptEntry[] }

/** The entry a wire message is, or undefined for what is no JSON-RPC message. */
export function entryOf(message: unknown, from: 'host' | 'driver'): TranscriptEntry | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const m = message as Record<string, unknown>;
  const id = m['id'];
  const validId = typeof id === 'string' || typeof id === 'number';
  if (typeof m['method'] === 'string') {
    if (id === undefined)
      return { type: 'notification', from, method: m['method'], ...('params' in m ? { params: m['params'] } : {}) };
    return validId
      ? { type: 'request', id, method: m['method'], ...('params' in m ? { params: m['params'] } : {}) }
      : undefined;
  }
  const rid = validId || id === null ? id : null;
  if ('error' in m) return { type: 'error', id: rid, error: m['error'] as { code: number; message: string } };
  if ('result' in m) return { type: 'result', id: rid, result: m['result'] };
  return undefined;
}

/** Collects entries while a session runs; `write` puts the header first. */
export class TranscriptRecorder {
  readonly entries: TranscriptEntry[] = [];
  add(entry: TranscriptEntry | undefined): void { if (entry) this.entries.push(entry); }
  toText(header: TranscriptHeader): string {
    return [header, ...this.entries].map((e) => JSON.stringify(e)).join('\n') + '\n';
  }
  write(path: string, header: TranscriptHeader): void { writeFileSync(path, this.toText(header)); }
}

/** Parses a transcript; throws with the line number on anything that is not one. */
export function parseTranscript(text: string): Transcript {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const parse = (l: string, n: number): unknown => {
    try { return JSON.parse(l); } catch { throw new Error(`transcript line ${n}: not JSON`); }
  };
  const header = parse(lines[0] ?? '', 1) as TranscriptHeader;
  if (header?.type !== 'header' || header.format !== TRANSCRIPT_FORMAT)
    throw new Error(`transcript line 1: not a ${TRANSCRIPT_FORMAT} header`);
  if (header.version !== TRANSCRIPT_VERSION)
    throw new Error(`transcript version ${String(header.version)} is not ${TRANSCRIPT_VERSION}`);
  const kinds = new Set(['request', 'result', 'error', 'notification', 'raw', 'restart']);
  const entries = lines.slice(1).map((l, i) => {
    const e = parse(l, i + 2) as TranscriptEntry;
    if (typeof e !== 'object' || e === null || !kinds.has(e.type))
      throw new Error(`transcript line ${i + 2}: unknown entry`);
    return e;
  });
  return { header, entries };
}
