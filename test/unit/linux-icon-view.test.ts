/**
 * GTK 3's icon view (gtk3-icon-browser, Thunar's ExoIconView): a layered pane with a Selection whose items are icons
 * holding their caption as text, with no name. They printed as nothing: `[e116] pane` empty, then a diff removed
 * "8 elements of [e116] pane" never shown. And GTK sets an item's showing state when the item is made and again only
 * when the view scrolls, so after a category switch every new item read as off screen. Now the view is a list of
 * items named by their captions, an item shows when its bounds meet the view's, and its action clicks it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { busAnswering, type Msg } from './fake-bus.js';
import { readElement, toRawNode } from '../../src/drivers/linux/tree/reader.js';
import { readTree } from '../../src/drivers/linux/tree/read-tree.js';
import { readTreeCached } from '../../src/drivers/linux/bus/cache.js';
import { ATSPI_ROLES } from '../../src/drivers/linux/bus/atspi-constants.generated.js';

const APP = ':1.27';
const SHOWING = 1 << 25;
const VISIBLE = 1 << 30;
const ITEM_IFACES = ['org.a11y.atspi.Accessible', 'org.a11y.atspi.Action', 'org.a11y.atspi.Component',
  'org.a11y.atspi.Text', 'org.a11y.atspi.Image'];

interface Node { role: string; name: string; parent: string; kids: string[]; ifaces: string[]; state: number;
  text?: string; rect?: [number, number, number, number] }
/** The browser after a category switch: items made before layout read not showing, two of three on screen. */
const NODES: Record<string, Node> = {
  '/win': { role: 'frame', name: 'Icon Browser', parent: '/org/a11y/atspi/accessible/root', kids: ['/pane'],
    ifaces: ['org.a11y.atspi.Accessible', 'org.a11y.atspi.Component'], state: SHOWING | VISIBLE },
  '/pane': { role: 'layered pane', name: '', parent: '/win', kids: ['/i1', '/i2', '/i3'],
    ifaces: ['org.a11y.atspi.Accessible', 'org.a11y.atspi.Component', 'org.a11y.atspi.Selection'],
    state: SHOWING | VISIBLE, rect: [210, 51, 819, 768] },
  '/i1': { role: 'icon', name: '', parent: '/pane', kids: [], ifaces: ITEM_IFACES, state: VISIBLE,
    text: 'format-indent-less', rect: [222, 63, 229, 105] },
  '/i2': { role: 'icon', name: '', parent: '/pane', kids: [], ifaces: ITEM_IFACES, state: VISIBLE,
    text: 'edit-find-replace', rect: [630, 678, 186, 105] },
  '/i3': { role: 'icon', name: '', parent: '/pane', kids: [], ifaces: ITEM_IFACES, state: VISIBLE,
    text: 'edit-undo', rect: [222, 1500, 229, 105] },
};

function browserBus() {
  return busAnswering((m: Msg): unknown[] => {
    const n = NODES[m.path];
    if (!n) throw Object.assign(new Error(`no object ${m.path}`), { type: 'org.freedesktop.DBus.Error.UnknownObject' });
    const props: Record<string, unknown> = {
      Name: n.name, Description: '', ChildCount: n.kids.length, AccessibleId: '', Parent: [APP, n.parent],
      CharacterCount: n.text?.length ?? 0, CaretOffset: -1,
    };
    switch (m.member) {
      case 'GetRole': return [ATSPI_ROLES.indexOf(n.role)];
      case 'GetRoleName': return [n.role];
      case 'Get': return [{ value: props[String(m.body[1])] }];
      case 'GetAll': return [Object.fromEntries(Object.entries(props).map(([k, v]) => [k, { value: v }]))];
      case 'GetState': return [[n.state, 0]];
      case 'GetInterfaces': return [n.ifaces];
      case 'GetChildren': return [n.kids.map((k) => [APP, k])];
      case 'GetChildAtIndex': return [[APP, n.kids[Number(m.body[0])] ?? '/none']];
      case 'GetExtents': return [n.rect ?? [0, 0, 0, 0]];
      case 'GetText':
        return [(n.text ?? '').slice(Number(m.body[0]), Number(m.body[1]) < 0 ? undefined : Number(m.body[1]))];
      case 'GetSelection': return [0, 0];
      case 'GetNSelections': return [0];
      case 'GetActions': return [[['', 'Activate item', '']]];
      case 'GetItems': return [[]];
      default: throw Object.assign(new Error(`no such method ${m.member}`),
        { type: 'org.freedesktop.DBus.Error.UnknownMethod' });
    }
  });
}

for (const [how, read] of [
  ['read live', (bus: ReturnType<typeof browserBus>) => readTree(bus, { dest: APP, path: '/win' })],
  ['read through the cache', (bus: ReturnType<typeof browserBus>) => readTreeCached(bus, { dest: APP, path: '/win' },
    {}, () => Promise.resolve(new Map()))],
] as const) {
  test(`an icon view is a list of its items named by their captions; those its bounds show are on screen (${how})`,
    async () => {
      const { root } = await read(browserBus());
      const pane = root.children?.[0];
      assert.equal(pane?.role, 'list', JSON.stringify(root));
      const items = (pane?.children ?? []).map((c) => [c.role, c.name, c.states.includes('offscreen')]);
      assert.deepEqual(items, [
        ['listitem', 'format-indent-less', false],
        ['listitem', 'edit-find-replace', false],
        ['listitem', 'edit-undo', true],
      ], JSON.stringify(root));
      assert.ok(pane?.children?.[0]?.actions.includes('click'), JSON.stringify(pane?.children?.[0]));
      assert.equal(pane?.children?.[0]?.value, undefined);
    });
}

test('an item read on its own (an act, a re-read subtree) reads as the snapshot did', async () => {
  const bus = browserBus();
  const node = toRawNode(await readElement(bus, { dest: APP, path: '/i1' }, { children: false }));
  assert.deepEqual([node.role, node.name], ['listitem', 'format-indent-less']);
});
