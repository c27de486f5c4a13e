/**
 * Writing into a focused password field always asks, even with no prior observe. A zenity
 * password dialog has its field focused; computer_keys "s e c r e t Return" and computer_input paste are
 * refused for lack of a human to confirm (confirmation_required), in accept-edits mode with zenity
 * allow-listed, and the field stays empty.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Computer, ToolResult } from '../../../src/index.js';
import { ok, openComputer, refOn } from '../helpers.js';

/** Opens a zenity password dialog, runs `write` against it with nothing observed, then submits it and checks the field was empty. */
async function intoPasswordField(title: string, write: (computer: Computer) => Promise<ToolResult>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cu-pwkeys-'));
  writeFileSync(join(dir, 'settings.json'), '{}', { mode: 0o600 });
  const computer = await openComputer({
    mode: 'accept-edits',
    allowApps: ['zenity'],
    auditPath: join(dir, 'audit.jsonl'),
    settingsPath: join(dir, 'settings.json'),
  });
  const zenity = spawn('zenity', ['--password', '--title', title], { stdio: ['ignore', 'pipe', 'ignore'] });
  let printed = '';
  zenity.stdout.setEncoding('utf8').on('data', (d: string) => { printed += d; });
  const exited = new Promise<void>((resolve) => zenity.once('exit', () => resolve()));
  try {
    // Wait for the window without observing it: computer_apps lists windows, it reads no tree.
    for (let i = 0; !(await computer.tools.apps()).text.includes(title); i++) {
      assert.ok(i < 150, 'the zenity window did not appear');
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(computer.session.last.size, 0, 'nothing was observed yet');
    const res = await write(computer);
    assert.equal(res.code, 'confirmation_required', res.text);
    assert.match(res.text, /password field/);
    assert.doesNotMatch(res.text, /secret/);
    assert.equal(zenity.exitCode, null, `zenity was submitted; it printed ${JSON.stringify(printed)}`);
    const snap = ok(await computer.tools.observe({ full: true, window: title }));
    ok(await computer.tools.act({ actions: [{ ref: refOn(snap, /\] button "OK"/), op: 'click' }] }));
    await exited;
    // zenity prints what the field held: nothing.
    assert.equal(printed.trim(), '');
  } finally {
    zenity.kill();
    await computer.close();
  }
}

test('computer_keys typing into a focused password field asks, with no prior observe', async () => {
  await intoPasswordField('Unlock keys test', (c) =>
    c.tools.keys({ keys: 's e c r e t Return', window: 'Unlock keys test' }),
  );
});

test('computer_input paste into a focused password field asks, with text and without', async () => {
  await intoPasswordField('Unlock paste test', (c) =>
    c.tools.input({ action: 'paste', text: 'secret', window: 'Unlock paste test' }),
  );
  await intoPasswordField('Unlock clipboard test', (c) =>
    c.tools.input({ action: 'paste', window: 'Unlock clipboard test' }),
  );
});
