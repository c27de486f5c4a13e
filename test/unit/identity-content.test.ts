/**
 * Identity by content on the read paths (docs/policy.md, "One app, one allow entry"): a window whose driver reports
 * that its
 * executable is a copy of a denied program (`sameAs`) is unseen even under an allow-listed name. The e2e twin
 * (test/e2e/security/identity-content.test.ts) runs a renamed copy of the real seahorse; this one pins that the
 * host passes the driver's `sameAs` to the policy on every listing and read.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import { createComputer } from '../../src/index.js';
import { widgetFactory } from '../fixtures/engine/widget-factory.js';

const home = mkdtempSync(join(tmpdir(), 'cu-identity-content-'));
process.env['COMPUTER_USE_HOME'] = home;

test('a window whose executable is a copy of seahorse is denied by its content on apps, observe and find', async () => {
  const w = widgetFactory();
  // A pid no process on this machine can have (pid_max is at most 2^22), so no host fact can stand in.
  Object.assign(w.window, { app: 'notes', pid: 2_000_000_003, title: 'My notes', executable: '/home/u/bin/notes',
    appId: '/home/u/bin/notes', sameAs: ['/usr/bin/seahorse'] });
  const driver = new FakeDriver([{ info: w.window, root: w.root }]);
  const c = await createComputer({
    desktop: 'current',
    mode: 'bypass',
    allowApps: ['notes'],
    settingsPath: join(home, 'settings.json'),
    auditPath: join(home, 'audit.jsonl'),
    connect: () => driver.connect(),
    showActivity: false,
  });
  try {
    const apps = (await c.call('computer_apps', {})).text;
    assert.match(apps, /hidden: .*keyring or credential manager/, apps);
    assert.doesNotMatch(apps, /My notes|\[w\d+\]/, 'no title and no window ref of the copy');
    for (const r of [
      await c.call('computer_observe', { app: 'notes' }),
      await c.call('computer_find', { app: 'notes', text: 'Row 1' }),
    ]) {
      assert.equal(r.code, 'denied_by_policy', r.text);
      assert.doesNotMatch(r.text, /My notes|Row 1/, 'nothing of the window reaches the model');
    }
  } finally { await c.close(); }
});
