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

interface Splitter {
  formatText(text: string, file?: string): Promise<string>;
  splitLiteral(raw: string, room: number): string[] | undefined;
  literalUnits(body: string): string[];
  longLines(text: string): number[];
}
const loadSplitter = async (): Promise<Splitter> =>
  await import(join(ROOT, 'scripts/format-lines.mjs')) as Splitter;

/** The value of a JavaScript string literal's source (the test's own reading, not the formatter's). */
const valueOf = (raw: string): string => (new Function(`return ${raw};`) as () => string)();

test('a literal is cut only between whole escapes and surrogate pairs; the pieces make the same string', async () => {
  const f = await loadSplitter();
  const raws = [
    String.raw`'it\'s a "quoted" word and a backslash \\ and a tab \t and more words after them'`,
    String.raw`"escapes \u00e9 \u{1F600} \x41 \uD83D\uDE00 \n \0 and more words to go past the room here"`,
    `'emoji 😀😀 😀 and a line separator \u2028 and a paragraph separator \u2029 in the middle of the text'`,
    '`a template without substitutions, with a \\` quote and \\${not} a substitution inside it, and more`',
  ];
  for (const raw of raws) {
    for (const room of [6, 9, 12, 20]) {
      const pieces = f.splitLiteral(raw, room);
      assert.ok(pieces && pieces.length > 1, raw);
      assert.equal(pieces.map(valueOf).join(''), valueOf(raw), `${raw} at ${room}`);
      for (const p of pieces) {
        assert.doesNotMatch(p, /\\$|[\uD800-\uDBFF].$|^.[\uDC00-\uDFFF]/u, `no cut inside an escape or a pair: ${p}`);
      }
    }
  }
  assert.deepEqual(f.literalUnits(String.raw`\uD83D\uDE00😀\u{1F600}\x41\'`), [
    String.raw`\uD83D\uDE00`,
    '😀',
    String.raw`\u{1F600}`,
    String.raw`\x41`,
    String.raw`\'`,
  ]);
});

test('a long literal in an expression is split into a concatenation; a key, a type, an import stay whole', async () => {
  const f = await loadSplitter();
  const words = 'and more words that go on and on past the limit of one line of the project, so it must be cut';
  const src = [
    `import { x } from './a module path that is long enough to go over the limit of the line ${words}';`,
    'function g(a: number): string {',
    `  if (a) throw new Error('a long message with a quote \\' and an escape \\u00e9 ${words}');`,
    `  const k = { 'a long key ${words}': 1 };`,
    `  type T = 'a long literal type ${words}';`,
    `  return a - 'a literal under a minus ${words}' + x;`,
    '}',
    '',
  ].join('\n');
  const out = await f.formatText(src, 'x.ts');
  assert.ok(out.includes(`from './a module path`), out);
  assert.ok(out.includes(`'a long key ${words}'`), out);
  assert.ok(out.includes(`'a long literal type ${words}'`), out);
  assert.match(out, /a long message with a quote \\?' and an escape \\u00e9 [^']*" \+\n\s+'/, out);
  assert.match(out, /a -\s*\(\s*'a literal under a minus/, 'the concatenation keeps its parentheses under a minus');
  const long = f.longLines(out).map((i) => out.split('\n')[i] ?? '');
  const stayLong = long.every((l) => /from '|a long key/.test(l));
  assert.ok(stayLong, `only the import and the key stay long: ${long.join('\n')}`);
});

test('a long template is cut between words or before a substitution; the pieces make the same string', async () => {
  const f = await loadSplitter();
  const words = 'and more words that go on and on past the limit of one line of the project, so it must be cut';
  const src = [
    'function g(a: number, name: string): string {',
    `  if (a === 1) throw new Error(\`a message about \${name} with a quote \\\` and \${a + 1} ${words}\`);`,
    `  const path = \`\${name}/\${a}/${'x'.repeat(60)}/\${name}/${'y'.repeat(60)}\`;`,
    `  if (a === 2) return tag\`a tagged template \${name} sees its pieces, not one string, so it stays ${words}\`;`,
    '  return path;',
    '}',
    '',
  ].join('\n');
  const out = await f.formatText(src, 'x.ts');
  assert.match(out, /`a message about \$\{name\} [^\n]* the limit of ` \+\n\s+`one line/, out);
  assert.ok(out.includes('tag`a tagged template ${name} sees'), out);
  const run = (code: string): string[] => {
    const js = ts.transpileModule(code, { compilerOptions: { target: ts.ScriptTarget.ES2022 } }).outputText;
    const tag = (s: TemplateStringsArray, ...v: unknown[]): string => s.raw.join('|') + v.join('|');
    const g = new Function('tag', `${js}; return g;`)(tag) as (a: number, name: string) => string;
    const results: string[] = [];
    for (const a of [0, 1, 2]) {
      try {
        results.push(g(a, 'n'));
      } catch (e) {
        results.push(String(e));
      }
    }
    return results;
  };
  assert.deepEqual(run(out), run(src));
  const long = f.longLines(out).map((i) => out.split('\n')[i] ?? '');
  assert.ok(long.every((l) => l.includes('tag`')), `only the tagged template stays long: ${long.join('\n')}`);
});

test('a long line of a template of several lines is cut with a line continuation; the value is the same', async () => {
  const f = await loadSplitter();
  const css = 'header { position:sticky; top:0; z-index:2; display:flex; flex-wrap:wrap; gap:10px; align-items:center;';
  const src = [
    'export const page = (nonce: string): string => `<style nonce="${nonce}">',
    `${css} padding:10px 16px; background:#20262e; color:#fff; } \${nonce} a\\ b ${'word '.repeat(20)}`,
    '</style>`;',
    'export const raw = String.raw`<p>',
    `${css} this one is raw, a line continuation would be text in it, so it stays as it is ${'word '.repeat(4)}`,
    '</p>`;',
    '',
  ].join('\n');
  const out = await f.formatText(src, 'x.ts');
  const run = (code: string): [string, string] => {
    const options = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS };
    const js = ts.transpileModule(code, { compilerOptions: options }).outputText;
    const m = new Function('exports', `${js}; return exports;`)({}) as { page(n: string): string; raw: string };
    return [m.page('n0'), m.raw];
  };
  assert.deepEqual(run(out), run(src));
  assert.match(out, / \\\n\S/, out);
  const long = f.longLines(out).map((i) => out.split('\n')[i] ?? '');
  assert.ok(long.every((l) => l.includes('this one is raw')), `only the raw template stays long: ${long.join('\n')}`);
});
