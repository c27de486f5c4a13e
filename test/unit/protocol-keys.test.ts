/** The keys grammar the model writes (session/chords.ts) parsed into wire chords (protocol/keys.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkChord, chordChar, chordsTypeText, formatChords, isWireKey } from '../../src/protocol/keys.js';
import { parseChords } from '../../src/session/chords.js';

test('chords parse into DOM key names; case is preserved', () => {
  assert.deepEqual(parseChords('ctrl+s Return T t'), [
    { mods: ['Primary'], key: 's' }, { mods: [], key: 'Enter' }, { mods: [], key: 'T' }, { mods: [], key: 't' }]);
  assert.deepEqual(parseChords('shift+Tab ctrl++ +'), [
    { mods: ['Shift'], key: 'Tab' },
    { mods: ['Primary'], key: '+' },
    { mods: [], key: '+' },
  ]);
  assert.equal(formatChords(parseChords('alt+F4 esc pagedown space')), 'Alt+F4 Escape PageDown Space');
  assert.deepEqual(parseChords('é U00E9 中'), [{ mods: [], key: 'é' }, { mods: [], key: 'é' }, { mods: [], key: '中' }]);
});

test('ctrl is the platform shortcut modifier (Primary); control is the real Control key', () => {
  assert.deepEqual(parseChords('ctrl+c control+c Control+c ControlOrMeta+c cmd+c super+c win+c'), [
    { mods: ['Primary'], key: 'c' },
    { mods: ['Control'], key: 'c' },
    { mods: ['Control'], key: 'c' },
    { mods: ['Primary'], key: 'c' },
    { mods: ['Meta'], key: 'c' },
    { mods: ['Meta'], key: 'c' },
    { mods: ['Meta'], key: 'c' },
  ]);
  assert.deepEqual(parseChords('ctrl+control+x'), [{ mods: ['Primary', 'Control'], key: 'x' }]);
  // A modifier alone presses that key; a lone ctrl is the real Control key.
  assert.deepEqual(parseChords('shift ctrl alt+meta'), [
    { mods: [], key: 'Shift' },
    { mods: [], key: 'Control' },
    { mods: ['Alt'], key: 'Meta' },
  ]);
});

test('the DOM names and the X keysym names models use are one key each', () => {
  const pairs: [string, string][] = [
    ['Return', 'Enter'],
    ['KP_Enter', 'Enter'],
    ['enter', 'Enter'],
    ['BackSpace', 'Backspace'],
    ['Prior', 'PageUp'],
    ['Page_Up', 'PageUp'],
    ['Next', 'PageDown'],
    ['Up', 'ArrowUp'],
    ['arrowleft', 'ArrowLeft'],
    ['Menu', 'ContextMenu'],
    ['Print', 'PrintScreen'],
    ['Caps_Lock', 'CapsLock'],
    ['XF86AudioPlay', 'MediaPlayPause'],
    ['AudioVolumeUp', 'AudioVolumeUp'],
    ['space', ' '],
    ['Space', ' '],
    ['comma', ','],
    ['dollar', '$'],
    ['KP_7', '7'],
    ['f12', 'F12'],
    ['F24', 'F24'],
    ['Super_L', 'Meta'],
  ];
  for (const [word, key] of pairs) assert.deepEqual(parseChords(word), [{ mods: [], key }], word);
  assert.deepEqual(parseChords('ISO_Left_Tab'), [{ mods: ['Shift'], key: 'Tab' }], 'X sends shift+Tab as ISO_Left_Tab');
  for (const c of parseChords('Return BackSpace Prior Page_Down KP_Enter Up F5 a A 1 + Space MediaPlayPause'))
    assert.ok(isWireKey(c.key), c.key);
});

test('words that are not keys are refused, never passed on', () => {
  for (const bad of [
    'shift exec sh -c touch${IFS}/tmp/x',
    'search',
    'windowactivate',
    '--window 123',
    'ctrl+explode',
    'hyper+a',
    '',
    '   ',
    'F25',
    'U0007',
    'UD800',
    'U110000',
    'Hyper_L',
    'Back',
  ]) {
    assert.throws(() => parseChords(bad), (e: Error & { code?: string }) => e.code === 'invalid_params', bad);
  }
  assert.throws(() => parseChords(Array(65).fill('a').join(' ')), /at most 64/);
});

test('typed text is told apart from shortcuts', () => {
  assert.equal(chordsTypeText(parseChords('h i')), true);
  assert.equal(chordsTypeText(parseChords('ctrl+a BackSpace')), false);
  assert.equal(chordsTypeText(parseChords('space')), false);
  assert.equal(chordsTypeText(parseChords('shift+A')), true);
  assert.equal(chordChar({ mods: ['Shift'], key: 'a' }), 'A');
  assert.equal(chordChar({ mods: ['Primary'], key: 'a' }), undefined);
  assert.equal(chordChar({ mods: [], key: 'Enter' }), undefined);
});

test('an unknown word is never echoed in the error (it may be a password typed as chords)', () => {
  assert.throws(
    () => parseChords('ctrl+a hunter2 Return'),
    (e: Error) => !e.message.includes('hunter2') && /Chord 2 of 3/.test(e.message),
  );
  assert.throws(() => parseChords('s3cret+a'), (e: Error) => !e.message.includes('s3cret'));
});

test('a wire chord from a peer is checked: named keys or one printable character, known modifiers', () => {
  assert.deepEqual(checkChord({ mods: ['Shift', 'Primary'], key: 'Enter' }), {
    mods: ['Primary', 'Shift'],
    key: 'Enter',
  });
  assert.deepEqual(checkChord({ mods: [], key: '😀' }), { mods: [], key: '😀' });
  for (const bad of [
    { mods: [], key: 'Return' },
    { mods: [], key: 'ab' },
    { mods: [], key: '\n' },
    { mods: [], key: '\u2028' },
    { mods: [], key: '\u001b[31m' },
    { mods: [], key: '\ud800' },
    { mods: ['ctrl'], key: 'a' },
    { mods: 'Shift', key: 'a' },
    { key: 'a' },
  ]) {
    assert.throws(
      () => checkChord(bad as never),
      (e: Error & { code?: string }) => e.code === 'invalid_params',
      JSON.stringify(bad),
    );
  }
});
