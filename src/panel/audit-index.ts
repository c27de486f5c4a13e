/**
 * Paging over a large audit log: the file is indexed once by byte offsets (one small entry per decided record:
 * offset, length and the fields the filters use), then extended as records are appended. A page reads only its
 * own lines from disk. A last line without its newline (a write in progress) is left for the next refresh; a
 * torn line (a crash mid-write, ended by the next writer's newline) is skipped and counted in `torn`.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { parseAuditLine, type DecidedRecord, type DoneRecord } from '../policy/audit.js';

/** One decided record in the index. */
interface Entry {
  offset: number;
  length: number;
  /** ISO 8601 UTC: compares as text. */ time: string;
  app: string;
  tool: string;
  decision: string;
  id: string;
}

/** What the viewer filters on; all optional, all must hold. */
export interface AuditFilter {
  /** Substring of the app name (case-insensitive). */
  app?: string;
  tool?: string;
  decision?: string;
  /** Epoch ms bounds, inclusive. */
  since?: number;
  until?: number;
}

/** A decided record with its completion, as the viewer shows it. */
export type AuditRow = DecidedRecord & { receipt?: string; detail?: string; ms?: number };

/** A page of rows, newest first; `next` is the cursor of the following (older) page. */
export interface AuditPage {
  rows: AuditRow[];
  next?: number;
  indexed: number;
  /** Torn lines skipped (crashed writes). */ torn: number;
}

const CHUNK = 1 << 20;

export class AuditIndex {
  private readonly entries: Entry[] = [];
  /** Where each completion record is, by decided id. */
  private readonly done = new Map<string, { offset: number; length: number }>();
  /** Bytes of the file indexed so far (always at a line start). */
  private size = 0;
  /** Torn lines skipped so far. */
  private tornLines = 0;

  constructor(readonly path: string) {}

  /** Decided records indexed. */
  get count(): number { return this.entries.length; }

  /** Torn lines skipped (a writer killed mid-write): reported, never indexed. */
  get torn(): number { return this.tornLines; }

