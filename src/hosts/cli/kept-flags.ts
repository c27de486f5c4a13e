/**
 * The CLI's permission flags, kept per CLI session (docs/policy-threat-model.md): `--mode`, `--allow-app`,
 * `--allow-commands` and `--deny-app` given to one tool command may hold for the next tool commands on the same
 * desktop, so a person at a shell does not repeat them on every call. A flag that only narrows (`--deny-app`, a
 * mode that asks more) holds and is kept at once. A flag that lowers a question holds, even for its own command,
 * only after a person said yes on this terminal, and is kept only when they chose "this session": a model at a
 * shell that adds `--mode bypass` to its calls (one in the loop did, after a refusal told it to) gets a question
 * or nothing. A session is a desktop of a home: the file sits next to the desktop's ref state (tool-commands.ts),
 * a new sandbox desktop starts with none, and `computer-use session clear` forgets them all. Every command says on
 * stderr what it kept and what it did not apply.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { mergeKeptPolicy, type KeptPolicy } from '../../index.js';
import { nameText } from '../../engine/escape.js';
import { cuPath } from '../../paths.js';
import type { ConfirmChoice, Confirmer } from '../../policy/confirm.js';
import { DEFAULT_MODE, narrowsMode, parseMode, type Mode } from '../../policy/modes.js';
import { sealHolds, sealOf } from '../../policy/settings.js';

/** The file suffix of kept flags, next to a desktop's `<hash>.json` ref state. */
const SUFFIX = '.flags.json';
/** Entries per kept list (a file this tool wrote holds few; more means it was not written by the CLI). */
const MAX_ENTRIES = 100;
/** What the seal of a kept-flags file is for (settings.ts sealOf). */
const PURPOSE = 'kept cli flags v1';

const lists = ['allowApps', 'allowCommands', 'denyApps'] as const;

/** The part of kept flags that lowers questions, which only a person's yes may have put there. */
const wideningPart = (k: KeptPolicy): KeptPolicy => ({
  ...(k.mode ? { mode: k.mode } : {}),
  ...(k.allowApps ? { allowApps: k.allowApps } : {}),
  ...(k.allowCommands ? { allowCommands: k.allowCommands } : {}),
});

/**
 * The kept flags of a desktop's state file; none when the file is missing or not one the CLI writes. Its mode and
 * allow lists count only under the seal the CLI wrote after a person's yes; without it only what narrows is read
 * (denyApps, mode plan).
 */
export function readKeptFlags(statePath: string): KeptPolicy {
  let raw: unknown;
  try { raw = JSON.parse(readFileSync(statePath + SUFFIX, 'utf8')); } catch { return {}; }
  if (typeof raw !== 'object' || raw === null) return {};
  const r = raw as Record<string, unknown>;
  const out: KeptPolicy = {};
  try {
    if (typeof r['mode'] === 'string') out.mode = parseMode(r['mode']);
  } catch {
    /* an unknown mode is not kept */
  }
  for (const k of lists) {
    const v = r[k];
    if (
      Array.isArray(v) &&
      v.length <= MAX_ENTRIES &&
      v.every((x) => typeof x === 'string' && x.length > 0 && x.length <= 4096)
    ) {
      if (v.length) out[k] = v as string[];
    }
  }
  if (sealHolds(r['seal'], PURPOSE, statePath, wideningPart(out))) return out;
  return { ...(out.mode === 'plan' ? { mode: out.mode } : {}), ...(out.denyApps ? { denyApps: out.denyApps } : {}) };
}

/** Kept flags with this call's flags on top: the call's mode replaces, its lists add. */
export const mergeKeptFlags = mergeKeptPolicy;

/** Writes a desktop's kept flags (owner-only, atomically), sealed: only this tool's own writes count. */
export function writeKeptFlags(statePath: string, kept: KeptPolicy): void {
  const path = statePath + SUFFIX;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ ...kept, seal: sealOf(PURPOSE, statePath, wideningPart(kept)) }), {
    mode: 0o600,
  });
  renameSync(tmp, path);
}

/** Permissions in words (`mode bypass, apps allowed: gedit`): the CLI never prints a flag for the model to copy. */
export function permissionWords(p: KeptPolicy): string {
  const words = {
    allowApps: 'apps allowed',
    allowCommands: 'terminals allowed to run commands',
    denyApps: 'apps denied',
  } as const;
  return [
    p.mode ? `mode ${p.mode}` : '',
    ...lists.map((k) => (p[k]?.length ? `${words[k]}: ${p[k].map(nameText).join(', ')}` : '')),
  ]
    .filter(Boolean)
    .join('; ');
}

/** The stderr note for kept flags that changed (`kept` before, `merged` after), else undefined: said once, not on every command. */
export function keptFlagsNotice(kept: KeptPolicy, merged: KeptPolicy): string | undefined {
  const now = permissionWords(merged);
  return now && now !== permissionWords(kept)
    ? `kept for the next commands on this desktop: ${now} (computer-use session clear forgets them)`
    : undefined;
}

