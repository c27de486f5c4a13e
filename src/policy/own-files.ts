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
import { SANDBOX_HOME_REL } from '../paths.js';

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

/**
 * The home of a sandbox desktop's apps that the normalised `p` lies in (`<toolHome>/sandboxes/display-N/home`, the
 * exact spelling only), else undefined: what lies there is the apps' settings and files, not the tool's own.
 */
export function sandboxHomeAt(p: string, toolHome: string | undefined): string | undefined {
  if (toolHome === undefined) return undefined;
  const base = toolHome.replace(/\/+$/, '');
  if (!p.startsWith(base + '/')) return undefined;
  const m = SANDBOX_HOME_REL.exec(p.slice(base.length + 1));
  return m ? `${base}/${m[0]}` : undefined;
}

/**
 * Whether `p` is one of the tool's own files: inside a protected root, unless it lies in a sandbox's home that
 * root holds (a settings file kept inside a sandbox's home stays protected).
 */
function isOwn(p: string, roots: readonly string[], toolHome: string | undefined): boolean {
  const home = sandboxHomeAt(p, toolHome);
  return roots.some((r) => isInside(p, r) && !(home !== undefined && isInside(home, r) && !isInside(r, home)));
}

/**
 * What an act touches that is one of the tool's own files: the offending path, or undefined. `toolHome` (normalised)
 * leaves the homes of its sandboxes' apps, which lie inside it, to the apps.
 */
export function ownFileTouched(
  texts: readonly string[],
  paths: readonly string[],
  title: string | undefined,
  roots: readonly string[],
  homeName?: string,
  toolHome?: string,
): { path: string; where: 'value' | 'title' } | undefined {
  for (const p of [...paths.map((x) => normalisePath(x) ?? x), ...texts.flatMap(pathsIn)]) {
    if (isOwn(p, roots, toolHome)) return { path: p, where: 'value' };
  }
  if (title) {
    for (const p of pathsIn(title)) if (isOwn(p, roots, toolHome)) return { path: p, where: 'title' };
    // An editor that shows only the folder's name: ".computer-use" in a title is enough to refuse, once the paths
    // into a sandbox's home (which hold the name too) are taken out.
    const rest = withoutSandboxHomes(title, toolHome).toLowerCase();
    if (homeName && homeName.startsWith('.') && homeName.length > 3 && rest.includes(homeName.toLowerCase()))
      return { path: homeName, where: 'title' };
  }
  return undefined;
}

/** `text` with each path run that lies in a sandbox's home blanked out. */
function withoutSandboxHomes(text: string, toolHome: string | undefined): string {
  if (toolHome === undefined) return text;
  return text.replace(PATH_RUN, (run) => {
    const n = normalisePath(run.replace(/[.,;:!?]+$/, ''));
    return n !== undefined && sandboxHomeAt(n, toolHome) !== undefined ? ' ' : run;
  });
}
