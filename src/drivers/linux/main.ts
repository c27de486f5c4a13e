#!/usr/bin/env node
/** Process entry of the Linux driver: the protocol on stdin/stdout, logs on stderr. */
import { Peer } from '../../protocol/peer.js';
import { LinuxDriver } from './driver.js';

export async function runLinuxDriver(): Promise<void> {
  let driver: LinuxDriver;
  try {
    driver = await LinuxDriver.start();
  } catch (e) {
    // Still answer the protocol so the host gets a clear error instead of a dead pipe.
    const err = e as Error;
    new Peer(process.stdin, process.stdout, {
      hello: () => { throw e; },
    }, { onJunk: (l) => process.stderr.write(`junk: ${l}\n`) });
    process.stderr.write(`linux driver: ${err.message}\n`);
    return;
  }
  const peer = new Peer(process.stdin, process.stdout, driver.handlers(), { onJunk: (l) => process.stderr.write(`ignored non-JSON line: ${l}\n`) });
  peer.onClose(() => { driver.close(); process.exit(0); });
}

if (import.meta.url === `file://${process.argv[1]}`) void runLinuxDriver();
