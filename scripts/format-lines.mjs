#!/usr/bin/env node
// The line-length formatter: lines of the project's sources at most 120 characters, changing nothing else.
// A whole-file formatter would re-lay the code's dense one-line guards everywhere; this one re-lays only the
// statement, member or signature a long line belongs to (with prettier, at 120 columns) and re-wraps long comments
// at word breaks. The lines written before the limit are counted per file in scripts/line-length-baseline.json:
// lint fails when a file has more long lines than its count (a new file: none), so the count only falls.
//   node scripts/format-lines.mjs FILE…      re-lay the long lines of these files in place
//   node scripts/format-lines.mjs --check    compare each file with the baseline (run by lint)
//   node scripts/format-lines.mjs --baseline write the baseline from the files as they are
import { readFileSync, writeFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import * as prettier from 'prettier';

export const WIDTH = 120;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FOLDERS = ['src', 'test', 'bench', 'examples', 'scripts'];
const SKIP = /(^|\/)(node_modules|dist|results|fixtures|pages)(\/|$)|\.generated\.ts$/;
const PRETTIER = {
  parser: 'typescript',
  printWidth: WIDTH,
  singleQuote: true,
  trailingComma: 'all',
  arrowParens: 'always',
};

/** The source files the formatter keeps (TypeScript and the scripts' JavaScript). */
export function sourceFiles(root = ROOT) {
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (SKIP.test(relative(root, path))) continue;
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|mjs|js)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
    }
  };
  for (const f of FOLDERS) walk(join(root, f));
  return out.sort();
}

/** Lines over the width, as `file:line: length`. Lines that are one string, URL or regular expression are kept. */
export function longLines(text) {
  const out = [];
  text.split('\n').forEach((l, i) => {
    if (l.length > WIDTH && !unbreakable(l)) out.push(i);
  });
  return out;
}

/** A line that no formatter can shorten: one literal (a long message, a URL, a pattern) with its punctuation. */
function unbreakable(line) {
  const body = line.trim().replace(/^(\/\/|\*)\s*/, '');
  if (!/\s/.test(body)) return true;
  return /^(?:[\w.]+\s*[:=(]\s*|return\s+|\+\s*)?(?:'(?:[^'\\]|\\.)*'|`(?:[^`\\$]|\\.)*`|"(?:[^"\\]|\\.)*"|\/(?:[^/\\\n]|\\.)+\/[a-z]*)\s*(?:[+,;)]\s*)*(?:\/\/.*)?$/.test(
    body,
  );
}

/** The file's syntax tree (TypeScript or JavaScript by its name). */
const parse = (text, file) =>
  ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS,
  );

const indentOf = (line) => /^\s*/.exec(line)[0];

/** Re-wraps one comment line (`//`, ` * `) at word breaks, each piece with the line's own prefix. */
function wrapComment(line) {
  const m = /^(\s*(?:\/\/+|\*|\/\*\*?)\s?)(.*)$/.exec(line);
  if (!m) return undefined;
  const [, prefix, body] = m;
  const lead = prefix.replace('/**', ' *').replace('/*', ' *');
  const cont = /^\s*\/\//.test(prefix) ? prefix : indentOf(prefix) + lead.trimStart();
  const out = [];
  let rest = body;
  let p = prefix;
  while (p.length + rest.length > WIDTH) {
    const room = WIDTH - p.length;
    let cut = rest.lastIndexOf(' ', room);
    if (cut <= 0) cut = rest.indexOf(' ', room);
    if (cut <= 0) break;
    out.push(p + rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut + 1).trimStart();
    p = cont;
  }
  out.push(p + rest);
  return out.length > 1 ? out : undefined;
}

/** The smallest node of a kind prettier can lay out alone that holds the whole line. */
function enclosing(sf, start, end) {
  let best;
  const visit = (node) => {
    if (node.getStart(sf) > start || node.getEnd() < end) return;
    if (layable(node)) best = node;
    node.forEachChild(visit);
  };
  visit(sf);
  return best;
}

function layable(node) {
  return (
    ts.isStatement(node) ||
    ts.isClassElement(node) ||
    ts.isTypeElement(node) ||
    ts.isObjectLiteralElementLike(node) ||
    ts.isCaseClause(node) ||
    ts.isDefaultClause(node) ||
    ts.isEnumMember(node)
  );
}

/** A node's block body (function, method, if, loop), laid out apart so a long head does not re-lay the body. */
function bodyOf(node) {
  if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node)) return node.body;
  if (ts.isIfStatement(node) && ts.isBlock(node.thenStatement)) return node.thenStatement;
  if (
    (ts.isForStatement(node) || ts.isForOfStatement(node) || ts.isForInStatement(node) || ts.isWhileStatement(node)) &&
    ts.isBlock(node.statement)
  )
    return node.statement;
  if (ts.isVariableStatement(node) || ts.isExpressionStatement(node)) {
    // `const f = async (…): T => {` with its body on the lines after.
    let arrow;
    const find = (n) => {
      if (!arrow && (ts.isArrowFunction(n) || ts.isFunctionExpression(n)) && n.body && ts.isBlock(n.body)) arrow = n;
      else n.forEachChild(find);
    };
    node.forEachChild(find);
    return arrow?.body;
  }
  return undefined;
}

