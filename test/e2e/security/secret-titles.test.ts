/**
 * A token in a window title is masked like a value everywhere: computer_apps, the observe
 * header, find, the OCR header, wait, and the CLI session file.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { killApp, ok, openComputer } from '../helpers.js';

const GHP = 'ghp_' + 'aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6';
const SK = 'sk-' + 'proj-Qw3rTy7uIo9pAs2dFg5hJk8l';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
const TOKENS = [GHP, SK, JWT];

test('tokens in window titles are masked in every answer and in the session file', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cu-titles-'));
  process.env['COMPUTER_USE_HOME'] = join(dir, 'home');
  const statePath = join(dir, 'session.json');
  const computer = await openComputer({ statePath });
  // Window two opens first, so window one (shown over it: both open at the same place) is the one on top
  // for the screenshot below; a window below another is not captured (capture-cover.test.ts).
  const children: ChildProcess[] = [
    spawn('zenity', ['--info', '--title', `key ${SK} and ${JWT}`, '--text', 'Token window two'], { stdio: 'ignore' }),
  ];
  const answers: string[] = [];
  try {
    answers.push(ok(await computer.tools.wait({ until: 'window_appears', text: 'key ', timeoutMs: 15000 })));
    children.push(
      spawn('zenity', ['--info', '--title', `deploy ${GHP}`, '--text', 'Token window one'], { stdio: 'ignore' }),
    );
    const waited = ok(await computer.tools.wait({ until: 'window_appears', text: 'deploy', timeoutMs: 15000 }));
    answers.push(waited);
    const apps = ok(await computer.tools.apps());
    answers.push(apps);
    assert.match(apps, /deploy ••••\(secret\)/);
    const one = /\[(w\d+)\][^\n]*deploy/.exec(apps)?.[1];
    const two = /\[(w\d+)\][^\n]*"key /.exec(apps)?.[1];
    assert.ok(one && two, apps);
    const observed = ok(await computer.tools.observe({ full: true, window: one }));
    answers.push(observed);
    assert.match(observed.split('\n').find((l) => l.startsWith('app ')) ?? '', /deploy ••••\(secret\)/);
    answers.push(ok(await computer.tools.observe({ full: true, window: two })));
    answers.push(ok(await computer.tools.find({ text: 'Token window', window: one })));
    answers.push(ok(await computer.tools.find({ text: 'Token window', window: two })));
    answers.push(ok(await computer.tools.screenshot({ window: one })));
    answers.push(
      ok(await computer.tools.wait({ until: 'appears', text: 'Token window', window: two, timeoutMs: 5000 })),
    );
  } finally {
    for (const c of children) if (c.pid) await killApp(c.pid);
    await computer.close();
  }
  const state = await readFile(statePath, 'utf8');
  for (const t of TOKENS) {
    for (const a of answers)
      assert.ok(!a.includes(t) && !a.includes(t.slice(0, 20)), `token ${t.slice(0, 6)}… leaked in:\n${a}`);
    assert.ok(!state.includes(t.slice(0, 20)), `token ${t.slice(0, 6)}… leaked into the session file`);
  }
});
