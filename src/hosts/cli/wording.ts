/**
 * How the CLI words the tools' hints. The tools write their hints once, in the MCP vocabulary (tool names like
 * `computer_launch`, params like `timeoutMs` and `scope=eN`); a model at a shell must read the commands and flags
 * it can type (`computer-use launch`, `--timeout`, `--scope eN`): the CLI trial lost calls to MCP names there.
 * This is the one place that translates them, at the CLI's output, and only outside quoted outside text: a window
 * title or a value printed between double quotes (engine/escape.ts) is data and stays exactly as it was read.
 */

/** One rewrite of hint text: a pattern and what the CLI says instead. */
interface Rewrite { from: RegExp; to: string }

/** The CLI's commands and flags for the tools' names and params; longer patterns first. */
const REWRITES: readonly Rewrite[] = [
  // find's `computer_act ref=e51 op=scroll value="to 321"` → `computer-use act e51 scroll "to 321"`.
  { from: /\bcomputer_act ref=([a-z]?\d*e\d+(?::[A-Z]+\d+)?) op=([a-z_]+) value=$/g, to: 'computer-use act $1 $2 ' },
  { from: /\bcomputer_act ref=([a-z]?\d*e\d+(?::[A-Z]+\d+)?) op=([a-z_]+)\b/g, to: 'computer-use act $1 $2' },
  // A hint with no ref of its own: `computer_act op=scroll value="down"` → `computer-use act <ref> scroll "down"`.
  { from: /\bcomputer_act op=([a-z_]+) value=$/g, to: 'computer-use act <ref> $1 ' },
  { from: /\bcomputer_keys keys=$/g, to: 'computer-use keys ' },
  // `scroll e5 value="to N"` → `act e5 scroll "to N"` (the quoted value stays in its own span).
  { from: /\bscroll( [a-z]?\d*e\d+(?::[A-Z]+\d+)?)? value=$/g, to: 'act$1 scroll ' },
  { from: /\bcomputer_find text=$/g, to: 'computer-use find ' },
  { from: /\bcomputer_wait until[= ]"?([a-z_]+)"?/g, to: 'computer-use wait $1' },
  { from: /\bcomputer_act (set_value|type|toggle|click|select|scroll)\b/g, to: 'computer-use act <ref> $1' },
  { from: /\bcomputer_screenshot(?: \(?with)? mode "ocr"\)?/g, to: 'computer-use screenshot' },
  { from: /\bcomputer_([a-z]+)\b/g, to: 'computer-use $1' },
  { from: /\bscope=([a-z]?\d*e\d+|eN|<[a-z]+>)/g, to: '--scope $1' },
  { from: /\bfrom=(\d+|N|K|offset)/g, to: '--from $1' },
  { from: /\bwindow=(w\d+|wN)/g, to: '--window $1' },
  { from: /\bsettle\.timeoutMs\b/g, to: '--settle-timeout' },
  { from: /\btimeoutMs\b/g, to: '--timeout' },
  { from: /\bwaitMs\b/g, to: '--wait' },
  { from: /\bmaxTokens\b/g, to: '--max-tokens' },
  { from: /\bfull=true\b/g, to: '--full' },
  { from: /\bsubmit=true\b/g, to: '--submit' },
  { from: /\bmode "ocr"/g, to: 'computer-use screenshot' },
];

/** A double-quoted span as escapeText writes it (`\"` and `\\` inside). */
const QUOTED = /"(?:[^"\\\n]|\\.)*"/g;

/** Rewrites one stretch of hint text that holds no quoted span. */
function rewritePlain(s: string): string {
  let out = s;
  for (const r of REWRITES) out = out.replace(r.from, r.to);
  return out;
}

/**
 * A tool's answer as the CLI prints it: every hint in CLI commands and flags, every quoted span untouched. A
 * pattern that ends at a quote (`value=`, `text=`) is matched at the end of the stretch before the quote.
 */
export function cliWording(text: string): string {
  let out = '';
  let at = 0;
  for (const m of text.matchAll(QUOTED)) {
    out += rewritePlain(text.slice(at, m.index)) + m[0];
    at = m.index + m[0].length;
  }
  return out + rewritePlain(text.slice(at));
}
