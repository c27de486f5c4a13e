/**
 * A deny-listed program must not start under another name. A "password manager" (a copy of
 * zenity named keepassxc) is started through a symlink, a copy, `sh -c` with split words, `env`, a python3
 * `-c` exec and `gio launch` of a .desktop file, in bypass and unattended mode with the wrapper and link names
 * allow-listed. Each must answer denied_by_policy and leave no process running. A script the user allowed
 * that execs it gets past the launch check; the window check after launch ends it.
 */
import assert from 'node:assert/strict';
import { chmodSync, copyFileSync, mkdtempSync, readdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { procInfo } from '../../../src/common/proc.js';
import type { Computer } from '../../../src/index.js';
import { openComputer } from '../helpers.js';

const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'cu-launch-id-')));
const keepass = join(tmp, 'keepassxc');
copyFileSync('/usr/bin/zenity', keepass);
chmodSync(keepass, 0o755);
symlinkSync(keepass, join(tmp, 'notes'));
copyFileSync(keepass, join(tmp, 'notes2'));
chmodSync(join(tmp, 'notes2'), 0o755);
writeFileSync(
  join(tmp, 'x.desktop'),
  `[Desktop Entry]\nType=Application\nName=Notes\nExec=${keepass} --info --text=x\n`,
);
const launcher = join(tmp, 'launcher');
writeFileSync(launcher, `#!/bin/sh\nexec ${keepass} --info --text=launched\n`);
chmodSync(launcher, 0o755);

const ALLOW = ['notes', 'notes2', 'zenity', 'sh', 'env', 'python3', 'gio', `/bin/sh ${launcher}`];
const ATTEMPTS: [string, string[]][] = [
  [join(tmp, 'notes'), ['--info', '--text=symlink']],
  [join(tmp, 'notes2'), ['--info', '--text=copy']],
  ['sh', ['-c', `exec ${tmp}/keep""assxc --info`]],
  ['env', ['FOO=1', join(tmp, 'notes2'), '--info']],
  ['python3', ['-c', `import os; os.execv("${tmp}/keep" + "assxc", ["notes", "--info"])`]],
  ['gio', ['launch', join(tmp, 'x.desktop')]],
];

const computers: Computer[] = [];
after(async () => {
  for (const c of computers) await c.close();
  for (const pid of running()) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } }
});

/** Pids whose proven executable is one of the test's files (the password manager under any name). */
function running(): number[] {
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number)
    .filter((pid) => procInfo(pid)?.executable?.startsWith(tmp + '/') === true);
}

async function noneRunning(what: string): Promise<void> {
  // Killed processes leave /proc at once or as zombies without an executable; poll with a bound.
  for (let i = 0; i < 40 && running().length; i++) await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(running(), [], `${what}: a process of the password manager runs`);
}

for (const mode of ['bypass', 'unattended'] as const) {
  test(`${mode}: the password manager does not start under another name`, async () => {
    const computer = await openComputer({ mode, allowApps: ALLOW });
    computers.push(computer);
    // Every attempt is tried, then all that got through are reported together.
    const through: string[] = [];
    for (const [command, args] of ATTEMPTS) {
      const r = await computer.tools.launch({ command, args, waitMs: 8000 });
      const what = `${command} ${args.join(' ')}`;
      if (r.code !== 'denied_by_policy') through.push(`${what}: ${r.text.split('\n')[0] ?? ''}`);
      for (const pid of running()) {
        through.push(`${what}: left pid ${pid} running`);
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
      await noneRunning(what);
    }
    assert.deepEqual(through, []);
  });

  test(`${mode}: an allowed script that execs the password manager is ended after launch`, async () => {
    const computer = await openComputer({ mode, allowApps: ALLOW });
    computers.push(computer);
    const r = await computer.tools.launch({ command: launcher, args: [], waitMs: 15000 });
    assert.equal(r.code, 'denied_by_policy', r.text);
    assert.match(r.text, /was ended/);
    await noneRunning('launcher');
  });
}
