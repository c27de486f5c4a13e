#!/usr/bin/env node
/** Process entry of the Linux driver: the protocol on stdin/stdout, logs on stderr. */
import { serveDriver } from '../common/serve.js';
import { LinuxDriver } from './driver.js';
import { isEntryModule } from '../common/entry.js';

export async function runLinuxDriver(): Promise<void> {
  await serveDriver('linux driver', () => LinuxDriver.start());
}

if (isEntryModule(import.meta.url)) void runLinuxDriver();
