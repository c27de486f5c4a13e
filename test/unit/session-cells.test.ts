import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveCellRef, splitCellRef } from '../../src/session/cells.js';
import type { Session } from '../../src/session/session.js';
import type { Snapshot } from '../../src/engine/snapshot.js';

/** A session stub holding one last snapshot: a table e2 with cells A1 (e3) and B7 (e4), a button e5. */
function session(): Session {
  const snap = {
    lines: [
      {
        ref: 'e2',
        depth: 1,
        role: 'table',
        states: [],
        text: '[e2] table "Sheet Sheet1" cells A1:O46 of 1,048,576 × 16,384',
      },
    ],
    elements: [
      { ref: 'e2', depth: 1, role: 'table', states: [], text: '' },
      { ref: 'e3', depth: 2, parent: 'e2', role: 'cell', name: 'A1', states: [], text: '' },
      { ref: 'e4', depth: 2, parent: 'e2', role: 'cell', name: 'B7', states: [], text: '' },
      { ref: 'e5', depth: 1, role: 'button', name: 'OK', states: [], text: '' },
    ],
  } as unknown as Snapshot;
  const entries: Record<string, { id: string; fingerprint: { window: string } }> = {
    e2: { id: 't', fingerprint: { window: 'w' } },
    e5: { id: 'b', fingerprint: { window: 'w' } },
  };
  return { refs: { lookup: (r: string) => entries[r] }, last: new Map([['w', snap]]) } as unknown as Session;
}

test('cell refs: e2:B7 is the cell B7 of table e2; plain refs pass ' +
    'through; wrong tables and off-screen cells are clear errors', () => {
  assert.deepEqual(splitCellRef('e2:b7'), { table: 'e2', address: 'b7' });
  assert.equal(splitCellRef('e2'), undefined);
  const s = session();
  assert.equal(resolveCellRef(s, 'e2:B7'), 'e4');
  assert.equal(resolveCellRef(s, 'e2:b7'), 'e4');
  assert.equal(resolveCellRef(s, 'e5'), 'e5');
  assert.throws(() => resolveCellRef(s, 'e2:Z900'), /Cell Z900 of e2 is not on screen \(the snapshot shows A1:O46\)/);
  assert.throws(() => resolveCellRef(s, 'e5:B7'), /e5 is a button, not a table/);
  // An unknown table ref is left for the act's own "unknown ref" answer.
  assert.equal(resolveCellRef(s, 'e99:B7'), 'e99:B7');
});

test('a cell ref of another device (d2e34:B7) splits with its device prefix and routes to that device', async () => {
  const { refDevice } = await import('../../src/session/devices.js');
  assert.deepEqual(splitCellRef('d2e34:B7'), { table: 'd2e34', address: 'B7' });
  assert.equal(refDevice('d2e34:B7'), 2);
  assert.equal(refDevice('e34:B7'), refDevice('e34'));
});