  /** Indexes what was appended since the last call; returns the new decided records' count. */
  refresh(): number {
    let fd: number;
    try { fd = openSync(this.path, 'r'); } catch { return 0; }
    const before = this.entries.length;
    try {
      const total = fstatSync(fd).size;
      // rotated or truncated
      if (total < this.size) { this.entries.length = 0; this.done.clear(); this.size = 0; this.tornLines = 0; }
      const buf = Buffer.allocUnsafe(CHUNK);
      while (this.size < total) {
        const n = readSync(fd, buf, 0, Math.min(CHUNK, total - this.size), this.size);
        if (n <= 0) break;
        const end = buf.lastIndexOf(10, n - 1);
        if (end < 0) {
          if (n === CHUNK) { this.size += n; continue; } // a line longer than a chunk: not a record of ours
          break; // a torn last line: wait for its end
        }
        // Lines are decoded a chunk at a time; offsets stay in bytes (non-ASCII lines are measured).
        const text = buf.toString('utf8', 0, end + 1);
        let offset = this.size;
        let start = 0;
        for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
          const line = text.slice(start, nl);
          const bytes = isAscii(line) ? line.length : Buffer.byteLength(line);
          if (bytes) this.add(line, offset, bytes);
          offset += bytes + 1;
          start = nl + 1;
        }
        this.size += end + 1;
      }
    } finally { closeSync(fd); }
    return this.entries.length - before;
  }

  /** Indexes one line; a torn one is counted, and a whole record glued after a torn one is indexed alone. */
  private add(line: string, offset: number, length: number): void {
    if (looksWhole(line)) { this.addFields(line, offset, length); return; }
    const { record, at, torn } = parseAuditLine(line);
    this.tornLines += torn;
    if (!record) return;
    const skip = at === 0 ? 0 : Buffer.byteLength(line.slice(0, at));
    const place = { offset: offset + skip, length: length - skip };
    if (record.phase === 'done') { this.done.set(record.id, place); return; }
    this.entries.push({
      ...place,
      time: record.time,
      app: (record.app ?? '').toLowerCase(),
      tool: record.tool,
      decision: record.decision,
      id: record.id,
    });
  }

  /** Indexes a whole line from the fields the filters need, without parsing the whole record. */
  private addFields(line: string, offset: number, length: number): void {
    const phase = field(line, 'phase');
    const id = field(line, 'id');
    if (id === undefined) return;
    if (phase === 'done') { this.done.set(id, { offset, length }); return; }
    let app = field(line, 'app') ?? '';
    if (app.includes('\\')) { try { app = (JSON.parse(line) as DecidedRecord).app ?? ''; } catch { return; } }
    this.entries.push({
      offset,
      length,
      time: field(line, 'time') ?? '',
      app: app.toLowerCase(),
      tool: field(line, 'tool') ?? '',
      decision: field(line, 'decision') ?? '',
      id,
    });
  }

  /** Values seen, for the filter menus. */
  facets(): { tools: string[]; decisions: string[] } {
    const tools = new Set<string>();
    const decisions = new Set<string>();
    for (const e of this.entries) { tools.add(e.tool); decisions.add(e.decision); }
    return { tools: [...tools].sort(), decisions: [...decisions].sort() };
  }

  /**
   * Up to `limit` matching rows, newest first, starting below `before` (an index position from a previous
   * page's `next`; default the newest record).
   */
  page(filter: AuditFilter = {}, opts: { before?: number; limit?: number } = {}): AuditPage {
    const limit = Math.max(1, Math.min(500, opts.limit ?? 50));
    const app = filter.app?.trim().toLowerCase();
    const iso = (ms: number | undefined): string | undefined =>
      ms === undefined || !Number.isFinite(ms) ? undefined : new Date(ms).toISOString();
    const since = iso(filter.since);
    const until = iso(filter.until);
    const picked: number[] = [];
    let i = Math.min(opts.before ?? this.entries.length, this.entries.length) - 1;
    for (; i >= 0 && picked.length < limit; i--) {
      const e = this.entries[i]!;
      if (app && !e.app.includes(app)) continue;
      if (filter.tool && e.tool !== filter.tool) continue;
      if (filter.decision && e.decision !== filter.decision) continue;
      if (since !== undefined && e.time < since) continue;
      if (until !== undefined && e.time > until) continue;
      picked.push(i);
    }
    const rows = this.read(picked.map((k) => this.entries[k]!));
    // More may match below i: hand out a cursor unless the scan reached the oldest record.
    return { rows, ...(i >= 0 ? { next: i + 1 } : {}), indexed: this.entries.length, torn: this.tornLines };
  }

  private read(entries: Entry[]): AuditRow[] {
    if (!entries.length) return [];
    const fd = openSync(this.path, 'r');
    try {
      return entries.map((e) => {
        const buf = Buffer.allocUnsafe(e.length);
        readSync(fd, buf, 0, e.length, e.offset);
        const r = JSON.parse(buf.toString('utf8')) as AuditRow;
        const at = this.done.get(e.id);
        if (!at) return r;
        const db = Buffer.allocUnsafe(at.length);
        readSync(fd, db, 0, at.length, at.offset);
        try {
          const d = JSON.parse(db.toString('utf8')) as DoneRecord;
          return { ...r, receipt: d.receipt, ...(d.detail ? { detail: d.detail } : {}), ms: d.ms };
        } catch { return r; }
      });
    } finally { closeSync(fd); }
  }
}

/** True when every character is ASCII (then characters are bytes). */
function isAscii(s: string): boolean {
  return !/[^\x00-\x7f]/.test(s);
}

/**
 * A line that is certainly a whole record as AuditLog writes it, told without parsing (parsing every line
 * made indexing 100,000 records about 3 times slower). A decided record's nested objects (digests) all come
 * before its `reason`, so a line that has a structural `"reason":"` and ends with a string then `}` ends
 * with the record's own brace; a done record ends with `"ms":N}`. Anything else is parsed.
 */
const RECORD_START = '{"v":1,"phase":"';

function looksWhole(line: string): boolean {
  // One record start, at the start: a record glued after a torn one (by an older writer) is parsed apart.
  if (!line.startsWith(RECORD_START) || line.indexOf(RECORD_START, 1) >= 0) return false;
  if (line.startsWith('{"v":1,"phase":"done"')) return /"ms":\d+\}$/.test(line);
  return (
    line.startsWith('{"v":1,"phase":"decided"') &&
    line.endsWith('"}') &&
    line.charCodeAt(line.length - 3) !== 92 &&
    line.includes('"reason":"')
  );
}

/**
 * The string value of a top-level `"key":"…"` in a record as JSON.stringify wrote it (the first occurrence:
 * the record's own fields come before any nested ones). Undefined when absent.
 */
function field(line: string, key: string): string | undefined {
  const tag = `"${key}":"`;
  const at = line.indexOf(tag);
  if (at < 0) return undefined;
  const from = at + tag.length;
  let end = line.indexOf('"', from);
  while (end > 0 && line.charCodeAt(end - 1) === 92) end = line.indexOf('"', end + 1);
  return end < 0 ? undefined : line.slice(from, end);
}
