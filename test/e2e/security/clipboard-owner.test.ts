/**
 * The clipboard, the driver's half: a clipboard read names the owner of the CLIPBOARD selection (its pid,
 * from the X server) and marks it secret when the owner offers the password managers' hint target; the
 * text of a secret copy never leaves the driver.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { after, test } from 'node:test';
import { Device } from '../../../src/devices/manager.js';

const device = new Device({ platform: 'linux', timeoutMs: 20_000 });
const owners: ChildProcess[] = [];
after(async () => {
  for (const o of owners) o.kill('SIGKILL');
  await device.close();
});

/** Starts an xclip in the foreground (-quiet) that owns CLIPBOARD with `text` as `target`. */
async function own(text: string, target: string): Promise<ChildProcess> {
  const p = spawn('xclip', ['-quiet', '-selection', 'clipboard', '-t', target, '-i'], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  owners.push(p);
  p.stdin!.end(text);
  // xclip owns the selection once it has read its input; ask until the owner is this process (bounded).
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const r = await device.call('input.clipboard', { action: 'read' });
    if (r.owner?.pid === p.pid) return p;
    await new Promise((res) => setTimeout(res, 50));
  }
  assert.fail('xclip never became the clipboard owner');
}

test('an ordinary copy: the owner pid is reported, not secret, the text is read', async () => {
  const p = await own('plain words', 'UTF8_STRING');
  const r = await device.call('input.clipboard', { action: 'read' });
  assert.equal(r.owner?.pid, p.pid);
  assert.equal(r.owner?.secret, false);
  assert.equal(r.owner?.unproven, undefined);
  assert.equal(r.text, 'plain words');
  p.kill();
});

test('a copy offering x-kde-passwordManagerHint is secret: owner reported, no text', async () => {
  const p = await own('hunter2-clip', 'x-kde-passwordManagerHint');
  const r = await device.call('input.clipboard', { action: 'read' });
  assert.equal(r.owner?.pid, p.pid);
  assert.equal(r.owner?.secret, true);
  assert.equal(r.text, undefined);
  assert.ok(!JSON.stringify(r).includes('hunter2'));
  p.kill();
});

test('a copy held by a forked xclip (its first process gone) is unproven: no pid, no text', async () => {
  // Output not piped: the forked server inherits it and would keep spawnSync waiting.
  const first = spawnSync('xclip', ['-selection', 'clipboard', '-i'], {
    input: 'forked-secret-77',
    stdio: ['pipe', 'ignore', 'ignore'],
    timeout: 10_000,
  });
  assert.equal(first.status, 0);
  let r = await device.call('input.clipboard', { action: 'read' });
  for (let i = 0; i < 100 && !r.owner?.unproven; i++) {
    await new Promise((res) => setTimeout(res, 50));
    r = await device.call('input.clipboard', { action: 'read' });
  }
  assert.equal(r.owner?.unproven, true, JSON.stringify(r.owner));
  assert.equal(r.owner?.pid, undefined);
  assert.ok(!JSON.stringify(r).includes('forked-secret'));
  // The driver's own write is held by the xclip it started, so it reads back (and ends the forked server).
  await device.call('input.clipboard', { action: 'write', text: 'written back' });
  const back = await device.call('input.clipboard', { action: 'read' });
  assert.equal(back.text, 'written back');
  assert.equal(back.owner?.unproven, undefined);
});
