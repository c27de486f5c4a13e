/** Token accounting for the demo and benchmarks: a real tokenizer for text, Anthropic's formula for images. */
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

/** o200k tokens of a text (the tokenizer of current OpenAI models; a fair proxy for any modern model). */
export function textTokens(text: string): number {
  return encode(text).length;
}

/**
 * Tokens a screenshot of a w×h window costs a Claude model: images are scaled to at most 1568 px on the long
 * edge and ~1.15 megapixels, then cost width×height/750 tokens.
 */
export function screenshotTokens(width: number, height: number): number {
  if (width <= 0 || height <= 0) return 0;
  const scale = Math.min(1, 1568 / Math.max(width, height), Math.sqrt(1_150_000 / (width * height)));
  return Math.ceil((Math.round(width * scale) * Math.round(height * scale)) / 750);
}
