/** Token accounting for the demo and benchmarks: a real tokenizer for text, Anthropic's formula for images. */
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

/** o200k tokens of a text (the tokenizer of current OpenAI models; a fair proxy for any modern model). */
export function textTokens(text: string): number {
  return encode(text).length;
}

/** How screenshot tokens are counted, for tables. */
export const SCREENSHOT_FORMULA =
  "ceil(w'·h'/750), w'×h' = window w×h scaled (aspect kept) to long edge ≤ 1568 px and w'·h'/750 ≤ 1600";

/**
 * Screenshot-equivalent tokens, Anthropic's published vision formula: tokens ≈ width × height / 750, after the
 * image is scaled down (aspect kept) so that its long edge is ≤ 1568 px and it costs ≤ ~1600 tokens
 * (≈ 1.15 megapixels). A window screenshot at 1280×1024 therefore costs ~1600 tokens, not 1748.
 */
export function screenshotTokens(width: number, height: number): number {
  if (!(width > 0 && height > 0)) return 0;
  let w = width;
  let h = height;
  const edge = 1568 / Math.max(w, h);
  if (edge < 1) { w *= edge; h *= edge; }
  const maxPixels = 1600 * 750;
  if (w * h > maxPixels) { const k = Math.sqrt(maxPixels / (w * h)); w *= k; h *= k; }
  return Math.ceil((Math.floor(w) * Math.floor(h)) / 750);
}
