/**
 * A stale ref never acts on another element. Two rows, "alice" and "bob", each with an
 * "Archive" button (test/apps/rows.py). Observe, remove bob's row, click bob's old ref: the answer is
 * stale_ref with a fresh snapshot, and alice's button does not fire.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { killApp, ok, openComputer } from '../helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const APP = join(root, 'test', 'apps', 'rows.py');

test('clicking a removed row\'s Archive ref is stale_ref; the other row\'s Archive never fires', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-rows-'));
  writeFileSync(join(dir, 'settings.json'), '{}', { mode: 0o600 });
  const computer = await openComputer({
    allowApps: [`/usr/bin/python3 ${APP}`],
    auditPath: join(dir, 'audit.jsonl'),
    settingsPath: join(dir, 'settings.json'),
  });
  const app = spawn('/usr/bin/python3', [APP], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const waiters: (() => void)[] = [];
  app.stdout.setEncoding('utf8').on('data', (d: string) => { out += d; waiters.splice(0).forEach((w) => w()); });
  /** Waits (event-driven, bounded) until the app printed `line`. */
  const printed = async (line: string): Promise<void> => {
    const deadline = Date.now() + 20000;
    while (!out.split('\n').includes(line)) {
      if (Date.now() > deadline || app.exitCode !== null)
        assert.fail(`the app did not print "${line}"; it printed:\n${out}`);
      await new Promise<void>((r) => { waiters.push(r); setTimeout(r, 200); });
    }
  };
  try {
    await printed('ready');
    const snap = ok(await computer.tools.wait({ until: 'window_appears', text: 'Stale rows', timeoutMs: 15000 }));
    const lines = snap.split('\n');
    const archiveAfter = (who: string): string => {
      const at = lines.findIndex((l) => new RegExp(`label "${who}"`).test(l));
      assert.ok(at >= 0, `no row "${who}" in:\n${snap}`);
      const m = /\[(e\d+)\] button "Archive"/.exec(lines.slice(at).join('\n'));
      assert.ok(m?.[1], `no Archive button after "${who}" in:\n${snap}`);
      return m[1];
    };
    const bob = archiveAfter('bob');
    const alice = archiveAfter('alice');
    assert.notEqual(bob, alice);

    app.kill('SIGUSR1');
    await printed('removed bob');
    const res = await computer.tools.act({ actions: [{ ref: bob, op: 'click' }] });
    assert.equal(res.code, 'stale_ref', res.text);
    assert.match(res.text, /fresh snapshot:/);
    assert.doesNotMatch(res.text, new RegExp(`\\[${bob}\\] button "Archive"`), 'bob\'s ref shown on another button');

    // A barrier: alice's own ref clicks alice's button once; had the stale click reached it, there would be two.
    ok(await computer.tools.act({ actions: [{ ref: alice, op: 'click' }] }));
    await printed('archived alice');
    assert.deepEqual(out.split('\n').filter((l) => l.startsWith('archived')), ['archived alice'], out);
  } finally {
    await computer.close();
    if (app.pid) await killApp(app.pid);
  }
});
