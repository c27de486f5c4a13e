/**
 * Line framing for JSON-RPC: one JSON object per line. Lines over the size cap (UTF-8 bytes, as the spec says:
 * a driver in another language counts the bytes it read, not the characters it decoded) are dropped with an
 * error; non-JSON lines (a driver's stray prints) are reported and skipped, never fatal.
 */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

/** What the reader hands back for each line. */
export type FrameEvent =
  | { kind: 'message'; message: unknown }
  | { kind: 'junk'; line: string }
  | { kind: 'oversize'; bytes: number };

/**
 * Accumulates chunks and yields complete lines as parsed messages. An unfinished line is kept as its chunks and
 * joined once, when its newline comes: appending to one string and searching it again for every chunk made a
 * 16 MiB line cost seconds (doctor --conformance, wire.oversize-line: 7.4 s through the replay driver).
 */
export class LineReader {
  private parts: string[] = [];
  /** UTF-8 bytes of the unfinished line kept so far. */
  private partsLength = 0;
  private dropping = false;
  constructor(private readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES) {}

  /** UTF-8 bytes of the unfinished line kept so far (bounded by the cap). */
  get pendingLength(): number { return this.partsLength; }

  /** Feeds a chunk; returns the events for the complete lines it finished. */
  push(chunk: string): FrameEvent[] {
    const out: FrameEvent[] = [];
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf('\n', from);
      if (nl < 0) break;
      const tail = chunk.slice(from, nl);
      from = nl + 1;
      const line = this.parts.length ? this.parts.join('') + tail : tail;
      this.parts = [];
      this.partsLength = 0;
      if (this.dropping) { this.dropping = false; continue; }
      out.push(parseLine(line, this.maxLineBytes));
    }
    if (from < chunk.length && !this.dropping) {
      const rest = chunk.slice(from);
      this.parts.push(rest);
      this.partsLength += utf8Bytes(rest);
    }
    if (this.partsLength > this.maxLineBytes) {
      // A line that never ends must not grow memory without bound: drop it up to its newline, and report
      // it once (not once per cap-sized piece).
      out.push({ kind: 'oversize', bytes: this.partsLength });
      this.parts = [];
      this.partsLength = 0;
      this.dropping = true;
    }
    return out;
  }
}

/** UTF-8 bytes of a string (a lone surrogate counts 3, as Node writes it). */
const utf8Bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

function parseLine(raw: string, max: number): FrameEvent {
  const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  // A UTF-16 code unit is at most 3 UTF-8 bytes: only a line that long can be over the cap (no count for the rest).
  if (line.length * 3 > max) {
    const bytes = utf8Bytes(line);
    if (bytes > max) return { kind: 'oversize', bytes };
  }
  if (line.trim() === '') return { kind: 'junk', line };
  try {
    return { kind: 'message', message: JSON.parse(line) };
  } catch {
    return { kind: 'junk', line: line.slice(0, 200) };
  }
}

/** Serializes one message as a line. */
export function frame(message: unknown): string {
  return JSON.stringify(message) + '\n';
}
