import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chordsTypeText, formatChords, parseChords } from '../../src/protocol/keys.js';

test('chords parse into keysym names; case is preserved', () => {
  assert.deepEqual(parseChords('ctrl+s Return T t'), [
    { mods: ['ctrl'], key: 's' }, { mods: [], key: 'Return' }, { mods: [], key: 'T' }, { mods: [], key: 't' }]);
  assert.deepEqual(parseChords('control+Shift+Tab ctrl++ +'), [{ mods: ['ctrl', 'shift'], key: 'Tab' }, { mods: ['ctrl'], key: 'plus' }, { mods: [], key: 'plus' }]);
  assert.equal(formatChords(parseChords('alt+F4 esc pagedown')), 'alt+F4 Escape Page_Down');
  assert.deepEqual(parseChords('é'), [{ mods: [], key: 'U00E9' }]);
});

test('words that are not keys are refused, never passed on', () => {
  for (const bad of ['shift exec sh -c touch${IFS}/tmp/x', 'search', 'windowactivate', '--window 123', 'ctrl+explode', 'hyper+a', '', '   ']) {
    assert.throws(() => parseChords(bad), (e: Error & { code?: string }) => e.code === 'invalid_params', bad);
  }
  assert.throws(() => parseChords(Array(65).fill('a').join(' ')), /at most 64/);
});

test('typed text is told apart from shortcuts', () => {
  assert.equal(chordsTypeText(parseChords('h i')), true);
  assert.equal(chordsTypeText(parseChords('ctrl+a BackSpace')), false);
  assert.equal(chordsTypeText(parseChords('space')), false);
  assert.equal(chordsTypeText(parseChords('shift+A')), true);
});

test('an unknown word is never echoed in the error (it may be a password typed as chords)', () => {
  assert.throws(() => parseChords('ctrl+a hunter2 Return'), (e: Error) => !e.message.includes('hunter2') && /Chord 2 of 3/.test(e.message));
  assert.throws(() => parseChords('s3cret+a'), (e: Error) => !e.message.includes('s3cret'));
});
