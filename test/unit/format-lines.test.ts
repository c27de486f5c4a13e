/**
 * The line-length formatter (scripts/format-lines.mjs): it shortens a long statement, signature and comment to
 * lines of at most 120 characters without changing what the code does, leaves a lone long literal, and its check
 * fails a file that has more long lines than the baseline allows.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

interface Formatter {
  WIDTH: number;
  formatText(text: string, file?: string): Promise<string>;
  longLines(text: string): number[];
  overBaseline(
    counts: Record<string, number>,
    baseline: Record<string, number>,
  ): { file: string; lines: number; allowed: number }[];
}
const load = async (): Promise<Formatter> => await import(join(ROOT, 'scripts/format-lines.mjs')) as Formatter;

/** The program printed from its syntax tree without comments or blanks: equal when only layout changed. */
function shape(text: string): string {
  const sf = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true);
  const printer = ts.createPrinter({ removeComments: true });
  return printer.printFile(sf).replace(/\s+/g, '');
}

const SOURCE = [
  'export function summarise(receipts: string[], before: number | undefined, after: number | undefined, label = \'none\'): string {',
  '  // A comment that is far too long for one line of this project, because it keeps explaining why the next line is written the way it is.',
  '  const parts = receipts.filter((r) => r.length > 0 && r !== label && !r.startsWith(\'#\')).map((r) => r.toUpperCase()).slice(0, before ?? after ?? 3);',
  '  if (parts.length) { return parts.join(\', \'); }',
  '  return \'nothing\';',
  '}',
  'const message =',
  '  \'a single literal that is longer than the limit of the project and cannot be split by a formatter without changing its text\';',
  '',
].join('\n');

test('long statements, signatures and comments are re-laid within 120 characters; the code is the same', async () => {
  const f = await load();
  assert.ok(f.longLines(SOURCE).length >= 3, 'the source has long lines to start with');
  const out = await f.formatText(SOURCE, 'x.ts');
  const long = f.longLines(out);
  assert.deepEqual(long, [], out);
  assert.equal(shape(out), shape(SOURCE));
  assert.match(
    out,
    /\/\/ A comment that is far too long[^\n]*\n\s*\/\/ [a-z]/,
    'the comment continues on a comment line',
  );
  assert.ok(out.includes('if (parts.length) { return parts.join'), 'a short line is left as it was');
  assert.ok(
    out.split('\n').some((l) => l.length > f.WIDTH && l.includes('a single literal')),
    'a lone literal is kept',
  );
});

test('the check fails a file with more long lines than its baseline, and a new file with any', async () => {
  const f = await load();
  assert.deepEqual(f.overBaseline({ 'src/a.ts': 3, 'src/b.ts': 2 }, { 'src/a.ts': 3, 'src/b.ts': 5 }), []);
  assert.deepEqual(f.overBaseline({ 'src/a.ts': 4 }, { 'src/a.ts': 3 }), [{ file: 'src/a.ts', lines: 4, allowed: 3 }]);
  assert.deepEqual(f.overBaseline({ 'src/new.ts': 1 }, {}), [{ file: 'src/new.ts', lines: 1, allowed: 0 }]);
});
