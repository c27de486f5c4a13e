/**
 * A launched window off the accessibility bus is answered as it is only once its app is done starting: seen for the
 * grace and its process idle. On a loaded machine LibreOffice's window showed for seconds before the app came onto
 * the bus, and a launch that went by the grace alone answered "not readable" (e2e launch-one-entry failed so).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cpuTicks, OFFBUS_IDLE_MS, OffBusWait } from '../../src/drivers/linux/apps/offbus-wait.js';

test('a window whose process keeps working is not answered after the grace; once it idles, it is', () => {
  let ticks = 0;
  const wait = new OffBusWait(() => ticks);
  // A busy start: CPU used on every poll for 8 s, past the 3 s grace.
  for (let t = 0; t <= 8000; t += 100) {
    ticks += 3;
    assert.equal(wait.ready(4242, t, 3000, false), false, `answered at ${t} ms while the app was working`);
  }
  // Then it idles: answered once idle for the idle time.
  assert.equal(wait.ready(4242, 8100, 3000, false), false);
  assert.equal(wait.ready(4242, 8100 + OFFBUS_IDLE_MS, 3000, false), true);
});

test('an idle window off the bus is answered after the grace, never before; a launcher\'s splash never', () => {
  const wait = new OffBusWait(() => 17);
  assert.equal(wait.ready(1, 0, 3000, false), false);
  assert.equal(wait.ready(1, 2900, 3000, false), false);
  assert.equal(wait.ready(1, 3000, 3000, false), true);
  const splash = new OffBusWait(() => 17);
  for (let t = 0; t <= 10_000; t += 500) assert.equal(splash.ready(2, t, 3000, true), false);
});

test('cpuTicks reads this process\'s CPU time, and nothing for a process that is gone', () => {
  const mine = cpuTicks(process.pid);
  assert.ok(mine !== undefined && Number.isFinite(mine) && mine >= 0, String(mine));
  assert.equal(cpuTicks(2 ** 22 + 7), undefined);
});
