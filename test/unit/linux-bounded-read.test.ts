/**
 * Never hang an app on a fake accessibility bus: a node with a huge ChildCount is never asked
 * GetChildren (live walk and cache path), its first children are read by index and the snapshot says which
 * range it shows; one time-out marks the app busy, calls then fail fast until a ping answers.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { A11yBus } from '../../src/drivers/linux/bus/bus.js';
import { readTreeCached } from '../../src/drivers/linux/bus/cache.js';
import { MAX_CHILDREN } from '../../src/drivers/linux/tree/reader.js';
import { readTree } from '../../src/drivers/linux/tree/read-tree.js';
import type { RawNode } from '../../src/engine/node.js';
import { RefTable } from '../../src/engine/refs.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';

const APP = ':1.42';
const HUGE = 2147483647;
const ROLE = { frame: 23, table: 55, cell: 56 };
const STATES = [(1 << 25) | (1 << 30) | (1 << 8), 0]; // showing, visible, enabled

interface Msg { destination: string; path: string; interface: string; member: string; body: unknown[] }

/** A Calc-like app: a window holding a table that reports 2³¹−1 cells. Records every call. */
function fakeApp(): { bus: A11yBus; calls: Msg[]; hang: { on: boolean } } {
  const calls: Msg[] = [];
  const hang = { on: false };
  const node = (path: string): { role: number; name: string; count: number; kids: string[] } => {
    if (path === '/root')
      return { role: ROLE.frame, name: 'Untitled 1 - LibreOffice Calc', count: 1, kids: ['/table'] };
    if (path === '/table') return { role: ROLE.table, name: 'Sheet1', count: HUGE, kids: [] };
    return { role: ROLE.cell, name: path.slice(1), count: 0, kids: [] };
  };
  const answer = (m: Msg): unknown[] => {
    const n = node(m.path);
    switch (m.member) {
      case 'GetRole': return [n.role];
      case 'GetAll': return [{ Name: { value: n.name }, Description: { value: '' }, ChildCount: { value: n.count } }];
      case 'Get': return [{ value: n.count }];
      case 'GetState': return [STATES];
      case 'GetInterfaces': return [['org.a11y.atspi.Accessible']];
      case 'GetChildren':
        if (n.count > 500) throw new Error('GetChildren on a huge container: this wedges LibreOffice');
        return [n.kids.map((k) => [APP, k])];
      case 'GetChildAtIndex': return [[APP, `/cell${String(m.body[0])}`]];
      case 'GetItems': return [[]];
      default: throw Object.assign(new Error('no such method'), { type: 'org.freedesktop.DBus.Error.UnknownMethod' });
    }
  };
  const messageBus = {
    call: (m: Msg) => {
      calls.push(m);
      if (hang.on) return new Promise(() => undefined);
      try { return Promise.resolve({ body: answer(m) }); } catch (e) { return Promise.reject(e); }
    },
    disconnect: () => undefined,
  };
  const bus = new (A11yBus as unknown as new (b: unknown, address: string) => A11yBus)(messageBus, 'fake');
  bus.p2p = false;
  return { bus, calls, hang };
}

const root = { dest: APP, path: '/root' };

for (const [name, read] of [['live walk', readTree], ['cache path', readTreeCached]] as const) {
  test(`${name}: a table of 2³¹−1 cells is read by index, never by GetChildren, and marked truncated`, async () => {
    const { bus, calls } = fakeApp();
    const r = await read(bus, root, {});
    assert.ok(
      !calls.some((c) => c.path === '/table' && c.member === 'GetChildren'),
      'GetChildren was asked of the huge table',
    );
    const table = r.root.children?.[0] as RawNode;
    assert.equal(table.childCount, HUGE);
    assert.equal(table.children?.length, MAX_CHILDREN);
    assert.equal(calls.filter((c) => c.member === 'GetChildAtIndex').length, MAX_CHILDREN);
    assert.equal(r.truncated, true);
    assert.ok(r.nodes <= MAX_CHILDREN + 2, `${r.nodes} nodes`);
  });
}

test('the snapshot says which children it shows of how many', async () => {
  const { bus } = fakeApp();
  const r = await readTree(bus, root, {});
  const s = buildSnapshot(
    {
      root: r.root,
      window: {
        id: `${APP}/root`,
        title: 'Untitled 1 - LibreOffice Calc',
        app: 'soffice',
        pid: 4242,
        role: 'window',
        focused: true,
      },
    },
    new RefTable(),
  );
  assert.match(s.text, /… children 1–\d+ of 2,147,483,647/, s.text);
});

test('one time-out marks the app busy: calls fail fast with a clear error until a ping answers', async () => {
  const { bus, calls, hang } = fakeApp();
  hang.on = true;
  await assert.rejects(
    bus.call(root, 'org.a11y.atspi.Accessible', 'GetRole', '', [], 50),
    (e: Error & { code?: string }) => e.code === 'timeout',
  );
  assert.equal(bus.isBusy(APP), true);
  // The next call pings once (short deadline) and fails without sending its own request.
  const n = calls.length;
  const t0 = performance.now();
  await assert.rejects(
    bus.call(root, 'org.a11y.atspi.Accessible', 'GetChildren'),
    (e: Error & { code?: string }) =>
      e.code === 'timeout' && /the app is busy \(not answering\); try again in a moment/.test(e.message),
  );
  assert.ok(performance.now() - t0 < 1500);
  assert.deepEqual(calls.slice(n).map((c) => c.member), ['GetRole']);
  // Within a second of a failed ping, calls fail at once and send nothing.
  const m = calls.length;
  const t1 = performance.now();
  await assert.rejects(bus.call(root, 'org.a11y.atspi.Accessible', 'GetState'), /the app is busy/);
  assert.ok(performance.now() - t1 < 100);
  assert.equal(calls.length, m);
  // Another app on the same bus is not affected.
  hang.on = false;
  assert.equal(bus.isBusy(':1.43'), false);
  // Once the app answers a ping again, the mark is cleared and calls go through.
  await new Promise((r) => setTimeout(r, 1100));
  const [role] = await bus.call(root, 'org.a11y.atspi.Accessible', 'GetRole');
  assert.equal(role, ROLE.frame);
  assert.equal(bus.isBusy(APP), false);
});
