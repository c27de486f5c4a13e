/**
 * A refusal that lists a combo's items says how many it left out: abiword's file type combo listed 10 of 28 items
 * ending "… (28 in all)", and a model in the loop took ".odt" to be absent. Now up to 40 are listed, then
 * "… and N more"; `select` takes a unique start or word of a name (drivers/common/items.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { quotedList } from '../../src/engine/escape.js';
import { itemIndex, pickItem } from '../../src/drivers/common/items.js';

const TYPES = Array.from({ length: 28 }, (_, i) =>
  i === 17 ? 'OpenDocument Text (.odt)' : `Format ${i + 1} (.f${i + 1})`,
);

test('a list cut short says how many more there are', () => {
  const names = Array.from({ length: 12 }, (_, i) => `item ${i + 1}`);
  assert.equal(quotedList(names, 10), `${names.slice(0, 10).map((x) => `"${x}"`).join(', ')}, … and 2 more`);
  assert.equal(quotedList(names.slice(0, 3)), '"item 1", "item 2", "item 3"');
});

test('a refusal lists all 28 file types, so the 18th is not hidden', () => {
  assert.throws(
    () => itemIndex(TYPES, 'Word 97'),
    (e: Error) => e.message.includes('"OpenDocument Text (.odt)"') && !e.message.includes('more'),
  );
  assert.deepEqual(pickItem(TYPES, '.ODT'), { index: 17 });
  assert.deepEqual(pickItem(TYPES, 'format 2'), { index: 1 });
  assert.deepEqual(pickItem(TYPES, 'format'), {
    ambiguous: TYPES.flatMap((n, i) => (n.startsWith('Format') ? [i] : [])),
  });
  assert.deepEqual(pickItem(TYPES, ''), { none: true });
});
