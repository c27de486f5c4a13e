/**
 * Refs of a tab page's elements across page switches: a page not shown is read as one hidden node without its
 * children, and its elements must get their own refs back when it is shown again, however many reads an act made
 * meanwhile (a model toggled [e5] "Show line numbers", went to another page and back, and found it as [e34]).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RefTable } from '../../src/engine/refs.js';
import { buildSnapshot, type Snapshot } from '../../src/engine/snapshot.js';
import { diffSnapshots } from '../../src/engine/diff.js';
import type { RawNode } from '../../src/engine/node.js';
import { byId, type Fixture } from '../fixtures/engine/build.js';
import { notebook } from '../fixtures/engine/notebook.js';

const snap = (t: RefTable, f: Fixture): Snapshot => buildSnapshot({ window: f.window, root: f.root }, t);
const refOf = (s: Snapshot, name: string): string | undefined => s.elements.find((l) => l.name === name)?.ref;
const spinRef = (s: Snapshot, value: string): string | undefined =>
  s.elements.find((l) => l.role === 'spinbutton' && l.value === value)?.ref;

test('a tab page shown again after many reads gives its elements their own refs back, the deep ones too', () => {
  const t = new RefTable();
  const first = snap(t, notebook('view'));
  const before = { show: refOf(first, 'Show line numbers'), margin: refOf(first, 'Long line margin at column:'),
    spin: spinRef(first, '80'), display: refOf(first, 'Display') };
  assert.ok(before.show && before.margin && before.spin && before.display);
  // The other page stays shown over more reads than the table keeps an element that left (an act's step reads).
  for (let i = 0; i < 12; i++) snap(t, notebook('editor'));
  const back = notebook('view');
  byId(back.root, 57).states.push('checked');
  const again = snap(t, back);
  assert.deepEqual(
    { show: refOf(again, 'Show line numbers'), margin: refOf(again, 'Long line margin at column:'),
      spin: spinRef(again, '80'), display: refOf(again, 'Display') },
    before,
  );
});

test('the page switch back prints the page with the refs the model saw', () => {
  const t = new RefTable();
  const first = snap(t, notebook('view'));
  let last = first;
  for (let i = 0; i < 8; i++) last = snap(t, notebook('editor'));
  const back = snap(t, notebook('view'));
  const diff = diffSnapshots(last, back).lines.join('\n');
  assert.match(diff, new RegExp(`\\[${refOf(first, 'Show line numbers')}\\] checkbox "Show line numbers"`), diff);
});

test('an element kept while its page was hidden is not given to another element that took its handle', () => {
  const t = new RefTable();
  const first = snap(t, notebook('view'));
  const show = refOf(first, 'Show line numbers');
  for (let i = 0; i < 8; i++) snap(t, notebook('editor'));
  // The page comes back with that handle now naming another check box (a widget recycled for another item).
  const back = notebook('view');
  byId(back.root, 57).name = 'Show the status bar';
  const again = snap(t, back);
  assert.notEqual(refOf(again, 'Show the status bar'), show);
  assert.equal(refOf(again, 'Show line numbers'), undefined);
});

test('an element whose page is gone is forgotten as before; kept pages stay within the bound', () => {
  const t = new RefTable();
  const first = snap(t, notebook('view'));
  const show = refOf(first, 'Show line numbers');
  // The notebook dropped the page (its tab is gone): nothing read says the element is still there.
  const gone = (): Fixture => {
    const f = notebook('editor');
    const list = byId(f.root, 2);
    list.children = (list.children ?? []).filter((c: RawNode) => !c.id.endsWith('/4'));
    return f;
  };
  for (let i = 0; i < 6; i++) snap(t, gone());
  assert.equal(t.lookup(show ?? ''), undefined);
  const again = snap(t, notebook('view'));
  assert.notEqual(refOf(again, 'Show line numbers'), show);
});

test('elements kept out of sight are bounded per window', () => {
  const t = new RefTable();
  const big = notebook('view');
  const display = byId(big.root, 34);
  for (let i = 0; i < 1500; i++)
    display.children!.push({ ...byId(big.root, 58), id: `${byId(big.root, 58).id}0${i}`, name: `Option ${i}` });
  snap(t, big);
  assert.ok(t.size > 1500);
  for (let i = 0; i < 8; i++) snap(t, notebook('editor'));
  assert.ok(t.size <= 1000 + 20, `the table kept ${t.size} entries`);
});
