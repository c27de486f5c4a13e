/**
 * A find on a window read in the last call reuses that read while the driver's events say nothing changed
 * (tree.changed with the read's mark), and reads again when they say something did; a driver that marks no read
 * is read every time. A find on a kept read that turned out stale still cannot make an act hit the wrong element:
 * the driver checks the element's role and name against the live object first.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import { ComputerUseError } from '../../src/protocol/errors.js';
import { Session } from '../../src/session/session.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/tool.js';
import { n } from '../fixtures/engine/build.js';

/** What tree.changed answers: `changed` for every mark, or only for the marks in `since`. */
interface Events { changed: boolean; windows: boolean; since: Set<string> }

/** A fake driver whose reads carry a mark and whose tree.changed answers what the test says the events were. */
function setup(marks = true): { fake: FakeDriver; session: Session; events: Events; count: (m: string) => number } {
  const fake = new FakeDriver();
  const button = n(':1.5', 2, 'button', { name: 'Alpha', actions: ['click'] });
  fake.windows.push({ info: { id: 'w-lab', title: 'Flood lab', app: 'flood', pid: 801, role: 'window', focused: true },
    root: n(':1.5', 1, 'window', { name: 'Flood lab' }, [button]) });
  const events: Events = { changed: false, windows: false, since: new Set() };
  let mark = 0;
  if (marks) {
    fake.extra['tree.snapshot'] = (p) => {
      const w = fake.windows.find((x) => x.info.id === p.window);
      if (!w) throw new ComputerUseError('window_not_found', 'no such window');
      return {
        window: w.info,
        root: structuredClone(w.root),
        stats: { nodes: 2, ms: 0, truncated: false },
        mark: `m${++mark}`,
      };
    };
    fake.extra['tree.changed'] = (p) => ({
      changed: events.changed || events.since.has(p.since),
      windows: events.windows,
    });
  }
  const session = new Session({ device: new Device({ connect: () => fake.connect() }) });
  return { fake, session, events, count: (m) => fake.calls.filter((c) => c.method === m).length };
}

const tool = (session: Session, name: string, params: unknown) =>
  runTool(
    TOOLS.find((t) => t.schema.name === name)!,
    { session },
    params,
  );

test('a find right after an observe reuses its read while the driver says nothing changed', async () => {
  const { session, count } = setup();
  await tool(session, 'computer_observe', { window: 'Flood lab' });
  const reads = count('tree.snapshot');
  const r = await tool(session, 'computer_find', { window: 'Flood lab', text: 'Alpha', role: 'button' });
  assert.match(r.text, /\[e\d+\] button "Alpha"/, r.text);
  assert.equal(count('tree.snapshot'), reads, 'no new read');
  assert.equal(count('tree.changed'), 1);
  await session.close();
});

test('an event of the window\'s app since the read: the find reads again and sees the new name', async () => {
  const { fake, session, events, count } = setup();
  await tool(session, 'computer_observe', { window: 'Flood lab' });
  fake.node(':1.5/org/a11y/atspi/accessible/2')!.name = 'Beta';
  events.changed = true;
  const reads = count('tree.snapshot');
  const r = await tool(session, 'computer_find', { window: 'Flood lab', text: 'Alpha', role: 'button' });
  assert.match(r.text, /^0 matches/, r.text);
  assert.equal(count('tree.snapshot'), reads + 1);
  events.changed = false;
  // The new read is the kept one now: the next find reuses it.
  const again = await tool(session, 'computer_find', { window: 'Flood lab', text: 'Beta' });
  assert.match(again.text, /button "Beta"/, again.text);
  assert.equal(count('tree.snapshot'), reads + 1);
  await session.close();
});

test('a window named by title: a window opened, closed or ' +
    'renamed anywhere means a new read; by wN it does not', async () => {
  const { session, events, count } = setup();
  await tool(session, 'computer_observe', { window: 'Flood lab' });
  const wref = session.windows.refOf(session.windows.get('w1')!);
  events.windows = true;
  const reads = count('tree.snapshot');
  await tool(session, 'computer_find', { window: 'Flood lab', text: 'Alpha' });
  assert.equal(count('tree.snapshot'), reads + 1, 'by title: read again');
  await tool(session, 'computer_find', { window: wref, text: 'Alpha' });
  assert.equal(count('tree.snapshot'), reads + 1, 'by wN: the window is named by its handle, its app sent nothing');
  await session.close();
});

test('a driver that marks no read: every find reads the window', async () => {
  const { session, count } = setup(false);
  await tool(session, 'computer_observe', { window: 'Flood lab' });
  const reads = count('tree.snapshot');
  await tool(session, 'computer_find', { window: 'Flood lab', text: 'Alpha' });
  await tool(session, 'computer_find', { window: 'Flood lab', text: 'Alpha' });
  assert.equal(count('tree.snapshot'), reads + 2);
  assert.equal(count('tree.changed'), 0);
  await session.close();
});

