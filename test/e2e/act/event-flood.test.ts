/**
 * A find reuses a window's last read while the driver's events say nothing changed. An app that floods the bus
 * with events (a label ticking every millisecond, test/apps/event-flood.py) and renames its button while a find
 * runs: the find never answers the old name once the app renamed it, and an act aimed at a name found before the
 * rename is refused by the driver's live check of the element (nothing is clicked). Under the flood no find takes a
 * kept read, and finds stay as quick at the end of the flood as at its start (no queue of events grows). The same
 * app without the flood: a find right after a read takes that read, and a rename right after the read is seen.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { ok } from '../helpers.js';
import { LAB, startLab, type Lab } from './lab.js';

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
  const reads = wholeReads(lab);
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
      const read = reads();
      const old = await lab.computer.tools.find({ window: 'Flood lab', text: before, role: 'button' });
      assert.equal(reads(), read + 1, 'under the flood a find reads the window afresh');
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

/** Counts the computer's whole-window reads (tree.snapshot without a scope) from now on. */
function wholeReads(lab: Lab): () => number {
  const device = lab.computer.session.device as unknown as {
    call: (m: string, p: unknown, ...r: unknown[]) => Promise<unknown>;
  };
  const call = device.call.bind(device);
  let n = 0;
  device.call = (m, p, ...r) => {
    if (m === 'tree.snapshot' && (p as { scope?: string }).scope === undefined) n++;
    return call(m, p, ...r);
  };
  return () => n;
}

test('under a flood of events finds stay bounded in time: the last ones take no longer than the first', async () => {
  const lab = await startLab({}, FLOOD);
  try {
    ok(await lab.computer.tools.observe({ window: 'Flood lab' }));
    const ms: number[] = [];
    for (let i = 0; i < 24; i++) {
      const t0 = performance.now();
      const r = await lab.computer.tools.find({ window: 'Flood lab', text: 'Alpha', role: 'button' });
      ms.push(performance.now() - t0);
      assert.match(r.text, /button "Alpha"/, r.text);
      await new Promise((r) => setTimeout(r, 100));
    }
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const [first, last] = [median(ms.slice(0, 8)), median(ms.slice(-8))];
    // A queue that grows with the flood makes each find slower than the one before; noise on a shared machine does not
    // triple a median of eight.
    assert.ok(last <= 3 * first + 100, `finds took ${ms.map(Math.round).join(', ')} ms`);
    assert.ok(Math.max(...ms) < 5000, `finds took ${ms.map(Math.round).join(', ')} ms`);
  } finally {
    await lab.close();
  }
});

test('without a flood a find right after a read takes that read; a rename right after the read is seen', async () => {
  const lab = await startLab({}, FLOOD, ['--quiet']);
  const reads = wholeReads(lab);
  try {
    ok(await lab.computer.tools.observe({ window: 'Flood lab' }));
    // By its wN: a window event anywhere (the other tests' windows closing) does not make the find read again.
    const apps = ok(await lab.computer.tools.apps({}));
    const w = /\[(w\d+)\] window "Flood lab"/.exec(apps)?.[1];
    assert.ok(w, apps);
    ok(await lab.computer.tools.observe({ window: w }));
    let read = reads();
    const kept = await lab.computer.tools.find({ window: w, text: 'Alpha', role: 'button' });
    assert.match(kept.text, /button "Alpha"/, kept.text);
    assert.equal(reads(), read, 'the app sent nothing since the read: the find took it');
    const ref = /\[(e\d+)\] button "Alpha"/.exec(kept.text)![1]!;
    // Renamed right after the find's answer: the act aimed at the name found is refused by the live check.
    process.kill(lab.app.pid!, 'SIGUSR1');
    await lab.printed('renamed Beta');
    const res = await lab.computer.tools.act({ actions: [{ ref, op: 'click' }] });
    assert.equal(res.isError, true, res.text);
    assert.match(res.text, /stale_ref/, res.text);
    // Renamed right after a read, before the find: the driver asks the app first, so its rename event arrives first.
    ok(await lab.computer.tools.observe({ window: w }));
    process.kill(lab.app.pid!, 'SIGUSR2');
    await lab.printed('renamed Alpha');
    read = reads();
    const after = await lab.computer.tools.find({ window: w, text: 'Beta', role: 'button' });
    assert.match(after.text, /^0 matches/, after.text);
    assert.equal(reads(), read + 1, 'the rename made the find read again');
    assert.doesNotMatch(lab.out(), /^clicked /m, 'no click reached the app');
  } finally {
    await lab.close();
  }
});
