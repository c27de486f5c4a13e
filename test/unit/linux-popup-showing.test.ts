/**
 * GTK 2's items of an open popup menu (lxtask's View menu) read without the showing state while the menu is up;
 * the app said state-changed:showing 1 for each item when it opened and 0 when it closed. The read cut them as
 * hidden: the click that opened the menu and observe showed no item, only OCR saw them. A visible item the app
 * last said shows is read as showing (both the live walk and the cache path).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readTreeCached } from '../../src/drivers/linux/bus/cache.js';
import { showingHeard } from '../../src/drivers/linux/bus/showing-heard.js';
import { readTree } from '../../src/drivers/linux/tree/read-tree.js';
import type { RawNode } from '../../src/engine/node.js';
import { busAnswering, type Msg } from './fake-bus.js';

const APP = ':1.61';
const ROLE = { frame: 23, menubar: 34, menu: 33, checkitem: 8, listitem: 32 };
const SHOWN = [(1 << 25) | (1 << 30) | (1 << 8) | (1 << 24), 0]; // showing, visible, enabled, sensitive
const UNSHOWN = [(1 << 30) | (1 << 8) | (1 << 24), 0]; // visible, enabled, sensitive: GTK 2's popup items
const ITEMS = ['Show root tasks', 'Show full cmdline'];
/** A list's row scrolled out of view: said to show once when created, read without showing. */
const ROW = 'row 25';

const node = (path: string): { role: number; name: string; kids: string[]; states: number[] } => {
  if (path === '/root') return { role: ROLE.frame, name: 'Task Manager', kids: ['/bar'], states: SHOWN };
  if (path === '/bar') return { role: ROLE.menubar, name: '', kids: ['/view', '/row'], states: SHOWN };
  if (path === '/row') return { role: ROLE.listitem, name: ROW, kids: [], states: UNSHOWN };
  if (path === '/view') return { role: ROLE.menu, name: 'View', kids: ['/item0', '/item1'], states: SHOWN };
  const i = Number(path.slice('/item'.length));
  return { role: ROLE.checkitem, name: ITEMS[i] ?? '', kids: [], states: UNSHOWN };
};

const bus = busAnswering((m: Msg) => {
  const n = node(m.path);
  switch (m.member) {
    case 'GetRole': return [n.role];
    case 'GetAll':
      return [{ Name: { value: n.name }, Description: { value: '' }, ChildCount: { value: n.kids.length } }];
    case 'Get': return [{ value: n.kids.length }];
    case 'GetState': return [n.states];
    case 'GetInterfaces': return [['org.a11y.atspi.Accessible']];
    case 'GetChildren': return [n.kids.map((k) => [APP, k])];
    case 'GetChildAtIndex': return [[APP, n.kids[Number(m.body[0])]]];
    case 'GetItems': return [[]];
    default: throw Object.assign(new Error('no such method'), { type: 'org.freedesktop.DBus.Error.UnknownMethod' });
  }
});

/** The items a snapshot keeps: those not read as off screen (the engine drops an offscreen element). */
const shown = (n: RawNode): string[] => [
  ...([...ITEMS, ROW].includes(n.name ?? '') && !n.states.includes('offscreen') ? [n.name!] : []),
  ...(n.children ?? []).flatMap(shown),
];

for (const [how, read] of [['live walk', readTree], ['cache path', readTreeCached]] as const) {
  test(`${how}: a popup's items read after the app said they ` +
      `show, and cut again after it said they no longer do`, async () => {
    const root = { dest: APP, path: '/root' };
    for (const k of ['/item0', '/item1', '/row']) showingHeard.note(APP + k, true);
    const open = await read(bus, root, {});
    // Only a menu's entries: the row stays cut (act-lab's rebuilt list read its rows off screen as shown).
    assert.deepEqual(shown(open.root), ITEMS, JSON.stringify(open.root));
    for (const k of ['/item0', '/item1']) showingHeard.note(APP + k, false);
    const closed = await read(bus, root, {});
    assert.deepEqual(shown(closed.root), [], JSON.stringify(closed.root));
  });
}
