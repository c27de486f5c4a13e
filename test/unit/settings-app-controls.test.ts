/** Allow/deny from a host with no computer yet (pi's /computer allow|deny) go through the policy's own writes. */
import assert from 'node:assert/strict';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { settingsAppControls } from '../../src/index.js';
import { loadSettings } from '../../src/policy/settings.js';

test('settingsAppControls writes allowApps and denyApps as PolicyControls do, owner-only, and removes entries', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'cu-app-controls-')), 'settings.json');
  const controls = settingsAppControls(path);
  assert.equal(controls.settingsPath, path);
  controls.allowApp('gedit');
  controls.denyApp('firefox');
  controls.denyApp('firefox');
  let { settings } = loadSettings(path);
  assert.deepEqual(settings.allowApps, ['gedit'], 'the tool\'s own allow write applies without a confirmation');
  assert.deepEqual(settings.denyApps, ['firefox']);
  assert.equal(statSync(path).mode & 0o777, 0o600);
  controls.removeApp('GEDIT', 'allow');
  controls.removeApp('firefox', 'deny');
  ({ settings } = loadSettings(path));
  assert.deepEqual(settings.allowApps ?? [], []);
  assert.deepEqual(settings.denyApps ?? [], []);
});
