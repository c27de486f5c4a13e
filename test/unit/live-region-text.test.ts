/**
 * Live regions in the snapshot: a status line whose text the driver read as its value (Gecko) prints it; the
 * same text also held by its one text child (Chromium) prints once; find and wait match it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RawNode } from '../../src/engine/node.js';
import { RefTable } from '../../src/engine/refs.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';
import { findInTree } from '../../src/drivers/common/find.js';

const window = { id: ':1.9/w', title: 'Inbox', app: 'firefox', pid: 42, role: 'window' as const, focused: true };
const node = (id: string, role: RawNode['role'], extra: Partial<RawNode> = {}): RawNode => ({
  id,
  role,
  states: [],
  actions: [],
  ...extra,
});

test('a status line read as its value prints its text, once, whether or not a text child repeats it', () => {
  const text = 'Deleted message #4321 (code 877)';
  const gecko = node(':1.9/s', 'statusbar', { value: text });
  const chromium = node(':1.9/s2', 'statusbar', { value: text, children: [node(':1.9/t', 'text', { name: text })] });
  const s = buildSnapshot(
    { window, root: node(':1.9/w', 'window', { name: 'Inbox', children: [gecko, chromium] }) },
    new RefTable(),
    { maxTokens: 5000 },
  );
  assert.match(s.text, /\[e\d+\] statusbar value="Deleted message #4321 \(code 877\)"/, s.text);
  assert.equal(s.text.split(text).length - 1, 2, s.text);
  assert.equal(findInTree(node(':1.9/w', 'window', { children: [gecko] }), { text: '#4321' }).length, 1);
});