/** Wrappers that make a node parse alone: its text goes between `open` and `close`, one level in. */
function wrapperFor(node) {
  if (ts.isClassElement(node)) return ['class __W {', '}'];
  if (ts.isTypeElement(node)) return ['interface __W {', '}'];
  if (ts.isObjectLiteralElementLike(node)) return ['__w({', '});'];
  if (ts.isCaseClause(node) || ts.isDefaultClause(node)) return ['switch (__w) {', '}'];
  if (ts.isEnumMember(node)) return ['enum __W {', '}'];
  return ['async function* __w() {', '}'];
}

/** Lays out `text` (a node, or a node's head ending in `{}`) with prettier, back at `indent`; undefined if it fails. */
async function layOut(node, text, indent) {
  const [open, close] = wrapperFor(node);
  const member = ts.isObjectLiteralElementLike(node) ? text.replace(/,\s*$/, '') + ',' : text;
  let out;
  try {
    out = await prettier.format(`${open}\n${member}\n${close}\n`, PRETTIER);
  } catch {
    return undefined;
  }
  const lines = out.trimEnd().split('\n');
  if (lines[0] !== open || lines[lines.length - 1] !== close) return undefined;
  return lines.slice(1, -1).map((l) => (l ? indent + l.slice(2) : l));
}

/** Re-lays the node that holds line `i`; returns the new text or undefined when it cannot be shortened. */
async function relayCode(sf, text, lines, i) {
  const lineStart = lines.slice(0, i).reduce((n, l) => n + l.length + 1, 0);
  const start = lineStart + indentOf(lines[i]).length;
  const end = lineStart + lines[i].replace(/\s*(\/\/.*)?$/, '').length;
  const node = enclosing(sf, start, end);
  if (!node) return undefined;
  const nodeStart = node.getStart(sf);
  const first = sf.getLineAndCharacterOfPosition(nodeStart).line;
  const indent = indentOf(lines[first]);
  const body = bodyOf(node);
  const headEnd = body && body.getStart(sf) > start && body.getEnd() > end + 1 ? body.getStart(sf) : undefined;
  const nodeText = text.slice(nodeStart, headEnd ?? node.getEnd());
  // Comments inside the node travel with it through prettier; a node holding blank-line layout is left alone.
  const laid = await layOut(node, headEnd ? nodeText.trimEnd() + ' {}' : nodeText, indent);
  if (!laid) return undefined;
  let replacement = laid.join('\n');
  if (headEnd) {
    // A statement's head (`const f = async (…) => {`) comes back from prettier with its `;` after the empty body.
    const head = /\{\};?$/.exec(replacement);
    if (!head) return undefined;
    replacement = replacement.slice(0, head.index) + text.slice(headEnd, node.getEnd());
  }
  // The node may start after other code on its first line (`} else if (…) {`): that code stays in front.
  const firstStart = lines.slice(0, first).reduce((n, l) => n + l.length + 1, 0);
  const next =
    text.slice(0, firstStart) +
    text.slice(firstStart, nodeStart).trimEnd().replace(/^\s+$/, '') +
    (text.slice(firstStart, nodeStart).trim() ? ' ' + replacement.trimStart() : replacement) +
    text.slice(node.getEnd());
  return next === text ? undefined : next;
}

