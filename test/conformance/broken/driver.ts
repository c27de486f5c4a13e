/**
 * A deliberately broken driver for the conformance kit's own tests (`broken/driver.js --defect NAME`): the fake
 * driver on the recorded GTK harness, with the harness's behaviour, and one defect of defects.ts.
 */
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import type { RawNode, WindowInfo } from '../../../src/engine/node.js';
import { FakeDriver } from '../../../src/drivers/fake/driver.js';
import { harnessBehaviour } from '../../../src/drivers/fake/harness.js';
import { HARNESS_FIXTURE } from '../../../src/drivers/fake/main.js';
import { Peer } from '../../../src/protocol/peer.js';
import { DEFECTS } from './defects.js';

function main(): void {
  const name = process.argv[process.argv.indexOf('--defect') + 1] ?? '';
  const defect = DEFECTS[name];
  if (!defect || !Object.hasOwn(DEFECTS, name)) {
    process.stderr.write(`usage: driver --defect ${Object.keys(DEFECTS).join('|')}\n`);
    process.exit(2);
  }
  const fixture = JSON.parse(readFileSync(HARNESS_FIXTURE, 'utf8')) as { window: WindowInfo; root: RawNode };
  const fake = new FakeDriver([{ info: fixture.window, root: fixture.root }]);
  fake.onAct = harnessBehaviour(fake);
  if (defect.dieOn)
    process.stdin.on('data', (chunk: Buffer | string) => {
      if (defect.dieOn!.test(chunk.toString())) process.exit(70);
    });
  const rewrite = defect.output;
  const out = rewrite ? new Writable({ write(chunk: Buffer | string, _enc, done) {
    const lines = chunk.toString().split('\n').filter((l) => l !== '');
    process.stdout.write(lines.map((l) => `${rewrite(l).replace(/\n$/, '')}\n`).join(''), () => done());
  } }) : process.stdout;
  const handlers = defect.handlers ? defect.handlers(fake.handlers()) : fake.handlers();
  const peer = new Peer(process.stdin, out, handlers, defect.maxLineBytes ? { maxLineBytes: defect.maxLineBytes } : {});
  peer.onClose(() => process.exit(0));
}

main();
