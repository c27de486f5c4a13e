/**
 * Which installed package a program belongs to, from the package manager's own database (Debian: the file
 * lists under /var/lib/dpkg/info and the Source: fields of /var/lib/dpkg/status), reported only for files that
 * are system-owned (root's, writable by no one else, in a directory likewise). That is the proof behind one
 * allow entry by the name a user knows: `libreoffice` covers /usr/bin/libreoffice (a link to a root-owned
 * launcher script) and soffice.bin, which it starts, because both belong to packages built from the source
 * package `libreoffice`; `chromium` covers Debian's /usr/bin/chromium script and /usr/lib/chromium/chromium.
 * Reading the lists takes about 0.5 s on a desktop install, so it is warmed in the background at start.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';

const INFO = '/var/lib/dpkg/info';
const STATUS = '/var/lib/dpkg/status';
/** Only program files are indexed (what a process or a launcher can be). */
const PROGRAM_PATH = /\/(s?bin|lib|lib64|libexec|games)\//;

interface Index { mtimeMs: number; owner: Map<string, string>; source: Map<string, string> }
let index: Index | undefined;
let warming: Promise<void> | undefined;

/** Root's and writable by no one else (file and directory): installed, not planted by a user or an agent. */
export function systemOwned(path: string): boolean {
  try {
    for (const p of [path, dirname(path)]) {
      const st = statSync(p);
      if (st.uid !== 0 || (st.mode & 0o022) !== 0) return false;
    }
    return true;
  } catch { return false; }
}

/** "libreoffice-core/libreoffice": the package of a system-owned program, with its source package when it differs. */
export function packageOf(path: string): string | undefined {
  if (!systemOwned(path)) return undefined;
  const idx = current();
  // Merged /usr: the lists may name /bin/x for /usr/bin/x.
  const pkg = idx?.owner.get(path) ?? (path.startsWith('/usr/') ? idx?.owner.get(path.slice(4)) : undefined);
  if (!pkg || !idx) return undefined;
  const src = idx.source.get(pkg);
  return src && src !== pkg ? `${pkg}/${src}` : pkg;
}

/** The program files of an installed package (from its file list), for a launcher script's real program. */
export function programsOf(pkg: string): string[] {
  const idx = current();
  if (!idx) return [];
  const out: string[] = [];
  for (const [path, owner] of idx.owner) if (owner === pkg) out.push(path);
  return out;
}

/** Starts reading the database in the background (the first launch or act then finds it ready). */
export function warmPackages(): void {
  if (index || warming || !dbTrusted()) return;
  warming = (async () => {
    const mtimeMs = statSync(INFO).mtimeMs;
    const owner = new Map<string, string>();
    for (const f of (await readdir(INFO)).filter((n) => n.endsWith('.list'))) {
      addList(owner, f, await readFile(`${INFO}/${f}`, 'utf8').catch(() => ''));
    }
    index = { mtimeMs, owner, source: sources(await readFile(STATUS, 'utf8').catch(() => '')) };
  })().catch(() => undefined).finally(() => { warming = undefined; });
}

/** The index, rebuilt (synchronously) when the database changed or was never read. */
function current(): Index | undefined {
  if (!dbTrusted()) return undefined;
  let mtimeMs: number;
  try { mtimeMs = statSync(INFO).mtimeMs; } catch { return undefined; }
  if (index && index.mtimeMs === mtimeMs) return index;
  const owner = new Map<string, string>();
  let names: string[] = [];
  try { names = readdirSync(INFO).filter((n) => n.endsWith('.list')); } catch { return undefined; }
  for (const f of names) {
    try {
      addList(owner, f, readFileSync(`${INFO}/${f}`, 'utf8'));
    } catch {
      /* removed meanwhile */
    }
  }
  let status = '';
  try { status = readFileSync(STATUS, 'utf8'); } catch { /* no status file */ }
  index = { mtimeMs, owner, source: sources(status) };
  return index;
}

/** The database itself must be the system's: root-owned and writable by no one else. */
function dbTrusted(): boolean { return systemOwned(`${INFO}/.`) && systemOwned(STATUS); }

function addList(owner: Map<string, string>, file: string, text: string): void {
  const pkg = file.slice(0, -'.list'.length).split(':')[0] ?? '';
  for (const line of text.split('\n')) if (PROGRAM_PATH.test(line)) owner.set(line, pkg);
}

/** Package → source package, from the status file's stanzas. */
function sources(status: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const stanza of status.split('\n\n')) {
    const pkg = /^Package: (\S+)/m.exec(stanza)?.[1];
    const src = /^Source: (\S+)/m.exec(stanza)?.[1];
    if (pkg && src) out.set(pkg, src);
  }
  return out;
}
