#!/usr/bin/env node
// The line-length formatter: lines of the project's sources at most 120 characters, changing nothing else.
// A whole-file formatter would re-lay the code's dense one-line guards everywhere; this one re-lays only the
// statement, member or signature a long line belongs to (with prettier, at 120 columns), cuts a long literal or
// template into a concatenation of the same value and re-wraps long comments at word breaks. The lines written
// before the limit that it cannot shorten are counted per file in scripts/line-length-baseline.json: lint fails
// when a file has more long lines than its count (a new file: none), so the count only falls.
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
  return LONE_LITERAL.test(body);
}

/** One literal as a line holds it: a key, assignment, call or `return` before it; punctuation and a comment after. */
const LONE_LITERAL = new RegExp(
  /^(?:[\w.]+\s*[:=(]\s*|return\s+|\+\s*)?/.source +
    /(?:'(?:[^'\\]|\\.)*'|`(?:[^`\\$]|\\.)*`|"(?:[^"\\]|\\.)*"|\/(?:[^/\\\n]|\\.)+\/[a-z]*)/.source +
    /\s*(?:[+,;)]\s*)*(?:\/\/.*)?$/.source,
);

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
  // An object's member takes its comma; a class's method (a member-like node too) takes none.
  const member = open === '__w({' ? text.replace(/,\s*$/, '') + ',' : text;
  let out;
  try {
    // Laid one level into the wrapper, back at `indent`: the width is what the real indent leaves.
    const printWidth = WIDTH - Math.max(0, indent.length - 2);
    out = await prettier.format(`${open}\n${member}\n${close}\n`, { ...PRETTIER, printWidth });
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
    // A statement's head (`const f = async (…) => {`) comes back with its `;` after the empty body (a loop's or an
    // `if`'s empty body on two lines).
    const head = /\{\s*\};?$/.exec(replacement);
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
    // The ways to shorten the line, in order; the first whose change is layout only is taken.
    const ways = [];
    if (comment) {
      ways.push(() => {
        const wrapped = wrapComment(line);
        return wrapped && [...lines.slice(0, i), ...wrapped, ...lines.slice(i + 1)].join('\n');
      });
    } else if (/\S\s*\/\/ .*$/.test(line) && !/['"`]/.test(line.slice(line.indexOf('//')))) {
      ways.push(() => moveTrailingComment(sf, text, lines, i), () => relayCode(sf, text, lines, i));
    } else {
      // A literal longer than a line's room is split first: re-laid alone it would still run over the width.
      ways.push(
        () => breakTemplateLine(sf, text, lines, i),
        () => splitCallHead(sf, text, lines, i),
        () => splitString(sf, text, lines, i),
        () => relayCode(sf, text, lines, i),
      );
    }
    let next;
    for (const way of ways) {
      const candidate = await way();
      // Every change is proved to be layout only: the same tokens before and after, or it is not made.
      if (
        candidate &&
        shorter(candidate, text) &&
        tokens(candidate, file) === tokens(text, file)
      ) {
        next = candidate;
        break;
      }
    }
    if (next === undefined) kept.add(line);
    else text = next;
  }
  return text;
}

/** Fewer long lines, or as many and less over the width in all: a change that does not shorten is not made. */
function shorter(next, text) {
  const over = (t) => {
    const lines = t.split('\n');
    const long = longLines(t);
    return [long.length, long.reduce((n, i) => n + lines[i].length - WIDTH, 0)];
  };
  const [a, b] = [over(next), over(text)];
  return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
}

