/**
 * Permission modes (seed §7). A mode says when the policy asks the user; the deny list and the app identity
 * rules hold in every mode.
 */
import { ComputerUseError } from '../protocol/errors.js';

/** The modes, from the most to the least restrictive in what they ask. */
export const MODES = ['plan', 'default', 'accept-edits', 'bypass', 'unattended'] as const;

/**
 * - `plan`: read-only tools only (apps, observe, find, wait); every action is refused.
 * - `default`: the first action on an app in a session asks (allow once / this session / always), unless the
 *   host approves each acting call itself (an MCP client without elicitation: `hostApprovesFirstUse`, off with
 *   `strictFirstUse`);
 *   irreversible actions and password-field writes ask every time; `computer_keys` (blind input) and
 *   `computer_launch` ask every time unless the app is allow-listed.
 * - `accept-edits`: allow-listed apps (allowApps, or granted for this session) do not ask; irreversible
 *   actions and password-field writes still ask.
 * - `bypass`: allow-listed apps pass without any question; other apps ask on first use; the deny list holds.
 * - `unattended`: never asks; only allow-listed apps; irreversible actions and password writes are refused
 *   unless `allowIrreversibleUnattended`.
 */
export type Mode = (typeof MODES)[number];

/** The mode when nothing says otherwise. */
export const DEFAULT_MODE: Mode = 'default';

/** True when `s` names a mode. */
export function isMode(s: unknown): s is Mode {
  return typeof s === 'string' && (MODES as readonly string[]).includes(s);
}

/** Parses a mode name (accepts `accept_edits` and `acceptEdits` too); throws invalid_params otherwise. */
export function parseMode(s: string): Mode {
  const k = s.trim().toLowerCase().replace(/_/g, '-').replace(/acceptedits/, 'accept-edits');
  if (isMode(k)) return k;
  throw new ComputerUseError('invalid_params', `Unknown mode "${s}". Modes: ${MODES.join(', ')}.`);
}

/** True for modes in which the policy may ask a human. */
export function modeMayAsk(mode: Mode): boolean {
  return mode !== 'unattended' && mode !== 'plan';
}
