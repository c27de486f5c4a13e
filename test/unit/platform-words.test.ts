/**
 * Linux words stay in the Linux driver's folder. Outside src/drivers/linux no name in the code (an identifier)
 * speaks of X11, GTK, AT-SPI or keysyms, and a text that does (a string, a template, a regular expression) is in a
 * file listed below with why; comments may name them where they compare platforms. Checked with the TypeScript
 * parser, so a comment is never counted and an identifier like AppCompatSpinner is not read as "atspi".
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The words of Linux's own stack, matched against whole words of a text or of an identifier. */
const LINUX_WORD = /^(keysyms?|x11|gtk[234]?|atspi|at-spi|xlib|xtest|xdotool)$/i;

/** Files whose texts may name the Linux stack, and why. */
const TEXT_ALLOWED: Readonly<Record<string, string>> = {
  'src/conformance/builtin-scenarios.ts': 'the kit names each platform\'s own harness app (GTK on Linux)',
  'src/conformance/harness-launch.ts': 'the kit starts each platform\'s own harness app',
  'src/conformance/harnesses.ts': 'the kit\'s table of harnesses, one per platform',
  'src/hosts/cli/sandbox-command.ts': 'the usage text of the Linux sandbox command says what it starts',
  'src/policy/apps.ts': 'the deny list holds program names, x11-ssh-askpass among them',
  'src/protocol/methods.ts': 'a method\'s description gives a GTK 4 widget as its example',
};

/** An identifier's words: camelCase, PascalCase, snake_case and digits split (`gtkModules` → gtk, modules). */
function identifierWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_$]+/)
    .filter(Boolean);
}

/** A text's words, a hyphen kept inside a word (`at-spi`). */
function textWords(text: string): string[] {
  return text.split(/[^A-Za-z0-9-]+/).flatMap((w) => [w, ...w.split('-')]).filter(Boolean);
}

/** What in `source` names the Linux stack: identifiers and texts, each as `kind line: text`. */
export function linuxWordsIn(file: string, source: string): { identifiers: string[]; texts: string[] } {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const identifiers: string[] = [];
  const texts: string[] = [];
  const at = (n: ts.Node): number => sf.getLineAndCharacterOfPosition(n.getStart()).line + 1;
  const visit = (n: ts.Node): void => {
    if ((ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) && identifierWords(n.text).some((w) => LINUX_WORD.test(w))) {
      identifiers.push(`${at(n)}: ${n.text}`);
    } else if (
      (ts.isStringLiteral(n) ||
        ts.isNoSubstitutionTemplateLiteral(n) ||
        ts.isTemplateHead(n) ||
        ts.isTemplateMiddle(n) ||
        ts.isTemplateTail(n) ||
        ts.isRegularExpressionLiteral(n)) &&
      textWords(n.text).some((w) => LINUX_WORD.test(w))
    ) {
      texts.push(`${at(n)}: ${n.text.slice(0, 80)}`);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return { identifiers, texts };
}

/** The TypeScript sources under src/ outside the Linux driver's folder (generated files excepted). */
function sourcesOutsideLinux(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const rel = relative(root, path);
      if (rel === join('src', 'drivers', 'linux')) continue;
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.endsWith('.generated.ts')) out.push(rel);
    }
  };
  walk(join(root, 'src'));
  return out;
}

test('the detector finds a Linux word in an identifier and a text, and not in a comment or a longer word', () => {
  const found = linuxWordsIn('x.ts', [
    '// GTK and AT-SPI named in a comment',
    'const gtkModules = 1;',
    'const keysymOf = (k: string) => k;',
    "const s = 'needs the AT-SPI bus';",
    'const re = /x11-ssh-askpass/;',
    "const fine = { AppCompatSpinner: 'combobox', ScrollLock: 0x91, Control: 0x11 };",
  ].join('\n'));
  assert.deepEqual(found.identifiers, ['2: gtkModules', '3: keysymOf']);
  assert.deepEqual(found.texts, ['4: needs the AT-SPI bus', '5: /x11-ssh-askpass/']);
});

test('outside src/drivers/linux no identifier names the Linux stack, and texts do only in the listed files', () => {
  const files = sourcesOutsideLinux();
  assert.ok(files.length > 100, `read ${files.length} files`);
  const wrong: string[] = [];
  for (const file of files) {
    const { identifiers, texts } = linuxWordsIn(file, readFileSync(join(root, file), 'utf8'));
    for (const hit of identifiers) wrong.push(`${file}:${hit} (an identifier)`);
    if (!(file in TEXT_ALLOWED)) for (const hit of texts) wrong.push(`${file}:${hit} (a text)`);
  }
  assert.deepEqual(wrong, [], 'move this code into src/drivers/linux, or name what it does without the platform');
});

test('each file allowed to name the Linux stack in a text still does (the list does not outlive its reason)', () => {
  for (const file of Object.keys(TEXT_ALLOWED)) {
    const { texts } = linuxWordsIn(file, readFileSync(join(root, file), 'utf8'));
    assert.ok(texts.length > 0, `${file} no longer names the Linux stack: remove it from the list`);
  }
});
