/**
 * The cached tree read caps names and descriptions as the live read does: Chromium named a status after its 1 MB of
 * text, and the snapshot read through AT-SPI's cache (GetItems) was answered outside the protocol (e2e virtual-list,
 * "name: expected string length less or equal to 100000"), so the page could not be read at all.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { A11yBus } from '../../src/drivers/linux/bus/bus.js';
import { readCache } from '../../src/drivers/linux/bus/cache.js';
import { LIMITS } from '../../src/protocol/methods.js';

const APP = ':1.77';

test('a cached item\'s 1 MB name and description arrive cut to the protocol\'s text limit', async () => {
  const huge = 'x'.repeat(1_000_000);
  const item = [
    [APP, '/status'],
    [APP, '/root'],
    [APP, '/doc'],
    3,
    0,
    ['org.a11y.atspi.Accessible'],
    huge,
    129,
    huge,
    [0, 0],
  ];
  const messageBus = {
    call: (m: { member: string }) =>
      m.member === 'GetItems'
        ? Promise.resolve({ body: [[item]] })
        : Promise.reject(
            Object.assign(new Error('no such method'), { type: 'org.freedesktop.DBus.Error.UnknownMethod' }),
          ),
    disconnect: () => undefined,
  };
  const bus = new (A11yBus as unknown as new (b: unknown, address: string) => A11yBus)(messageBus, 'fake');
  bus.p2p = false;
  const items = await readCache(bus, APP);
  const got = [...items.values()][0]?.info;
  assert.ok(got, 'the item was read');
  assert.equal(got.name.length, LIMITS.text);
  assert.equal(got.description.length, LIMITS.text);
});