/** Formats one file's text: long comments re-wrapped, long code re-laid; lines it cannot shorten stay. */
export async function formatText(text, file = 'x.ts') {
  const kept = new Set();
  for (let round = 0; round < 2000; round++) {
    const lines = text.split('\n');
    const i = longLines(text).find((n) => !kept.has(lines[n]));
    if (i === undefined) return text;
    const line = lines[i];
    const sf = ts.createSourceFile(
      file,
      text,
      ts.ScriptTarget.Latest,
      true,
      file.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS,
    );
    const comment = /^\s*(\/\/|\*|\/\*)/.test(line) && !inTemplate(sf, text, lines, i);
    let next;
    if (comment) {
      const wrapped = wrapComment(line);
      if (wrapped) next = [...lines.slice(0, i), ...wrapped, ...lines.slice(i + 1)].join('\n');
    } else if (/\S\s*\/\/ .*$/.test(line) && !/['"`]/.test(line.slice(line.indexOf('//')))) {
      next = moveTrailingComment(sf, text, lines, i);
      if (!next) next = await relayCode(sf, text, lines, i);
    } else {
      // A literal longer than a line's room is split first: re-laid alone it would still run over the width.
      next = (await splitString(sf, text, lines, i)) ?? (await relayCode(sf, text, lines, i));
    }
    // Every change is proved to be layout only: the same tokens before and after, or it is not made.
    if (
      next === undefined ||
      longLines(next).length >= longLines(text).length + 3 ||
      tokens(next, file) !== tokens(text, file)
    )
      kept.add(line);
    else text = next;
  }
  return text;
}

/** The code's tokens (comments and layout left out; JSDoc is a comment): equal when only layout changed. */
export function tokens(text, file = 'x.ts') {
  const sf = parse(text, file);
  const out = [];
  const walk = (n) => {
    if (ts.isJSDoc(n)) return;
    // Prettier's own changes mean the same: parentheses it adds for clarity, quotes, trailing commas, semicolons.
    if (ts.isParenthesizedExpression(n)) return walk(n.expression);
    // A string split into `('a ' + 'b')` is the same string: a concatenation of literals counts as one.
    const value = literalValue(n);
    if (value !== undefined) return out.push(`string:${value}`);
    const kids = n.getChildren(sf);
    if (!kids.length) out.push(`${n.kind}:${n.getText(sf)}`);
    else kids.forEach(walk);
  };
  walk(sf);
  const K = ts.SyntaxKind;
  const closing = [K.CloseParenToken, K.CloseBracketToken, K.CloseBraceToken, K.GreaterThanToken];
  const isClose = (t) => closing.some((k) => t.startsWith(`${k}:`));
  return out.filter((t, i) => !(t === `${K.CommaToken}:,` && out[i + 1] && isClose(out[i + 1])))
    .filter((t) => t !== `${K.SemicolonToken}:;`).join('\n');
}

/** The value of a string literal, an untagged template without substitutions, or a `+` of them; else undefined. */
function literalValue(n) {
  if (ts.isStringLiteral(n)) return n.text;
  if (ts.isNoSubstitutionTemplateLiteral(n) && !ts.isTaggedTemplateExpression(n.parent)) return n.text;
  if (ts.isParenthesizedExpression(n)) return literalValue(n.expression);
  if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = literalValue(n.left);
    const right = left === undefined ? undefined : literalValue(n.right);
    return right === undefined ? undefined : left + right;
  }
  return undefined;
}

/**
 * The pieces of a literal's body that must stay whole: an escape (`\n`, `\x41`, `\u00e9`, `\u{1F600}`, an octal
 * escape, a line continuation), a surrogate pair written as two escapes or as itself, or one character.
 */
export function literalUnits(body) {
  const unit =
    /\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u\{[0-9a-fA-F]+\}|\\u[0-9a-fA-F]{4}|\\x[0-9a-fA-F]{2}/
      .source +
    /|\\[0-3][0-7]{0,2}|\\[4-7][0-7]?|\\\r\n|\\[\s\S]|[\uD800-\uDBFF][\uDC00-\uDFFF]|[\s\S]/.source;
  return body.match(new RegExp(unit, 'g')) ?? [];
}

/**
 * A literal's source (`'…'`, `"…"` or a template without substitutions) cut after spaces into pieces of at most
 * `room` characters each with its quotes (a longer word is a piece alone); undefined when it stays one piece.
 */
export function splitLiteral(raw, room) {
  const quote = raw[0];
  const words = [];
  let word = '';
  for (const u of literalUnits(raw.slice(1, -1))) {
    word += u;
    if (u === ' ') (words.push(word), (word = ''));
  }
  if (word) words.push(word);
  const pieces = [];
  let piece = '';
  for (const w of words) {
    if (piece && piece.length + w.length + 2 > room) (pieces.push(piece), (piece = ''));
    piece += w;
  }
  if (piece) pieces.push(piece);
  return pieces.length > 1 ? pieces.map((p) => quote + p + quote) : undefined;
}

/**
 * A literal that may become a concatenation and stay the same program: an expression whose value alone matters,
 * not a module name, a property or member name, a type, a directive, a tagged template, an index, a case label, a
 * JSX attribute or part of an `as const` value (whose literal type the concatenation would widen to string).
 */
function splittable(node) {
  const p = node.parent;
  if (!p || p.name === node || p.moduleSpecifier === node || p.propertyName === node) return false;
  if (ts.isNoSubstitutionTemplateLiteral(node) && ts.isTaggedTemplateExpression(p)) return false;
  if (ts.isExpressionStatement(p) || ts.isEnumMember(p) || ts.isElementAccessExpression(p)) return false;
  if (ts.isCaseClause(p) || ts.isJsxAttribute(p) || ts.isExternalModuleReference(p)) return false;
  if (ts.isImportTypeNode(p) || ts.isModuleDeclaration(p) || ts.isLiteralTypeNode(p)) return false;
  for (let a = p; a; a = a.parent) {
    if (ts.isTypeNode(a) && !ts.isExpressionWithTypeArguments(a)) return false;
    if (ts.isAsExpression(a) && ts.isTypeReferenceNode(a.type) && a.type.typeName.getText() === 'const') return false;
    if (ts.isStatement(a) || ts.isClassElement(a)) break;
  }
  return true;
}

