/**
 * A terminal launched with no command is the user's terminal and an allow entry names it; a terminal told to run
 * a program (-e, -x, --command, a Debian `.wrapper` script's -e) runs a program named in its arguments, which
 * nothing proves. Measured by hand before the fix: with only `--allow-app xfce4-terminal`, unattended
 * `launch xfce4-terminal.wrapper -e touch /tmp/x` ran touch (the perl wrapper was judged as a packaged script).
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { resolveLaunch, resolveLaunchFacts } from '../../src/drivers/linux/apps/resolve.js';
import { Policy } from '../../src/policy/policy.js';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cu-term-')));
// A Debian-style terminal wrapper (x-terminal-emulator's target): a perl script that hands its -e to the terminal.
const wrapper = join(dir, 'xfce4-terminal.wrapper');
writeFileSync(wrapper, '#!/usr/bin/perl -w\nexec("xfce4-terminal", @ARGV);\n');
chmodSync(wrapper, 0o755);
const ctx = { path: `${dir}:/usr/bin:/bin`, cwd: dir };

/** A launch request with the facts the Linux driver reports for it (apps.resolveLaunch). */
const launchReq = (argv: string[]) => ({
  kind: 'launch' as const,
  tool: 'computer_launch' as const,
  command: argv.join(' '),
  argv,
  launch: resolveLaunchFacts({ command: argv[0]!, args: argv.slice(1) }),
});

test('a terminal wrapper script told to run a command is a terminal running a command: unproven', () => {
  for (const args of [['-e', 'touch /tmp/x'], ['-e', 'touch', '/tmp/x'], ['-x', 'ls'], ['--command=ls']]) {
    const r = resolveLaunch(['xfce4-terminal.wrapper', ...args], ctx);
    assert.ok(r.unproven, args.join(' '));
    assert.equal(r.runsCommand, true, args.join(' '));
    assert.equal(r.executable, undefined, args.join(' '));
  }
  // With no command it is the terminal's launcher script: proven as its interpreter and the script.
  const plain = resolveLaunch(['xfce4-terminal.wrapper'], ctx);
  assert.equal(plain.unproven, undefined);
  assert.match(plain.executable ?? '', /perl/);
  assert.deepEqual(plain.argv.slice(-1), [wrapper]);
});

const hasTerminal = existsSync('/usr/bin/xfce4-terminal');
const hasWrapper = existsSync('/usr/bin/xfce4-terminal.wrapper');

test('unattended with an entry for the terminal: started ' +
    'with no command, refused with one', { skip: !hasTerminal && 'xfce4-terminal is not installed' }, async () => {
  // x-terminal-emulator is the command /usr/bin gives the wrapper (launch-one-entry.test.ts): it names that launcher.
  const policy = new Policy({
    mode: 'unattended',
    allowApps: ['xfce4-terminal', 'x-terminal-emulator'],
    audit: false,
    settingsPath: false,
    hostPids: [],
  });
  for (const argv of [
    ['xfce4-terminal'],
    ['xfce4-terminal', '--disable-server', '--maximize'],
    ['xfce4-terminal', '--working-directory=/tmp'],
    ...(hasWrapper ? [['xfce4-terminal.wrapper'], ['x-terminal-emulator']] : []),
  ]) {
    (await policy.check(launchReq(argv))).done('ok');
  }
  for (const argv of [
    ['xfce4-terminal', '-x', 'ls'],
    ['xfce4-terminal', '-e', 'ls'],
    ['xfce4-terminal', '--command=ls'],
    ['xfce4-terminal', '--disable-server', '-x', 'touch', '/tmp/x'],
    ...(hasWrapper
      ? [
          ['xfce4-terminal.wrapper', '-e', 'touch', '/tmp/x'],
          ['xfce4-terminal.wrapper', '-e', 'touch /tmp/x'],
          ['x-terminal-emulator', '-e', 'ls'],
        ]
      : []),
  ]) {
    await assert.rejects(
      policy.check(launchReq(argv)),
      { code: 'denied_by_policy', message: /runs a command named in them/ },
      argv.join(' '),
    );
  }
});

test('a terminal option that starts no command (preferences, help, version, a title or geometry with its value) ' +
    'leaves the terminal proven, by its family; every word that runs or names a command stays unproven', () => {
  // Before: `launch xfce4-terminal --preferences` was refused as "runs a command named in them".
  const term = join(dir, 'xfce4-terminal');
  writeFileSync(term, '\x7fELF');
  chmodSync(term, 0o755);
  for (const args of [
    ['--preferences'],
    ['--help'],
    ['-V'],
    ['--version'],
    ['--title', 'Notes'],
    ['-T', 'Notes', '--geometry=80x24'],
    ['--geometry', '80x24+0+0', '--maximize'],
    ['--working-directory', '/tmp', '--preferences'],
    ['--title=a -e b'],
  ]) {
    const r = resolveLaunch(['xfce4-terminal', ...args], ctx);
    assert.equal(r.unproven, undefined, args.join(' '));
    assert.equal(r.executable, term, args.join(' '));
  }
  for (const args of [
    ['-e=touch /tmp/x'],
    ['-e', 'ls'],
    ['-x', 'ls'],
    ['-xls'],
    ['--execute=ls'],
    ['--execute', 'ls'],
    ['--command', 'ls'],
    ['--command=ls'],
    ['--pref', '--command', 'x'],
    ['--preferences', '--command', 'x'],
    ['--preferences=x'],
    ['--preferencesx'],
    ['--prefs'],
    ['--no-such-option'],
    ['--', 'ls'],
    ['--preferences', '--', 'ls'],
    ['ls'],
    ['--title', '-e', 'ls'],
    ['-T', '-x', 'ls'],
    ['--title'],
    ['-H', '-x', 'ls'],
    ['-P'],
    ['--tab', '-e', 'ls'],
    ['--help', 'ls'],
  ]) {
    const r = resolveLaunch(['xfce4-terminal', ...args], ctx);
    assert.ok(r.unproven, args.join(' '));
    assert.equal(r.runsCommand, true, args.join(' '));
    assert.equal(r.executable, undefined, args.join(' '));
  }
  // Through its Debian wrapper the family is the same; another family's options are its own: a bare word is
  // kitty's command, -H is terminator's, `-o` overrides kitty's shell, a profile may hold a command.
  assert.equal(resolveLaunch(['xfce4-terminal.wrapper', '--preferences'], ctx).unproven, undefined);
  const kitty = join(dir, 'kitty');
  writeFileSync(kitty, '\x7fELF');
  chmodSync(kitty, 0o755);
  assert.equal(resolveLaunch(['kitty', '--title', 'x', '--detach'], ctx).unproven, undefined);
  for (const args of [['--preferences'], ['ls'], ['-o', 'shell=ls'], ['--session', 'x'], ['--start-as', '-e']])
    assert.ok(resolveLaunch(['kitty', ...args], ctx).unproven, `kitty ${args.join(' ')}`);
});