/** The permission settings the CLI compares a call's flags with: what holds without them. */
export interface PermissionBase {
  mode?: Mode | undefined;
  allowApps?: readonly string[] | undefined;
  allowCommands?: readonly string[] | undefined;
}

/** A call's permission flags split into what only narrows and what lowers a question, against what already holds. */
export function splitWidening(
  requested: KeptPolicy,
  base: PermissionBase,
): { narrowing: KeptPolicy; widening: KeptPolicy } {
  const narrowing: KeptPolicy = {};
  const widening: KeptPolicy = {};
  if (requested.mode)
    (narrowsMode(requested.mode, base.mode ?? DEFAULT_MODE) ? narrowing : widening).mode = requested.mode;
  if (requested.denyApps?.length) narrowing.denyApps = requested.denyApps;
  for (const k of ['allowApps', 'allowCommands'] as const) {
    const fresh = (requested[k] ?? []).filter((a) => !(base[k] ?? []).includes(a));
    if (fresh.length) widening[k] = fresh;
  }
  return { narrowing, widening };
}

/** What a call runs with, what is kept for later calls (undefined: the file stays as it is), and what to tell. */
export interface CallPermissions { effective: KeptPolicy; keep: KeptPolicy | undefined; notices: string[] }

/**
 * Decides a CLI call's permissions. `kept` is the desktop's kept flags (readKeptFlags), `requested` this call's
 * flags and permission environment variables, `settings` the confirmed settings. Narrowing flags hold and are kept.
 * Widening ones are asked about on the terminal: "once" holds them for this call, "this session" keeps them too;
 * "deny", or no terminal to ask on, runs the call without them. Either way the notice says which.
 */
export async function permissionsForCall(o: {
  kept: KeptPolicy;
  requested: KeptPolicy;
  settings: PermissionBase;
  confirmer: Confirmer;
}): Promise<CallPermissions> {
  const base: PermissionBase = {
    mode: o.kept.mode ?? o.settings.mode,
    allowApps: [...(o.settings.allowApps ?? []), ...(o.kept.allowApps ?? [])],
    allowCommands: [...(o.settings.allowCommands ?? []), ...(o.kept.allowCommands ?? [])],
  };
  const { narrowing, widening } = splitWidening(o.requested, base);
  const narrowed = mergeKeptPolicy(o.kept, narrowing);
  const keepNarrowed = Object.keys(narrowing).length ? narrowed : undefined;
  const notices: string[] = [];
  const changed = (keep: KeptPolicy | undefined): void => {
    const n = keep && keptFlagsNotice(o.kept, keep);
    if (n) notices.push(n);
  };
  if (!Object.keys(widening).length) {
    changed(keepNarrowed);
    return { effective: narrowed, keep: keepNarrowed, notices };
  }
  const what = permissionWords(widening);
  let answer: ConfirmChoice = 'deny';
  if (o.confirmer.interactive) {
    answer = await o.confirmer.confirm({
      title: 'Lower computer-use\'s questions for this command?',
      message: `This command asks to run with ${what}. That lowers what computer-use asks you before it acts. ` +
        'A program at this shell (an AI agent) may have added it: say yes only if you did.',
      choices: ['allow_once', 'allow_session', 'deny'], reason: 'other',
    });
  }
  if (answer === 'allow_session') {
    const all = mergeKeptPolicy(narrowed, widening);
    notices.push(
      `you confirmed ${what}: it holds for this command and is kept for the next commands on this desktop ` +
        `(computer-use session clear forgets it)`,
    );
    return { effective: all, keep: all, notices };
  }
  if (answer === 'allow_once') {
    notices.push(`you confirmed ${what} for this command only: not kept`);
    changed(keepNarrowed);
    return { effective: mergeKeptPolicy(narrowed, widening), keep: keepNarrowed, notices };
  }
  notices.push(
    o.confirmer.interactive
      ? `not applied and not kept (declined): ${what}`
      : `not applied and not kept: ${what}. What lowers computer-use's questions holds only after a person's ` +
          `yes on their own ` +
          'terminal; without one this command runs as if it had not been given, and asks or refuses what it would have.',
  );
  changed(keepNarrowed);
  return { effective: narrowed, keep: keepNarrowed, notices };
}

/** `computer-use session clear`: forgets the kept flags of every desktop of this home; the number forgotten. */
export function clearKeptFlags(dir: string = cuPath('sessions')): number {
  let names: string[];
  try { names = readdirSync(dir); } catch { return 0; }
  const kept = names.filter((n) => n.endsWith(SUFFIX));
  for (const n of kept) rmSync(join(dir, n), { force: true });
  return kept.length;
}
