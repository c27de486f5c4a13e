/**
 * A list cut by showing (a GTK icon view or list box next to its scroll bar: the app keeps its items off screen in
 * the tree, not showing) prints the items on screen and says how many it holds: "N of M items shown; scroll or find
 * for the rest". The print listed the 8 items on screen and nothing more, as if the list held only them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RefTable } from '../../src/engine/refs.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';
import { diffSnapshots } from '../../src/engine/diff.js';
import type { RawNode, WindowInfo } from '../../src/engine/node.js';
import { n } from '../fixtures/engine/build.js';

const B = ':1.9';
const window: WindowInfo = { id: `${B}/org/a11y/atspi/accessible/1`, title: 'Icons', app: 'icons', pid: 1,
  role: 'window', focused: true };

/** A list of `total` items of which the first `onScreen` show. */
function list(total: number, onScreen: number): RawNode {
  const items = Array.from({ length: total }, (_, i) =>
    n(B, 100 + i, 'listitem', { name: `icon-${i + 1}`, states: i < onScreen ? [] : ['offscreen'],
      actions: ['click'] }));
  return n(B, 1, 'window', { name: 'Icons' }, [n(B, 2, 'scrollarea', {}, [n(B, 3, 'list', {}, items),
    n(B, 4, 'scrollbar', { value: '0', range: { min: 0, max: 900, step: 1 } })])]);
}

const print = (root: RawNode, fold: boolean): string =>
  buildSnapshot({ window, root }, new RefTable(), { fold, maxTokens: 2000 }).text;

test('a list with items off screen says how many of its items the print shows, folded or whole', () => {
  for (const fold of [true, false]) {
    const text = print(list(40, 8), fold);
    assert.match(text, /^ {4}… 8 of 40 items shown; scroll or find for the rest$/m, text);
    assert.match(text, /"icon-8"/, text);
    assert.doesNotMatch(text, /icon-9\b/, text);
  }
});

test('a list whose items all show says nothing more', () => {
  const text = print(list(8, 8), true);
  assert.doesNotMatch(text, /items shown|more items/, text);
});

test('a list cut by the print too says both: the items cut and how many show of all', () => {
  const text = print(list(60, 30), false);
  assert.match(text, /… 5 more items \(scope=e\d+\); 30 of 60 items shown; scroll or find for the rest/, text);
});

test('a receipt that adds a list\'s items says how many of the list show, so its run is not read as the whole', () => {
  // Picking another category in an icon browser printed `+ [e346] … [e359] 14 listitems: …`; the model took 14 for
  // the category's count, and a find then turned up more of them out of view.
  const refs = new RefTable();
  const before = buildSnapshot({ window, root: list(8, 8) }, refs, { fold: true });
  const other = list(46, 14);
  for (const item of other.children![0]!.children![0]!.children!) item.id = item.id.replace('/1', '/5');
  const after = buildSnapshot({ window, root: other }, refs, { fold: true });
  const lines = diffSnapshots(before, after).lines;
  assert.ok(
    lines.some((l) => /^\+ … 14 of 46 items of \[e\d+\] show; scroll or find for the rest$/.test(l)),
    lines.join('\n'),
  );
  // A list whose items all show adds no such line.
  const all = buildSnapshot({ window, root: list(8, 8) }, new RefTable(), { fold: true });
  const lines2 = diffSnapshots(all, buildSnapshot({ window, root: list(9, 9) }, new RefTable(), { fold: true })).lines;
  assert.ok(!lines2.some((l) => /items of \[e\d+\] show/.test(l)), lines2.join('\n'));
});
