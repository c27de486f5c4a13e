/** Serving a driver on stdio: the protocol on stdin/stdout, logs on stderr. */
import { METHOD_NAMES } from '../../protocol/methods.js';
import { Peer, type Handlers } from '../../protocol/peer.js';

/** What a started driver offers. */
export interface ServedDriver { handlers(): Handlers; close(): void }

/**
 * Starts the driver and serves it. A driver that cannot start still answers the protocol, every method failing
 * with the reason (e.g. permission_denied: no AT-SPI bus), so the host gets it instead of a dead pipe.
 */
export async function serveDriver<D extends ServedDriver>(
  name: string,
  start: () => Promise<D>,
): Promise<{ driver: D; peer: Peer } | null> {
  const onJunk = (l: string): void => { process.stderr.write(`ignored non-JSON line: ${l}\n`); };
  let driver: D;
  try {
    driver = await start();
  } catch (e) {
    const fail = (): never => { throw e; };
    const handlers = Object.fromEntries(METHOD_NAMES.map((m) => [m, fail])) as Handlers;
    const peer = new Peer(process.stdin, process.stdout, handlers, { onJunk });
    peer.onClose(() => process.exit(1));
    process.stderr.write(`${name}: ${(e as Error).message}\n`);
    return null;
  }
  const peer = new Peer(process.stdin, process.stdout, driver.handlers(), { onJunk });
  peer.onClose(() => { driver.close(); process.exit(0); });
  return { driver, peer };
}
