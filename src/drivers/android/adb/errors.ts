/**
 * What can go wrong between the driver and a phone, as kinds the driver maps to protocol error codes. The
 * server's FAIL texts are the adb server's own (adb/client/transport.cpp and adb_client.cpp word them), matched
 * loosely because they changed across adb versions.
 */

/** One kind of adb failure. */
export type AdbErrorKind =
  /** The phone has not accepted this computer's RSA key ("Allow USB debugging?" is waiting on its screen). */
  | 'unauthorized'
  /** The phone is attached but not answering (booting, asleep on a flaky cable, adbd restarting). */
  | 'offline'
  /** No device with that serial, or none at all. */
  | 'not_found'
  /** Several devices and no serial chosen. */
  | 'ambiguous'
  /** Nothing listens on the adb server's port. */
  | 'no_server'
  /** The server or the device said something the protocol does not allow. */
  | 'protocol'
  /** No answer in time. */
  | 'timeout'
  /** The connection dropped mid-call (a cable pulled, the server killed): the call may have run on the device. */
  | 'closed'
  /** The server refused the request for another reason (its message is kept). */
  | 'failed';

/** An adb failure; `message` is the server's words (device text is data: the driver escapes it when shown). */
export class AdbError extends Error {
  override name = 'AdbError' as const;
  constructor(readonly kind: AdbErrorKind, message: string) { super(message); }
}

/** True when `e` is an AdbError, optionally of one kind. */
export function isAdbError(e: unknown, kind?: AdbErrorKind): e is AdbError {
  return e instanceof AdbError && (kind === undefined || e.kind === kind);
}

/** Turns a FAIL reply's text into the error it names. */
export function classifyFailure(text: string, request: string): AdbError {
  const t = text.toLowerCase();
  if (t.includes('unauthorized')) return new AdbError('unauthorized', text);
  if (t.includes('offline')) return new AdbError('offline', text);
  if (t.includes('more than one')) return new AdbError('ambiguous', text);
  if (t.includes('not found') || t.includes('no devices')) return new AdbError('not_found', text);
  return new AdbError('failed', `${request.split(':')[0]}: ${text}`);
}
