/**
 * GTK 3 shapes met by the evaluation's zenity tasks, on a fake accessibility bus: a combo box's items sit in
 * its one child, a menu (select by name must find them), and an unmapped popup window reports −2³¹ as its
 * position (its bounds must stay inside the protocol's pixel range, read as no area), and a combo the app named
 * holds its choice in its own Selection (its menu selects only while open).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { A11yBus, Target } from '../../src/drivers/linux/bus/bus.js';
import { comboItemNames } from '../../src/drivers/linux/tree/combo-items.js';
import { enrich, readBounds, type ElementInfo } from '../../src/drivers/linux/tree/reader.js';

const APP = ':1.7';

/** A bus answering GetChildren / GetRoleName / ChildCount / Name / GetExtents from a table of paths. */
function fakeBus(
  nodes: Record<string, { role: string; name?: string; kids?: string[]; extents?: number[]; selected?: string }>,
): A11yBus {
  const at = (t: Target) => {
    const n = nodes[t.path];
    if (!n) throw new Error(`no node ${t.path}`);
    return n;
  };
  const bus = {
    call: async (t: Target, _iface: string, member: string): Promise<unknown[]> => {
      const n = at(t);
      if (member === 'GetChildren') return [(n.kids ?? []).map((k) => [APP, k])];
      if (member === 'GetRoleName') return [n.role];
      if (member === 'GetExtents') return [n.extents ?? [0, 0, 0, 0]];
      if (member === 'GetInterfaces') return [['org.a11y.atspi.Accessible', 'org.a11y.atspi.Selection']];
      if (member === 'GetSelectedChild') return [[APP, n.selected ?? '/org/a11y/atspi/null']];
      throw new Error(`unexpected ${member}`);
    },
    getProp: async (t: Target, _iface: string, prop: string): Promise<unknown> => {
      const n = at(t);
      if (prop === 'ChildCount') return (n.kids ?? []).length;
      if (prop === 'Name') return n.name ?? '';
      throw new Error(`unexpected ${prop}`);
    },
  };
  return bus as unknown as A11yBus;
}

test('a GTK 3 combo box: the items of its menu child are its items', async () => {
  const bus = fakeBus({
    '/combo': { role: 'combo box', kids: ['/menu'] },
    '/menu': { role: 'menu', kids: ['/i0', '/i1', '/i2'] },
    '/i0': { role: 'menu item', name: '数学' },
    '/i1': { role: 'menu item', name: '物理' },
    '/i2': { role: 'menu item', name: '化学' },
  });
  assert.deepEqual(await comboItemNames(bus, { dest: APP, path: '/combo' }), ['数学', '物理', '化学']);
});

test('an unmapped GTK popup window at −2³¹ reads as no area, inside the protocol range', async () => {
  const bus = fakeBus({
    '/popup': { role: 'window', extents: [-2147483648, -2147483648, 168, 104] },
    '/ok': { role: 'window', extents: [-20, 5, 300, 200] },
  });
  const info = (path: string): ElementInfo => ({ target: { dest: APP, path } } as unknown as ElementInfo);
  const popup = info('/popup');
  await readBounds(bus, popup);
  assert.deepEqual(popup.bounds, [0, 0, 0, 0]);
  const ok = info('/ok');
  await readBounds(bus, ok);
  assert.deepEqual(ok.bounds, [-20, 5, 300, 200]);
});

test('a named GTK 3 combo box: its choice comes from its own Selection when its menu selects nothing', async () => {
  const bus = fakeBus({
    '/combo': { role: 'combo box', name: 'Language', kids: ['/menu'], selected: '/i1' },
    '/menu': { role: 'menu', kids: ['/i0', '/i1'] },
    '/i0': { role: 'menu item', name: 'English' },
    '/i1': { role: 'menu item', name: '中文' },
  });
  const info = {
    target: { dest: APP, path: '/combo' },
    atspiRole: 'combo box',
    name: 'Language',
    description: '',
    accessibleId: '',
    states: new Set(['enabled', 'showing']),
    interfaces: new Set(['org.a11y.atspi.Accessible', 'org.a11y.atspi.Selection']),
    children: [{ dest: APP, path: '/menu' }],
    childCount: 1,
  } as ElementInfo;
  await enrich(bus, info, false);
  assert.equal(info.choice, '中文');
});
