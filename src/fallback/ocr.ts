/**
 * OCR pseudo-elements, pure: tesseract's TSV words → lines → elements. A line is the
 * words tesseract puts on one text line, split where a horizontal gap is wider than the text is tall: two
 * drawn buttons side by side ("OK   Cancel") are two elements, each clickable at its own center.
 */
import type { OcrLine, Rect } from '../protocol/methods.js';

/** One recognized word (level 5 of tesseract's TSV), in the coordinates of the image it was read from. */
export interface OcrWord { block: number; par: number; line: number; word: number; box: Rect; conf: number; text: string }

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
        bounds: [Math.round(ox + b[0] / scale), Math.round(oy + b[1] / scale), Math.round(b[2] / scale), Math.round(b[3] / scale)],
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
  // Reading order: top to bottom, then left to right (rows within half a line height are one row).
  lines.sort((a, b) => (Math.abs(a.bounds[1] - b.bounds[1]) > Math.min(a.bounds[3], b.bounds[3]) / 2 ? a.bounds[1] - b.bounds[1] : a.bounds[0] - b.bounds[0]));
  return lines;
}

/** The center of a rectangle, in whole pixels. */
export function centerOf(r: Rect): [number, number] {
  return [Math.round(r[0] + r[2] / 2), Math.round(r[1] + r[3] / 2)];
}