test('a kept read that is stale (events that never came) cannot aim an act: the live check refuses it', async () => {
  const { fake, session } = setup();
  await tool(session, 'computer_observe', { window: 'Flood lab' });
  // The app renamed its button and the driver missed the event: the find answers from the kept read.
  fake.node(':1.5/org/a11y/atspi/accessible/2')!.name = 'Beta';
  const r = await tool(session, 'computer_find', { window: 'Flood lab', text: 'Alpha', role: 'button' });
  const ref = /\[(e\d+)\] button "Alpha"/.exec(r.text)?.[1];
  assert.ok(ref, r.text);
  const act = await tool(session, 'computer_act', { actions: [{ ref, op: 'click' }] });
  assert.match(act.text, /stale|changed/i, act.text);
  assert.equal(fake.dispatched.length, 0, 'nothing reached the app');
  await session.close();
});

test("a find on a reused read reads no scrolled-out part again; a changed window's parts are read afresh", async () => {
  const { fake, session, events } = setup();
  const row = n(':1.5', 12, 'group', { states: ['offscreen'], childCount: 1 });
  const pane = n(':1.5', 10, 'scrollarea', { name: 'Items' }, [n(':1.5', 11, 'listitem', { name: 'Row 1' }), row]);
  fake.windows[0]!.root.children!.push(pane);
  const whole = fake.extra['tree.snapshot']!;
  const scoped: string[] = [];
  fake.extra['tree.snapshot'] = (p, ctx) => {
    if (!p.scope) return whole(p, ctx);
    scoped.push(p.scope);
    const part = structuredClone(row);
    part.children = [n(':1.5', 13, 'label', { name: 'Row 30' })];
    return { window: fake.windows[0]!.info, root: part, stats: { nodes: 2, ms: 0, truncated: false }, mark: 'part' };
  };
  await tool(session, 'computer_observe', { window: 'Flood lab' });
  const first = await tool(session, 'computer_find', { window: 'Flood lab', text: 'Row 30' });
  assert.match(first.text, /label "Row 30"/, first.text);
  const partsRead = scoped.length;
  assert.ok(partsRead > 0, 'the scrolled-out part was read');
  const again = await tool(session, 'computer_find', { window: 'Flood lab', text: 'Row 30' });
  assert.match(again.text, /label "Row 30"/, again.text);
  assert.equal(scoped.length, partsRead, 'nothing of the app changed since the read: its parts are not read again');
  events.changed = true;
  await tool(session, 'computer_find', { window: 'Flood lab', text: 'Row 30' });
  assert.ok(scoped.length > partsRead, 'the app changed: the window and its parts are read again');
  await session.close();
});

// An act on one of two look-alikes (same role, name and place) reads its window to tell them apart: it read the
// whole window before every such act (gtk3-widget-factory's "togglebutton": 100–370 ms on a loaded machine).
test("an act on a look-alike finds it in the last read while the driver says nothing changed, else in a patched one",
  async () => {
    const { fake, session, events, count } = setup();
    fake.windows[0]!.root.children!.push(n(':1.5', 3, 'button', { name: 'Alpha', actions: ['click'] }));
    const seen = await tool(session, 'computer_observe', { window: 'Flood lab' });
    const ref = /\b(e\d+)\]? button "Alpha"/.exec(seen.text)?.[1];
    assert.ok(ref, seen.text);
    const readsBeforeAct = (): number => {
      const at = fake.calls.findIndex((c, i) => i >= start && c.method === 'node.act');
      assert.ok(at >= 0, 'the act was sent');
      return fake.calls.slice(start, at).filter((c) => c.method === 'tree.snapshot').length;
    };
    let start = fake.calls.length;
    const r = await tool(session, 'computer_act', { actions: [{ ref, op: 'click' }] });
    assert.equal(r.isError, false, r.text);
    assert.equal(readsBeforeAct(), 0, 'the observe read, unchanged, was used');
    assert.ok(count('tree.changed') >= 1);
    // An event since: the window is read again before the act, asked as a patch of the last read.
    events.changed = true;
    start = fake.calls.length;
    const again = await tool(session, 'computer_act', { actions: [{ ref, op: 'click' }] });
    assert.equal(again.isError, false, again.text);
    assert.equal(readsBeforeAct(), 1);
    const read = fake.calls.slice(start).find((c) => c.method === 'tree.snapshot')!;
    assert.match(String((read.params as { since?: string }).since), /^m\d+$/);
    await session.close();
  });

