/**
 * Self-protection: the tool's own files (its home with settings.json, the audit log, the
 * session files) are out of reach of every act. An agent that could edit settings.json through an allowed
 * editor could grant itself any permission. Paths are found in what the act writes (a set_value/type value,
 * typed keys, a launch command, paths a caller resolved) and in the target window's title (editors show the
 * open file there), and compared after `~`, `$HOME`, `..`, `//`, symlink and case normalisation.
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';

/** Path-like runs in free text: absolute, `~/…`, `$HOME/…`, `file://…`. Parentheses and quotes end a run. */
const PATH_RUN = /(?:file:\/\/)?(?:~(?=\/|$|[\s)"'])|\$\{?HOME\}?|\/)[^\s"'<>|()\[\]{}]*/g;

/** Absolute, normalised form of a path written by a model or shown by an app; undefined when it is not a path. */
export function normalisePath(p: string, cwd?: string): string | undefined {
  let s = p.trim().replace(/^file:\/\//, '');
  try { s = decodeURIComponent(s); } catch { /* not percent-encoded */ }
  s = s.replace(/^(~|\$\{HOME\}|\$HOME)(?=\/|$)/, homedir());
  if (!s) return undefined;
  if (!isAbsolute(s)) {
    if (!cwd) return undefined;
    s = join(cwd, s);
  }
  return realish(resolve(s));
}

/** The real path of the longest existing prefix, with the rest appended (a file that does not exist yet). */
function realish(p: string): string {
  let head = p;
  const tail: string[] = [];
  for (let i = 0; i < 64; i++) {
    try { return join(realpathSync(head), ...tail.reverse()); } catch { /* go up */ }
    const up = dirname(head);
    if (up === head) break;
    tail.push(head.slice(up.length + (up.endsWith(sep) ? 0 : 1)));
    head = up;
  }
  return p;
}

/** The path-like runs in a text, normalised. */
export function pathsIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(PATH_RUN)) {
    const run = m[0].replace(/[.,;:!?]+$/, '');
    if (run.length < 2 && run !== '~') continue;
    const n = normalisePath(run);
    if (n) out.push(n);
  }
  return out;
}

/** Case-insensitive containment (macOS and Windows file systems ignore case; on Linux it only adds refusals). */
export function isInside(path: string, root: string): boolean {
  const p = path.toLowerCase().replace(/\/+$/, '');
  const r = root.toLowerCase().replace(/\/+$/, '');
  return p === r || p.startsWith(r + '/');
}

/** The protected roots, normalised (the home, plus settings or audit files kept elsewhere). */
export function protectedRoots(paths: readonly string[]): string[] {
  return [...new Set(paths.map((p) => normalisePath(p) ?? p))];
}

/** What an act touches that is one of the tool's own files: the offending path, or undefined. */
export function ownFileTouched(
  texts: readonly string[],
  paths: readonly string[],
  title: string | undefined,
  roots: readonly string[],
  homeName?: string,
): { path: string; where: 'value' | 'title' } | undefined {
  for (const p of [...paths.map((x) => normalisePath(x) ?? x), ...texts.flatMap(pathsIn)]) {
    if (roots.some((r) => isInside(p, r))) return { path: p, where: 'value' };
  }
  if (title) {
    for (const p of pathsIn(title)) if (roots.some((r) => isInside(p, r))) return { path: p, where: 'title' };
    // An editor that shows only the folder's name: ".computer-use" in a title is enough to refuse.
    if (
      homeName &&
      homeName.startsWith('.') &&
      homeName.length > 3 &&
      title.toLowerCase().includes(homeName.toLowerCase())
    )
      return { path: homeName, where: 'title' };
  }
  return undefined;
}
