/**
 * XTest sending against a recording fake X connection: strokes are complete press/release pairs with their
 * modifiers, a cancellation stops before the next stroke (none left held), and keycodes bound for characters on
 * no key are given back.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { chordStrokes, textStrokes } from '../../src/drivers/linux/input/input.js';
import type { X11 } from '../../src/drivers/linux/x11/connection.js';
import { spareKeycodes, type KeyMap } from '../../src/drivers/linux/x11/keymap.js';
import { XTest } from '../../src/drivers/linux/x11/xtest.js';
import { parseChords } from '../../src/session/chords.js';

const MAP = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/x11/xvfb-keymap.json', import.meta.url), 'utf8'),
) as KeyMap;

interface Sent { name: string; args: unknown[] }

/** A fake connection that records what is sent; `onSync` runs at each round trip. */
function fakeX(onSync: (n: number) => void = () => undefined): { x: X11; sent: Sent[] } {
  const sent: Sent[] = [];
  const ext = { FakeInput: (...args: unknown[]) => { sent.push({ name: 'FakeInput', args }); } };
  let syncs = 0;
  const x = {
    display: { min_keycode: MAP.minKeycode, max_keycode: MAP.minKeycode + MAP.rows.length - 1, screen: [{ root: 1 }] },
    root: 1, closedReason: undefined, client: {},
    extension: async () => ext,
    request: async (name: string) => (name === 'GetKeyboardMapping' ? MAP.rows : undefined),
    send: (target: unknown, name: string, ...args: unknown[]) => {
      if (target === ext) (ext as Record<string, (...a: unknown[]) => void>)[name]!(...args);
      else sent.push({ name, args });
    },
    sync: async () => { onSync(++syncs); },
  };
  return { x: x as unknown as X11, sent };
}

/** FakeInput events as [type, keycode]: 2 press, 3 release. */
const keyEvents = (sent: Sent[]): [number, number][] =>
  sent.filter((s) => s.name === 'FakeInput').map((s) => [s.args[0] as number, s.args[1] as number]);

test('a chord presses its modifiers, the key, and releases in reverse; "T" adds shift', async () => {
  const { x, sent } = fakeX();
  const xt = await XTest.create(x);
  assert.equal(await xt.keys(chordStrokes(parseChords('ctrl+s T')), undefined, 0), 2);
  // Keycodes on the recorded map: ctrl 37, s 39, shift 50, t 28.
  assert.deepEqual(keyEvents(sent), [[2, 37], [2, 39], [3, 39], [3, 37], [2, 50], [2, 28], [3, 28], [3, 50]]);
});

test('an abort between strokes stops at once: nothing more is sent and no key is left held', async () => {
  const ac = new AbortController();
  const { x, sent } = fakeX((n) => { if (n === 3) ac.abort(); });
  const xt = await XTest.create(x);
  const n = await xt.keys(textStrokes('abcdefghij'), ac.signal, 0);
  assert.equal(n, 3);
  const ev = keyEvents(sent);
  assert.equal(ev.length, 6);
  const held = new Set<number>();
  for (const [type, code] of ev) if (type === 2) held.add(code); else held.delete(code);
  assert.equal(held.size, 0);
});

test('a character on no key is typed through a bound spare keycode, given back afterwards', async () => {
  const { x, sent } = fakeX();
  const xt = await XTest.create(x);
  assert.equal(await xt.keys(textStrokes('中'), undefined, 0), 1);
  const spare = spareKeycodes(MAP)[0]!;
  const bind = sent.find((s) => s.name === 'ChangeKeyboardMapping');
  assert.equal(bind?.args[0], spare);
  assert.deepEqual((bind?.args[2] as number[]).slice(0, 2), [0x01004e2d, 0x01004e2d]);
  assert.deepEqual(keyEvents(sent), [[2, spare], [3, spare]]);
  await xt.unbindAll();
  const restore = sent.filter((s) => s.name === 'ChangeKeyboardMapping')[1];
  assert.equal(restore?.args[0], spare);
  assert.ok((restore?.args[2] as number[]).every((k) => k === 0));
});
