/**
 * A denied app is unseen, not just untouchable. A "password manager" (zenity copied to a file
 * named keepassxc, so its executable proves the name) shows a recovery phrase; no read tool may return it.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Computer, ToolResult } from '../../../src/index.js';
import { killApp, openComputer } from '../helpers.js';

const PHRASE = 'recovery phrase: alpha bravo charlie delta';
const TITLE = 'Vault Quokka';
let dir: string;
let keepass: string;
let computer: Computer;
const children: ChildProcess[] = [];
const answers: string[] = [];

/** Starts the fake password manager (not through computer_launch: launch checks are another concern). */
function startVault(title = TITLE): ChildProcess {
  const child = spawn(keepass, ['--entry', '--title', title, '--text', PHRASE], { stdio: 'ignore' });
  children.push(child);
  return child;
}

/** Polls the desktop (below the tools, bounded) until the vault's window with `title` is up. */
async function waitListed(title = TITLE): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const apps = await computer.session.apps();
    if (apps.some((a) => a.windows.some((w) => w.title === title))) return;
    await new Promise((res) => setTimeout(res, 100));
  }
  assert.fail('the vault window never showed up');
}

const refused = (r: ToolResult): void => {
  answers.push(r.text);
  assert.equal(r.code, 'denied_by_policy', r.text);
};

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cu-unseen-'));
  process.env['COMPUTER_USE_HOME'] = join(dir, 'home');
  keepass = join(dir, 'keepassxc');
  await copyFile('/usr/bin/zenity', keepass);
  computer = await openComputer({ allowScreenshots: true, imageInput: true });
  startVault();
  await waitListed();
});

after(async () => {
  for (const c of children) if (c.pid) await killApp(c.pid);
  await computer.close();
});

test('computer_apps lists the vault as denied, with no title and no window ref', async () => {
  const text = (await computer.tools.apps()).text;
  answers.push(text);
  const line = text.split('\n').find((l) => /keepassxc/i.test(l));
  assert.ok(line && /\(denied: .*password manager/.test(line), text);
  assert.ok(!text.includes(TITLE), text);
  const idx = text.split('\n').indexOf(line);
  assert.ok(
    !/^\s+\[w\d+\]/.test(text.split('\n')[idx + 1] ?? ''),
    `a window ref is listed under the denied app:\n${text}`,
  );
});

test('observe refuses the vault by app, by title and as the focused window', async () => {
  refused(await computer.tools.observe({ full: true, app: 'keepassxc' }));
  refused(await computer.tools.observe({ full: true, window: TITLE }));
  refused(await computer.tools.observe({ full: true }));
});

test('find refuses the vault', async () => {
  refused(await computer.tools.find({ text: 'bravo', app: 'keepassxc' }));
  refused(await computer.tools.find({ text: 'bravo' }));
});

test('wait refuses the vault; window_appears never matches a denied window', async () => {
  refused(await computer.tools.wait({ until: 'appears', text: 'bravo', app: 'keepassxc', timeoutMs: 2000 }));
  const byTitle = await computer.tools.wait({ until: 'window_appears', text: 'Quokka', timeoutMs: 1500 });
  answers.push(byTitle.text);
  assert.equal(byTitle.code, 'timeout', byTitle.text);
  // A new denied window while waiting for any new window: not matched, not snapshotted.
  const waiting = computer.tools.wait({ until: 'window_appears', timeoutMs: 6000 });
  startVault('Vault Second');
  await waitListed('Vault Second');
  const any = await waiting;
  answers.push(any.text);
  assert.equal(any.code, 'timeout', any.text);
});

test('screenshot (ocr and image) refuses the vault', async () => {
  refused(await computer.tools.screenshot({ app: 'keepassxc' }));
  refused(await computer.tools.screenshot({ app: 'keepassxc', mode: 'image' }));
});

test('no answer contains the phrase or the title', () => {
  for (const a of answers) {
    assert.ok(!a.includes('bravo') && !a.includes('Quokka') && !a.includes('Vault Second'), `leaked in:\n${a}`);
  }
});
