/**
 * Names the window that holds the keyboard when keys were refused for it (window_not_focused with a `holder`
 * from the driver: another app's grab, drivers/linux/input/input.ts). Named only when the policy lets that app be
 * seen: a denied app is unseen, its title included (README "Threat model").
 */
import { quoteText } from '../engine/escape.js';
import { ComputerUseError, isComputerUseError } from '../protocol/errors.js';
import type { Session } from './session.js';

/** `e` with its holder named (or said to be unseen) in the message and dropped from the details; other errors as they are. */
export function nameFocusHolder(session: Session, e: unknown): unknown {
  if (!isComputerUseError(e, 'window_not_focused')) return e;
  const { holder, ...rest } = e.details as { holder?: unknown } & Record<string, unknown>;
  if (!holder || typeof holder !== 'object') return e;
  const h = holder as { app?: unknown; pid?: unknown; title?: unknown };
  if (typeof h.app !== 'string' || typeof h.pid !== 'number' || typeof h.title !== 'string') return new ComputerUseError(e.code, e.message, rest);
  const hidden = session.hidden({ app: h.app, pid: h.pid, title: h.title });
  const named = hidden ? 'The window the desktop shows as focused belongs to an app that is not shown.'
    : `The window the desktop shows as focused: ${quoteText(h.title)} of ${quoteText(h.app)} (pid ${h.pid}).`;
  return new ComputerUseError(e.code, `${e.message} ${named}`, rest);
}
