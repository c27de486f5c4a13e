/**
 * Keys into a window with no accessibility tree (an app off the bus) answered "nothing visible changed in the
 * window": the tool could not see anything there, whatever the keys did. It says so, and how to see the effect.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { quietNote } from '../../src/tools/keys.js';
import { cliWording } from '../../src/hosts/cli/wording.js';

test('a window with no tree: the effect was not read, and the screenshot shows it', () => {
  const note = quietNote({ seen: false, busy: false, treeless: true }, 'w3');
  assert.match(note, /no accessibility tree, so their effect was not read/);
  assert.doesNotMatch(note, /nothing visible changed/);
  assert.match(cliWording(note), /computer-use screenshot --window w3/);
});

test('a window with a tree keeps its answers', () => {
  assert.equal(
    quietNote({ seen: false, busy: false, treeless: false }, 'w1'),
    '; nothing visible changed in the window',
  );
  assert.equal(quietNote({ seen: true, busy: false, treeless: true }, 'w1'), '');
  assert.equal(quietNote({ seen: false, busy: true, treeless: false }, 'w1'), '');
});
