/**
 * A sheet's kept cell objects after the sheet's state changes, on a fake accessibility bus shaped like Calc: a cell
 * object made while a cell was being edited reads "" once the edit ends, though the cell holds a number; a new
 * object (GetAccessibleAt again) reads it. The kept objects must be dropped when the table's editable state flips
 * (seen at a read or announced by an event) or its children change, so the grid never prints "all empty" for
 * cells that hold numbers.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { A11yBus, type Target } from '../../src/drivers/linux/bus/bus.js';
import { noteTableChange, noteTableStates, readCellAt } from '../../src/drivers/linux/tree/table.js';

const APP = ':1.9';

interface Msg { destination: string; path: string; interface: string; member: string; body: unknown[] }

/** A table whose cell objects made before `editEnds()` read "" forever, and later ones read the cell's number. */
function fakeSheet(path: string): { bus: A11yBus; table: Target; editEnds: () => void; made: () => number } {
  let ended = false;
  let made = 0;
  const answer = (m: Msg): unknown[] => {
    if (m.path === path && m.member === 'GetAccessibleAt') {
      made++;
      return [[APP, `${path}/cell${made}${ended ? 'live' : 'stale'}`]];
    }
    if (m.member === 'GetText') return [m.path.endsWith('live') ? '42' : ''];
    throw Object.assign(new Error(`no ${m.member} on ${m.path}`), { type: 'org.freedesktop.DBus.Error.UnknownMethod' });
  };
  const messageBus = {
    call: (m: Msg) => {
      try { return Promise.resolve({ body: answer(m) }); } catch (e) { return Promise.reject(e); }
    },
    disconnect: () => undefined,
  };
  const bus = new (A11yBus as unknown as new (b: unknown, address: string) => A11yBus)(messageBus, 'fake');
  bus.p2p = false;
  return { bus, table: { dest: APP, path }, editEnds: () => { ended = true; }, made: () => made };
}

const NONE: ReadonlySet<string> = new Set();
const textAt = async (bus: A11yBus, table: Target): Promise<string | undefined> =>
  (await readCellAt(bus, table, 3, 0, 'A4', NONE))?.value;

test('a kept cell object is dropped when the table\'s editable state flips between two reads', async () => {
  const { bus, table, editEnds } = fakeSheet('/sheet/flip');
  noteTableStates(table, new Set(['focusable']));
  assert.equal(await textAt(bus, table), undefined, 'while editing, the object reads ""');
  editEnds();
  noteTableStates(table, new Set(['focusable', 'editable']));
  assert.equal(await textAt(bus, table), '42');
});

for (const [k, [type, why]] of ([['object:state-changed:editable', 'an editable state event'],
  ['object:children-changed:remove', 'a children event']] as const).entries()) {
  test(`a kept cell object is dropped on ${why} from its table`, async () => {
    const { bus, table, editEnds } = fakeSheet(`/sheet/event${k}`);
    await textAt(bus, table);
    editEnds();
    noteTableChange({ type, source: APP + table.path });
    assert.equal(await textAt(bus, table), '42');
  });
}

test('a kept cell object stays while nothing changed (Calc keeps every object it makes)', async () => {
  const { bus, table, made } = fakeSheet('/sheet/kept');
  noteTableStates(table, new Set(['editable']));
  await textAt(bus, table);
  noteTableStates(table, new Set(['editable']));
  noteTableChange({ type: 'object:state-changed:editable', source: `${APP}/another/table` });
  await textAt(bus, table);
  assert.equal(made(), 1);
});
