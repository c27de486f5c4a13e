/**
 * A launcher's splash is never a launch's answer while the app it started runs. LibreOffice's oosplash starts
 * soffice.bin from a worker thread: its main thread lists no child, and on a fresh profile (every sandbox's own home)
 * the launch answered with the splash as an unreadable window (e2e launch-apps). Failed before: only the main
 * thread's children were read.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { startedOthers } from '../../src/drivers/linux/apps/x11apps.js';

test('a child started from another thread of the process counts as started by it', async () => {
  assert.equal(startedOthers(process.pid), false);
  const worker = new Worker(`
    const { spawn } = require('node:child_process');
    const { parentPort } = require('node:worker_threads');
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    parentPort.postMessage(child.pid);
    parentPort.on('message', () => { child.kill(); process.exit(0); });
  `, { eval: true });
  const pid = await new Promise<number>((resolve) => worker.once('message', resolve));
  try {
    assert.equal(startedOthers(process.pid), true);
  } finally {
    try { process.kill(pid); } catch { /* gone */ }
    await worker.terminate();
  }
  assert.equal(startedOthers(2 ** 22 + 7), false, 'a process that is gone');
});
