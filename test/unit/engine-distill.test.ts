import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ancestryPath, distill, focusPath, walkDistilled, type DistilledNode } from '../../src/engine/distill.js';
import type { RawNode } from '../../src/engine/node.js';
import { byId } from '../fixtures/engine/build.js';
import { gedit } from '../fixtures/engine/gedit.js';

function outline(n: DistilledNode, depth = 0): string[] {
  return [`${'  '.repeat(depth)}${n.role}${n.name ? ` ${n.name}` : ''} #${n.index}`,
    ...n.children.flatMap((c) => outline(c, depth + 1))];
}

test('distill folds gedit wrappers, hidden nodes, decoration and redundant labels', () => {
  const { root } = gedit();
  const d = distill(root);
  assert.deepEqual(outline(d.root), [
    'window Untitled Document 1 - gedit #0',
    '  button Open #0',
    '  button New Tab #1',
    '  label Untitled Document 1 #2',
    '  button Save #3',
    '  button Menu #4',
    '  button Close #5',
    '  tablist #6',
    '    tab Untitled Document 1 #0',
    '      button Close Document #0',
    '  document Text view #7',
    '  statusbar #8',
    '    label Ln 1, Col 12 #0',
    '    button Tab Width: 8 #1',
    '    button Plain Text #2',
  ]);
  // 2 scrollbars + the popover (5 nodes) + the zero-size filler.
  assert.equal(d.counts['dropHidden'], 8);
  // icon, separator, empty label.
  assert.equal(d.counts['dropDecoration'], 3);
  // fillers 2, 8, 16, 28 and panels 3, 17, 20 and the scroll pane 23.
  assert.equal(d.counts['unwrapContainers'], 8);
  assert.equal(d.folded, 8);
  // "Open" and "Save" labels, and the tab's label equal to the tab name.
  assert.equal(d.counts['collapseRedundantLabel'], 3);
});

test('distill never drops the root nor the focus path, and does not modify its input', () => {
  const f = gedit();
  f.root.states.push('invisible');
  const doc = byId(f.root, 24);
  doc.states.push('offscreen');
  byId(f.root, 23).states.push('offscreen'); // the scroll pane around the focused document
  const before = JSON.stringify(f.root);
  const d = distill(f.root);
  assert.equal(JSON.stringify(f.root), before);
  assert.equal(d.root.id, f.root.id);
  const ids: string[] = [];
  walkDistilled(d.root, (n) => ids.push(n.id));
  assert.ok(ids.includes(doc.id));
  assert.deepEqual([...focusPath(f.root)].map((id) => id.split('/').pop()), ['1', '2', '16', '17', '23', '24']);
});

test('a focused container is kept, a named one too', () => {
  const f = gedit();
  byId(f.root, 17).states.push('focused');
  byId(f.root, 16).name = 'Editor area';
  const d = distill(f.root);
  const roles: string[] = [];
  walkDistilled(d.root, (n) => roles.push(`${n.role}:${n.name ?? ''}`));
  assert.ok(roles.includes('generic:Editor area'));
  assert.ok(roles.includes('group:'));
});

test('ancestryPath ignores the window root and nameless containers', () => {
  const a = ancestryPath([{ role: 'window', name: 'A' }, { role: 'generic' }, { role: 'list', name: 'Rows' }]);
  const b = ancestryPath([{ role: 'window', name: '*A' }, { role: 'list', name: 'Rows' }]);
  const c = ancestryPath([{ role: 'window', name: 'A' }, { role: 'list', name: 'Other' }]);
  assert.equal(a, b);
  assert.notEqual(a, c);
  assert.match(a, /^[0-9a-f]{8}$/);
});

/** A raw node for the label tests: id, role, name and what else is given. */
function raw(id: string, role: string, extra: Partial<RawNode> = {}): RawNode {
  return { id, role, states: [], actions: [], ...extra } as RawNode;
}

/** A window holding one form group of these controls. */
function form(children: RawNode[]): RawNode {
  return raw('w', 'window', { children: [raw('f', 'group', { name: 'Form', children })] });
}

/** The ids a distilled tree keeps, in order, and how many nodes the echo-label pass dropped. */
function keptIds(root: RawNode): { ids: string[]; dropped: number | undefined } {
  const d = distill(root);
  const ids: string[] = [];
  walkDistilled(d.root, (n) => ids.push(n.id));
  return { ids, dropped: d.counts['dropEchoLabel'] };
}

test('a label that only repeats the name of the control beside it prints no line of its own', () => {
  const root = form([
    raw('l1', 'label', { name: 'Name:' }),
    raw('t1', 'textbox', { name: 'Name:', states: ['editable'] }),
    raw('c1', 'combobox', { beside: '课程' }),
    raw('l2', 'label', { name: '课程：' }),
    // Chromium's <label>: its words as a value and again as one text child.
    raw('l3', 'label', { value: 'Full name', children: [raw('x3', 'text', { name: 'Full name' })] }),
    raw('t3', 'textbox', { name: 'Full name' }),
    raw('b4', 'button', { name: 'Wi-Fi', states: ['checked'] }),
    raw('l4', 'label', { name: 'Wi-Fi' }),
  ]);
  assert.deepEqual(keptIds(root), { ids: ['w', 'f', 't1', 'c1', 't3', 'b4'], dropped: 5 });
});

test('a label that names its control differently, stands apart from it or can be acted on stays', () => {
  const root = form([
    raw('l1', 'label', { name: 'Character Encoding:' }),
    raw('c1', 'combobox', { name: 'Current Locale (UTF-8)' }),
    raw('l2', 'label', { name: 'Line Ending:' }),
    raw('s', 'image', { name: 'gap' }),
    raw('c2', 'combobox', { beside: 'Line Ending:' }),
    raw('l3', 'label', { name: 'Open', actions: ['click'] }),
    raw('b3', 'button', { name: 'Open' }),
    raw('l4', 'label', { name: 'Size' }),
    raw('c4', 'combobox', { beside: 'Size', description: 'Pick a size' }),
    raw('l5', 'label', { name: 'Email' }),
    raw('h5', 'heading', { name: 'Email' }),
  ]);
  const ids = ['w', 'f', 'l1', 'c1', 'l2', 's', 'c2', 'l3', 'b3', 'l4', 'c4', 'l5', 'h5'];
  assert.deepEqual(keptIds(root), { ids, dropped: 0 });
});
