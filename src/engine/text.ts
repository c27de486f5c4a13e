/**
 * Text content (AT-SPI Text, UIA TextPattern): how a node's text, caret and selection read on its line, the
 * "more text" hint that says which offsets to ask for next, a text range shown as numbered lines, and the
 * case-insensitive search that reports line and offset. Pure: the driver reads, this only formats.
 */
import { escapeText } from './escape.js';
import { MAX_VALUE_CHARS, quote } from './measure.js';
import type { Role } from './role.js';

/** Text facts of a node, as RawNode and DistilledNode carry them. */
export interface TextFacts {
  role: Role;
  ref?: string;
  name?: string;
  states?: readonly string[];
  value?: string;
  valueLength?: number;
  valueStart?: number;
  caret?: number;
  selection?: [number, number];
}

/** Roles whose text is content to read (documents, terminals, PDF pages), shown longer than a field value. */
export const TEXT_BODY_ROLES: ReadonlySet<Role> = new Set<Role>([
  'document',
  'terminal',
  'page',
  'paragraph',
  'text',
  'heading',
  'generic',
]);
/** Characters of a body's text shown on its line; a field's value keeps the renderer's shorter cut. */
export const MAX_BODY_CHARS = 600;

/** True for a node whose text is content to read rather than a field's value. */
export function isBody(t: TextFacts): boolean {
  return (
    TEXT_BODY_ROLES.has(t.role) &&
    t.value !== undefined &&
    (t.role !== 'generic' || t.value !== '' || (t.valueLength ?? 0) > 0)
  );
}

/**
 * Whether the caret is worth a few tokens: in the focused element or a document/terminal with text, or with a
 * selection. An empty field's caret says nothing.
 */
function showsCaret(t: TextFacts): boolean {
  if (t.selection && t.selection[1] > t.selection[0]) return true;
  return (
    t.caret !== undefined &&
    t.caret >= 0 &&
    (t.value ?? '') !== '' &&
    (t.role === 'document' || t.role === 'terminal' || (t.states?.includes('focused') ?? false))
  );
}

/** The caret and selection as they end an element line (after its states), or ''. */
export function caretPart(t: TextFacts): string {
  return showsCaret(t) ? caretSuffix(t) : '';
}

/**
 * What follows the name on an element line for a node with text content, caret or selection: the value (a
 * body's longer, with the exact "more text" hint; caretPart ends the line). Undefined for other nodes:
 * the renderer's plain `value="…"` applies.
 */
export function textPart(t: TextFacts, bodyChars = MAX_BODY_CHARS): string | undefined {
  const body = isBody(t);
  if (!body && !showsCaret(t) && !isPartial(t)) return undefined;
  const value = t.value ?? '';
  let s = '';
  if (body || (t.valueStart ?? 0) > 0) {
    const { shown, hint } = bodyValue(t, body ? bodyChars : MAX_VALUE_CHARS);
    const start = t.valueStart ?? 0;
    const tail = start > 0 || (hint !== undefined && value.length > 0 && shown !== value.slice(0, shown.length));
    // A terminal pads its screen with empty lines: they cost tokens and say nothing.
    const text = shown.replace(/\n+$/, '\n');
    if (text !== '' && text !== t.name)
      s += ` value="${tail ? '…' : ''}${escapeText(text)}${!tail && hint ? '…' : ''}"`;
    else if (shown === '' && (t.valueLength ?? 0) > 0)
      s += ` (text of ${n(t.valueLength ?? 0)} characters not read here; scope=${t.ref ?? '?'} from=0 reads it)`;
    if (hint && shown !== '') s += ` ${hint}`;
  } else if (value !== '' && value !== t.name) {
    s += ` value=${quote(value, MAX_VALUE_CHARS, t.valueLength)}`;
  }
  return s;
}

/** A body's characters for a token budget: a third of it in characters (~a tenth in tokens), 80 to 600. */
export function bodyCharsFor(maxTokens: number): number {
  return Math.min(MAX_BODY_CHARS, Math.max(MAX_VALUE_CHARS, Math.floor(maxTokens / 3)));
}

/** "1,234". */
export function n(v: number): string { return v.toLocaleString('en-US'); }

/** True when the node shows text that is longer than what was read, or read from an offset. */
export function isPartial(t: TextFacts): boolean {
  const len = t.value?.length ?? 0;
  return (t.valueStart ?? 0) > 0 || (t.valueLength !== undefined && t.valueLength > len + (t.valueStart ?? 0));
}

/**
 * The value as shown on the line and the hint after it. A head cut keeps the start; a tail read (terminals:
 * the newest output is at the end) keeps the end. The hint gives the exact offsets and the call that reads on:
 * `(text 0–600 of 12,345; more: scope=e7 from=600)`.
 */
