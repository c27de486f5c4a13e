/** Keysym → keycode planning on a keyboard map recorded from the sandbox's Xvfb (test/fixtures/x11). */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { chordStrokes, textStrokes } from '../../src/drivers/linux/input/input.js';
import { keysymOf } from '../../src/drivers/linux/input/keysyms.js';
import { findKeysym, planBatches, spareKeycodes, type KeyMap } from '../../src/drivers/linux/x11/keymap.js';
import { parseChords } from '../../src/session/chords.js';

const MAP = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/x11/xvfb-keymap.json', import.meta.url), 'utf8'),
) as KeyMap;

test('wire key names and characters become keysym values; Latin-1 keeps its classic keysym', () => {
  assert.equal(keysymOf('Enter'), 0xff0d);
  assert.equal(keysymOf('t'), 0x74);
  assert.equal(keysymOf('T'), 0x54);
  assert.equal(keysymOf('ä'), 0xe4);
  assert.equal(keysymOf('中'), 0x01004e2d);
  assert.equal(keysymOf('😀'), 0x0101f600);
  for (const bad of ['exec', 'windowactivate', 'Return', 'BackSpace', 'U00E4', '\n', '\u0007', ''])
    assert.equal(keysymOf(bad), undefined, JSON.stringify(bad));
});

test('case is kept: "t" is the t key, "T" is shift + the same key', () => {
  const t = findKeysym(MAP, 0x74);
  const T = findKeysym(MAP, 0x54);
  assert.deepEqual(t, { keycode: 28, shift: false });
  assert.deepEqual(T, { keycode: 28, shift: true });
  const [batch] = planBatches(MAP, textStrokes('tT').map((s) => s.keysym));
  assert.deepEqual(batch, { bind: [], strokes: [{ keycode: 28, shift: false }, { keycode: 28, shift: true }] });
});

test('characters on no key are bound to spare keycodes, one per distinct character', () => {
  const spare = spareKeycodes(MAP);
  assert.ok(spare.length >= 10, `${spare.length} spare keycodes`);
  const [batch, more] = planBatches(MAP, textStrokes('Tä中ä').map((s) => s.keysym));
  assert.equal(more, undefined);
  assert.deepEqual(batch?.bind, [{ keycode: spare[0], keysym: 0xe4 }, { keycode: spare[1], keysym: 0x01004e2d }]);
  assert.deepEqual(batch?.strokes.map((s) => s.keycode), [28, spare[0], spare[1], spare[0]]);
});

test('a keycode this driver bound earlier is reused without binding it again', () => {
  const spare = spareKeycodes(MAP);
  const ours = new Map([[spare[0]!, 0x01004e2d]]);
  const [batch] = planBatches(
    {
      ...MAP,
      rows: MAP.rows.map((r, i) => (i + MAP.minKeycode === spare[0] ? [0x01004e2d, 0x01004e2d, 0, 0, 0, 0, 0] : r)),
    },
    [0x01004e2d],
    ours,
  );
  assert.deepEqual(batch, { bind: [], strokes: [{ keycode: spare[0], shift: false }] });
});

test('more distinct unmapped characters than spare keycodes are sent in batches', () => {
  const n = spareKeycodes(MAP).length;
  const text = Array.from({ length: n + 3 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join('');
  const batches = planBatches(MAP, textStrokes(text).map((s) => s.keysym));
  assert.equal(batches.length, 2);
  assert.equal(batches[0]?.bind.length, n);
  assert.equal(batches[1]?.bind.length, 3);
  assert.equal(batches.reduce((s, b) => s + b.strokes.length, 0), n + 3);
});

test('chords keep their modifiers; an unknown keysym is refused before anything is planned', () => {
  assert.deepEqual(chordStrokes(parseChords('ctrl+s shift+Tab')), [
    { keysym: 0x73, mods: ['ctrl'] },
    { keysym: 0xff09, mods: ['shift'] },
  ]);
  // Primary is Control on Linux, Meta the Super key; Primary and Control together press Control once.
  assert.deepEqual(chordStrokes([{ mods: ['Primary', 'Control', 'Meta'], key: 'Enter' }]), [
    { keysym: 0xff0d, mods: ['ctrl', 'super'] },
  ]);
  assert.throws(
    () => chordStrokes([{ mods: [], key: 'exec' }]),
    (e: Error & { code?: string }) => e.code === 'invalid_params' && /keysym/.test(e.message),
  );
  assert.throws(() => textStrokes('a\u0007b'), /control character/);
  assert.deepEqual(textStrokes('a\nb').map((s) => s.keysym), [0x61, 0xff0d, 0x62]);
});
