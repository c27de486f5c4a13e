/** Checker helpers: they look at the world (files, processes), never at the tools' text. */
import { readFile } from 'node:fs/promises';
import type { CheckResult } from './task.js';

async function sleep(ms: number): Promise<void> { await new Promise((r) => setTimeout(r, ms)); }

/**
 * Polls a file until `accept` returns true for its content or the timeout passes (apps write asynchronously).
 * The verdict quotes what was there.
 */
export async function fileMatches(
  path: string,
  accept: (content: string) => boolean,
  what: string,
  timeoutMs = 8000,
): Promise<CheckResult> {
  let content: string | undefined;
  for (const until = performance.now() + timeoutMs; ;) {
    content = await readFile(path, 'utf8').catch(() => undefined);
    if (content !== undefined && accept(content))
      return { ok: true, detail: `${what}: ${JSON.stringify(content.slice(0, 80))}` };
    if (performance.now() > until) break;
    await sleep(100);
  }
  return {
    ok: false,
    detail:
      content === undefined
        ? `${what}: ${path} was not written`
        : `${what}: got ${JSON.stringify(content.slice(0, 120))}`,
  };
}

/** An exact comparison of a file's text (a trailing newline the app adds is ignored). */
export function fileEquals(path: string, expected: string, timeoutMs?: number): Promise<CheckResult> {
  return fileMatches(path, (c) => c.replace(/\n$/, '') === expected, 'file content', timeoutMs);
}

/**
 * What a solver answered for `key`: a scripted `read` step's value under its key, else a model's whole final message
 * (`answer`), in which the value sits among other words ("The total is 207,435.29.").
 */
export function answerValues(answers: Record<string, string>, key: string): string[] {
  const got = answers[key] ?? answers['answer'];
  return got === undefined ? [] : [got];
}

/** True when `text` is `expected`, or holds it as a whole word (not inside a longer number or word). */
function holds(text: string, expected: string): boolean {
  if (text.trim() === expected) return true;
  const escaped = expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}.,])${escaped}(?![\\p{L}\\p{N}]|[.,]\\p{N})`, 'u').test(text);
}

/** A verdict on an answer the solver read (a model's final sentence holds it as a whole word). */
export function answerEquals(answers: Record<string, string>, key: string, expected: string): CheckResult {
  const got = answerValues(answers, key)[0];
  return got !== undefined && holds(got, expected)
    ? { ok: true, detail: `${key} = ${JSON.stringify(got)}` }
    : {
        ok: false,
        detail:
          `${key}: expected ${JSON.stringify(expected)}, got ` +
          `${got === undefined ? 'nothing' : JSON.stringify(got)}`,
      };
}

/** A verdict on a number the solver read, to the cent; thousands separators ignored, any number in a sentence. */
export function answerNumberIs(answers: Record<string, string>, key: string, expected: number): CheckResult {
  const got = answerValues(answers, key)[0];
  const numbers = (got ?? '').match(/\d[\d,]*(?:\.\d+)?/g) ?? [];
  const ok = numbers.some((n) => Math.round(Number(n.replace(/,/g, '')) * 100) === Math.round(expected * 100));
  return ok
    ? { ok: true, detail: `${key} = ${JSON.stringify(got)}` }
    : {
        ok: false,
        detail: `${key}: expected ${expected.toFixed(2)}, got ${got === undefined ? 'nothing' : JSON.stringify(got)}`,
      };
}
