/**
 * The settings file (`<home>/settings.json`, owner-only): mode, allow/deny lists, unattended irreversible
 * actions, and the decider configuration (passed through untouched for the decider). A file others can write
 * could grant permissions, so only its denyApps is used when it is group- or world-writable. Every other field
 * takes effect only when the tool itself wrote it or a human confirmed it (`computer-use settings confirm`):
 * an HMAC under the per-install key records each confirmed state, so an agent that rewrote settings.json
 * through an editor gains nothing, not even a stop hotkey moved out of the user's reach or a hidden activity
 * frame (docs/policy.md, "Threat model").
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { cuPath } from '../paths.js';
import { installKey } from './audit.js';
import { isMode, type Mode } from './modes.js';

/** What the settings file holds. Unknown fields are kept when the file is rewritten. */
export interface Settings {
  mode?: Mode;
  /** Apps acted on without a first-use question (name, executable path or file name). */
  allowApps?: string[];
  /** Terminals whose typed command lines run without a question (docs/policy.md: what an allowed terminal can do). */
  allowCommands?: string[];
  /** Apps never acted on, on top of the built-in deny list. */
  denyApps?: string[];
  /** In `unattended` mode, allow irreversible actions and password writes on allow-listed apps. */
  allowIrreversibleUnattended?: boolean;
  /**
   * Let computer_screenshot return images of windows to the model (mode "image"; also needs a host whose
   * model takes images). Off by default; OCR mode needs no setting (its image never leaves the machine).
   */
  allowScreenshots?: boolean;
  /** Decider configuration, read by the decider; the policy passes it through. */
  decider?: Record<string, unknown>;
  /**
   * Keep asking the per-app first-use question in MCP clients without elicitation (default false: the host's
   * own tool approval stands in for it; `--strict-first-use` does the same for one server).
   */
  strictFirstUse?: boolean;
  /** The global stop hotkey of the panel on X11 (default `ctrl+shift+Escape`), a chord like computer_keys takes. */
  stopHotkey?: string;
  /** Frame the target window and show a status window while acting (default true). */
  showActivity?: boolean;
}

/** Default settings path: `<home>/settings.json`. */
export function defaultSettingsPath(): string { return cuPath('settings.json'); }

/**
 * Fields read from any file, confirmed or not, because they can only add protection: denyApps adds refusals,
 * strictFirstUse adds questions. Every other field (the stop hotkey and showActivity included) needs the tool's
 * own write or a human's confirmation.
 */
export const UNCONFIRMED_FIELDS: readonly string[] = ['denyApps', 'strictFirstUse'];

/**
 * Where confirmations of a settings file are recorded: `plugin-data/computer-use/settings-confirmed.json` next
 * to it (the home for the default file), mode 0600; the install key is `audit.key` in the same folder.
 */
export function confirmationsPath(settingsPath: string): string {
  return join(dirname(resolve(settingsPath)), 'plugin-data', 'computer-use', 'settings-confirmed.json');
}
const keyPathOf = (settingsPath: string): string => join(dirname(confirmationsPath(settingsPath)), 'audit.key');

/**
 * A seal over a value the tool records on a person's word (a CLI flag a person confirmed on the terminal): an
 * HMAC under the install key of the settings file's folder, bound to `purpose` and `path`. A file an agent wrote
 * through a plain edit carries no valid seal (README threat model: a same-user shell agent can read the key).
 */
export function sealOf(
  purpose: string,
  path: string,
  value: unknown,
  settingsPath: string = defaultSettingsPath(),
): string {
  return createHmac('sha256', installKey(keyPathOf(settingsPath)))
    .update(`computer-use ${purpose}\0${resolve(path)}\0${canonical(value)}`)
    .digest('hex');
}

/** True when `seal` is `sealOf(purpose, path, value)`. */
export function sealHolds(
  seal: unknown,
  purpose: string,
  path: string,
  value: unknown,
  settingsPath: string = defaultSettingsPath(),
): boolean {
  if (typeof seal !== 'string' || !/^[0-9a-f]{64}$/.test(seal)) return false;
  let want: string;
  try { want = sealOf(purpose, path, value, settingsPath); } catch { return false; }
  return timingSafeEqual(Buffer.from(want, 'hex'), Buffer.from(seal, 'hex'));
}

/** The fields of a parsed file that need confirming, in a canonical form (sorted keys), as compared and shown. */
export function loweringOf(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [f, v] of Object.entries(raw)) if (v !== undefined && !UNCONFIRMED_FIELDS.includes(f)) out[f] = v;
  return JSON.parse(canonical(out)) as Record<string, unknown>;
}

function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(
          Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : x,
  );
}

/** One recorded confirmation: the lowering fields as confirmed, and their HMAC under the install key. */
interface Confirmation { lowering: Record<string, unknown>; hmac: string }

const macOf = (path: string, lowering: Record<string, unknown>): string =>
  createHmac('sha256', installKey(keyPathOf(path)))
    .update(`computer-use settings v1\0${resolve(path)}\0${canonical(lowering)}`)
    .digest('hex');

function readConfirmations(path: string): Record<string, Confirmation> {
  try {
    const j: unknown = JSON.parse(readFileSync(confirmationsPath(path), 'utf8'));
    return j && typeof j === 'object' ? j as Record<string, Confirmation> : {};
  } catch { return {}; }
}

