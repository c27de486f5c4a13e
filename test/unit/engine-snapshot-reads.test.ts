/**
 * A read built into a snapshot more than once (an act's re-read: its mid-work check, then its receipt; an
 * observe's whole window, then its scope) is distilled once (DistilledReads): each build reads as one from a read
 * distilled again, and the refs and the ref table come out the same.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { RefTable } from '../../src/engine/refs.js';
import { buildSnapshot, DistilledReads, type SnapshotInput } from '../../src/engine/snapshot.js';

const DIR = new URL('../../../test/fixtures/linux/', import.meta.url);
const read = (name: string): SnapshotInput => JSON.parse(readFileSync(new URL(name, DIR), 'utf8')) as SnapshotInput;

for (const name of ['gtk3-widget-factory.json', 'gedit.json', 'chromium-form.json']) {
  test(`${name}: a read built twice through DistilledReads reads as one distilled twice`, () => {
    const input = read(name);
    const plain = new RefTable();
    const kept = new RefTable();
    const reads = new DistilledReads();
    const opts = { fold: true, maxTokens: 2000 };
    const a1 = buildSnapshot(input, plain, opts);
    const a2 = buildSnapshot(input, plain, opts);
    const aScoped = buildSnapshot(input, plain, { scope: a2.elements[1]!.ref });
    const b1 = buildSnapshot(input, kept, { ...opts, reads });
    const b2 = buildSnapshot(input, kept, { ...opts, reads });
    const bScoped = buildSnapshot(input, kept, { scope: b2.elements[1]!.ref, reads });
    // Each print is read only now, after the later builds: none of them changed the tree an earlier one prints.
    assert.equal(JSON.stringify(b1), JSON.stringify(a1));
    assert.equal(JSON.stringify(b2), JSON.stringify(a2));
    assert.equal(JSON.stringify(bScoped), JSON.stringify(aScoped));
    assert.deepEqual(kept.toJSON(), plain.toJSON());
  });
}

test('relocate on a read distilled before finds what it finds on the read distilled again', () => {
  const input = read('gtk3-widget-factory.json');
  const refs = new RefTable();
  const reads = new DistilledReads();
  const snap = buildSnapshot(input, refs, { fold: true, reads });
  const kept = reads.toRead(input.root);
  for (const l of snap.elements) {
    const plain = refs.relocate(l.ref, input.root, input.window);
    assert.deepEqual(refs.relocate(l.ref, input.root, input.window, kept), plain, l.ref);
  }
  // Finding reads the kept trees only: a later build of the read comes out as the first.
  assert.equal(
    JSON.stringify(buildSnapshot(input, refs, { fold: true, reads }).elements),
    JSON.stringify(snap.elements),
  );
});
