/**
 * OCR lines in reading order: tesseract's sparse mode (--psm 11) returns each line of a page as a block of its own,
 * and lines of two text columns at nearly the same height came out interleaved (a qpdfview page read through the
 * OCR fallback). The fixture is tesseract 5.3's TSV of a page rendered with ImageMagick (a heading, two columns of
 * prose, a two-row table, a footer):
 *   convert -size 900x700 xc:white -font DejaVu-Sans -pointsize 22 -annotate +60+60 'Quarterly Report 2026' \
 *     -pointsize 16 -annotate +60+120 'Revenue grew in the north' … -annotate +480+121 'Outlook section follows' … \
 *     -annotate +60+300 'Name' -annotate +300+303 'Value' -annotate +60+340 'Total' -annotate +300+337 '1234' \
 *     -annotate +60+640 'Page 3 of 5' page.png && tesseract page.png stdout --psm 11 tsv
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { groupLines, parseTesseractTsv, type OcrWord } from '../../src/fallback/ocr.js';

const TSV = readFileSync(new URL('../../../test/fixtures/ocr/two-columns.tsv', import.meta.url), 'utf8');

test('a page of two text columns reads each column top to bottom, left column first; a table reads by rows', () => {
  const lines = groupLines(parseTesseractTsv(TSV)).map((l) => l.text);
  assert.deepEqual(lines, [
    'Quarterly Report 2026',
    'Revenue grew in the north', 'region by nine percent', 'while costs stayed flat', 'through the summer months',
    'Outlook section follows', 'with the reference code', 'KESTREL-58 for the audit', 'and the final figures',
    'Name', 'Value', 'Total', '1234',
    'Page 3 of 5',
  ]);
});

test('lines a few pixels apart in height are one row, read left to right, whatever order tesseract gave them', () => {
  const word = (block: number, x: number, y: number, text: string): OcrWord => ({
    block,
    par: 1,
    line: 1,
    word: 1,
    box: [x, y, 40, 12],
    conf: 90,
    text,
  });
  // Baselines wobble by a few pixels along a row; the order must not depend on the input order.
  const words = [
    word(1, 300, 104, 'C'),
    word(2, 10, 100, 'A'),
    word(3, 150, 97, 'B'),
    word(4, 10, 130, 'D'),
    word(5, 300, 126, 'F'),
    word(6, 150, 133, 'E'),
  ];
  for (const order of [
    words,
    [...words].reverse(),
    [words[3]!, words[0]!, words[5]!, words[1]!, words[4]!, words[2]!],
  ]) {
    assert.deepEqual(groupLines(order).map((l) => l.text), ['A', 'B', 'C', 'D', 'E', 'F']);
  }
});
