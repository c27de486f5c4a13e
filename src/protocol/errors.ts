/**
 * Error codes carried in JSON-RPC `error.data.code`, each with its meaning (docs/protocol.md and the schema read
 * these values). A code says what happened, with facts in `data`; drivers say what happened, the host writes the
 * advice that names its tools. "Host only" codes never come from a driver.
 */
export const ERROR_CODES = {
  stale_ref: 'The handle (or the host\'s ref) no longer points at the element it was given for (it is gone, or `expect` no longer holds); nothing was sent. Take a new snapshot.',
  permission_denied: 'The OS refused access (an accessibility permission not granted, the accessibility service not reachable, a secret field). details: `grant` (what to grant), `to` (which app needs it), `where` (where the human grants it), when the driver knows.',
  elevation_required: 'The target runs with more privileges than the driver (an elevated or system process); nothing was sent.',
  input_blocked: 'Synthetic input is blocked by the platform (a display server or policy that refuses injected input without a grant); nothing was sent. details as for permission_denied.',
  input_unavailable: 'No synthetic input method is available at all; nothing was sent.',
  app_not_found: 'No application matches (name, pid or launch target); nothing was sent.',
  window_not_found: 'No window has that handle (it closed); list windows again.',
  timeout: 'The call or the awaited condition did not complete in time.',
  unsupported: 'The element, the driver or the platform does not support the operation (or the method: the host answers it for a method the driver did not list in hello); nothing was sent. details: `method` or `op`; `inside` (a click on an element with no action of its own that holds several clickable ones: those, each as ActResult `via` names one); `goToCell`, a cell address, when a row of a sheet is too far to scroll to and the host can bring that cell into view another way (the Name Box).',
  invalid_params: 'The params do not match the method\'s schema, or a value does not fit this element (a cell outside the table, a row that does not exist); nothing was sent. JSON-RPC code -32602 for schema failures.',
  denied_by_policy: 'Host only: the policy refused the action (mode, app deny list, a rule); nothing was sent.',
  confirmation_declined: 'Host only: the human said no to the action; nothing was sent.',
  confirmation_required: "Host only: the action needs a human's confirmation and no one can be asked here; nothing was sent.",
  confirmation_timeout: 'Host only: a question waited in the panel and no one answered in time (default 120 s); nothing was sent.',
  paused: 'Host only: computer use is paused or stopped by the human, or the call was cancelled.',
  window_changed: 'The window moved, resized or closed since the capture or bounds an input refers to (`expectBounds`), or another window covers the point; ' +
    'or (node.act `expect`) the element\'s process or window is not the one expected; nothing was sent.',
  window_not_focused: 'Keys were aimed at a window that does not hold the keyboard focus (its process could not be proven to own the focused top-level window after activation); nothing was sent.',
  element_disabled: 'The element stayed disabled (or read-only, for text) for the whole actionability wait; nothing was sent. details: `states` (its current states), `waitedMs`, `unmet` (the checks that failed).',
  not_visible: 'The element was not showing on screen (hidden, on another page or tab, collapsed, zero-sized) or kept moving for the whole actionability wait; nothing was sent. details: `states`, `bounds`, `waitedMs`, `unmet`.',
  unknown_ref: 'Host only: the ref was never issued in this session (or its window closed long ago).',
  driver_unavailable: 'The driver process died or could not start (host only: a driver reports its own failures with other codes).',
  screen_locked: 'The device\'s screen is locked or a secure desktop (a lock screen, a credentials prompt) has the input; nothing was sent. The human unlocks it.',
  device_offline: 'The device is not reachable now (asleep, disconnected, its pairing link down); nothing was sent.',
  unauthorized: 'The device has not authorized this driver or host (a debugging authorization not accepted, a pairing revoked); nothing was sent. details: `where` the human authorizes it.',
  protocol_mismatch: 'The driver speaks another major protocol version (hello `protocolVersion`); nothing was sent. details: both versions.',
  link_lost: 'The link to a device (an ssh connection, a driver process) dropped while a call was in flight: the call may have happened on the device. The next call reconnects; observe before acting again.',
  host_key_mismatch: "The device's SSH host key differs from the one in known_hosts (or is unknown there); nothing was sent.",
  auth_failed: 'SSH refused the login (no usable key; password prompts are never used), or a pairing server refused a code; nothing was sent.',
  unknown_device: 'Host only: no device has that name or ref prefix.',
  action_failed: 'The platform call failed for a reason the driver could not classify; the input may not have been sent.',
  internal: 'A bug or an unexpected failure; the message says what.',
} as const;

/**
 * What the caller can do next, as facts a driver attaches to an error (`error.data.remedy`, a list of these
 * names): the driver knows which step helps, only the host knows what its tools are called, so the host writes the
 * words (tools/remedy.ts). A name not in this table is ignored; a driver message never names a host's tools.
 */
export const REMEDIES = {
  list_windows: 'List the open apps and windows again (apps.list): the window closed or its handle changed.',
  snapshot: 'Take a new snapshot (tree.snapshot) and use its handles.',
  capture: 'Take a new capture (screen.capture) and act on what it shows.',
  read_pixels: 'The window has no accessibility tree: read it from its pixels (screen.ocr) and use pointer input.',
  relaunch: 'Start the app again through the host (apps.launch), which starts it the way that makes it readable.',
  raise_window: 'Bring the window to the front (or close what holds the focus) and try again.',
  element_actions: 'Act on elements (node.act) instead: element actions need no keyboard focus.',
  keys: 'Focus the element and send keys (input.keys) instead.',
} as const;

/** One of the remedy names. */
export type Remedy = keyof typeof REMEDIES;

/** The known remedy names in `details.remedy` (anything else a device sent is dropped). */
export function remediesOf(details: Record<string, unknown>): Remedy[] {
  const r = details['remedy'];
  if (!Array.isArray(r)) return [];
  return r.filter((x): x is Remedy => typeof x === 'string' && Object.hasOwn(REMEDIES, x)).slice(0, 4);
}

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
    `Ref ${ref} no longer matches a unique element (${why}). Use the fresh snapshot below.`,
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
