/**
 * An act's receipt prints the diff of its window's re-read, not the window: the re-read's whole-window print
 * (budgeted render and folds, engine/snapshot.ts) is made only when something reads it, and then reads as it
 * would have when built.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import { FakeDriver, type FakeWindow } from '../../src/drivers/fake/driver.js';
import { Session } from '../../src/session/session.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/tool.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';
import { RefTable } from '../../src/engine/refs.js';
import type { Snapshot } from '../../src/engine/snapshot.js';
import { n } from '../fixtures/engine/build.js';

const factory = (): FakeWindow => ({
  info: { id: 'w-main', title: 'Widget Factory', app: 'gtk3-widget-factory', pid: 800, role: 'window', focused: true },
  root: n(':1.8', 1, 'window', { name: 'Widget Factory' }, [
    n(':1.8', 2, 'pane', {}, [
      n(':1.8', 3, 'button', { name: 'togglebutton', states: ['focusable'] }),
      ...Array.from({ length: 12 }, (_, i) => n(':1.8', 10 + i, 'checkbox', { name: `check ${i}` })),
    ]),
  ]),
});

/** True while the snapshot's print is not made yet (its text is still computed on first read). */
const unprinted = (s: Snapshot): boolean => Object.getOwnPropertyDescriptor(s, 'text')?.get !== undefined;

test("a click's receipt is its diff: the re-read's whole-window print is not rendered", async () => {
  const fake = new FakeDriver();
  fake.windows.push(factory());
  const session = new Session({ device: new Device({ connect: () => fake.connect() }) });
  const call = (name: string, params: unknown) =>
    runTool(TOOLS.find((t) => t.schema.name === name)!, { session }, params);
  const seen = (await call('computer_observe', { app: 'gtk3-widget-factory' })).text;
  const ref = /\[(e\d+)\] button "togglebutton"/.exec(seen)?.[1];
  assert.ok(ref, seen);
  fake.onAct = (_p, node) => {
    node.states = [...node.states, 'pressed'];
  };
  const r = await call('computer_act', { actions: [{ ref, op: 'click' }] });
  assert.equal(r.isError, false, r.text);
  assert.match(r.text, new RegExp(`^ok click ${ref} · confirmed`, 'm'));
  assert.match(r.text, /pressed/);
  const after = session.last.get('w-main');
  assert.ok(after);
  assert.ok(after.elements.some((l) => l.ref === ref && l.states.includes('pressed')));
  assert.equal(unprinted(after), true, 'the receipt rendered the whole window');
  // Read later, the print is the one an eager build makes of the same tree.
  const eager = buildSnapshot({ window: after.window, root: fake.windows[0]!.root }, new RefTable(), { fold: true });
  assert.equal(after.text.replace(/\be\d+\b/g, 'eN'), eager.text.replace(/\be\d+\b/g, 'eN'));
  assert.equal(unprinted(after), false);
  assert.deepEqual(after.stats, eager.stats);
});

test('a snapshot reads, copies and serializes as one built eagerly; a write sets the field', () => {
  const win = factory();
  const snap = buildSnapshot({ window: win.info, root: win.root }, new RefTable(), { fold: true });
  assert.equal(unprinted(snap), true);
  assert.deepEqual(Object.keys(snap), ['text', 'tokens', 'lines', 'elements', 'window', 'stats']);
  const copy = { ...snap };
  assert.equal(unprinted(snap), false);
  assert.equal(copy.text, snap.text);
  assert.match(snap.text, /button "togglebutton"/);
  assert.equal(snap.stats.shownNodes, snap.lines.length);
  assert.deepEqual(JSON.parse(JSON.stringify(snap)).stats, snap.stats);
  const other = buildSnapshot({ window: win.info, root: win.root }, new RefTable(), { fold: true });
  other.text = 'replaced';
  assert.equal(other.text, 'replaced');
  assert.equal(other.tokens, snap.tokens);
});
