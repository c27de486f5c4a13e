/** A password field (zenity --password): the secret is written, never read back into any output or file. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ok, openComputer, refOn } from './helpers.js';

const SECRET = 'S3cr3t-hunter2-密码';

test('a password typed through the tools never appears in any output or state file', async () => {
  const stateDir = await mkdtemp(join(tmpdir(), 'cu-pw-'));
  const statePath = join(stateDir, 'session.json');
  const computer = await openComputer({ statePath });
  const zenity = spawn('zenity', ['--password', '--title', 'Unlock test'], { stdio: ['ignore', 'pipe', 'ignore'] });
  let printed = '';
  zenity.stdout.setEncoding('utf8').on('data', (d: string) => { printed += d; });
  const outputs: string[] = [];
  try {
    const waited = ok(await computer.tools.wait({ until: 'window_appears', text: 'Unlock test', timeoutMs: 15000 }));
    outputs.push(waited);
    const field = refOn(waited, /\] textbox .*password/);
    const okButton = refOn(waited, /\] button "OK"/);
    const set = await computer.tools.act({ actions: [{ ref: field, op: 'set_value', value: SECRET }] });
    outputs.push(set.text);
    assert.equal(set.isError, false, set.text);
    const observed = ok(await computer.tools.observe({ full: true, window: 'Unlock test' }));
    outputs.push(observed);
    assert.match(observed, new RegExp(`\\[${field}\\] textbox value="••••".*password`));
    // Searching for the secret finds nothing: the field's text is not searchable. (The query itself is echoed.)
    const found = ok(await computer.tools.find({ text: 'hunter2', window: 'Unlock test' }));
    assert.match(found, /^0 matches/);
    outputs.push(found.replaceAll('"hunter2"', '"<query>"'));
    const waitedFor = await computer.tools.wait({
      until: 'appears',
      text: 'hunter2',
      window: 'Unlock test',
      timeoutMs: 300,
    });
    assert.equal(waitedFor.code, 'timeout');
    outputs.push(waitedFor.text);
    const clicked = await computer.tools.act({ actions: [{ ref: okButton, op: 'click' }] });
    outputs.push(clicked.text);
    await new Promise<void>((resolve) => {
      if (zenity.exitCode !== null) resolve();
      else zenity.once('exit', () => resolve());
    });
  } finally {
    zenity.kill();
    await computer.close();
  }
  // The secret really reached the field: zenity prints what was entered.
  assert.equal(printed.trim(), SECRET);
  for (const text of outputs) {
    assert.ok(!text.includes(SECRET) && !text.includes('hunter2'), `secret leaked in:\n${text}`);
  }
  const state = await readFile(statePath, 'utf8');
  assert.ok(!state.includes('hunter2'), 'secret leaked into the session state file');
});
