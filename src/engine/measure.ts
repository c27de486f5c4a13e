/**
 * What the engine's renderers share and nothing else: how long a name, a value or a list may be on a line, how a
 * long text is cut and quoted, and what a text costs in tokens. A leaf of the engine (it imports only the escaping
 * boundary), so the renderer, the budget, the text and grid formatters and the diff all import it and none
 * imports another through it.
 */
import { quoteText } from './escape.js';

/** Default number of children shown for a list-like element. */
export const MAX_LIST_ITEMS = 25;
/** Values are cut after this many characters. */
export const MAX_VALUE_CHARS = 80;
/** Names are cut after this many characters. */
export const MAX_NAME_CHARS = 120;
/**
 * The element an observe is scoped to prints its name and value up to this many characters: a scope is how the
 * model asks for an element whole (a label's 277 characters stayed cut at 120, `…(277)`, under its scope).
 */
export const MAX_SCOPED_CHARS = 4000;

/** Default snapshot budget in tokens: what one observe may cost the model. */
export const DEFAULT_MAX_TOKENS = 2000;

/**
 * Cheap token estimate, calibrated against o200k_base on snapshot text (see the engine-budget test; it runs
 * a few percent high, which is the safe side for a budget): a letter run costs one token per 5 characters,
 * a digit run one per 3, a run of ASCII punctuation or line breaks one per 2, a run of several spaces one
 * (a single space merges into the next token), each CJK or other non-ASCII character one.
 */
export function estimateTokens(text: string): number {
  let tokens = 0;
  const re = /([A-Za-z]+)|([0-9]+)|( +)|([\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e\n]+)|(.)/gsu;
  for (const m of text.matchAll(re)) {
    if (m[1] !== undefined) tokens += Math.ceil(m[1].length / 5);
    else if (m[2] !== undefined) tokens += Math.ceil(m[2].length / 3);
    else if (m[3] !== undefined) tokens += m[3].length > 1 ? 1 : 0;
    else if (m[4] !== undefined) tokens += Math.ceil(m[4].length / 2);
    else tokens += 1;
  }
  return tokens;
}

/** Compact number: 812, 1.2k, 15k, 2.3M. */
export function compactCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 10_000) return `${(Math.floor(n / 100) / 10).toString()}k`;
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${(Math.floor(n / 100_000) / 10).toString()}M`;
}

/** Cuts `s` to `max` UTF-16 units (not inside a surrogate pair) and appends `…(N)` with the total length. */
export function cutText(s: string, max: number, total = s.length): string {
  if (s.length <= max && total <= s.length) return s;
  let head = s.slice(0, max);
  const last = head.charCodeAt(head.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) head = head.slice(0, -1);
  return `${head}…(${compactCount(Math.max(total, s.length))})`;
}

/** Quoted, cut and escaped string for a line (engine/escape.ts). */
export function quote(s: string, max: number, total?: number): string {
  return quoteText(cutText(s, max, total));
}
