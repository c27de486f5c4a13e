/**
 * Permission modes. A mode says when the policy asks the user; the deny list and the app identity
 * rules hold in every mode.
 */
import { jsonQuote } from '../engine/escape.js';
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
  // The names are not listed: an error the model reads must not offer it the modes that ask less.
  throw new ComputerUseError('invalid_params', `Unknown mode ${jsonQuote(s)} (computer-use --help lists the modes).`);
}

/**
 * How much each mode holds back, most first: plan refuses every act; default asks first use, keys, launches and
 * irreversible steps; accept-edits stops asking in allow-listed apps; unattended never asks but refuses what it
 * would have asked about, except irreversible steps when the user's own settings allow them there; bypass lets
 * allow-listed apps through without any question.
 */
const HOLDS_BACK: Readonly<Record<Mode, number>> = {
  plan: 4,
  default: 3,
  'accept-edits': 2,
  unattended: 1.5,
  bypass: 1,
};

/**
 * True when switching from `from` to `to` asks or refuses at least whatever `from` did: a change a caller may make
 * on its own (narrowing). Any other switch lowers a question and needs a person's yes.
 */
export function narrowsMode(to: Mode, from: Mode): boolean {
  return HOLDS_BACK[to] >= HOLDS_BACK[from];
}

/** True for modes in which the policy may ask a human. */
export function modeMayAsk(mode: Mode): boolean {
  return mode !== 'unattended' && mode !== 'plan';
}
