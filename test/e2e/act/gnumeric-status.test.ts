/**
 * Keys whose effect shows late: gnumeric's status "Sum = …" follows a selection made by keys on a timer (its
 * auto-expression recalc lag, measured ~190 ms after the selection's last event), after the keys' own events went
 * quiet. The keys' diff must show the sum of the range the keys selected, not the one of a cell passed on the
 * way (before: 4 of 5 diffs read "Sum = 1", the cell ctrl+Home passed, while the window then showed "Sum = 6").
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { E2E_APPS, killApp, ok, openComputer } from '../helpers.js';

test('gnumeric: the diff of keys that select a range shows the range\'s sum', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-act-gnumeric-'));
  writeFileSync(join(dir, 'settings.json'), '{}', { mode: 0o600 });
  const computer = await openComputer({
    auditPath: join(dir, 'audit.jsonl'),
    settingsPath: join(dir, 'settings.json'),
    allowApps: [...E2E_APPS, 'gnumeric'],
  });
  const app = spawn('gnumeric', ['--no-splash'], {
    env: { ...process.env, GSETTINGS_BACKEND: 'memory', HOME: dir },
    stdio: 'ignore',
  });
  try {
    ok(await computer.tools.wait({ until: 'window_appears', text: 'Gnumeric', timeoutMs: 30000 }));
    ok(await computer.tools.keys({ keys: '1 Return 2 Return 3 Return', app: 'gnumeric' }));
    // Alternating ranges, so that each selection changes the sum: A1:A3 (6), A2:A3 (5), …
    for (const [keys, sum] of [
      ['ctrl+Home shift+Down shift+Down', 6],
      ['ctrl+Home Down shift+Down', 5],
      ['ctrl+Home shift+Down shift+Down', 6],
      ['ctrl+Home Down shift+Down', 5],
    ] as const) {
      const r = ok(await computer.tools.keys({ keys, app: 'gnumeric' }));
      assert.match(r, new RegExp(`label name "Sum = \\d+" → "Sum = ${sum}"`), r);
    }
  } finally {
    await computer.close();
    if (app.pid) await killApp(app.pid);
  }
});
