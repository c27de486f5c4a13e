/**
 * The commands the system's program directories give a launcher script (protocol `Launcher.commands`): the name a
 * user knows and puts on the allow list. /usr/bin/libreoffice and /usr/bin/soffice are links to
 * /usr/lib/libreoffice/program/soffice; Debian's /usr/bin/chromium is the launcher itself. Only steps the OS proves
 * count: a directory root-owned and writable by no one else, and every link on the way root-owned in such a
 * directory, so a user or an agent cannot give a launcher a name. Each directory's links are read once per change
 * of the directory (/usr/bin: about 1,300 entries, 420 links).
 */
import { lstatSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Launcher } from '../../../protocol/identity.js';
import { packageOf, systemOwned } from './packages.js';

/** Where commands live; /bin and /sbin are these on a merged /usr (deduplicated by realpath). */
const PROGRAM_DIRS = ['/usr/local/bin', '/usr/bin', '/bin', '/usr/sbin', '/sbin', '/usr/games'];
/** Most links followed from a command to its file. */
const MAX_HOPS = 8;

interface DirLinks { mtimeMs: number; target: Map<string, string> }
const cache = new Map<string, DirLinks>();

/** The facts of a launcher script (a realpath): ownership, package, and for an installed one the commands that run it. */
export function launcherFacts(path: string): Launcher {
  const pkg = packageOf(path);
  const owned = systemOwned(path);
  const commands = owned ? commandsOf(path).slice(0, 16) : [];
  return { path, systemOwned: owned, ...(pkg ? { package: pkg } : {}), ...(commands.length ? { commands } : {}) };
}

/** The commands that run `launcher` (a realpath), sorted; none when it is nowhere in a system program directory. */
export function commandsOf(launcher: string): string[] {
  const out = new Set<string>();
  for (const dir of programDirs()) {
    if (realOr(dirname(launcher)) === dir) out.add(basename(launcher));
    for (const [name, target] of linksOf(dir)) if (target === launcher) out.add(name);
  }
  return [...out].sort();
}

/** The program directories that exist and are the system's, as realpaths, each once. */
function programDirs(): string[] {
  return [...new Set(PROGRAM_DIRS.map(realOr))].filter(rootOnly);
}

/** name → the file a link in `dir` leads to, for the links whose every step is the system's. */
function linksOf(dir: string): Map<string, string> {
  let mtimeMs: number;
  try { mtimeMs = statSync(dir).mtimeMs; } catch { return new Map(); }
  const hit = cache.get(dir);
  if (hit && hit.mtimeMs === mtimeMs) return hit.target;
  const target = new Map<string, string>();
  let names: string[] = [];
  try { names = readdirSync(dir); } catch { /* unreadable: no names */ }
  for (const name of names) {
    const to = follow(join(dir, name));
    if (to !== undefined) target.set(name, to);
  }
  cache.set(dir, { mtimeMs, target });
  return target;
}

/** The realpath a link leads to when each link on the way is root-owned in a system directory; undefined otherwise or for a plain file. */
function follow(path: string): string | undefined {
  let p = path;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    let st;
    try { st = lstatSync(p); } catch { return undefined; }
    if (!st.isSymbolicLink()) return hop === 0 ? undefined : realOr(p);
    if (st.uid !== 0 || !rootOnly(realOr(dirname(p)))) return undefined;
    try { p = resolve(dirname(p), readlinkSync(p)); } catch { return undefined; }
  }
  return undefined;
}

/** A directory owned by root that no one else may write to. */
function rootOnly(dir: string): boolean {
  try {
    const st = statSync(dir);
    return st.isDirectory() && st.uid === 0 && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

const realOr = (p: string): string => { try { return realpathSync(p); } catch { return p; } };
