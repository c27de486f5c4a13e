/**
 * A `frame` inside a window is no window: Qt reports a QFrame as role frame, and kcalc's result display printed
 * as `window "0"` inside the calculator's `window` (measured on kcalc 22.12). The window itself, whose parent is
 * the application, stays a window; a childless inner frame reads as the text it shows, one with children as a group.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { busAnswering, type Msg } from './fake-bus.js';
import { readElement, toRawNode } from '../../src/drivers/linux/tree/reader.js';
import { readTree } from '../../src/drivers/linux/tree/read-tree.js';
import { ATSPI_ROLES } from '../../src/drivers/linux/bus/atspi-constants.generated.js';

const APP = ':1.4';
const role = (name: string): number => ATSPI_ROLES.indexOf(name);

/** kcalc's shape: application › frame (window) › filler › [frame "0" (the display), frame (bit box) › label]. */
const NODES: Record<string, { role: string; name: string; description?: string; parent: string; kids: string[] }> = {
  '/org/a11y/atspi/accessible/root': {
    role: 'application',
    name: 'kcalc',
    parent: '/org/a11y/atspi/null',
    kids: ['/win'],
  },
  '/win': { role: 'frame', name: 'KCalc', parent: '/org/a11y/atspi/accessible/root', kids: ['/fill'] },
  '/fill': { role: 'filler', name: '', parent: '/win', kids: ['/display', '/bits'] },
  '/display': { role: 'frame', name: '0', description: 'Result Display', parent: '/fill', kids: [] },
  '/bits': { role: 'frame', name: '', parent: '/fill', kids: ['/bit0'] },
  '/bit0': { role: 'label', name: '0', parent: '/bits', kids: [] },
};

function kcalcBus() {
  return busAnswering((m: Msg): unknown[] => {
    const n = NODES[m.path];
    if (!n) throw Object.assign(new Error(`no object ${m.path}`), { type: 'org.freedesktop.DBus.Error.UnknownObject' });
    const props: Record<string, unknown> = {
      Name: n.name,
      Description: n.description ?? '',
      ChildCount: n.kids.length,
      AccessibleId: '',
      Parent: [APP, n.parent],
    };
    switch (m.member) {
      case 'GetRole': return [role(n.role)];
      case 'GetRoleName': return [n.role];
      case 'Get': return [{ value: props[String(m.body[1])] }];
      case 'GetAll': return [Object.fromEntries(Object.entries(props).map(([k, v]) => [k, { value: v }]))];
      // showing + visible on every node (state bits 25 and 30 of the first word)
      case 'GetState': return [[(1 << 25) | (1 << 30), 0]];
      case 'GetInterfaces': return [['org.a11y.atspi.Accessible']];
      case 'GetChildren': return [n.kids.map((k) => [APP, k])];
      case 'GetChildAtIndex': return [[APP, n.kids[Number(m.body[0])] ?? '/none']];
      default: throw Object.assign(new Error('no such method'), { type: 'org.freedesktop.DBus.Error.UnknownMethod' });
    }
  });
}

test('a frame inside a window reads as a label (childless) or a group, the window stays a window', async () => {
  const bus = kcalcBus();
  const { root } = await readTree(bus, { dest: APP, path: '/win' });
  assert.equal(root.role, 'window');
  const fill = root.children?.[0];
  const [display, bits] = fill?.children ?? [];
  assert.deepEqual([display?.role, display?.name], ['label', '0'], JSON.stringify(root));
  assert.equal(bits?.role, 'group', JSON.stringify(root));
});

test('an act re-reading the display element sees the same role as the snapshot (no role_changed)', async () => {
  const bus = kcalcBus();
  assert.equal(toRawNode(await readElement(bus, { dest: APP, path: '/display' }, { children: false })).role, 'label');
  assert.equal(toRawNode(await readElement(bus, { dest: APP, path: '/win' }, { children: false })).role, 'window');
});
