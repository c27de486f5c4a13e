/**
 * The settings file (`<home>/settings.json`, owner-only): mode, allow/deny lists, unattended irreversible
 * actions, and the decider configuration (passed through untouched for the decider). A file others can write
 * could grant permissions, so its relaxing fields are ignored when it is group- or world-writable.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { cuPath } from '../paths.js';
import { isMode, type Mode } from './modes.js';

/** What the settings file holds. Unknown fields are kept when the file is rewritten. */
export interface Settings {
  mode?: Mode;
  /** Apps acted on without a first-use question (name, executable path or file name). */
  allowApps?: string[];
  /** Apps never acted on, on top of the built-in deny list. */
  denyApps?: string[];
  /** In `unattended` mode, allow irreversible actions and password writes on allow-listed apps. */
  allowIrreversibleUnattended?: boolean;
  /**
   * Let computer_screenshot return images of windows to the model (mode "image"; also needs a host whose
   * model takes images). Off by default; OCR mode needs no setting (its image never leaves the machine).
   */
  allowScreenshots?: boolean;
  /** Decider configuration (seed §10), read by the decider; the policy passes it through. */
  decider?: Record<string, unknown>;
  /**
   * Keep asking the per-app first-use question in MCP clients without elicitation (default false: the host's
   * own tool approval stands in for it; `--strict-first-use` does the same for one server).
   */
  strictFirstUse?: boolean;
  /** The global stop hotkey of the panel on X11 (default `ctrl+shift+Escape`), a chord like computer_keys takes. */
  stopHotkey?: string;
}

/** Default settings path: `<home>/settings.json`. */
export function defaultSettingsPath(): string { return cuPath('settings.json'); }

/** Reads settings; a missing file is empty settings. `warnings` says what was ignored and why. */
export function loadSettings(path: string = defaultSettingsPath()): { settings: Settings; warnings: string[] } {
  const warnings: string[] = [];
  let raw: unknown;
  try { raw = JSON.parse(readFileSync(path, 'utf8')); } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') warnings.push(`${path}: ${(e as Error).message}; settings ignored`);
    return { settings: {}, warnings };
  }
  if (!raw || typeof raw !== 'object') { warnings.push(`${path} is not a JSON object; settings ignored`); return { settings: {}, warnings }; }
  const r = raw as Record<string, unknown>;
  const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);
  const settings: Settings = {};
  const deny = strings(r['denyApps']);
  if (deny) settings.denyApps = deny;
  if (r['decider'] && typeof r['decider'] === 'object') settings.decider = r['decider'] as Record<string, unknown>;
  // Tightening or neutral fields: read even from a file others can write.
  if (r['strictFirstUse'] === true) settings.strictFirstUse = true;
  if (typeof r['stopHotkey'] === 'string') settings.stopHotkey = r['stopHotkey'];
  let unsafe = false;
  try {
    const st = statSync(path);
    unsafe = (st.mode & 0o022) !== 0 || (typeof process.getuid === 'function' && st.uid !== process.getuid());
    if (!unsafe && (st.mode & 0o044) !== 0) chmodSync(path, 0o600);
  } catch { /* raced away */ }
  if (unsafe) {
    warnings.push(`${path} can be written by other users: its mode, allowApps, allowIrreversibleUnattended and allowScreenshots are ignored (chmod 600 it)`);
    return { settings, warnings };
  }
  if (isMode(r['mode'])) settings.mode = r['mode'];
  else if (r['mode'] !== undefined) warnings.push(`${path}: unknown mode ${JSON.stringify(r['mode'])} ignored`);
  const allow = strings(r['allowApps']);
  if (allow) settings.allowApps = allow;
  if (r['allowIrreversibleUnattended'] === true) settings.allowIrreversibleUnattended = true;
  if (r['allowScreenshots'] === true) settings.allowScreenshots = true;
  return { settings, warnings };
}

/** Changes settings fields, keeping every other field; writes atomically with mode 0600. */
export function updateSettings(path: string, change: (s: Record<string, unknown>) => void): void {
  let current: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (parsed && typeof parsed === 'object') current = parsed as Record<string, unknown>;
  } catch { /* new file */ }
  change(current);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(current, null, 2) + '\n', { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

/** Adds an app to allowApps (the "always allow this app" answer). */
export function addAllowedApp(path: string, app: string): void {
  updateSettings(path, (s) => {
    const list = Array.isArray(s['allowApps']) ? (s['allowApps'] as unknown[]).filter((x): x is string => typeof x === 'string') : [];
    if (!list.includes(app)) list.push(app);
    s['allowApps'] = list;
  });
}
