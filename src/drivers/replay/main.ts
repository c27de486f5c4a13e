#!/usr/bin/env node
/** Process entry of the replay driver (`computer-use driver replay FILE`): a recorded transcript on stdio. */
import { readFileSync } from 'node:fs';
import { parseTranscript } from '../../protocol/transcript.js';
import { Peer } from '../../protocol/peer.js';
import { ReplayDriver } from './driver.js';
import { isEntryModule } from '../common/entry.js';

export function runReplayDriver(argv: readonly string[] = process.argv.slice(2)): void {
  const path = argv[0];
  if (path === undefined) throw new Error('usage: computer-use driver replay FILE');
  const driver = new ReplayDriver(parseTranscript(readFileSync(path, 'utf8')));
  const peer = new Peer(process.stdin, process.stdout, driver.handlers(), {
    onJunk: (l) => process.stderr.write(`ignored non-JSON line: ${l.slice(0, 100)}\n`),
  });
  driver.peer = peer;
  peer.onClose(() => process.exit(0));
}

if (isEntryModule(import.meta.url)) runReplayDriver();
