/**
 * A window the model has read before, printed again as only what differs from that print: every element line
 * whose subtree reads as it did is left out, runs of them as one `(unchanged: …)` line, so a second observe of
 * LibreOffice Calc after one keystroke read ~90 tokens instead of ~1,800. The model keeps the first print in
 * its context; refs are stable, so the refs it read there still act. Works on the printed text (what the model
 * saw), not on the tree: a line the budget left out of the first print and shows now counts as new. Pure.
 */

/** One printed line and the lines under it (its subtree as printed). */
interface Block {
  /** Index of the element's own line. */
  at: number;
  /** One past the last line of its subtree. */
  end: number;
}

/** Leading spaces of a line (two per level; grid rows are indented deeper than their table). */
const indentOf = (line: string): number => line.length - line.trimStart().length;

/** The ref an element line starts with (`[e12] button …`, a run `[e5] … [e32] 28 buttons …`), else undefined. */
const refOf = (line: string): string | undefined => /^\s*\[([^\]\s]+)\]/.exec(line)?.[1];

/** The lines under the line at `i`: those indented deeper, up to the next line at its level or above. */
function endOf(lines: readonly string[], i: number): number {
  const d = indentOf(lines[i] ?? '');
  let j = i + 1;
  while (j < lines.length && indentOf(lines[j] ?? '') > d) j++;
  return j;
}

/** The body lines of a snapshot text: without its header (first line) and its footer (a last line `(…)` at level 0). */
function bodyOf(text: string): { header: string; body: string[]; footer?: string } {
  const lines = text.split('\n');
  const header = lines[0] ?? '';
  const body = lines.slice(1);
  const last = body[body.length - 1];
  if (last !== undefined && last.startsWith('(')) return { header, body: body.slice(0, -1), footer: last };
  return { header, body };
}

/** Each element line's subtree as printed, by ref. */
function blocksByRef(body: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < body.length; i++) {
    const ref = refOf(body[i] ?? '');
    if (ref !== undefined) out.set(ref, body.slice(i, endOf(body, i)).join('\n'));
  }
  return out;
}

/** The result of `incrementalText`. */
export interface IncrementalText {
  /** The text to print. */
  text: string;
  /** Element lines left out as printed before. */
  unchanged: number;
}

/** Below this share of the whole print saved, the whole print is shown: an incremental one must be worth reading. */
const MIN_SAVED = 0.2;

/**
 * `now` printed against `before` (the last print of the same window): element subtrees printed identically
 * before read as `(unchanged: [e5] … [e9])` per run of siblings, lines without a ref (grid rows, a list's
 * "… rows 1–12 of 3,000") inside a changed element as `(N lines unchanged)` when each was under that element
 * before. The header says so and how to get the whole print. Undefined when it would save less than
 * MIN_SAVED of the whole print.
 */
export function incrementalText(before: string, now: string, fullHint: string): IncrementalText | undefined {
  const was = bodyOf(before);
  const cur = bodyOf(now);
  const old = blocksByRef(was.body);
  const out: string[] = [];
  let unchanged = 0;
  const pad = (i: number): string => ' '.repeat(indentOf(cur.body[i] ?? ''));
  // The lines of `from..to` that are siblings of one level (each with its subtree).
  const emit = (from: number, to: number, parentBefore: string | undefined): void => {
    let run: string[] = [];
    let plain = 0;
    // The first line of the pending run or plain group (they never overlap: each flushes the other).
    let groupAt = -1;
    const flushRun = (): void => {
      if (run.length === 0) return;
      out.push(
        `${pad(groupAt)}(unchanged: ` +
          `${run.length <= 2 ? run.map((r) => `[${r}]`).join(', ') : `[${run[0]}] … [${run[run.length - 1]}]`})`,
      );
      run = [];
    };
    const flushPlain = (): void => {
      if (plain > 0) out.push(`${pad(groupAt)}(${plain} line${plain === 1 ? '' : 's'} unchanged)`);
      plain = 0;
    };
    const oldLines = new Set(parentBefore?.split('\n') ?? []);
    for (let i = from; i < to;) {
      const line = cur.body[i] ?? '';
      const end = endOf(cur.body, i);
      const ref = refOf(line);
      if (ref === undefined) {
        flushRun();
        // A line of its own (a grid row, a "columns:" line): unchanged when its parent printed it before.
        const block = cur.body.slice(i, end);
        if (block.every((l) => oldLines.has(l))) {
          if (plain === 0) groupAt = i;
          plain += block.length;
        } else {
          flushPlain();
          out.push(...block);
        }
        i = end;
        continue;
      }
      flushPlain();
      const block = cur.body.slice(i, end).join('\n');
      if (old.get(ref) === block) {
        if (run.length === 0) groupAt = i;
        run.push(ref);
        unchanged += end - i;
        i = end;
        continue;
      }
      flushRun();
      out.push(line);
      emit(i + 1, end, old.get(ref));
      i = end;
    }
    flushRun();
    flushPlain();
  };
  emit(0, cur.body.length, undefined);
  if (unchanged === 0) return undefined;
  const shown = out.join('\n').length;
  if (shown > (1 - MIN_SAVED) * cur.body.join('\n').length) return undefined;
  const note =
    out.length === 1 && out[0]?.startsWith('(unchanged')
      ? `(nothing changed since this window was last printed; ${fullHint} prints it whole)`
      : `(only what changed since this window was last printed; the rest reads as printed then; ${fullHint} ` +
        `prints it whole)`;
  const text = [cur.header, note, ...out, ...(cur.footer !== undefined ? [cur.footer] : [])].join('\n');
  return { text, unchanged };
}
