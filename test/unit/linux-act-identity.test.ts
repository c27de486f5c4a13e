/**
 * The Linux driver's proof at dispatch (capability act_identity): node.act's `expect` pid, start token and appId
 * are checked against /proc for the process the bus daemon says owns the element; anything else refuses the act.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { procInfo } from '../../src/common/proc.js';
import { processMismatch } from '../../src/drivers/linux/apps/identity.js';

const linux = process.platform === 'linux';

test('the process the host decided on passes; another pid, start token or program is refused', { skip: !linux }, () => {
  const me = procInfo(process.pid)!;
  const startToken = String(me.startTime);
  const appId = me.executable!;
  assert.equal(processMismatch({ pid: process.pid, startToken, appId }, process.pid), undefined);
  assert.equal(processMismatch({}, 0), undefined, 'nothing expected: nothing to prove');
  assert.match(processMismatch({ pid: process.pid, startToken }, process.ppid) ?? '', /belongs to process \d+, not/);
  assert.match(
    processMismatch({ pid: process.pid, startToken: `${startToken}1` }, process.pid) ?? '',
    /another process \(another start time\)/,
  );
  assert.match(
    processMismatch({ pid: process.pid, startToken, appId: '/usr/bin/true' }, process.pid) ?? '',
    /runs another program/,
  );
  // The bus daemon could not say (0), or the process is gone.
  assert.match(processMismatch({ pid: process.pid }, 0) ?? '', /cannot be proven/);
  assert.match(processMismatch({ pid: 2_000_000_001 }, 2_000_000_001) ?? '', /has exited/);
});
