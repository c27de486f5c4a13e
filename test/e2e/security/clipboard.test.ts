/**
 * Clipboard_read refuses content that came from a password field (the owner offers the
 * x-kde-passwordManagerHint target) or from a denied app (the owner's process is a password manager), and
 * paste / clipboard_write into a denied app are refused.
 *
 * The two read assertions need the driver to report `owner` with the clipboard text (protocol
 * `input.clipboard` → `owner: {pid, secret}`); without it the tool cannot tell who copied.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Computer } from '../../../src/index.js';
import { X11 } from '../../../src/drivers/linux/x11/connection.js';
import { XWindows } from '../../../src/drivers/linux/x11/windows.js';
import { killApp, openComputer } from '../helpers.js';

const OWNER = join(process.cwd(), 'test', 'apps', 'clipboard-owner.py');
let dir: string;
let computer: Computer;
const children: ChildProcess[] = [];

/** Starts a clipboard owner and resolves once it owns the CLIPBOARD selection. */
async function own(python: string, text: string, hint: boolean): Promise<ChildProcess> {
  const child = spawn(python, [OWNER, text, ...(hint ? [] : ['--no-hint'])], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => { out += d; if (out.includes('owned')) resolve(); });
    child.once('exit', (code) => reject(new Error(`clipboard owner exited with ${code}`)));
  });
  return child;
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cu-clip-'));
  process.env['COMPUTER_USE_HOME'] = join(dir, 'home');
  computer = await openComputer({ allowApps: ['clipboard'] });
});

after(async () => {
  for (const c of children) if (c.pid) await killApp(c.pid);
  await computer.close();
});

test('a clipboard that a password field filled (x-kde-passwordManagerHint) is not read', async () => {
  await own('/usr/bin/python3', 'hunter2-from-a-password-field', true);
  const r = await computer.tools.input({ action: 'clipboard_read' });
  assert.equal(r.code, 'denied_by_policy', r.text);
  assert.ok(!r.text.includes('hunter2'), r.text);
  assert.match(r.text, /password/);
});

test('a clipboard owned by a denied app (a password manager) is not read', async () => {
  const keepass = join(dir, 'keepassxc');
  await copyFile('/usr/bin/python3', keepass);
  await own(keepass, 'correct-horse-battery-staple', false);
  const r = await computer.tools.input({ action: 'clipboard_read' });
  assert.equal(r.code, 'denied_by_policy', r.text);
  assert.ok(!r.text.includes('horse'), r.text);
});

/** Pids of live processes running `exe` (to end what a test started, by pid). */
function pidsRunning(exe: string): number[] {
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number).filter((pid) => {
    try { return readlinkSync(`/proc/${pid}/exe`) === exe; } catch { return false; }
  });
}

test('a secret copied by a renamed xclip that forked into the background is not read', async () => {
  await mkdir(join(dir, 'x'), { recursive: true });
  const keepass = join(dir, 'x', 'keepassxc');
  await copyFile('/usr/bin/xclip', keepass);
  // xclip connects to the X server, then forks a server and its first process exits: the server's client pid
  // for the selection owner is that first, gone process.
  // Output not piped: the forked server inherits it and would keep spawnSync waiting.
  const first = spawnSync(keepass, ['-selection', 'clipboard', '-i'], {
    input: 'vault-password-Zq81',
    stdio: ['pipe', 'ignore', 'ignore'],
    timeout: 10_000,
  });
  assert.equal(first.status, 0, 'the renamed xclip failed');
  const x = await X11.open(process.env['DISPLAY']);
  try {
    const clipboard = await x.atom('CLIPBOARD');
    let ownerPid: number | undefined;
    for (let i = 0; i < 100 && ownerPid !== first.pid; i++) {
      const owner = await x.request<number>('GetSelectionOwner', clipboard);
      ownerPid = owner ? await new XWindows(x).serverPidOf(owner) : undefined;
      if (ownerPid !== first.pid) await new Promise((res) => setTimeout(res, 50));
    }
    assert.equal(
      ownerPid,
      first.pid,
      'the selection owner is not the first xclip process: the premise of this test does not hold',
    );
    assert.ok(pidsRunning(keepass).length > 0, 'the forked xclip is not running');
    const r = await computer.tools.input({ action: 'clipboard_read' });
    assert.equal(r.code, 'denied_by_policy', r.text);
    assert.ok(!r.text.includes('Zq81'), r.text);
  } finally {
    x.close();
    for (const pid of pidsRunning(keepass)) await killApp(pid);
  }
});

test('an ordinary clipboard is still read', async () => {
  await own('/usr/bin/python3', 'plain words to share', false);
  const r = await computer.tools.input({ action: 'clipboard_read' });
  assert.equal(r.isError, false, r.text);
  assert.match(r.text, /plain words to share/);
});

test('paste and clipboard_write aimed at a denied app are refused', async () => {
  await copyFile('/usr/bin/zenity', join(dir, 'keepassxc-gui'));
  const z = spawn(join(dir, 'keepassxc-gui'), ['--entry', '--title', 'Vault', '--text', 'x'], { stdio: 'ignore' });
  children.push(z);
  let listed = '';
  for (let i = 0; i < 200 && !/keepassxc/i.test(listed); i++) {
    listed = (await computer.tools.apps()).text;
    if (!/keepassxc/i.test(listed)) await new Promise((res) => setTimeout(res, 100));
  }
  const pasted = await computer.tools.input({ action: 'paste', app: 'keepassxc', text: 'injected' });
  assert.equal(pasted.code, 'denied_by_policy', pasted.text);
});
