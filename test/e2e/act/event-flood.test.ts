/**
 * A find reuses a window's last read while the driver's events say nothing changed. An app that floods the bus
 * with events (a label ticking every millisecond, test/apps/event-flood.py) and renames its button while a find
 * runs: the find never answers the old name once the app renamed it, and an act aimed at a name found before the
 * rename is refused by the driver's live check of the element (nothing is clicked).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { ok } from '../helpers.js';
import { LAB, startLab } from './lab.js';

const FLOOD = join(LAB, '..', 'event-flood.py');
const ROUNDS = 6;

test('an app flooding events renames a button while find runs: no ' +
    'stale match after the rename, no click on the renamed button', async () => {
  const lab = await startLab({}, FLOOD);
  const count = (line: string): number => lab.out().split('\n').filter((l) => l === line).length;
  const renamed = async (name: string, times: number): Promise<void> => {
    for (let i = 0; i < 100 && count(`renamed ${name}`) < times; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(count(`renamed ${name}`), times, lab.out().slice(-400));
  };
  try {
    ok(await lab.computer.tools.observe({ window: 'Flood lab' }));
    for (let round = 0; round < ROUNDS; round++) {
      const [before, after] = round % 2 === 0 ? ['Alpha', 'Beta'] : ['Beta', 'Alpha'];
      // The rename lands while the find runs.
      const finding = lab.computer.tools.find({ window: 'Flood lab', text: before, role: 'button' });
      process.kill(lab.app.pid!, round % 2 === 0 ? 'SIGUSR1' : 'SIGUSR2');
      const found = await finding;
      await renamed(after, Math.floor(round / 2) + 1);
      // Once the app renamed it, a find (a kept read or a new one) knows only the new name.
      const old = await lab.computer.tools.find({ window: 'Flood lab', text: before, role: 'button' });
      assert.match(old.text, /^0 matches/, old.text);
      const now = await lab.computer.tools.find({ window: 'Flood lab', text: after, role: 'button' });
      assert.match(now.text, new RegExp(`button "${after}"`), now.text);
      const ref = new RegExp(`\\[(e\\d+)\\] button "${before}"`).exec(found.text)?.[1];
      if (ref) {
        // Found under its old name: the live check compares that name with the button's own and refuses.
        const res = await lab.computer.tools.act({ actions: [{ ref, op: 'click' }] });
        assert.equal(res.isError, true, res.text);
        assert.match(res.text, /stale_ref/, res.text);
      }
    }
    assert.doesNotMatch(lab.out(), /^clicked /m, 'no click reached the app');
  } finally {
    await lab.close();
  }
});
