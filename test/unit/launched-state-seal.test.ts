/**
 * The processes a launch became, kept in the CLI's state file so the launch's allow entry covers them in the next
 * call, count only when computer-use wrote them: the state file is the user's own file, which a same-user agent can
 * edit, and an entry in it hands a process the allow entry of another program (a terminal under gedit's entry).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Session } from '../../src/session/session.js';
import { allowAllGate, type PolicyGate } from '../../src/policy/gate.js';

function recordingGate(): { gate: PolicyGate; noted: number[] } {
  const noted: number[] = [];
  return { noted, gate: { ...allowAllGate, noteLaunched: (proc) => { noted.push(proc.pid); } } };
}

test('a launched process written into the state file by anything but computer-use covers nothing', () => {
  const home = mkdtempSync(join(tmpdir(), 'cu-launched-seal-'));
  const saved = process.env['COMPUTER_USE_HOME'];
  process.env['COMPUTER_USE_HOME'] = home;
  try {
    const statePath = join(home, 'sessions', 'desktop.json');
    // computer-use's own write: restored in the next call.
    const first = new Session({ statePath });
    first.noteLaunched({ pid: 4242, startToken: '1' }, ['gedit'], undefined);
    first.save();
    const mine = recordingGate();
    new Session({ statePath, gate: mine.gate });
    assert.deepEqual(mine.noted, [4242]);
    // A forged entry (a terminal's pid under gedit's launch): not restored.
    const state = JSON.parse(readFileSync(statePath, 'utf8')) as {
      launched: { pid: number; startToken: string; argv: string[] }[];
    };
    state.launched.push({ pid: 777, startToken: '9', argv: ['gedit'] });
    writeFileSync(statePath, JSON.stringify(state));
    const forged = recordingGate();
    new Session({ statePath, gate: forged.gate });
    assert.deepEqual(forged.noted, [], 'an edited list restores nothing');
  } finally {
    if (saved === undefined) delete process.env['COMPUTER_USE_HOME']; else process.env['COMPUTER_USE_HOME'] = saved;
    rmSync(home, { recursive: true, force: true });
  }
});
