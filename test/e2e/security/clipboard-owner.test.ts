/**
 * Issue 8 item 4, the driver's half: a clipboard read names the owner of the CLIPBOARD selection (its pid,
 * from the X server) and marks it secret when the owner offers the password managers' hint target; the
 * text of a secret copy never leaves the driver.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
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
  const p = spawn('xclip', ['-quiet', '-selection', 'clipboard', '-t', target, '-i'], { stdio: ['pipe', 'ignore', 'ignore'] });
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
  assert.deepEqual(r.owner, { pid: p.pid, secret: false });
  assert.equal(r.text, 'plain words');
  p.kill();
});

test('a copy offering x-kde-passwordManagerHint is secret: owner reported, no text', async () => {
  const p = await own('hunter2-clip', 'x-kde-passwordManagerHint');
  const r = await device.call('input.clipboard', { action: 'read' });
  assert.deepEqual(r.owner, { pid: p.pid, secret: true });
  assert.equal(r.text, undefined);
  assert.ok(!JSON.stringify(r).includes('hunter2'));
  p.kill();
});