export function bodyValue(t: TextFacts, maxChars: number): { shown: string; hint?: string } {
  const value = t.value ?? '';
  const start = t.valueStart ?? 0;
  const total = Math.max(t.valueLength ?? 0, start + value.length);
  let shown = value;
  let from = start;
  let to = start + value.length;
  if (start > 0 && value.length > maxChars) {
    // A tail read: keep its end, where the newest text is.
    shown = value.slice(value.length - maxChars);
    from = to - shown.length;
  } else if (value.length > maxChars) {
    shown = value.slice(0, maxChars);
    // End on a line break when there is one near the end, so reading on starts a line.
    const br = shown.lastIndexOf('\n');
    if (br >= maxChars * 0.6) shown = shown.slice(0, br + 1);
    to = from + shown.length;
  }
  if (from === 0 && to >= total) return { shown };
  const ref = t.ref ?? '?';
  const next = to < total ? `more: scope=${ref} from=${to}` : `earlier: scope=${ref} from=${Math.max(0, from - 4000)}`;
  return { shown, hint: `(text ${n(from)}–${n(to)} of ${n(total)}; ${next})` };
}

/** ` caret=120 selected=100–110`, or '' when the node has neither (a caret of -1 is no caret). */
export function caretSuffix(t: Pick<TextFacts, 'caret' | 'selection'>): string {
  let s = '';
  if (t.caret !== undefined && t.caret >= 0) s += ` caret=${t.caret}`;
  if (t.selection && t.selection[1] > t.selection[0]) s += ` selected=${t.selection[0]}–${t.selection[1]}`;
  return s;
}

/** 1-based line and 0-based column of `offset` in `text`, counting from line `firstLine` at offset 0. */
export function lineAt(text: string, offset: number, firstLine = 1): { line: number; column: number } {
  let line = firstLine;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart };
}

/** One match of a text search. */
export interface TextMatch {
  /** Offset of the match in the node's full text (characters). */
  offset: number;
  /** 1-based line of the match. */
  line: number;
  /** The match's line, cut around the match (at most ~120 characters). */
  snippet: string;
}

/** The line around `offset`, cut to about `max` characters centred on the match. */
export function snippetAt(text: string, offset: number, length: number, max = 120): string {
  const ls = text.lastIndexOf('\n', offset - 1) + 1;
  let le = text.indexOf('\n', offset + length);
  if (le === -1) le = text.length;
  let a = ls;
  let b = le;
  if (b - a > max) {
    a = Math.max(ls, offset - Math.floor((max - length) / 2));
    b = Math.min(le, a + max);
  }
  return `${a > ls ? '…' : ''}${text.slice(a, b)}${b < le ? '…' : ''}`;
}

/**
 * Case-insensitive matches of `query` in `text`, which starts at offset `base` of the full text on line
 * `baseLine`; at most `limit`. Offsets and lines are those of the full text.
 */
export function searchText(
  text: string,
  query: string,
  opts: { base?: number; baseLine?: number; limit?: number } = {},
): TextMatch[] {
  const q = query.toLowerCase();
  if (!q) return [];
  const hay = text.toLowerCase();
  const out: TextMatch[] = [];
  let line = opts.baseLine ?? 1;
  let counted = 0;
  for (
    let i = hay.indexOf(q);
    i !== -1 && out.length < (opts.limit ?? 20);
    i = hay.indexOf(q, i + Math.max(1, q.length))
  ) {
    // Lines are counted incrementally: a search over a long terminal stays linear.
    for (let j = hay.indexOf('\n', counted); j !== -1 && j < i; j = hay.indexOf('\n', j + 1)) {
      line++;
      counted = j + 1;
    }
    out.push({ offset: (opts.base ?? 0) + i, line, snippet: snippetAt(text, i, q.length) });
  }
  return out;
}

/** How a text match reads after its element line: `line 3, offset 214: "…match…"`. */
export function renderMatch(m: TextMatch): string {
  return `line ${m.line}, offset ${m.offset}: "${escapeText(m.snippet)}"`;
}

/**
 * A text range as numbered lines under its element (what `scope=eN from=K` shows): each line of the range as
 * `  12│ text`, a line cut at 400 characters, then where the range ends and how to read on.
 */
export function renderTextBlock(
  range: { ref: string; text: string; start: number; length: number; startLine: number },
  indent: string,
): string[] {
  const out: string[] = [];
  const lines = range.text.split('\n');
  lines.forEach((l, i) => {
    if (i === lines.length - 1 && l === '' && lines.length > 1) return;
    const cut = l.length > 400 ? `${l.slice(0, 400)}…(${n(l.length)})` : l;
    out.push(`${indent}${range.startLine + i}│ ${escapeText(cut)}`);
  });
  const end = range.start + range.text.length;
  out.push(
    `${indent}(text ${n(range.start)}–${n(end)} of ${n(range.length)}` +
      `${end < range.length ? `; more: scope=${range.ref} from=${end}` : ''})`,
  );
  return out;
}