/** The confirmed lowering fields of a settings file, when a valid confirmation is recorded. */
export function confirmedLowering(path: string): Record<string, unknown> | undefined {
  const c = readConfirmations(path)[resolve(path)];
  if (!c || typeof c.hmac !== 'string' || !c.lowering || typeof c.lowering !== 'object') return undefined;
  let want: string;
  try { want = macOf(path, c.lowering); } catch { return undefined; }
  const a = Buffer.from(want, 'hex');
  const b = Buffer.from(c.hmac, 'hex');
  return a.length === b.length && timingSafeEqual(a, b) ? c.lowering : undefined;
}

/** True when the file's lowering fields are what the tool wrote or a human confirmed (or there are none). */
export function isConfirmed(path: string, raw: Record<string, unknown>): boolean {
  const lowering = loweringOf(raw);
  if (Object.keys(lowering).length === 0) return true;
  const ok = confirmedLowering(path);
  return ok !== undefined && canonical(ok) === canonical(lowering);
}

/** Records the file's current lowering fields as confirmed (the tool's own writers, `settings confirm`). */
export function recordConfirmation(path: string, raw?: Record<string, unknown>): void {
  let current = raw;
  if (!current) {
    try { current = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>; } catch { current = {}; }
  }
  const lowering = loweringOf(current ?? {});
  const all = readConfirmations(path);
  all[resolve(path)] = { lowering, hmac: macOf(path, lowering) };
  const file = confirmationsPath(path);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(all, null, 2) + '\n', { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

/** Why a settings file is unsafe to take permissions from (group/world writable, another owner), or undefined. */
export function unsafeSettings(path: string): string | undefined {
  try {
    const st = statSync(path);
    if ((st.mode & 0o022) !== 0) return 'can be written by other users (chmod 600 it)';
    if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return 'belongs to another user';
    if ((st.mode & 0o044) !== 0) chmodSync(path, 0o600);
  } catch { /* missing or raced away: read below */ }
  return undefined;
}

/**
 * Reads settings; a missing file is empty settings. `warnings` says what was ignored and why. An unsafe file
 * (others can write it, another owner) is refused before any field is used: only denyApps (which can only add
 * protection) is kept. Fields the tool did not write and no human confirmed are ignored, except those that can
 * only add protection (UNCONFIRMED_FIELDS).
 */
export function loadSettings(path: string = defaultSettingsPath()): { settings: Settings; warnings: string[] } {
  const warnings: string[] = [];
  const unsafe = unsafeSettings(path);
  let raw: unknown;
  try { raw = JSON.parse(readFileSync(path, 'utf8')); } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
      warnings.push(`${path}: ${(e as Error).message}; settings ignored`);
    return { settings: {}, warnings };
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    warnings.push(`${path} is not a JSON object; settings ignored`);
    return { settings: {}, warnings };
  }
  const r = raw as Record<string, unknown>;
  const strings = (v: unknown): string[] | undefined =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined;
  const settings: Settings = {};
  const deny = strings(r['denyApps']);
  if (deny) settings.denyApps = deny;
  // Tightening fields: read even from a file others can write or nobody confirmed.
  if (r['strictFirstUse'] === true) settings.strictFirstUse = true;
  if (unsafe) {
    warnings.push(`${path} ${unsafe}: everything but denyApps is ignored`);
    return { settings, warnings };
  }
  let confirmed: boolean;
  try { confirmed = isConfirmed(path, r); } catch (e) {
    confirmed = false;
    warnings.push(`the settings confirmation cannot be checked (${(e as Error).message})`);
  }
  if (!confirmed) {
    warnings.push(
      `${path} was changed outside computer-use and not confirmed: its ` +
        `${Object.keys(loweringOf(r)).join(', ')} ` +
        'are ignored (denyApps applies). To use them, run `computer-use settings confirm` in a terminal and confirm the change.',
    );
    return { settings, warnings };
  }
  if (r['decider'] && typeof r['decider'] === 'object') settings.decider = r['decider'] as Record<string, unknown>;
  if (isMode(r['mode'])) settings.mode = r['mode'];
  else if (r['mode'] !== undefined) warnings.push(`${path}: unknown mode ${JSON.stringify(r['mode'])} ignored`);
  const allow = strings(r['allowApps']);
  if (allow) settings.allowApps = allow;
  const commands = strings(r['allowCommands']);
  if (commands) settings.allowCommands = commands;
  if (r['allowIrreversibleUnattended'] === true) settings.allowIrreversibleUnattended = true;
  if (r['allowScreenshots'] === true) settings.allowScreenshots = true;
  if (typeof r['stopHotkey'] === 'string') settings.stopHotkey = r['stopHotkey'];
  if (typeof r['showActivity'] === 'boolean') settings.showActivity = r['showActivity'];
  return { settings, warnings };
}

/**
 * Changes settings fields, keeping every other field; writes atomically with mode 0600. The tool's own
 * writes are recorded as confirmed, unless the file already held unconfirmed lowering fields (then they stay
 * unconfirmed: a tool write must not launder a change made behind its back).
 */
export function updateSettings(path: string, change: (s: Record<string, unknown>) => void): void {
  let current: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) current = parsed as Record<string, unknown>;
  } catch { /* new file */ }
  let wasConfirmed: boolean;
  try { wasConfirmed = !unsafeSettings(path) && isConfirmed(path, current); } catch { wasConfirmed = false; }
  change(current);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(current, null, 2) + '\n', { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
  if (wasConfirmed) recordConfirmation(path, current);
}

/** Adds an app to allowApps (the "always allow this app" answer). */
export function addAllowedApp(path: string, app: string): void {
  updateSettings(path, (s) => {
    const list = Array.isArray(s['allowApps'])
      ? (s['allowApps'] as unknown[]).filter((x): x is string => typeof x === 'string')
      : [];
    if (!list.includes(app)) list.push(app);
    s['allowApps'] = list;
  });
}
