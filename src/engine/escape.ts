/**
 * The one escaping boundary (ARCHITECTURE invariant 13): every string from an app, a page, a driver or a
 * device passes through `escapeText` before a model or a human reads it, wherever it is printed (snapshots,
 * apps and window lists, headers, receipts, errors, the human's questions, device facts). Pure and free of
 * imports, so that every layer (engine, policy, tools, drivers, hosts) may use it.
 *
 * What it guarantees: the result holds no line break of any kind (LF, CR, VT, FF, FS/GS/RS, NEL, U+2028,
 * U+2029: each becomes the two visible characters `\n`), no C0/C1 control, no ANSI escape sequence, no bidi
 * control (which reorders what a human sees), and no invisible character that could hide text between
 * visible ones (zero-width space, word joiner, BOM, Unicode tag characters that a model reads and a human does
 * not). So outside text can never start a line of its own, e.g. a forged `[e901] button "OK"` or
 * `ok click e901 · confirmed`.
 */

/**
 * ANSI/ECMA-48 escape sequences, removed whole (not just their ESC) so that `\x1b[2K\x1b[1A` cannot leave
 * `[2K[1A` behind: CSI (ESC [ or the 8-bit U+009B) parameters and final byte; OSC, DCS, SOS, PM and APC
 * strings up to BEL or ST (or the end); and two-character escapes.
 */
const ANSI =
  /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?|(?:\u001b[\]PX^_]|[\u0090\u0098\u009d-\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[\u0020-\u002f]*[\u0030-\u007e]?/g;

/** Every line and paragraph break a terminal, a browser, an editor or a tokenizer may honour. */
const BREAK = /\r\n|[\n\r\u000b\u000c\u001c-\u001e\u0085\u2028\u2029]/g;

/**
 * Dropped: C0/C1 controls (tab is escaped instead), bidi controls (LRM, RLM, ALM, embeddings, overrides,
 * isolates), invisible separators and joiners that carry no meaning in plain text (ZWSP, word joiner,
 * invisible operators, deprecated format characters, BOM, Mongolian vowel separator, interlinear annotation),
 * and Unicode tag characters. ZWJ and ZWNJ stay: emoji and Persian/Indic spelling need them, and inside one
 * line they cannot start another.
 */
const DROP =
  /[\u0000-\u0008\u000e-\u001b\u001f\u007f-\u0084\u0086-\u009f\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/g;

/** Half a surrogate pair (not text; some renderers drop or merge it). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Options of `escapeText`. */
export interface EscapeOptions {
  /**
   * True (the default) for text printed between double quotes: `\` and `"` are escaped JSON-style too, so the
   * text cannot close its quotes. False for text that is not quoted (an error message, a receipt's detail).
   */
  quoted?: boolean;
  /** What a line break becomes; `\n` (two characters) unless a format has its own mark (a grid cell's ⏎). */
  lineBreak?: string;
}

/**
 * THE function that makes outside text safe for one line (module comment). Idempotent for `quoted: false`
 * (an escaped text escapes to itself), so a message escaped by the driver and again by the host reads once.
 */
export function escapeText(s: string, opts: EscapeOptions = {}): string {
  let t = String(s).replace(LONE_SURROGATE, '\ufffd').replace(ANSI, '').replace(DROP, '');
  if (opts.quoted !== false) t = t.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
  return t.replace(BREAK, opts.lineBreak ?? '\\n').replace(/\t/g, '\\t');
}

/** Outside text as a double-quoted string on one line: `"…"`. */
export function quoteText(s: string): string {
  return `"${escapeText(s)}"`;
}

/** Outside text printed without quotes (a message, a detail): one line, quotes left as they are. */
export function escapeLine(s: string): string {
  return escapeText(s, { quoted: false });
}

/**
 * A name printed first on a line or bare after a label (an app name in computer_apps, a device's platform):
 * as it is when it is one plain word (`gedit`, `xfce4-terminal`, `soffice.bin`), else quoted, so that no name
 * can read as a ref, a receipt or a field of the line (`ok click e901 · confirmed`, `gedit pid=1`).
 */
export function nameText(s: string): string {
  return /^[\p{L}\p{N}][\p{L}\p{N}\p{M}._+-]{0,99}$/u.test(s) ? s : quoteText(s);
}

/** Characters a JSON string literal keeps raw but a reader may take as a break, a control or a hidden mark. */
const JSON_HIDDEN = /[\u007f-\u009f\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g;

/**
 * Outside text as an exact JSON string literal on one line (the decider's data block, where the model must get
 * the text verbatim): JSON.stringify, with every character `escapeText` would change written as `\uXXXX`,
 * so `JSON.parse` gives the text back whole and nothing in it breaks the line, reorders it or hides.
 */
export function jsonQuote(s: string): string {
  return JSON.stringify(s).replace(JSON_HIDDEN, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/\udb40[\udc00-\udc7f]/g, (c) => `\\udb40\\u${c.charCodeAt(1).toString(16)}`);
}

/**
 * Outside names as a list for a message: at most `max`, each quoted and cut (a combo's items, a page's options),
 * then how many more there are ("… (28 in all)" after 10 read to a model as if the list ended there).
 */
export function quotedList(names: readonly string[], max = 10, chars = 60): string {
  const shown = names.filter(Boolean);
  const cut = shown
    .slice(0, max)
    .map((n) => quoteText([...n].length > chars ? `${[...n].slice(0, chars - 1).join('')}…` : n));
  return cut.join(', ') + (shown.length > max ? `, … and ${shown.length - max} more` : '');
}
