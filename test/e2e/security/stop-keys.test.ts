/**
 * The emergency stop aborts an in-flight computer_keys. A long keys call types into gedit;
 * once the first characters arrived, `computer-use stop` is requested: the call answers `paused`, the text
 * stops growing right after the stop, and the audit "done" record of the keys says stopped.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { RawNode } from '../../../src/engine/node.js';
import { walk } from '../../../src/engine/node.js';
import { requestResume, requestStop } from '../../../src/policy/stop.js';
import { killApp, launch, openComputer } from '../helpers.js';

// The stop pauses every session of a home: this test gets its own.
const home = mkdtempSync(join(tmpdir(), 'cu-stopkeys-'));
process.env['COMPUTER_USE_HOME'] = home;
const CHORDS = 60;

test('a stop during a long computer_keys answers paused and no key arrives after it', async () => {
  writeFileSync(join(home, 'settings.json'), '{}', { mode: 0o600 });
  const audit = join(home, 'audit.jsonl');
  const computer = await openComputer({
    allowApps: ['gedit'],
    auditPath: audit,
    settingsPath: join(home, 'settings.json'),
  });
  const { pid } = await launch(computer, 'gedit');
  try {
    const window = await computer.session.resolveWindow({ app: 'gedit' });
    /** The document's text length, read from the live tree. */
    const length = async (): Promise<number> => {
      const raw = await computer.session.readWindow(window);
      let doc: RawNode | undefined;
      walk(raw.root, (n) => {
        if (!doc && (n.role === 'document' || (n.role === 'textbox' && n.states.includes('multiline')))) doc = n;
      });
      return doc?.valueLength ?? [...(doc?.value ?? '')].length;
    };
    assert.equal(await length(), 0);
    const keys = Array.from({ length: CHORDS }, (_, i) => 'asdf'[i % 4]).join(' ');
    const running = computer.tools.keys({ keys, app: 'gedit' });
    // Stop once the first characters arrived: the call is then surely in flight.
    for (let i = 0; (await length()) === 0; i++) {
      assert.ok(i < 400, 'no character arrived');
      await new Promise((r) => setTimeout(r, 10));
    }
    requestStop(home, 'test');
    const res = await running;
    assert.equal(res.code, 'paused', res.text);
    // Keys sent before the answer may still sit in gedit's event queue: read once gedit has caught up (the
    // driver's own lag is the unit test's in devices.test.ts, "a stopped input call answers only once…").
    let first = await length();
    for (let i = 0; i < 20; i++) {
      await new Promise((r) => setTimeout(r, 150));
      const now = await length();
      if (now === first) break;
      first = now;
    }
    await new Promise((r) => setTimeout(r, 500));
    const second = await length();
    assert.equal(second, first, `${second - first} characters arrived after the stop answered`);
    assert.ok(second < CHORDS, `all ${CHORDS} keys were typed: the stop did not cut the call short`);
    // The keys' audit record ends as stopped (the receipt is unknown: it partly happened).
    let done: { receipt?: string } | undefined;
    for (let i = 0; i < 100 && !done; i++) {
      const records = readFileSync(audit, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { phase: string; tool?: string; id: string; receipt?: string });
      const decided = records.filter((r) => r.phase === 'decided' && r.tool === 'computer_keys').at(-1);
      done = records.find((r) => r.phase === 'done' && r.id === decided?.id);
      if (!done) await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(done?.receipt, 'stopped');
  } finally {
    requestResume(home);
    await computer.close();
    await killApp(pid);
  }
});
