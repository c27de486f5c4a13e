/**
 * An act's re-read patched from the app's events (tree.snapshot with `since`, drivers/linux/tree/patch-read.ts) is
 * the read a whole re-read gives: after a check box toggled (one node's state), after a list's 30 rows were replaced
 * by new objects (a subtree replaced), after a dialog-free click that changed only a label elsewhere. Each act's
 * patched read is compared with a whole read taken right after it, through the real Linux driver on
 * test/apps/act-lab.py.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { Device } from '../../../src/devices/manager.js';
import type { SnapshotResult } from '../../../src/protocol/methods.js';
import type { RawNode } from '../../../src/protocol/nodes.js';
import { killApp } from '../helpers.js';
import { LAB } from './lab.js';

function find(n: RawNode, role: string, name: string): RawNode | undefined {
  if (n.role === role && n.name === name) return n;
  for (const c of n.children ?? []) { const hit = find(c, role, name); if (hit) return hit; }
  return undefined;
}

test("a patched re-read after an act equals a whole read of the window", async () => {
  const app = spawn('/usr/bin/python3', [LAB], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  app.stdout.setEncoding('utf8').on('data', (d: string) => { out += d; });
  const device = new Device({ platform: 'linux', env: process.env as Record<string, string>, timeoutMs: 30_000 });
  try {
    const deadline = Date.now() + 20_000;
    while (!out.includes('ready\n')) {
      assert.ok(Date.now() < deadline, `act-lab did not start: ${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const { apps } = await device.call('apps.list', { withWindows: true });
    const window = apps.find((a) => a.pid === app.pid)?.windows[0];
    assert.ok(window, 'the lab window is listed');
    let last: SnapshotResult = await device.call('tree.snapshot', { window: window.id });
    const patchedKinds: number[] = [];
    const acts = [['checkbox', 'Agree'], ['button', 'Rebuild'], ['checkbox', 'Agree'], ['checkbox', 'Agree']] as const;
    for (const [role, name] of acts) {
      const target = find(last.root, role, name);
      assert.ok(target, `${role} "${name}" is in the read`);
      await device.call('node.act', { id: target.id, op: 'click' });
      await device.call('ui.settle', { window: window.id, timeoutMs: 3000 });
      const patched: SnapshotResult = await device.call('tree.snapshot', { window: window.id, since: last.mark! });
      const whole: SnapshotResult = await device.call('tree.snapshot', { window: window.id });
      assert.deepEqual(patched.root, whole.root, `after clicking ${role} "${name}" the patched read is the whole read`);
      if (patched.stats.reread !== undefined) patchedKinds.push(patched.stats.reread);
      last = whole;
    }
    // A toggle of the check box is patched (its state event names the node), not read whole; the first act after
    // the app started may still meet its start-up events and read whole.
    assert.ok(patchedKinds.length >= 1, `a check box's re-read was patched (${patchedKinds.length} of ${acts.length})`);
  } finally {
    await device.close();
    if (app.pid) await killApp(app.pid);
  }
});