test('an observe between finds: what a find asked beyond the read is asked again only after an event', async () => {
  const { fake, session, events, count } = setup();
  const row = n(':1.5', 12, 'group', { states: ['offscreen'], childCount: 1 });
  const pane = n(':1.5', 10, 'scrollarea', { name: 'Items' }, [n(':1.5', 11, 'listitem', { name: 'Row 1' }), row]);
  const list = n(':1.5', 20, 'list', { name: 'Long', childCount: 500 }, [
    n(':1.5', 21, 'listitem', { name: 'Item 1' }),
  ]);
  fake.windows[0]!.root.children!.push(pane, list);
  const whole = fake.extra['tree.snapshot']!;
  let scoped = 0;
  fake.extra['tree.snapshot'] = (p, ctx) => {
    if (!p.scope) return whole(p, ctx);
    scoped++;
    const part = structuredClone(row);
    part.children = [n(':1.5', 13, 'label', { name: 'Row 30' })];
    return { window: fake.windows[0]!.info, root: part, stats: { nodes: 2, ms: 0, truncated: false }, mark: 'part' };
  };
  fake.extra['list.find'] = () => ({
    matches: [],
    total: 500,
    scanned: 500,
    next: 500,
    complete: true,
    method: 'scan',
    ms: 1,
  });
  const marks = (): string[] => fake.calls.filter((c) => c.method === 'tree.changed')
    .map((c) => (c.params as { since: string }).since);
  await tool(session, 'computer_observe', { window: 'Flood lab' });
  const first = await tool(session, 'computer_find', { window: 'Flood lab', text: 'Row 30' });
  assert.match(first.text, /label "Row 30"/, first.text);
  const [parts, lists] = [scoped, count('list.find')];
  assert.ok(parts > 0 && lists === 1, `the first find read the part (${parts}) and searched the list (${lists})`);
  // A new read of the window (the model observed again): the app sent nothing since either read.
  await tool(session, 'computer_observe', { window: 'Flood lab' });
  const reads = count('tree.snapshot');
  const again = await tool(session, 'computer_find', { window: 'Flood lab', text: 'Row 30' });
  assert.match(again.text, /label "Row 30"/, again.text);
  assert.equal(scoped, parts, 'no part read again');
  assert.equal(count('list.find'), lists, 'no list searched again');
  assert.equal(count('tree.snapshot'), reads, 'no read at all');
  // Observed again; then an event came after the read before that one (its mark), none since the newest read.
  await tool(session, 'computer_observe', { window: 'Flood lab' });
  const asked = marks().length;
  // The whole reads are m1, m2, m3 (one per observe): the parts were last found good with m2.
  const older = 'm2';
  events.since.add(older);
  const third = await tool(session, 'computer_find', { window: 'Flood lab', text: 'Row 30' });
  assert.match(third.text, /label "Row 30"/, third.text);
  assert.ok(marks().slice(asked).includes(older), 'the parts\' older mark was asked about');
  assert.ok(scoped > parts, 'the part is read again');
  assert.equal(count('list.find'), lists + 1, 'the list is searched again');
  await session.close();
});

test('a find on a kept read takes the snapshot built from it; a changed window builds a new one', async () => {
  const { session, events } = setup();
  await tool(session, 'computer_observe', { window: 'Flood lab' });
  const id = 'w-lab';
  const seen = session.last.get(id);
  await tool(session, 'computer_find', { window: 'Flood lab', text: 'Alpha' });
  assert.equal(session.last.get(id), seen, 'the same snapshot, not built again');
  events.changed = true;
  await tool(session, 'computer_find', { window: 'Flood lab', text: 'Alpha' });
  assert.notEqual(session.last.get(id), seen, 'a new read, a new snapshot');
  await session.close();
});

test('an app that floods events: every find reads the window afresh, parts included, never a kept one', async () => {
  const { fake, session, events, count } = setup();
  const row = n(':1.5', 12, 'group', { states: ['offscreen'], childCount: 1 });
  fake.windows[0]!.root.children!.push(n(':1.5', 10, 'scrollarea', { name: 'Items' }, [row]));
  const whole = fake.extra['tree.snapshot']!;
  let scoped = 0;
  let tick = 0;
  fake.extra['tree.snapshot'] = (p, ctx) => {
    // Each read sees the label a tick further: the app changes between any two reads.
    fake.node(':1.5/org/a11y/atspi/accessible/2')!.name = `Alpha ${++tick}`;
    if (!p.scope) return whole(p, ctx);
    scoped++;
    return { window: fake.windows[0]!.info, root: structuredClone(row), stats: { nodes: 1, ms: 0, truncated: false } };
  };
  events.changed = true;
  await tool(session, 'computer_observe', { window: 'Flood lab' });
  for (let i = 0; i < 5; i++) {
    const [reads, parts] = [count('tree.snapshot') - scoped, scoped];
    const r = await tool(session, 'computer_find', { window: 'Flood lab', text: 'Alpha', role: 'button' });
    // The find answers the name of its own read, never one of an earlier read.
    assert.match(r.text, new RegExp(`button "Alpha ${tick - (scoped - parts)}"`), r.text);
    assert.equal(count('tree.snapshot') - scoped, reads + 1, 'a fresh whole read');
    assert.equal(scoped, parts + 1, 'the part read again');
  }
  await session.close();
});
