/**
 * Identity by content (docs/policy.md, "One app, one allow entry"), shared by the drivers that run on the machine of
 * the process they
 * identify (Linux, Windows): the executable is compared with the programs on PATH (and its own directory) by
 * size, then SHA-256, so a renamed copy of a denied program reports the original in `sameAs` and the policy denies
 * it by that name. Listings and hashes are cached by device, inode, size and mtime, so a read pays for a hash only
 * when a same-size program exists.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import type { ContentFacts } from '../../protocol/identity.js';

/** The executable's SHA-256, size and the programs it is a copy of. */
export function contentOf(file: string, compareWith: readonly string[] = []): ContentFacts | undefined {
  let st: Stats;
  try { st = statSync(file); } catch { return undefined; }
  const sha256 = hashOf(file, st);
  if (!st.isFile() || !sha256) return undefined;
  return { sha256, size: st.size, sameAs: sameAs(file, compareWith) };
}

/**
 * Programs that are the same file as `file` (a hard link) or byte-for-byte copies: among PATH, the file's own
 * directory and `extra`, by inode, else by size and then SHA-256. The file itself is not listed.
 */
export function sameAs(file: string, extra: readonly string[] = []): string[] {
  let st: Stats;
  try { st = statSync(file); } catch { return []; }
  if (!st.isFile()) return [];
  const out: string[] = [];
  const candidates = [
    ...searchDirs(dirname(file)).flatMap((d) => bySize(d).get(st.size) ?? []),
    ...extra.filter(isAbsolute).map((p) => join(p)),
  ];
  for (const other of new Set(candidates)) {
    if (other === file) continue;
    let ot: Stats;
    try { ot = statSync(other); } catch { continue; }
    if (!ot.isFile() || ot.size !== st.size) continue;
    if ((ot.ino === st.ino && ot.dev === st.dev) || hashOf(other, ot) === hashOf(file, st)) out.push(other);
    if (out.length >= 32) break;
  }
  return out;
}

/** PATH's absolute directories plus the file's own (a copy is often made next to the original). */
function searchDirs(own: string): string[] {
  return [
    ...new Set([
      own,
      ...(process.env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin').split(delimiter).filter((d) => isAbsolute(d)),
    ]),
  ];
}

/** A directory's files by size, cached by the directory's mtime (a new or renamed file changes it). */
const listings = new Map<string, { mtimeMs: number; bySize: Map<number, string[]> }>();
function bySize(dir: string): Map<number, string[]> {
  let mtimeMs: number;
  try { mtimeMs = statSync(dir).mtimeMs; } catch { return new Map(); }
  const hit = listings.get(dir);
  if (hit && hit.mtimeMs === mtimeMs) return hit.bySize;
  const map = new Map<number, string[]>();
  let names: string[] = [];
  try { names = readdirSync(dir); } catch { /* unreadable */ }
  for (const n of names) {
    const p = join(dir, n);
    try {
      const s = statSync(p);
      if (!s.isFile()) continue;
      const list = map.get(s.size) ?? [];
      list.push(p);
      map.set(s.size, list);
    } catch { /* dangling link */ }
  }
  listings.set(dir, { mtimeMs, bySize: map });
  return map;
}

/** SHA-256 of a file, cached by device, inode, size and mtime. */
const hashes = new Map<string, string>();
function hashOf(file: string, st: Stats): string | undefined {
  const key = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
  const hit = hashes.get(key);
  if (hit) return hit;
  try {
    const h = createHash('sha256').update(readFileSync(file)).digest('hex');
    if (hashes.size > 4096) hashes.clear();
    hashes.set(key, h);
    return h;
  } catch { return undefined; }
}
