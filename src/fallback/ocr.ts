/**
 * OCR pseudo-elements, pure: tesseract's TSV words → lines → elements. A line is the
 * words tesseract puts on one text line, split where a horizontal gap is wider than the text is tall: two
 * drawn buttons side by side ("OK   Cancel") are two elements, each clickable at its own center.
 */
import type { OcrLine, Rect } from '../protocol/methods.js';

/** One recognized word (level 5 of tesseract's TSV), in the coordinates of the image it was read from. */
export interface OcrWord {
  block: number;
  par: number;
  line: number;
  word: number;
  box: Rect;
  conf: number;
  text: string;
}

/** Parses `tesseract … tsv` output; keeps only words with text. */
export function parseTesseractTsv(tsv: string): OcrWord[] {
  const out: OcrWord[] = [];
  for (const row of tsv.split('\n')) {
    const c = row.split('\t');
    if (c.length < 12 || c[0] !== '5') continue;
    const text = (c.slice(11).join('\t')).trim();
    if (!text) continue;
    const n = c.slice(0, 10).map(Number);
    out.push({ block: n[2] ?? 0, par: n[3] ?? 0, line: n[4] ?? 0, word: n[5] ?? 0,
      box: [n[6] ?? 0, n[7] ?? 0, n[8] ?? 0, n[9] ?? 0], conf: Number(c[10]), text });
  }
  return out;
}

/** Options of groupLines. */
export interface GroupOptions {
  /** Words below this confidence (0-100) are dropped (default 40). */
  minConfidence?: number;
  /** Image pixels per screen pixel of the image the words were read from (default 1). */
  scale?: number;
  /** Screen position of the image's top-left corner (default 0,0). */
  origin?: [number, number];
}

const union = (a: Rect, b: Rect): Rect => {
  const x = Math.min(a[0], b[0]);
  const y = Math.min(a[1], b[1]);
  return [x, y, Math.max(a[0] + a[2], b[0] + b[2]) - x, Math.max(a[1] + a[3], b[1] + b[3]) - y];
};

/** Groups words into lines in reading order, split at wide gaps, in screen coordinates. */
export function groupLines(words: readonly OcrWord[], opts: GroupOptions = {}): OcrLine[] {
  const min = opts.minConfidence ?? 40;
  const scale = opts.scale ?? 1;
  const [ox, oy] = opts.origin ?? [0, 0];
  const byLine = new Map<string, OcrWord[]>();
  for (const w of words) {
    // Junk from borders and icons: low confidence, or no letter or digit at all.
    if (w.conf < min || !/[\p{L}\p{N}]/u.test(w.text)) continue;
    const k = `${w.block}.${w.par}.${w.line}`;
    const list = byLine.get(k) ?? [];
    list.push(w);
    byLine.set(k, list);
  }
  const lines: OcrLine[] = [];
  for (const list of byLine.values()) {
    list.sort((a, b) => a.box[0] - b.box[0]);
    let cur: { words: OcrWord[]; box: Rect } | undefined;
    const flush = (): void => {
      if (!cur) return;
      const b = cur.box;
      lines.push({
        text: cur.words.map((w) => w.text).join(' '),
        bounds: [
          Math.round(ox + b[0] / scale),
          Math.round(oy + b[1] / scale),
          Math.round(b[2] / scale),
          Math.round(b[3] / scale),
        ],
        confidence: Math.round(cur.words.reduce((s, w) => s + w.conf, 0) / cur.words.length),
      });
    };
    for (const w of list) {
      const height = Math.max(w.box[3], cur?.box[3] ?? 0);
      if (cur && w.box[0] - (cur.box[0] + cur.box[2]) > 1.5 * height) { flush(); cur = undefined; }
      cur = cur ? { words: [...cur.words, w], box: union(cur.box, w.box) } : { words: [w], box: w.box };
    }
    flush();
  }
  return readingOrder(lines);
}

/** Rows of prose side by side that make a text column: at least this many in a run. */
const MIN_COLUMN_ROWS = 3;
/** Words a line of prose has (a table's cells and a form's labels have fewer): each row of a column run has one. */
const PROSE_WORDS = 3;

/**
 * Lines in reading order: rows top to bottom (a line whose middle lies above the bottom of the row's lines so far
 * is in that row: baselines wobble), each row left to right; where several rows in a run are prose split by the
 * same gutter (two columns of a page), each column is read top to bottom, left column first. A comparator with a
 * tolerance is not transitive, and sorting with one interleaved lines, so rows are built first.
 */
export function readingOrder(lines: readonly OcrLine[]): OcrLine[] {
  const rows: OcrLine[][] = [];
  let band: [number, number] | undefined;
  for (const l of [...lines].sort((a, b) => a.bounds[1] - b.bounds[1] || a.bounds[0] - b.bounds[0])) {
    const middle = l.bounds[1] + l.bounds[3] / 2;
    if (band && middle <= band[1]) {
      rows[rows.length - 1]!.push(l);
      band[1] = Math.max(band[1], l.bounds[1] + l.bounds[3]);
      continue;
    }
    rows.push([l]);
    band = [l.bounds[1], l.bounds[1] + l.bounds[3]];
  }
  for (const r of rows) r.sort((a, b) => a.bounds[0] - b.bounds[0]);
  const out: OcrLine[] = [];
  for (let i = 0; i < rows.length;) {
    const run = columnRun(rows, i);
    if (run === 0) { out.push(...rows[i]!); i++; continue; }
    for (let c = 0; c < rows[i]!.length; c++) for (let r = i; r < i + run; r++) out.push(rows[r]![c]!);
    i += run;
  }
  return out;
}

/** How many rows from `i` on form text columns (same count of lines, the same gutters, prose): 0 when too few. */
function columnRun(rows: readonly OcrLine[][], i: number): number {
  const k = rows[i]!.length;
  if (k < 2) return 0;
  let j = i + 1;
  const prose = (r: readonly OcrLine[]): boolean => r.some((l) => l.text.split(/\s+/).length >= PROSE_WORDS);
  // A row of a table or form (short cells) or a wide vertical gap (another part of the page) ends the run.
  const near = (a: readonly OcrLine[], b: readonly OcrLine[]): boolean =>
    b[0]!.bounds[1] - (a[0]!.bounds[1] + a[0]!.bounds[3]) < 2 * a[0]!.bounds[3];
  if (!prose(rows[i]!)) return 0;
  for (; j < rows.length && rows[j]!.length === k && prose(rows[j]!) && near(rows[j - 1]!, rows[j]!); j++) {
    const run = rows.slice(i, j + 1);
    const gutters = Array.from({ length: k - 1 }, (_, c) =>
      run.every((r) => run.every((o) => right(r[c]!) < o[c + 1]!.bounds[0])),
    );
    if (!gutters.every(Boolean)) break;
  }
  const n = j - i;
  return n < MIN_COLUMN_ROWS ? 0 : n;
}

const right = (l: OcrLine): number => l.bounds[0] + l.bounds[2];

/** The center of a rectangle, in whole pixels. */
export function centerOf(r: Rect): [number, number] {
  return [Math.round(r[0] + r[2] / 2), Math.round(r[1] + r[3] / 2)];
}
