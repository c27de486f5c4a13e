#!/usr/bin/env node
/**
 * Process entry of the fake driver (`computer-use driver fake [--fixture FILE]`): the in-memory FakeDriver on
 * stdio, serving one recorded window (`{window, root}` as test/fixtures/ holds them; default the conformance
 * harness), with the harness's own behaviour (harness.ts) so the conformance kit can run on any machine.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RawNode, WindowInfo } from '../../engine/node.js';
import { Peer } from '../../protocol/peer.js';
import { FakeDriver } from './driver.js';
import { harnessBehaviour } from './harness.js';
import { isEntryModule } from '../common/entry.js';

/** The recorded native conformance harness (test/apps/conformance-harness.py). */
export const HARNESS_FIXTURE = fileURLToPath(
  new URL('../../../../test/fixtures/linux/conformance-harness.json', import.meta.url),
);

export function runFakeDriver(argv: readonly string[] = process.argv.slice(2)): void {
  const i = argv.indexOf('--fixture');
  const path = i >= 0 ? argv[i + 1] : HARNESS_FIXTURE;
  if (path === undefined) throw new Error('usage: computer-use driver fake [--fixture FILE]');
  const fixture = JSON.parse(readFileSync(path, 'utf8')) as { window: WindowInfo; root: RawNode };
  const fake = new FakeDriver([{ info: fixture.window, root: fixture.root }]);
  fake.onAct = harnessBehaviour(fake);
  const peer = new Peer(process.stdin, process.stdout, fake.handlers(), {
    onJunk: (l) => process.stderr.write(`ignored non-JSON line: ${l.slice(0, 100)}\n`),
  });
  peer.onClose(() => process.exit(0));
}

if (isEntryModule(import.meta.url)) runFakeDriver();
