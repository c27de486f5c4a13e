/**
 * Error codes carried in JSON-RPC `error.data.code`. Each says what happened; the message says what to do.
 */
export const ERROR_CODES = {
  /** The ref no longer points at the element it was given for; take a new snapshot. */
  stale_ref: 'stale_ref',
  /** The OS refused access (accessibility permission, bus not reachable). */
  permission_denied: 'permission_denied',
  /** The target runs with more privileges than the driver. */
  elevation_required: 'elevation_required',
  /** Synthetic input is blocked by the platform (Wayland without a portal). */
  input_blocked: 'input_blocked',
  /** No synthetic input method is available at all. */
  input_unavailable: 'input_unavailable',
  app_not_found: 'app_not_found',
  window_not_found: 'window_not_found',
  /** The call or the awaited condition did not complete in time. */
  timeout: 'timeout',
  /** The element or platform does not support the operation. */
  unsupported: 'unsupported',
  /** Bad parameters. */
  invalid_params: 'invalid_params',
  denied_by_policy: 'denied_by_policy',
  confirmation_declined: 'confirmation_declined',
  confirmation_required: 'confirmation_required',
  /**
   * A question waited in the panel and no one answered in time (default 120 s); nothing was sent. Ask the user
   * to open the panel URL and answer, then call again.
   */
  confirmation_timeout: 'confirmation_timeout',
  paused: 'paused',
  /**
   * The window moved, resized or closed since the capture a visual act refers to; nothing was sent. Take a
   * new screenshot.
   */
  window_changed: 'window_changed',
  /**
   * Keys were aimed at a window that does not hold the keyboard focus (its process could not be proven to own
   * the focused top-level window after activation); nothing was sent.
   */
  window_not_focused: 'window_not_focused',
  /**
   * The element stayed disabled (or read-only, for text) for the whole actionability wait; nothing was sent.
   * details: `states` (its current states), `waitedMs`, `unmet`. Do what enables it first (fill the required
   * fields, pick an option), or wait longer with settle.timeoutMs.
   */
  element_disabled: 'element_disabled',
  /**
   * The element was not showing on screen (hidden, on another page or tab, collapsed, zero-sized) or kept moving
   * for the whole actionability wait; nothing was sent. details: `states`, `bounds`, `waitedMs`, `unmet`. Open
   * or scroll to what holds it first, then act again.
   */
  not_visible: 'not_visible',
  /** The ref was never issued in this session (or its window closed long ago); observe to get refs. */
  unknown_ref: 'unknown_ref',
  /** The driver process died or could not start. */
  driver_unavailable: 'driver_unavailable',
  /**
   * The link to a device (an ssh connection, a driver process) dropped while a call was in flight: the call
   * may have happened on the device. The next call reconnects; observe before acting again.
   */
  link_lost: 'link_lost',
  /** The device's SSH host key differs from the one in known_hosts (or is unknown there); nothing was sent. */
  host_key_mismatch: 'host_key_mismatch',
  /** SSH refused the login (no usable key; password prompts are never used), or a pairing server refused a code; nothing was sent. */
  auth_failed: 'auth_failed',
  /** No device has that name or ref prefix; computer_apps lists the devices. */
  unknown_device: 'unknown_device',
  /** The platform call failed for a reason the driver could not classify. */
  action_failed: 'action_failed',
  internal: 'internal',
} as const;

/** One of the error codes. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** JSON-RPC numeric code used for all application errors; the string code tells them apart. */
export const APP_ERROR = -32000;

/** An error with a code from ERROR_CODES; crosses the wire as `{code: -32000, message, data: {code, ...}}`. */
export class ComputerUseError extends Error {
  override name = 'ComputerUseError' as const;
  readonly code: ErrorCode;
  /** Extra facts for the caller (never secrets): e.g. a fresh local snapshot for stale_ref. */
  readonly details: Record<string, unknown>;
  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.code = code;
    this.details = details;
  }
}

/** True when `e` is a ComputerUseError, optionally of one code. */
export function isComputerUseError(e: unknown, code?: ErrorCode): e is ComputerUseError {
  return e instanceof ComputerUseError && (code === undefined || e.code === code);
}

/** Builds a stale_ref error with the standard advice. */
export function staleRef(ref: string, why: string, details: Record<string, unknown> = {}): ComputerUseError {
  return new ComputerUseError('stale_ref',
    `Ref ${ref} no longer matches a unique element (${why}). Use the fresh snapshot below or call computer_observe again.`,
    details);
}

/**
 * Converts a wire error object back into a ComputerUseError. Its message is outside text: the Device escapes
 * it (devices/manager.ts). A code that is not one of ours (an Object.prototype name included) reads as internal.
 */
export function fromWire(err: { code: number; message: string; data?: unknown }): ComputerUseError {
  const data = (err.data ?? {}) as { code?: string } & Record<string, unknown>;
  const code = (data.code && Object.hasOwn(ERROR_CODES, data.code) ? data.code : 'internal') as ErrorCode;
  const { code: _c, ...rest } = data;
  return new ComputerUseError(code, String(err.message), rest);
}
