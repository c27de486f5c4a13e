/**
 * tree.changed under an app that floods the bus with events (a label ticking every millisecond): the answer comes
 * from the events already received, without a round trip to the flooding app (whose answer waits behind its own
 * queue), so a find stays quick however long the flood lasts; the events kept for a patched re-read stay bounded;
 * a quiet app is still asked first, so an event on its way is never missed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { A11yBus } from '../../src/drivers/linux/bus/bus.js';
import { EventWatcher } from '../../src/drivers/linux/bus/events.js';

/** An EventWatcher on a bus whose apps answer pings after `pingMs`; `emit` delivers one text event of `app`. */
function watcher(pingMs = 0) {
  const pinged: string[] = [];
  const bus = {
    getProp: async (t: { dest: string }) => {
      pinged.push(t.dest);
      await new Promise((r) => setTimeout(r, pingMs));
      return 0;
    },
  } as unknown as A11yBus;
  const w = new (EventWatcher as unknown as new (b: A11yBus) => EventWatcher)(bus);
  const emit = (app: string): void =>
    (w as unknown as { onMessage(m: unknown): void }).onMessage({
      type: 4,
      interface: 'org.a11y.atspi.Event.Object',
      member: 'PropertyChange',
      body: ['accessible-name', 0, 0, { signature: 's', value: 'tick' }],
      sender: app,
      path: '/org/a11y/atspi/accessible/3',
    });
  return { w, emit, pinged };
}

test('a flooding app: tree.changed answers "changed" from the events received, without asking the app', async () => {
  // The flooding app answers a ping only after its queue: 500 ms here.
  const { w, emit, pinged } = watcher(500);
  const mark = w.mark();
  for (let i = 0; i < 5000; i++) emit(':1.5');
  const t0 = performance.now();
  const answer = await w.changedSince(':1.5', mark);
  assert.equal(answer.changed, true);
  assert.deepEqual(pinged, [], 'the flooding app was not asked');
  assert.ok(performance.now() - t0 < 100, `answered in ${Math.round(performance.now() - t0)} ms`);
});

test('a quiet app is asked before the answer; a flood of another app does not make its window "changed"', async () => {
  const { w, emit, pinged } = watcher();
  const mark = w.mark();
  for (let i = 0; i < 100; i++) emit(':1.5');
  assert.equal((await w.changedSince(':1.7', mark)).changed, false);
  assert.deepEqual(pinged, [':1.7'], 'the quiet app answered a round trip first (events it sent before arrive first)');
});

test('under a flood the events kept for a re-read stay bounded; a mark older than them is unknown', async () => {
  const { w, emit } = watcher();
  const mark = w.mark();
  for (let i = 0; i < 20_000; i++) emit(':1.5');
  const kept = (w as unknown as { recent: unknown[] }).recent.length;
  assert.ok(kept <= 2000, `${kept} events kept`);
  assert.equal(await w.eventsSince(':1.5', mark), undefined, 'events since the mark are no longer all known');
});
