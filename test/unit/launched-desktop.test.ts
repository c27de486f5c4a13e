/**
 * A launch that shows no window is listed by the app list of the desktop it was launched on, never by another
 * desktop's: the marker a launch leaves names its desktop. (Two sandbox desktops on one machine each listed the
 * other's launches as "no window", with their names: a model saw apps it never started.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { LAUNCH_MARKER, launchMark, windowlessLaunches } from '../../src/drivers/linux/apps/launched.js';

test('a windowless launch is listed on its own desktop only', async () => {
  const here = spawn('sleep', ['30'], {
    env: { ...process.env, [LAUNCH_MARKER]: launchMark({ DISPLAY: ':71' }) },
    stdio: 'ignore',
  });
  const there = spawn('sleep', ['30'], {
    env: { ...process.env, [LAUNCH_MARKER]: launchMark({ DISPLAY: ':72' }) },
    stdio: 'ignore',
  });
  try {
    await new Promise((r) => setTimeout(r, 200));
    const pids = windowlessLaunches(new Set(), { DISPLAY: ':71' }).map((a) => a.pid);
    assert.ok(pids.includes(here.pid!), `its own desktop's launch is listed: ${pids.join(' ')}`);
    assert.ok(!pids.includes(there.pid!), 'another desktop\'s launch is not');
  } finally { here.kill(); there.kill(); }
});
