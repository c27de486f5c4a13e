/**
 * The audit log after a crash mid-write, end to end: a log whose last line was torn (a writer killed in the
 * middle of a record), then a real act in zenity through a session. `computer-use audit` shows that act's
 * decision and completion and says one torn line was skipped; the record starts its own line in the file.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { killApp, ok, openComputer, refOn } from '../helpers.js';

const main = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'src', 'hosts', 'cli', 'main.js');

test('an act after a torn audit tail is listed by `computer-use audit`; the torn line is reported', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-audit-torn-'));
  const auditPath = join(dir, 'audit.jsonl');
  writeFileSync(join(dir, 'settings.json'), '{}', { mode: 0o600 });
  // A decision cut mid-write, as a kill -9 of the writing process leaves it.
  appendFileSync(
    auditPath,
    '{"v":1,"phase":"decided","id":"cut","time":"2026-01-01T00:00:00.000Z","session":"s","dev',
    { mode: 0o600 },
  );
  const computer = await openComputer({
    allowApps: ['zenity'],
    auditPath,
    settingsPath: join(dir, 'settings.json'),
    mode: 'accept-edits',
  });
  const zenity = spawn('zenity', ['--entry', '--title', 'Torn audit', '--text', 'name?'], { stdio: 'ignore' });
  try {
    const shown = ok(await computer.tools.wait({ until: 'window_appears', text: 'Torn audit', timeoutMs: 15000 }));
    const field = refOn(shown, /\] textbox\b.*editable/);
    ok(await computer.tools.act({ actions: [{ ref: field, op: 'set_value', value: 'after the crash' }] }));
    const text = readFileSync(auditPath, 'utf8');
    assert.match(text, /"dev\n\{"v":1,"phase":"decided"/, 'the new record starts its own line');
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [main, 'audit', '--path', auditPath], {
      env: { ...process.env, COMPUTER_USE_HOME: dir },
    });
    assert.match(stdout, /allowed\s+zenity: set_value \S+ textbox.*→ confirmed/, stdout);
    assert.match(stderr, /1 torn line skipped/, stderr);
  } finally {
    await computer.close();
    if (zenity.pid) await killApp(zenity.pid);
  }
});
