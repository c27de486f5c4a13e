/**
 * A patched re-read reads a caret or a selection it shows with two calls (drivers/linux/tree/patch-read.ts
 * refreshCaret), and gives the node back to a whole read of its own facts when its text's length is not the one read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RawNode } from '../../src/protocol/nodes.js';
import type { A11yBus } from '../../src/drivers/linux/bus/bus.js';
import { refreshCaret } from '../../src/drivers/linux/tree/patch-read.js';

/** A bus that answers the Text interface's properties and first selection, and counts the calls. */
function textBus(props: Record<string, number>, selection: [number, number]): { bus: A11yBus; calls: string[] } {
  const calls: string[] = [];
  const bus = {
    getAll: (_t: unknown, iface: string) => { calls.push(`GetAll ${iface}`); return Promise.resolve(props); },
    call: (_t: unknown, _iface: string, member: string) => { calls.push(member); return Promise.resolve(selection); },
  } as unknown as A11yBus;
  return { bus, calls };
}

const field = (extra: Partial<RawNode>): RawNode => ({
  id: ':1.9/org/a11y/atspi/accessible/82', role: 'textbox', states: ['focused'], actions: [], ...extra,
});

test('the caret and selection are read again in two calls, nothing else of the node', async () => {
  const node = field({ value: 'hello world', caret: 2 });
  const { bus, calls } = textBus({ CharacterCount: 11, CaretOffset: 7 }, [3, 7]);
  assert.equal(await refreshCaret(bus, node), true);
  assert.equal(node.caret, 7);
  assert.deepEqual(node.selection, [3, 7]);
  assert.deepEqual(calls.sort(), ['GetAll org.a11y.atspi.Text', 'GetSelection']);
  assert.equal(node.value, 'hello world');
});

test('a selection gone is dropped; a caret gone is dropped', async () => {
  const node = field({ value: 'abc', caret: 1, selection: [0, 2] });
  const { bus } = textBus({ CharacterCount: 3, CaretOffset: -1 }, [0, 0]);
  assert.equal(await refreshCaret(bus, node), true);
  assert.equal(node.caret, undefined);
  assert.equal(node.selection, undefined);
});

test('a text whose length is not the one read (cut, or ' +
    'changed unheard) is left to a whole read of the node', async () => {
  const cut = field({ value: 'x'.repeat(2000), valueLength: 5000, caret: 4 });
  assert.equal(await refreshCaret(textBus({ CharacterCount: 5000, CaretOffset: 9 }, [0, 0]).bus, cut), true);
  assert.equal(cut.caret, 9);
  const changed = field({ value: 'abc', caret: 1 });
  assert.equal(await refreshCaret(textBus({ CharacterCount: 4, CaretOffset: 4 }, [0, 0]).bus, changed), false);
  assert.equal(changed.caret, 1);
  const marks = field({ value: 'ab', caret: 1 });
  assert.equal(await refreshCaret(textBus({ CharacterCount: 3, CaretOffset: 2 }, [0, 0]).bus, marks), false);
});
