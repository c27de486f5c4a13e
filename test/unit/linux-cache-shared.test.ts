/**
 * An app's cache (GetItems) asked once for the reads that start together: a find read up to 8 scrolled-out parts of
 * act-lab's window at once, and each asked the app for its whole cache, queued in its main loop. Shared only while
 * nothing of the app happened since it was asked; asked again once answered.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { A11yBus } from '../../src/drivers/linux/bus/bus.js';
import { SharedCacheReads } from '../../src/drivers/linux/bus/cache.js';

const APP = ':1.78';

/** A bus whose GetItems answers when the test says, counting the calls. */
function fakeBus(): { bus: A11yBus; asked: () => number; answer: () => void } {
  const pending: (() => void)[] = [];
  let asked = 0;
  const item = [[APP, '/b'], [APP, '/root'], [APP, '/w'], 0, 0, ['org.a11y.atspi.Accessible'], 'Go', 43, '', [0, 0]];
  const messageBus = {
    call: (m: { member: string }) => {
      if (m.member !== 'GetItems') return Promise.reject(new Error('no such method'));
      asked++;
      return new Promise((resolve) => pending.push(() => resolve({ body: [[item]] })));
    },
    disconnect: () => undefined,
  };
  const bus = new (A11yBus as unknown as new (b: unknown, address: string) => A11yBus)(messageBus, 'fake');
  bus.p2p = false;
  return { bus, asked: () => asked, answer: () => { for (const p of pending.splice(0)) p(); } };
}

test("reads that start together share one GetItems of the app; asked again once it answered", async () => {
  const { bus, asked, answer } = fakeBus();
  const shared = new SharedCacheReads(() => true);
  const reads = Array.from({ length: 8 }, () => shared.read(bus, APP));
  await new Promise((r) => setImmediate(r));
  assert.equal(asked(), 1);
  answer();
  const got = await Promise.all(reads);
  assert.ok(got.every((m) => m.size === 1 && m === got[0]));
  await new Promise((r) => setImmediate(r));
  const later = shared.read(bus, APP);
  await new Promise((r) => setImmediate(r));
  assert.equal(asked(), 2, 'a read after the answer asks the app again');
  answer();
  await later;
});

test('an event of the app or an input since the read in flight was asked: a new GetItems', async () => {
  const { bus, asked, answer } = fakeBus();
  let quiet = true;
  const shared = new SharedCacheReads(() => quiet);
  const first = shared.read(bus, APP);
  quiet = false;
  const second = shared.read(bus, APP);
  await new Promise((r) => setImmediate(r));
  assert.equal(asked(), 2);
  answer();
  await Promise.all([first, second]);
});
