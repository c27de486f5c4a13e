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

/** A verdict on an answer the solver read. */
export function answerEquals(answers: Record<string, string>, key: string, expected: string): CheckResult {
  const got = answers[key];
  return got?.trim() === expected
    ? { ok: true, detail: `${key} = ${JSON.stringify(got)}` }
    : {
        ok: false,
        detail:
          `${key}: expected ${JSON.stringify(expected)}, got ` +
          `${got === undefined ? 'nothing' : JSON.stringify(got)}`,
      };
}
