/**
 * Nameless elements that carry a description: meld's toolbar buttons have no name, only a description ("Go to
 * the next change"). A model in the loop read `[e43] … [e46] 4 buttons without a name` and find missed them.
 * The description is printed in place of the name and matched by find and by observe's query.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import { FakeDriver, type FakeWindow } from '../../src/drivers/fake/driver.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';
import { RefTable } from '../../src/engine/refs.js';
import { Session } from '../../src/session/session.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/tool.js';
import { n } from '../fixtures/engine/build.js';

const TIPS = [
  'Go to the previous conflict',
  'Go to the next conflict',
  'Go to the previous change',
  'Go to the next change',
];

function meld(): FakeWindow {
  const b = ':1.92';
  const root = n(b, 1, 'window', { name: 'Meld', states: ['active'] }, [
    n(b, 2, 'toolbar', {}, TIPS.map((d, i) => n(b, 10 + i, 'button', { description: d, actions: ['click'] }))),
    n(b, 3, 'button', { name: 'Open', description: 'Open a file', actions: ['click'] }),
  ]);
  return { info: { id: root.id, title: 'Meld', app: 'meld', pid: 4747, role: 'window', focused: true }, root };
}

test('a nameless button prints its description; alike described buttons do not fold into "without a name"', () => {
  const w = meld();
  const s = buildSnapshot({ window: w.info, root: w.root }, new RefTable());
  for (const d of TIPS) assert.match(s.text, new RegExp(`\\] button description="${d}"`), s.text);
  assert.doesNotMatch(s.text, /without a name/, s.text);
  // A named element's description is not printed (tokens).
  assert.match(s.text, /\] button "Open"$/m, s.text);
  assert.equal(s.elements.find((l) => l.description === 'Go to the next change')?.role, 'button');
});

test('a number or a blank is no description (GTK 3 sliders describe themselves as "50.0" or " ")', () => {
  const b = ':1.93';
  const root = n(b, 1, 'window', { name: 'Factory', states: ['active'] }, [
    n(b, 2, 'slider', { description: '50.0', value: '50', range: { min: 1, max: 100 } }),
    n(b, 3, 'slider', { description: ' ', value: '50', range: { min: 1, max: 100 } }),
  ]);
  const s = buildSnapshot(
    { window: { id: root.id, title: 'Factory', app: 'f', pid: 1, role: 'window', focused: true }, root },
    new RefTable(),
  );
  assert.doesNotMatch(s.text, /description/, s.text);
});

test('find and observe query match a nameless button by its description', async () => {
  const fake = new FakeDriver([meld()]);
  const session = new Session({ device: new Device({ connect: () => fake.connect() }) });
  const tool = (name: string) => TOOLS.find((t) => t.schema.name === name)!;
  try {
    const found = (await runTool(tool('computer_find'), { session }, { text: 'next change' })).text;
    assert.match(found, /^1 match for "next change"/, found);
    assert.match(found, /\[e\d+\] button description="Go to the next change"/, found);
    const queried = (await runTool(tool('computer_observe'), { session }, { query: 'previous conflict' })).text;
    assert.match(queried, /button description="Go to the previous conflict"/, queried);
    assert.doesNotMatch(queried, /next change/, queried);
  } finally {
    await session.close();
  }
});
