/**
 * EditableText.InsertText's length argument per toolkit: ATK (GTK, Gecko) reads UTF-8 bytes, Qt's adaptor
 * resizes the string to it in UTF-16 units. A byte count made FeatherPad (Qt 5) save "牛奶" followed by four NULs;
 * a character count would cut CJK text in GTK. The toolkit comes from the app root's ToolkitName, asked once.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { A11yBus } from '../../src/drivers/linux/bus/bus.js';
import { insertLength } from '../../src/drivers/linux/act/edit.js';

function busOf(toolkit: string): { bus: A11yBus; asked: () => number } {
  let asked = 0;
  const messageBus = {
    call: (m: { member: string; body: unknown[] }) => {
      if (m.member === 'Get' && m.body[1] === 'ToolkitName') {
        asked++;
        return Promise.resolve({ body: [{ value: toolkit }] });
      }
      return Promise.reject(
        Object.assign(new Error(`no ${m.member}`), { type: 'org.freedesktop.DBus.Error.UnknownMethod' }),
      );
    },
    disconnect: () => undefined,
  };
  const bus = new (A11yBus as unknown as new (b: unknown, address: string) => A11yBus)(messageBus, 'fake');
  bus.p2p = false;
  return { bus, asked: () => asked };
}

/** What each toolkit inserts for (text, length), as their adaptors do. */
const qtInserts = (text: string, length: number): string =>
  (text + '\0'.repeat(Math.max(0, length - text.length))).slice(0, length);
const gtkInserts = (text: string, length: number): string =>
  Buffer.from(text, 'utf8').subarray(0, length).toString('utf8');

const TEXT = 'shopping: 2 kg rice, 牛奶 🍚';

test('Qt gets the length in UTF-16 units, so Chinese text arrives without NULs', async () => {
  const { bus, asked } = busOf('Qt');
  const n = await insertLength(bus, ':1.42', TEXT);
  assert.equal(qtInserts(TEXT, n), TEXT);
  assert.equal(n, TEXT.length);
  await insertLength(bus, ':1.42', 'again');
  assert.equal(asked(), 1, 'the toolkit is asked once per app');
});

test('GTK (ATK) gets the length in UTF-8 bytes, so Chinese text is not cut', async () => {
  const { bus } = busOf('GTK');
  const n = await insertLength(bus, ':1.43', TEXT);
  assert.equal(gtkInserts(TEXT, n), TEXT);
  assert.equal(n, Buffer.byteLength(TEXT, 'utf8'));
});

test('an app that does not say its toolkit is treated as ATK', async () => {
  const { bus } = busOf('');
  assert.equal(await insertLength(bus, ':1.44', TEXT), Buffer.byteLength(TEXT, 'utf8'));
});