/** The code's tokens (comments and layout left out; JSDoc is a comment): equal when only layout changed. */
export function tokens(text, file = 'x.ts') {
  const sf = parse(text, file);
  const out = [];
  const walk = (n) => {
    if (ts.isJSDoc(n)) return;
    // Prettier's own changes mean the same: parentheses it adds for clarity, quotes, trailing commas, semicolons.
    if (ts.isParenthesizedExpression(n)) return walk(n.expression);
    // A string split into `('a ' + 'b')` is the same string: a concatenation of literals counts as one, and a
    // concatenation of templates (`a${x}` + ` b`) counts as the one template it was, its substitutions in order.
    const parts = templateParts(n);
    if (parts && !parts.some((p) => typeof p !== 'string')) return out.push(`string:${parts.join('')}`);
    if (parts) {
      out.push('template:');
      let text = '';
      for (const p of parts) {
        if (typeof p === 'string') text += p;
        else (out.push(`text:${text}`), (text = ''), walk(p));
      }
      return out.push(`text:${text}`);
    }
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

/**
 * A string literal, an untagged template or a `+` of them as its text and substitutions in order (strings and
 * expression nodes); else undefined. Each operand is a string, so the `+` of them is the one template's value.
 */
function templateParts(n) {
  if (ts.isStringLiteral(n)) return [n.text];
  const untagged = !(n.parent && ts.isTaggedTemplateExpression(n.parent));
  if (ts.isNoSubstitutionTemplateLiteral(n) && untagged) return [n.text];
  if (ts.isTemplateExpression(n) && untagged) {
    return [n.head.text, ...n.templateSpans.flatMap((s) => [s.expression, s.literal.text])];
  }
  if (ts.isParenthesizedExpression(n)) return templateParts(n.expression);
  if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = templateParts(n.left);
    const right = left === undefined ? undefined : templateParts(n.right);
    return right === undefined ? undefined : [...left, ...right];
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
  return splitUnits(literalUnits(raw.slice(1, -1)), raw[0], room);
}

/**
 * A template's body as units: its text's escapes and characters, and each substitution `${…}` whole (its source as
 * written). Cut between units, each piece is a template of its own and their `+` is the template's value.
 */
function templateUnits(sf, node) {
  const units = literalUnits(node.head.getText(sf).slice(1, -2));
  let from = node.head.getEnd();
  for (const span of node.templateSpans) {
    units.push('${' + sf.text.slice(from, span.literal.getStart(sf)) + '}');
    const raw = span.literal.getText(sf);
    units.push(...literalUnits(raw.slice(1, ts.isTemplateTail(span.literal) ? -1 : -2)));
    from = span.literal.getEnd();
  }
  return units;
}

/** Units as words: each ends after a space or before a substitution `${…}`. */
function wordsOf(units) {
  const words = [];
  let word = '';
  for (const u of units) {
    if (u.startsWith('${') && word) (words.push(word), (word = ''));
    word += u;
    if (u === ' ') (words.push(word), (word = ''));
  }
  if (word) words.push(word);
  return words;
}

/** Units packed into pieces of at most `room` characters with their quotes, cut after a space or before a `${`. */
function splitUnits(units, quote, room) {
  const words = wordsOf(units);
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
  const template = ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node);
  if (template && ts.isTaggedTemplateExpression(p)) return false;
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
    const literal = ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateExpression(n);
    if (literal && n.getStart(sf) >= lineStart && n.getEnd() <= lineEnd && splittable(n)) {
      if (!best || n.getWidth(sf) > best.getWidth(sf)) best = n;
    }
    n.forEachChild(visit);
  };
  visit(sf);
  if (!best) return undefined;
  // Room for a piece on its own line, below the statement's indent and a nesting level or two of prettier's.
  const room = WIDTH - indentOf(lines[i]).length - 12;
  const pieces = ts.isTemplateExpression(best)
    ? splitUnits(templateUnits(sf, best), '`', room)
    : splitLiteral(best.getText(sf), room);
  if (!pieces) return undefined;
  const cut = text.slice(0, best.getStart(sf)) + '(' + pieces.join(' + ') + ')' + text.slice(best.getEnd());
  return await relayCode(parse(cut, sf.fileName), cut, cut.split('\n'), i);
}

/** Where line `i` starts in the text. */
const offsetOf = (lines, i) => lines.slice(0, i).reduce((n, l) => n + l.length + 1, 0);

/** The untagged template (an expression or one without substitutions) that a template token belongs to. */
function untaggedTemplate(n) {
  const template = ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateHead(n) ? n.parent : n.parent?.parent;
  const node = ts.isNoSubstitutionTemplateLiteral(n) ? n : template;
  return node && !ts.isTaggedTemplateExpression(node.parent) ? node : undefined;
}

/**
 * A line that starts inside a template of several lines (a page, a script, a table), cut after its last space that
 * leaves room with a line continuation: a `\` before the line break adds nothing to a template's value. The rest
 * starts at column 0, as the template's own lines do (indent would be text). A tagged template sees the raw text,
 * so it is left alone.
 */
