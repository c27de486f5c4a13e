#!/usr/bin/env node
/** Process entry of the Linux driver: the protocol on stdin/stdout, logs on stderr. */
import { METHOD_NAMES } from '../../protocol/methods.js';
import { Peer, type Handlers } from '../../protocol/peer.js';
import { LinuxDriver } from './driver.js';

export async function runLinuxDriver(): Promise<void> {
  let driver: LinuxDriver;
  try {
    driver = await LinuxDriver.start();
  } catch (e) {
    // Still answer the protocol, so the host gets the reason (e.g. permission_denied: no AT-SPI bus) instead
    // of a dead pipe; every method fails with it.
    const fail = (): never => { throw e; };
    const handlers = Object.fromEntries(METHOD_NAMES.map((m) => [m, fail])) as Handlers;
    const peer = new Peer(process.stdin, process.stdout, handlers, { onJunk: (l) => process.stderr.write(`ignored non-JSON line: ${l}\n`) });
    peer.onClose(() => process.exit(1));
    process.stderr.write(`linux driver: ${(e as Error).message}\n`);
    return;
  }
  const peer = new Peer(process.stdin, process.stdout, driver.handlers(), { onJunk: (l) => process.stderr.write(`ignored non-JSON line: ${l}\n`) });
  peer.onClose(() => { driver.close(); process.exit(0); });
}

if (import.meta.url === `file://${process.argv[1]}`) void runLinuxDriver();
