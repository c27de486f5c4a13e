#!/usr/bin/env node
/**
 * Process entry of the Chromium DevTools driver: the protocol on stdin/stdout, logs on stderr.
 * The endpoint comes from `--endpoint http://127.0.0.1:9222` or COMPUTER_USE_CDP_ENDPOINT.
 */
import { serveDriver } from '../common/serve.js';
import { CdpDriver } from './driver.js';
import { isEntryModule } from '../common/entry.js';

/** The endpoint named on the command line or in the environment. */
export function endpointFrom(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): string | undefined {
  const i = argv.indexOf('--endpoint');
  const arg = i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith('--endpoint='))?.slice('--endpoint='.length);
  return arg ?? env['COMPUTER_USE_CDP_ENDPOINT'];
}

export async function runCdpDriver(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const endpoint = endpointFrom(argv) ?? 'http://127.0.0.1:9222';
  const served = await serveDriver('cdp driver', () => CdpDriver.start(endpoint));
  if (!served) return;
  served.driver.cdp.onClose((reason) => {
    process.stderr.write(`cdp driver: DevTools connection closed (${reason})\n`);
    served.peer.close('DevTools connection closed');
    process.exit(1);
  });
}

if (isEntryModule(import.meta.url)) void runCdpDriver();