function breakTemplateLine(sf, text, lines, i) {
  const lineStart = offsetOf(lines, i);
  const lineEnd = lineStart + lines[i].length;
  const ranges = [];
  let startsInside = false;
  const visit = (n) => {
    if (n.getEnd() < lineStart || n.getStart(sf) > lineEnd) return;
    const token = ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) ||
      ts.isTemplateTail(n);
    if (token && untaggedTemplate(n)) {
      const from = n.getStart(sf) + 1;
      const to = n.getEnd() - (ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateTail(n) ? 1 : 2);
      if (from <= lineStart && lineStart <= to) startsInside = true;
      ranges.push([from, to]);
    }
    n.forEachChild(visit);
  };
  visit(sf);
  if (!startsInside) return undefined;
  for (let p = lineStart + WIDTH - 1; p > lineStart + 40; p--) {
    if (text[p - 1] !== ' ' || !ranges.some(([from, to]) => from < p && p <= to)) continue;
    // The space must be a character of its own, not the second half of an escape (`\ `).
    const units = literalUnits(text.slice(lineStart, p));
    if (units[units.length - 1] !== ' ') continue;
    return text.slice(0, p) + '\\\n' + text.slice(p);
  }
  return undefined;
}

/**
 * `test('a long name…', options, async () => {` over the width: prettier keeps a test call's head on one line, so
 * the name (the call's first argument, a literal) is cut into `'…' +` lines here, the continuation four columns in,
 * and the function's body stays where it is.
 */
function splitCallHead(sf, text, lines, i) {
  const lineStart = offsetOf(lines, i);
  const line = lines[i].trimEnd();
  if (!line.endsWith('{')) return undefined;
  let call;
  const visit = (n) => {
    if (call || n.getEnd() < lineStart || n.getStart(sf) > lineStart + line.length) return;
    if (ts.isCallExpression(n) && n.getStart(sf) >= lineStart && n.arguments.length >= 2) {
      const [first] = n.arguments;
      const last = n.arguments[n.arguments.length - 1];
      const fn = ts.isArrowFunction(last) || ts.isFunctionExpression(last);
      const literal = ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first) ||
        ts.isTemplateExpression(first);
      if (fn && ts.isBlock(last.body) && last.body.getStart(sf) === lineStart + line.length - 1 && literal &&
        first.getEnd() <= lineStart + line.length) call = n;
    }
    n.forEachChild(visit);
  };
  visit(sf);
  if (!call) return undefined;
  const first = call.arguments[0];
  const raw = first.getText(sf);
  const quote = raw[0];
  const units = ts.isTemplateExpression(first) ? templateUnits(sf, first) : literalUnits(raw.slice(1, -1));
  const prefix = text.slice(lineStart, first.getStart(sf));
  const rest = text.slice(first.getEnd(), lineStart + line.length);
  const indent = indentOf(line) + '    ';
  const width = (piece) => piece.join('').length;
  const words = wordsOf(units);
  // Greedy pieces of at most `cap` characters each within its line's room; the last one shares its line with the
  // rest of the head (`, async () => {`).
  const pack = (cap) => {
    const pieces = [[]];
    for (const w of words) {
      const room = Math.min(cap, WIDTH - (pieces.length === 1 ? prefix.length : indent.length) - 4);
      if (pieces.at(-1).length && width(pieces.at(-1)) + w.length > room) pieces.push([]);
      pieces.at(-1).push(w);
    }
    while ((pieces.length === 1 ? prefix : indent).length + width(pieces.at(-1)) + 2 + rest.length > WIDTH) {
      const last = pieces.at(-1);
      if (last.length < 2) return undefined;
      pieces.push([last.pop()]);
    }
    return pieces;
  };
  const greedy = pack(WIDTH);
  if (!greedy || greedy.length < 2) return undefined;
  // The same number of lines, as even as they go: no last line of one word.
  const even = Math.ceil(width(words) / greedy.length);
  let pieces = greedy;
  for (let cap = even; cap < WIDTH; cap += 4) {
    const p = pack(cap);
    if (p && p.length === greedy.length) {
      pieces = p;
      break;
    }
  }
  const head = pieces.map(
    (p, k) => (k ? indent : prefix) + quote + p.join('') + quote + (k < pieces.length - 1 ? ' +' : rest),
  );
  return text.slice(0, lineStart) + head.join('\n') + text.slice(lineStart + line.length);
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
