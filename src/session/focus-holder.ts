/**
 * Names the window that holds the keyboard when keys were refused for it (window_not_focused with a `holder`
 * from the driver: another app's grab, drivers/linux/input/input.ts), and says what ends the block. A denied holder (a
 * keyring prompt, an elevation prompt) is named by its app and the reason it is denied, never by its title or
 * content (docs/policy.md, "Threat model"): it waits for the user, so the way out is to ask them.
 */
import { nameText, quoteText } from '../engine/escape.js';
import { ComputerUseError, isComputerUseError } from '../protocol/errors.js';
import type { Session } from './session.js';

/**
 * `e` with its holder named (or said to be denied, and why) in the message and dropped from the details; other
 * errors as they are.
 */
export function nameFocusHolder(session: Session, e: unknown): unknown {
  if (!isComputerUseError(e, 'window_not_focused')) return e;
  const { holder, ...rest } = e.details as { holder?: unknown } & Record<string, unknown>;
  if (!holder || typeof holder !== 'object') return e;
  const h = holder as { app?: unknown; pid?: unknown; title?: unknown; className?: unknown };
  if (typeof h.app !== 'string' || typeof h.pid !== 'number' || typeof h.title !== 'string')
    return new ComputerUseError(e.code, e.message, rest);
  const className = typeof h.className === 'string' ? { className: h.className } : {};
  const hidden = session.hidden({ app: h.app, pid: h.pid, title: h.title, ...className });
  const named = hidden ? deniedHolder(h.app, h.pid, hidden)
    : `The window the desktop shows as focused: ${quoteText(h.title)} of ${quoteText(h.app)} (pid ${h.pid}).`;
  return new ComputerUseError(e.code, `${e.message} ${named}`, rest);
}

/**
 * The sentence for a holder computer-use may not see: which app (its name is no secret: the app list shows it as
 * denied), why it is denied, and that only the user can answer it. Its title is never shown.
 */
export function deniedHolder(app: string, pid: number, why: string): string {
  const who = app.trim() ? nameText(app) : 'an app';
  return `It is held by ${who} (pid ${pid}), which computer-use may not see or act on: ${why.replace(/\.$/, '')}. ` +
    `A prompt like that waits for the user: ask them to answer or close the ${who} window, then try again.`;
}
