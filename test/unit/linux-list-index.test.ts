/**
 * `list.find`'s kept name index: on a fake bus shaped like a GTK3 ListBox (nameless rows,
 * each with one label), the first search reads every row, the next ones read none, and the index is
 * dropped when an event says a row's label changed, when the row count changes, or when a match from the
 * index no longer sits where it was.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { A11yBus } from '../../src/drivers/linux/bus/bus.js';
import { busAnswering, type Msg } from './fake-bus.js';
import { findInList, noteListChange, watchListChanges } from '../../src/drivers/linux/tree/listfind.js';

const APP = ':1.9';


/** A list of `labels.length` rows "/rowI", each holding the label "/labelI" (the array can be edited). */
function fakeList(labels: string[], path: string): { bus: A11yBus; reads: () => number } {
  let reads = 0;
  const answer = (m: Msg): unknown[] => {
    if (m.path === path) {
      if (m.member === 'GetInterfaces') return [['org.a11y.atspi.Accessible']];
      if (m.member === 'Get' && m.body[1] === 'ChildCount') return [{ value: labels.length }];
      if (m.member === 'GetChildAtIndex') {
        reads++;
        const i = Number(m.body[0]);
        return [i < labels.length ? [APP, `/row${i}`] : [APP, '/org/a11y/atspi/null']];
      }
    }
    if (/^\/row\d+$/.test(m.path)) {
      if (m.member === 'Get' && m.body[1] === 'Name') return [{ value: '' }];
      if (m.member === 'GetChildren') return [[[APP, m.path.replace('row', 'label')]]];
    }
    const label = /^\/label(\d+)$/.exec(m.path);
    if (label && m.member === 'Get' && m.body[1] === 'Name') return [{ value: labels[Number(label[1])] ?? '' }];
    throw Object.assign(new Error(`no ${m.member} on ${m.path}`), { type: 'org.freedesktop.DBus.Error.UnknownMethod' });
  };
  const bus = busAnswering(answer);
  return { bus, reads: () => reads };
}

test('a second find is answered from the index; an event on a label, or a new row, drops it', async () => {
  watchListChanges();
  const labels = Array.from({ length: 3000 }, (_, i) => `entry-${i + 1}`);
  const { bus, reads } = fakeList(labels, '/list1');
  const t = { dest: APP, path: '/list1' };
  const first = await findInList(bus, t, { text: 'entry-2345', limit: 20 });
  assert.deepEqual(first.matches.map((m) => m.index), [2344]);
  assert.equal(first.method, 'scan');
  assert.ok(first.complete);
  const afterFirst = reads();
  assert.ok(afterFirst >= 3000);
  const second = await findInList(bus, t, { text: 'entry-2345', limit: 20 });
  assert.deepEqual(second.matches.map((m) => m.index), [2344]);
  assert.equal(second.method, 'index');
  // Only the match is read again (to check it still sits there).
  assert.ok(reads() - afterFirst <= 2, `${reads() - afterFirst} rows read`);
  // A label renamed (its name-change event arrives): the index is dropped, the new name is found.
  labels[10] = 'entry-2345-copy';
  noteListChange({ type: 'object:property-change:accessible-name', source: `${APP}/label10` });
  const third = await findInList(bus, t, { text: 'entry-2345', limit: 20 });
  assert.deepEqual(third.matches.map((m) => m.index), [10, 2344]);
  assert.equal(third.method, 'scan');
  // A row appended without an event: the row count differs, so the list is read again.
  labels.push('entry-2345-new');
  const fourth = await findInList(bus, t, { text: 'entry-2345', limit: 20 });
  assert.deepEqual(fourth.matches.map((m) => m.index), [10, 2344, 3000]);
  assert.equal(fourth.method, 'scan');
});

test('a match from the index that no longer matches is not reported: the list is read again', async () => {
  watchListChanges();
  const labels = Array.from({ length: 500 }, (_, i) => `entry-${i + 1}`);
  const { bus } = fakeList(labels, '/list2');
  const t = { dest: APP, path: '/list2' };
  assert.deepEqual((await findInList(bus, t, { text: 'entry-77' })).matches.map((m) => m.index), [76]);
  // Renamed with no event (an app that sends none): the stale match is caught when it is read again.
  labels[76] = 'other';
  labels[5] = 'entry-77';
  const r = await findInList(bus, t, { text: 'entry-77' });
  assert.deepEqual(r.matches.map((m) => m.index), [5]);
  assert.equal(r.method, 'scan');
});

test('a search cut by its deadline is completed after it answered: a later search reads no rows', async () => {
  watchListChanges();
  const labels = Array.from({ length: 2000 }, (_, i) => `entry-${i + 1}`);
  const { bus, reads } = fakeList(labels, '/list3');
  const t = { dest: APP, path: '/list3' };
  const cut = await findInList(bus, t, { text: 'entry-1999', deadlineMs: 1 });
  assert.equal(cut.complete, false);
  // The fill runs on its own; wait until every row was read once.
  for (let i = 0; i < 500 && reads() < 2000; i++) await new Promise((r) => setImmediate(r));
  const before = reads();
  const r = await findInList(bus, t, { text: 'entry-1999' });
  assert.deepEqual(r.matches.map((m) => m.index), [1998]);
  assert.equal(r.method, 'index');
  assert.ok(reads() - before <= 2, `${reads() - before} rows read`);
});
