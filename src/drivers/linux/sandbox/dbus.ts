/**
 * One-shot D-Bus method calls with a deadline, over dbus-next's low-level `Message` API (no proxy objects,
 * no introspection). Each call opens its own connection and always closes it.
 */
import dbus from 'dbus-next';

/** A method call: destination, object path, interface, member and optional signature/body. */
export interface DbusCall {
  destination: string;
  path: string;
  interface: string;
  member: string;
  signature?: string;
  body?: unknown[];
  /** Do not let the bus start `destination` by D-Bus activation (default false). */
  noAutoStart?: boolean;
}

/**
 * Connects to `address`, performs `call` and resolves with the reply body. Rejects on a D-Bus error, a
 * connection error, or after `timeoutMs`.
 */
export async function dbusCall(address: string, call: DbusCall, timeoutMs = 2000): Promise<unknown[]> {
  const bus = dbus.sessionBus({ busAddress: address });
  let timer: NodeJS.Timeout | undefined;
  // dbus-next emits stream errors (refused connection, ERR_STREAM_WRITE_AFTER_END when we disconnect
  // before the handshake) as 'error' events: without a listener they would crash the process.
  const failed = new Promise<never>((_, reject) => {
    bus.on('error', (err: unknown) => reject(err instanceof Error ? err : new Error(String(err))));
    timer = setTimeout(() => reject(new Error(`D-Bus call ${call.member} timed out after ${timeoutMs} ms`)),
      timeoutMs);
  });
  try {
    const msg = new dbus.Message({
      destination: call.destination,
      path: call.path,
      interface: call.interface,
      member: call.member,
      ...(call.signature !== undefined ? { signature: call.signature } : {}),
      ...(call.body !== undefined ? { body: call.body } : {}),
      ...(call.noAutoStart ? { flags: dbus.MessageFlag.NO_AUTO_START } : {}),
    });
    const reply = await Promise.race([bus.call(msg), failed]);
    return reply?.body ?? [];
  } finally {
    clearTimeout(timer);
    failed.catch(() => undefined);
    try {
      bus.disconnect();
    } catch {
      // the stream may already be closed
    }
  }
}

/**
 * Asks the session bus at `sessionAddress` for the accessibility bus address (`org.a11y.Bus.GetAddress`).
 * With `noAutoStart`, an absent at-spi-bus-launcher is reported as an error instead of being activated.
 */
export async function getA11yAddress(sessionAddress: string, opts: { noAutoStart?: boolean; timeoutMs?: number } = {}):
  Promise<string> {
  const body = await dbusCall(sessionAddress, {
    destination: 'org.a11y.Bus',
    path: '/org/a11y/bus',
    interface: 'org.a11y.Bus',
    member: 'GetAddress',
    noAutoStart: opts.noAutoStart ?? false,
  }, opts.timeoutMs ?? 2000);
  const address = body[0];
  if (typeof address !== 'string' || address === '') throw new Error('org.a11y.Bus.GetAddress returned no address');
  return address;
}
