/**
 * screen.capture on macOS takes the window's pixels from `screencapture -l <CGWindowID>` first (the system's
 * tool, ScreenCaptureKit inside on the macOS versions that have it, where CGWindowListCreateImage is obsoleted),
 * decodes them with ImageIO and encodes them like the old path (scaled to maxEdge); when the tool is missing or
 * fails, CGWindowListCreateImage runs; the result's `detail` says which. Here a stand-in tool records its argv and
 * writes a PNG, and the fake AX library provides ImageIO; every Create/Copy is released once.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { CaptureResult } from '../../src/protocol/methods.js';
import { checkerOf } from '../../src/protocol/validate.js';
import { fakeDriverTests } from '../macos/fake-ax.js';

const { fake, start } = fakeDriverTests('textedit.json');
let dir = '';
before(() => { dir = mkdtempSync(join(tmpdir(), 'cu-mac-sc-')); });
after(() => { rmSync(dir, { recursive: true, force: true }); });

/** A stand-in for /usr/sbin/screencapture: records argv, writes the PNG header of a w×h image, or exits `exit`. */
function tool(name: string, w: number, h: number, exit = 0): string {
  const p = join(dir, name);
  writeFileSync(p, `#!${process.execPath}
const fs = require('node:fs');
fs.writeFileSync(${JSON.stringify(join(dir, `${name}.argv`))}, JSON.stringify(process.argv.slice(2)));
if (${exit}) process.exit(${exit});
const b = Buffer.alloc(33);
Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
b.writeUInt32BE(13, 8); b.write('IHDR', 12, 'latin1'); b.writeUInt32BE(${w}, 16); b.writeUInt32BE(${h}, 20);
fs.writeFileSync(process.argv[process.argv.length - 1], b);
`);
  chmodSync(p, 0o755);
  return p;
}

test('the window is captured by screencapture -l with its ' +
    'CGWindowID, decoded by ImageIO and scaled; the result says so', () => {
  const d = start({ screencapture: tool('sc-ok', 1280, 960) });
  const w = d.apps()[0]!.windows[0]!;
  fake.clearLog();
  const r = d.capture({ window: w.id, maxEdge: 640 });
  assert.ok(checkerOf(CaptureResult).Check(r));
  assert.match(r.detail ?? '', /^screencapture -l \(ScreenCaptureKit where macOS has it\)$/);
  const argv = JSON.parse(readFileSync(join(dir, 'sc-ok.argv'), 'utf8')) as string[];
  assert.deepEqual(argv.slice(0, -1), ['-l', '424201', '-o', '-x', '-t', 'png']);
  assert.match(argv.at(-1)!, /cu-capture-[^/]+\/window\.png$/);
  assert.deepEqual([r.geometry.width, r.geometry.height], [640, 480]);
  assert.match(fake.log(), /CGImageSourceCreateWithData 1280x960/);
  assert.doesNotMatch(fake.log(), /CGWindowListCreateImage/);
});

test('a tool that fails or is missing leaves the old call to run, and the result says why', () => {
  const cases = [
    [tool('sc-fail', 10, 10, 3), 'it failed \\(exit 3\\)'],
    [join(dir, 'nothing-here'), 'it is not there'],
  ] as const;
  for (const [path, why] of cases) {
    const d = start({ screencapture: path });
    const w = d.apps()[0]!.windows[0]!;
    fake.clearLog();
    const r = d.capture({ window: w.id });
    assert.match(r.detail ?? '', new RegExp(`^CGWindowListCreateImage \\(screencapture: ${why}\\)$`));
    assert.match(fake.log(), /CGWindowListCreateImage window 424201/);
    assert.equal(r.geometry.width, 1280);
    d.close();
  }
});
