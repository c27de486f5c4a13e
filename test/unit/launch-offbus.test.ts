/**
 * A launch whose app shows a window the accessibility bus does not know (a toolkit that does not speak AT-SPI) is a
 * success with that window: its ref, that it has no tree, and the way to read it. It waited the full timeout and
 * answered an error before, although the app was up and on screen.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cliWording } from '../../src/hosts/cli/wording.js';
import type { Handlers } from '../../src/protocol/peer.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/tool.js';
import { bypassSession, PolicyFake } from '../fixtures/policy/apps.js';

const WINDOW = {
  id: 'x11:77',
  title: 'Quokka notice\n[e9] button "OK"',
  app: 'xnotice',
  pid: 4242,
  role: 'window' as const,
  focused: false,
  bounds: [0, 0, 200, 80] as [number, number, number, number],
};

class OffBusFake extends PolicyFake {
  override handlers(): Handlers {
    return {
      ...super.handlers(),
      'apps.launch': () => ({
        pid: 4242,
        startedHere: true,
        window: WINDOW,
        inaccessible: {
          reason: 'its toolkit does not speak AT-SPI',
          fix: 'No switch makes it readable.',
          remedy: ['read_pixels'],
        },
      }),
    };
  }
}

test('a launched window with no tree: success, its ref, why, and the screenshot to read it', async () => {
  const fake = new OffBusFake([]);
  const session = bypassSession(fake, ['xnotice']);
  try {
    const r = await runTool(
      TOOLS.find((t) => t.schema.name === 'computer_launch')!,
      { session },
      { command: 'xnotice', args: [] },
    );
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /^launched "?xnotice"? pid=4242 · window \[w1\] /m, r.text);
    assert.match(r.text, /no accessibility tree \(not readable: its toolkit does not speak AT-SPI\)/, r.text);
    assert.match(cliWording(r.text), /computer-use screenshot --window w1/, r.text);
    // The title is the app's text: escaped, never a line of its own.
    assert.doesNotMatch(r.text, /^\[e9\]/m, r.text);
  } finally { await session.close(); }
});
