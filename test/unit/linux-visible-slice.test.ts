/**
 * The rows on screen of a long list, on a fake accessibility bus shaped like a GTK3 ListBox
 * of 20,000 rows in a scrolled window: rows that are not drawn answer (INT_MIN, INT_MIN), and past 32,767 px
 * of scrolling the list and its rows report positions shifted by 65,536 px (16-bit X11 windows). The slice
 * must be the drawn rows, read with a number of calls that does not grow with N, and never GetChildren.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { A11yBus } from '../../src/drivers/linux/bus/bus.js';
import { visibleSlice } from '../../src/drivers/linux/tree/visible.js';

const APP = ':1.7';
const ROW_H = 21;
const VIEW = { y: 219, h: 600 };
const INT_MIN = -2147483648;
const ROLE = { scrollPane: 49, viewport: 68, listBox: 34, listItem: 35 };

interface Msg { destination: string; path: string; interface: string; member: string; body: unknown[] }

/** A ListBox of `n` rows scrolled by `scroll` px; `wrap` applies X11's 16-bit position wrap. */
function fakeList(n: number, scroll: number): { bus: A11yBus; calls: Msg[] } {
  const calls: Msg[] = [];
  const wrap = (y: number): number => ((y + 32768) % 65536 + 65536) % 65536 - 32768;
  const listY = wrap(VIEW.y - scroll);
  const drawn = (i: number): boolean => i * ROW_H + ROW_H > scroll && i * ROW_H < scroll + VIEW.h;
  const answer = (m: Msg): unknown[] => {
    if (m.member === 'GetChildren') throw new Error('GetChildren on a long list');
    if (m.path === '/pane') {
      if (m.member === 'GetExtents') return [[643, VIEW.y, 347, VIEW.h]];
      if (m.member === 'GetRole') return [ROLE.scrollPane];
      if (m.member === 'Get') return [{ value: [APP, '/frame'] }];
    }
    if (m.path === '/viewport') {
      // GTK3 answers INT_MIN for the viewport once scrolled.
      if (m.member === 'GetExtents') return [[INT_MIN, INT_MIN, 347, VIEW.h]];
      if (m.member === 'GetRole') return [ROLE.viewport];
      if (m.member === 'Get') return [{ value: [APP, '/pane'] }];
    }
    if (m.path === '/list') {
      if (m.member === 'GetExtents') return [[643, listY, 347, n * ROW_H]];
      if (m.member === 'Get') return [{ value: [APP, '/viewport'] }];
      if (m.member === 'GetChildAtIndex') return [[APP, `/row${String(m.body[0])}`]];
    }
    const row = /^\/row(\d+)$/.exec(m.path);
    if (row && m.member === 'GetExtents') {
      const i = Number(row[1]);
      return [drawn(i) ? [643, listY + i * ROW_H, 347, ROW_H] : [INT_MIN, INT_MIN, 347, ROW_H]];
    }
    if (m.path === '/frame' && m.member === 'GetRole') return [23];
    if (m.member === 'Get') return [{ value: [APP, '/org/a11y/atspi/accessible/root'] }];
    throw Object.assign(new Error(`no ${m.member} on ${m.path}`), { type: 'org.freedesktop.DBus.Error.UnknownMethod' });
  };
  const messageBus = {
    call: (m: Msg) => {
      calls.push(m);
      try { return Promise.resolve({ body: answer(m) }); } catch (e) { return Promise.reject(e); }
    },
    disconnect: () => undefined,
  };
  const bus = new (A11yBus as unknown as new (b: unknown, address: string) => A11yBus)(messageBus, 'fake');
  bus.p2p = false;
  return { bus, calls };
}

// 377,679 px: where "scroll to 18000" put a real GTK ListBox of 20,000 rows. Its wrapped position lands below the
// viewport (y 15,756 for a view at 219–819), so clipping the list by the viewport as reported left nothing.
for (const [n, scroll] of [
  [5000, 0],
  [5000, 31320],
  [20000, 90420],
  [20000, 400_000],
  [20000, 377_679],
  [20000, 160_000],
] as const) {
  test(`ListBox of ${n} rows scrolled ${scroll} px: the ` +
      `slice is the drawn rows, in a flat number of calls`, async () => {
    const { bus, calls } = fakeList(n, scroll);
    const slice = await visibleSlice(bus, { dest: APP, path: '/list' }, n, 200);
    assert.ok(slice, 'no slice');
    const first = Math.floor(scroll / ROW_H);
    assert.equal(slice.start, first);
    assert.equal(slice.end, Math.min(n, Math.ceil((scroll + VIEW.h) / ROW_H)));
    assert.deepEqual(slice.children[0], { dest: APP, path: `/row${first}` });
    assert.ok(calls.length < 200, `${calls.length} calls`);
    assert.ok(!calls.some((c) => c.member === 'GetChildren'));
  });
}
