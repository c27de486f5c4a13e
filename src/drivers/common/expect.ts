/**
 * The check every driver makes before it sends an act (protocol ActParams.expect): the element at the handle is
 * still the one the host decided on, by its unified role and its name. One that changed is `stale_ref` and nothing
 * is sent. The process and window half of `expect` (pid, startToken, window, title) is proven by each driver where
 * its platform can tell (capability act_identity).
 */
import type { NodeExpectation } from '../../protocol/methods.js';
import { ComputerUseError } from '../../protocol/errors.js';

/** The element as the driver reads it now. */
export interface CurrentElement {
  /** Its unified role; undefined where the platform cannot tell one (a web node the browser leaves out). */
  role?: string | undefined;
  /** Its name as the driver reports it (cleaned like a snapshot's); undefined or '' when it has none. */
  name?: string | undefined;
}

/** Throws `stale_ref` (details.reason `role_changed` or `name_changed`) when `now` is not what `expect` names. */
export function checkExpect(expect: NodeExpectation | undefined, now: CurrentElement): void {
  if (!expect) return;
  if (expect.role !== undefined && now.role !== undefined && now.role !== expect.role) {
    throw new ComputerUseError(
      'stale_ref',
      `The element at that handle is now a ${now.role}, not a ${expect.role}; nothing was sent.`,
      { reason: 'role_changed' },
    );
  }
  if (expect.name !== undefined && expect.name !== (now.name ?? '')) {
    throw new ComputerUseError('stale_ref', 'The element at that handle was renamed or replaced; nothing was sent.', {
      reason: 'name_changed',
    });
  }
}

/** `stale_ref` for an element that no longer exists (details.reason `gone`): the one wording every driver uses. */
export function elementGone(): ComputerUseError {
  return new ComputerUseError('stale_ref', 'The element no longer exists; nothing was sent.', { reason: 'gone' });
}

/** `stale_ref` for an id this driver never issues as an element handle (a window's id, another driver's handle). */
export function notAHandle(): ComputerUseError {
  return new ComputerUseError('stale_ref', 'That is not an element handle of this driver; nothing was sent.', {
    reason: 'not_a_handle',
  });
}
