/**
 * The CLI's permission flags, kept per CLI session (README "CLI"): `--mode`, `--allow-app`, `--allow-commands`
 * and `--deny-app` given to one tool command hold for the next tool commands on the same desktop, so a model at a
 * shell does not repeat them on every call (the CLI trial repeated them, or lost a call when it did not). A
 * session is a desktop of a home: the file sits next to the desktop's ref state (tool-commands.ts), and a new
 * sandbox desktop starts with none. A later `--mode` replaces the kept mode; list flags add to the kept lists;
 * `computer-use session clear` forgets them all. Only flags are kept, never the environment (it is there on
 * every call anyway), and the kept values are printed on stderr when a command changes them (keptFlagsNotice).
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { mergeKeptPolicy, type KeptPolicy } from '../../index.js';
import { nameText } from '../../engine/escape.js';
import { cuPath } from '../../paths.js';
import { parseMode } from '../../policy/modes.js';

/** The file suffix of kept flags, next to a desktop's `<hash>.json` ref state. */
const SUFFIX = '.flags.json';
/** Entries per kept list (a file this tool wrote holds few; more means it was not written by the CLI). */
const MAX_ENTRIES = 100;

const lists = ['allowApps', 'allowCommands', 'denyApps'] as const;

/** The kept flags of a desktop's state file; none when the file is missing or not one the CLI writes. */
export function readKeptFlags(statePath: string): KeptPolicy {
  let raw: unknown;
  try { raw = JSON.parse(readFileSync(statePath + SUFFIX, 'utf8')); } catch { return {}; }
  if (typeof raw !== 'object' || raw === null) return {};
  const r = raw as Record<string, unknown>;
  const out: KeptPolicy = {};
  try { if (typeof r['mode'] === 'string') out.mode = parseMode(r['mode']); } catch { /* an unknown mode is not kept */ }
  for (const k of lists) {
    const v = r[k];
    if (Array.isArray(v) && v.length <= MAX_ENTRIES && v.every((x) => typeof x === 'string' && x.length > 0 && x.length <= 4096)) {
      if (v.length) out[k] = v as string[];
    }
  }
  return out;
}

/** Kept flags with this call's flags on top: the call's mode replaces, its lists add. */
export const mergeKeptFlags = mergeKeptPolicy;

/** Writes a desktop's kept flags (owner-only, atomically). */
export function writeKeptFlags(statePath: string, kept: KeptPolicy): void {
  const path = statePath + SUFFIX;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(kept), { mode: 0o600 });
  renameSync(tmp, path);
}

/** The kept flags as the flags a user types, for the stderr note: `--mode bypass --allow-app gedit`. */
export function keptFlagsText(kept: KeptPolicy): string {
  const flag = { allowApps: '--allow-app', allowCommands: '--allow-commands', denyApps: '--deny-app' } as const;
  return [kept.mode ? `--mode ${kept.mode}` : '', ...lists.map((k) => (kept[k]?.length ? `${flag[k]} ${kept[k].map(nameText).join(',')}` : ''))]
    .filter(Boolean).join(' ');
}

/**
 * The stderr note for a command that changed the kept flags (`kept` before it, `merged` after), else undefined:
 * said once when they change, not on every command (two agents in the CLI trial called the repeat noise).
 */
export function keptFlagsNotice(kept: KeptPolicy, merged: KeptPolicy): string | undefined {
  const now = keptFlagsText(merged);
  return now && now !== keptFlagsText(kept) ? `this session keeps ${now} for the next commands (computer-use session clear forgets them)` : undefined;
}

/** `computer-use session clear`: forgets the kept flags of every desktop of this home; the number forgotten. */
export function clearKeptFlags(dir: string = cuPath('sessions')): number {
  let names: string[];
  try { names = readdirSync(dir); } catch { return 0; }
  const kept = names.filter((n) => n.endsWith(SUFFIX));
  for (const n of kept) rmSync(join(dir, n), { force: true });
  return kept.length;
}