/** Line `i` with its longest splittable literal cut into `('a ' + 'b')` and its statement re-laid; else undefined. */
async function splitString(sf, text, lines, i) {
  const lineStart = lines.slice(0, i).reduce((n, l) => n + l.length + 1, 0);
  const lineEnd = lineStart + lines[i].length;
  let best;
  const visit = (n) => {
    if (n.getEnd() < lineStart || n.getStart(sf) > lineEnd) return;
    const literal = ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n);
    if (literal && n.getStart(sf) >= lineStart && n.getEnd() <= lineEnd && splittable(n)) {
      if (!best || n.getWidth(sf) > best.getWidth(sf)) best = n;
    }
    n.forEachChild(visit);
  };
  visit(sf);
  if (!best) return undefined;
  // Room for a piece on its own line, below the statement's indent and a nesting level or two of prettier's.
  const pieces = splitLiteral(best.getText(sf), WIDTH - indentOf(lines[i]).length - 12);
  if (!pieces) return undefined;
  const cut = text.slice(0, best.getStart(sf)) + '(' + pieces.join(' + ') + ')' + text.slice(best.getEnd());
  return await relayCode(parse(cut, sf.fileName), cut, cut.split('\n'), i);
}

/** A line inside a template literal (a `//` or ` * ` there is text, not a comment). */
function inTemplate(sf, text, lines, i) {
  const pos = lines.slice(0, i).reduce((n, l) => n + l.length + 1, 0) + indentOf(lines[i]).length;
  let inside = false;
  const visit = (n) => {
    if (inside || n.getStart(sf) > pos || n.getEnd() < pos) return;
    if (ts.isTemplateExpression(n) || ts.isNoSubstitutionTemplateLiteral(n)) inside = true;
    else n.forEachChild(visit);
  };
  visit(sf);
  return inside;
}

/** `code; // why` over the width: the comment goes on its own line above the code. */
function moveTrailingComment(sf, text, lines, i) {
  const line = lines[i];
  const at = line.lastIndexOf(' // ');
  if (at < 0) return undefined;
  const pos = lines.slice(0, i).reduce((n, l) => n + l.length + 1, 0) + at + 1;
  const token = ts.getTokenAtPosition(sf, pos);
  if (token.getStart(sf) <= pos && pos < token.getEnd()) return undefined;
  const code = line.slice(0, at).trimEnd();
  const comment = indentOf(line) + line.slice(at + 1);
  return [...lines.slice(0, i), comment, code, ...lines.slice(i + 1)].join('\n');
}

const BASELINE = join(ROOT, 'scripts', 'line-length-baseline.json');

/** Long lines per file (relative path → count) for the files given. */
export function countLongLines(files, root = ROOT) {
  const counts = {};
  for (const file of files) {
    const n = longLines(readFileSync(file, 'utf8')).length;
    if (n) counts[relative(root, file)] = n;
  }
  return counts;
}

/** Files whose long lines outnumber the baseline's count for them, with both numbers. */
export function overBaseline(counts, baseline) {
  return Object.entries(counts)
    .filter(([file, n]) => n > (baseline[file] ?? 0))
    .map(([file, n]) => ({ file, lines: n, allowed: baseline[file] ?? 0 }));
}

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === '--baseline') {
    writeFileSync(BASELINE, JSON.stringify(countLongLines(sourceFiles()), null, 1) + '\n');
    return;
  }
  if (args[0] === '--check') {
    const over = overBaseline(countLongLines(sourceFiles()), JSON.parse(readFileSync(BASELINE, 'utf8')));
    for (const o of over) {
      const text = readFileSync(join(ROOT, o.file), 'utf8');
      const where = longLines(text).map((i) => i + 1).join(', ');
      console.log(`${o.file}: ${o.lines} lines over ${WIDTH} characters (lines ${where}), ${o.allowed} allowed`);
    }
    if (over.length) {
      console.log(`re-lay them: node scripts/format-lines.mjs ${over.map((o) => o.file).join(' ')}`);
      process.exitCode = 1;
    }
    return;
  }
  for (const arg of args) {
    const file = resolve(arg);
    const text = readFileSync(file, 'utf8');
    const next = await formatText(text, file);
    if (next !== text) writeFileSync(file, next);
    console.log(`${relative(ROOT, file)}: ${longLines(text).length} → ${longLines(next).length} lines over ${WIDTH}`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
