/**
 * A deliberately broken driver for the conformance kit's own tests: the fake driver on the recorded harness
 * with one defect chosen by `--defect`:
 * - `version`: hello says protocolVersion 2.0.0;
 * - `schema`: windows.list answers windows without their required fields;
 * - `cancel`: ui.settle ignores `$/cancel` and waits its full timeout;
 * - `nonbmp`: the process dies on any line holding a character beyond the BMP (raw or as a surrogate escape);
 * - `identity`: apps.terminate says it ended any pid, one that no process has and whose start token it never checked.
 */
import { readFileSync } from 'node:fs';
import type { RawNode, WindowInfo } from '../../src/engine/node.js';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import { HARNESS_FIXTURE } from '../../src/drivers/fake/main.js';
import type { Handlers } from '../../src/protocol/peer.js';
import { Peer } from '../../src/protocol/peer.js';

/** The defects this driver can have. */
export const DEFECTS = ['version', 'schema', 'cancel', 'nonbmp', 'identity'] as const;
export type Defect = (typeof DEFECTS)[number];

function broken(defect: Defect, fake: FakeDriver): Handlers {
  const h = fake.handlers();
  switch (defect) {
    case 'version': return { ...h, hello: async (p, ctx) => ({ ...await h.hello!(p, ctx), protocolVersion: '2.0.0' }) };
    case 'schema': return { ...h, 'windows.list': () => ({ windows: [{ id: 'w1' }] }) as never };
    case 'cancel': return { ...h, 'ui.settle': async (p) => { await new Promise((r) => setTimeout(r, p.timeoutMs)); return { settled: true, events: 0, ms: p.timeoutMs }; } };
    case 'identity': return { ...h, 'apps.terminate': () => ({ ended: true }),
      hello: async (p, ctx) => { const r = await h.hello!(p, ctx); return { ...r, methods: [...r.methods, 'apps.terminate'] }; } };
    case 'nonbmp': {
      process.stdin.on('data', (chunk: Buffer | string) => {
        if (/[\u{10000}-\u{10FFFF}]|\\ud8[0-9a-f]{2}/iu.test(chunk.toString())) process.exit(70);
      });
      return h;
    }
  }
}

function main(): void {
  const defect = process.argv[process.argv.indexOf('--defect') + 1] as Defect;
  if (!DEFECTS.includes(defect)) { process.stderr.write(`usage: broken-driver --defect ${DEFECTS.join('|')}\n`); process.exit(2); }
  const fixture = JSON.parse(readFileSync(HARNESS_FIXTURE, 'utf8')) as { window: WindowInfo; root: RawNode };
  const fake = new FakeDriver([{ info: fixture.window, root: fixture.root }]);
  const peer = new Peer(process.stdin, process.stdout, broken(defect, fake));
  peer.onClose(() => process.exit(0));
}

main();
