#!/usr/bin/env node
/**
 * Process entry of the Chromium DevTools driver: the protocol on stdin/stdout, logs on stderr.
 * The endpoint comes from `--endpoint http://127.0.0.1:9222` or COMPUTER_USE_CDP_ENDPOINT.
 */
import { METHOD_NAMES } from '../../protocol/methods.js';
import { Peer, type Handlers } from '../../protocol/peer.js';
import { CdpDriver } from './driver.js';

/** The endpoint named on the command line or in the environment. */
export function endpointFrom(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): string | undefined {
  const i = argv.indexOf('--endpoint');
  const arg = i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith('--endpoint='))?.slice('--endpoint='.length);
  return arg ?? env['COMPUTER_USE_CDP_ENDPOINT'];
}

export async function runCdpDriver(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const endpoint = endpointFrom(argv) ?? 'http://127.0.0.1:9222';
  let driver: CdpDriver;
  try {
    driver = await CdpDriver.start(endpoint);
  } catch (e) {
    // Still answer the protocol so the host gets the reason instead of a dead pipe.
    const fail = (): never => { throw e; };
    const handlers = Object.fromEntries(METHOD_NAMES.map((m) => [m, fail])) as Handlers;
    const peer = new Peer(process.stdin, process.stdout, handlers, { onJunk: (l) => process.stderr.write(`ignored non-JSON line: ${l}\n`) });
    peer.onClose(() => process.exit(1));
    process.stderr.write(`cdp driver: ${(e as Error).message}\n`);
    return;
  }
  const peer = new Peer(process.stdin, process.stdout, driver.handlers(), { onJunk: (l) => process.stderr.write(`ignored non-JSON line: ${l}\n`) });
  peer.onClose(() => { driver.close(); process.exit(0); });
  driver.cdp.onClose((reason) => { process.stderr.write(`cdp driver: DevTools connection closed (${reason})\n`); peer.close('DevTools connection closed'); process.exit(1); });
}

if (import.meta.url === `file://${process.argv[1]}`) void runCdpDriver();
