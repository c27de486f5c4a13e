/**
 * Side-by-side text panes read in screen order: meld 3.22 (GTK 3) lists its right file's text view before its
 * left one, and a model in the loop took the right file for the left. Only panes with known, non-overlapping
 * bounds in one row or one column are reordered; the other children keep their places.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { orderPanes, screenOrder, contentPanes } from '../../src/drivers/common/order.js';
import { orderContentPanes } from '../../src/drivers/linux/tree/panes.js';
import type { RawNode } from '../../src/engine/node.js';
import { n } from '../fixtures/engine/build.js';
import { busAnswering, type Msg } from './fake-bus.js';

const B = ':1.7';

/** meld's comparison tab: a status bar, the right pane, a gutter, the left pane, a button (tree order). */
function meldTab(): RawNode {
  const pane = (id: number, text: string): RawNode =>
    n(B, id, 'generic', {}, [n(B, id + 1, 'scrollarea', {}, [n(B, id + 2, 'document', { value: text })])]);
  return n(B, 1, 'group', {}, [
    n(B, 2, 'statusbar'),
    pane(10, 'right file'),
    n(B, 3, 'canvas'),
    pane(20, 'left file'),
    n(B, 4, 'button', { name: 'Open' }),
  ]);
}

const EXTENTS: Record<string, number[]> = { '/10': [377, 60, 360, 300], '/20': [14, 60, 360, 300] };

test('the Linux driver puts meld\'s left pane first (bounds read for the two panes only)', async () => {
  const asked: string[] = [];
  const bus = busAnswering((m: Msg) => {
    const path = m.path.replace('/org/a11y/atspi/accessible', '');
    if (m.member !== 'GetExtents') throw new Error(`unexpected ${m.member}`);
    asked.push(path);
    return [EXTENTS[path] ?? [0, 0, 0, 0]];
  });
  const tab = meldTab();
  await orderContentPanes(bus, { ...n(B, 0, 'window'), children: [tab] });
  const docs: string[] = [];
  const walk = (x: RawNode): void => {
    if (x.role === 'document') docs.push(String(x.value));
    (x.children ?? []).forEach(walk);
  };
  walk(tab);
  assert.deepEqual(docs, ['left file', 'right file']);
  assert.deepEqual(
    tab.children?.map((c) => c.role),
    ['statusbar', 'generic', 'canvas', 'generic', 'button'],
    'the other children keep their places',
  );
  assert.deepEqual(asked.sort(), ['/10', '/20']);
});

test('order is kept where it cannot be told: overlapping, scattered, unknown or empty bounds', () => {
  assert.deepEqual(screenOrder([[400, 0, 100, 100], [0, 0, 100, 100]]), [1, 0], 'one row: left to right');
  assert.deepEqual(screenOrder([[0, 500, 100, 100], [0, 0, 100, 100]]), [1, 0], 'one column: top to bottom');
  assert.equal(screenOrder([[0, 0, 200, 200], [100, 100, 200, 200]]), undefined, 'overlapping');
  assert.equal(screenOrder([[0, 0, 100, 100], [300, 300, 100, 100]]), undefined, 'neither a row nor a column');
  assert.equal(screenOrder([[0, 0, 0, 0], [300, 0, 100, 100]]), undefined, 'no area');
  const tab = meldTab();
  const panes = contentPanes(tab);
  assert.equal(orderPanes(tab, panes, [[377, 60, 360, 300], undefined]), false);
  assert.equal(String(tab.children?.[1]?.id).endsWith('/10'), true);
});
