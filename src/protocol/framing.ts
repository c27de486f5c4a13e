/**
 * Line framing for JSON-RPC: one JSON object per line. Lines over the size cap are dropped with an error;
 * non-JSON lines (a driver's stray prints) are reported and skipped, never fatal.
 */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

/** What the reader hands back for each line. */
export type FrameEvent =
  | { kind: 'message'; message: unknown }
  | { kind: 'junk'; line: string }
  | { kind: 'oversize'; bytes: number };

/** Accumulates chunks and yields complete lines as parsed messages. */
export class LineReader {
  private buffer = '';
  private dropping = false;
  constructor(private readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES) {}

  /** Feeds a chunk; returns the events for the complete lines it finished. */
  push(chunk: string): FrameEvent[] {
    const out: FrameEvent[] = [];
    this.buffer += chunk;
    for (;;) {
      const nl = this.buffer.indexOf('\n');
      if (nl < 0) break;
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      if (this.dropping) { this.dropping = false; continue; }
      out.push(parseLine(line, this.maxLineBytes));
    }
    if (this.buffer.length > this.maxLineBytes) {
      // A line that never ends must not grow memory without bound: drop it up to its newline, and report
      // it once (not once per cap-sized piece).
      if (!this.dropping) out.push({ kind: 'oversize', bytes: this.buffer.length });
      this.buffer = '';
      this.dropping = true;
    }
    return out;
  }
}

function parseLine(raw: string, max: number): FrameEvent {
  const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (line.length > max) return { kind: 'oversize', bytes: line.length };
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
