/** Launch identity: symlinks, copies, wrappers, shell strings, interpreters and .desktop files. */
import assert from 'node:assert/strict';
import {
  copyFileSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  symlinkSync,
  writeFileSync,
  chmodSync,
  realpathSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { builtinDenied } from '../../src/policy/apps.js';
import {
  resolveLaunch,
  resolveLaunchFacts,
  shellWords,
  type LaunchContext,
} from '../../src/drivers/linux/apps/resolve.js';
import { Policy } from '../../src/policy/policy.js';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cu-launch-')));
const bin = join(dir, 'bin');
const other = join(dir, 'other');
mkdirSync(bin); mkdirSync(other);
// The "password manager": a real binary under a deny-listed name, on this PATH.
const keepass = join(bin, 'keepassxc');
copyFileSync('/usr/bin/true', keepass);
symlinkSync(keepass, join(other, 'notes'));
copyFileSync(keepass, join(other, 'notes2'));
linkSync(keepass, join(other, 'notes3'));
copyFileSync('/usr/bin/false', join(other, 'harmless'));
writeFileSync(join(other, 'x.desktop'), `[Desktop Entry]\nType=Application\nName=Notes\nExec="${keepass}" %U\n`);
writeFileSync(
  join(other, 'y.desktop'),
  `[Desktop Entry]\nType=Application\nName=KeePassXC\nExec=${join(other, 'harmless')}\n`,
);
writeFileSync(join(other, 'app.py'), 'print(1)\n');
writeFileSync(join(other, 'tool'), `#!/usr/bin/env python3\nprint(1)\n`);
chmodSync(join(other, 'tool'), 0o755);
const PATH = `${bin}:${other}:/usr/bin:/bin`;
const ctx: LaunchContext = { path: PATH, cwd: dir };
/** A launch request with the facts the Linux driver reports for it (apps.resolveLaunch), on this PATH. */
const launchReq = (argv: string[]) => ({
  kind: 'launch' as const,
  tool: 'computer_launch' as const,
  command: argv.join(' '),
  argv,
  launch: resolveLaunchFacts({ command: argv[0]!, args: argv.slice(1) }),
});
/** Denied by a name the resolution met or by a program the target is a copy of (the policy's view). */
const denied = (argv: string[]): boolean => {
  const saved = process.env['PATH'];
  process.env['PATH'] = PATH;
  try {
    const r = resolveLaunchFacts({ command: argv[0]!, args: argv.slice(1) });
    return [...r.names, ...(r.content?.sameAs ?? [])].some((n) => builtinDenied(n) !== undefined);
  } finally { process.env['PATH'] = saved; }
};

test('a symlink, a copy and a hard link resolve to the deny-listed program', () => {
  assert.equal(resolveLaunch(['notes'], ctx).executable, keepass);
  assert.ok(denied(['notes']));
  const saved = process.env['PATH'];
  process.env['PATH'] = PATH;
  try {
    assert.ok(
      resolveLaunchFacts({ command: join(other, 'notes2') }).content?.sameAs.includes(keepass),
      'the copy is reported as the same content as keepassxc',
    );
  } finally {
    process.env['PATH'] = saved;
  }
  assert.ok(denied(['notes2']));
  assert.ok(denied(['notes3']));
  assert.ok(!denied(['harmless']));
  assert.deepEqual(
    resolveLaunchFacts({ command: join(other, 'harmless') }).content?.sameAs.filter((p) => p.startsWith(dir)),
    [],
  );
});

test('wrappers are seen through', () => {
  for (const argv of [
    ['env', 'notes2'],
    ['env', '-i', 'FOO=1', `${other}/notes`],
    ['env', '-S', 'notes --x'],
    ['nohup', 'notes'],
    ['setsid', '-f', 'notes2'],
    ['nice', '-n', '5', 'notes'],
    ['timeout', '10', 'notes'],
    ['sh', '-c', `exec ${dir}/bin/keep""assxc --info`],
    ['bash', '-c', "exec '/nonexistent/../" + keepass.slice(1) + "'"],
    ['sh', '-c', 'FOO=1 exec notes2'],
    ['dash', '-ec', 'notes'],
    ['bash', '-c', `exec -a x ${other}/notes2`],
  ])
    assert.ok(denied(argv), argv.join(' '));
  assert.equal(resolveLaunch(['sh', '-c', `exec ${dir}/bin/keep""assxc --info`], ctx).executable, keepass);
});

test('shell code that is more than a plain command cannot be proven', () => {
  for (const code of [
    'a=keep; exec $a',
    'exec `echo x`',
    'notes | cat',
    'exec /tmp/k*',
    'notes && true',
    'exec $(printf x)',
  ]) {
    const r = resolveLaunch(['sh', '-c', code], ctx);
    assert.ok(r.unproven, code);
    assert.equal(r.executable, undefined);
  }
  assert.ok(
    resolveLaunch(['sh', '-c', 'exec no-such-program-here'], ctx).unproven,
    'a name a wrapper runs must be found to be proven',
  );
  assert.deepEqual(shellWords(`exec "/a b"'c' d\\ e`), ['exec', '/a bc', 'd e']);
});

test('code strings of interpreters cannot be proven; scripts are', () => {
  const py = resolveLaunch(['python3', '-c', 'import os; os.execv("/x/keep" + "assxc", ["k"])'], {
    ...ctx,
    path: '/usr/bin:/bin',
  });
  assert.ok(py.unproven);
  for (const argv of [
    ['perl', '-e', 'exec "x"'],
    ['node', '-e', 'x'],
    ['/usr/bin/python3', '-m', 'http.server'],
  ])
    assert.ok(resolveLaunch(argv, { ...ctx, path: '/usr/bin:/bin' }).unproven, argv.join(' '));
  const script = resolveLaunch(['/usr/bin/python3', join(other, 'app.py')], ctx);
  assert.equal(script.unproven, undefined);
  assert.equal(script.argv[1], join(other, 'app.py'));
  const shebang = resolveLaunch(['tool'], ctx);
  assert.match(shebang.executable ?? '', /python3/);
  assert.equal(shebang.argv.at(-1), join(other, 'tool'));
});

test('.desktop files: Exec= is resolved, Name= may deny', () => {
  assert.ok(denied(['gio', 'launch', join(other, 'x.desktop')]));
  assert.equal(resolveLaunch(['gio', 'launch', join(other, 'x.desktop')], ctx).executable, keepass);
  assert.ok(denied(['gio', 'launch', join(other, 'y.desktop')]), 'Name=KeePassXC adds a deny');
  assert.ok(denied(['xdg-open', join(other, 'x.desktop')]));
  assert.ok(resolveLaunch(['xdg-open', 'https://example.com'], ctx).unproven, 'a default handler cannot be proven');
});

test('the policy refuses unproven and deny-listed launches in bypass and unattended mode', async () => {
  const savedPath = process.env['PATH'];
  process.env['PATH'] = PATH;
  try {
    for (const mode of ['bypass', 'unattended'] as const) {
      const policy = new Policy({
        mode,
        allowApps: ['notes', 'notes2', 'sh', 'env', 'python3', 'gio', 'harmless'],
        audit: false,
        settingsPath: false,
        hostPids: [],
      });
      for (const argv of [
        ['notes'],
        ['notes2'],
        ['sh', '-c', `exec ${bin}/keep""assxc`],
        ['env', 'notes'],
        ['python3', '-c', 'import os; os.execv("x", [])'],
        ['gio', 'launch', join(other, 'x.desktop')],
      ]) {
        await assert.rejects(policy.check(launchReq(argv)), { code: 'denied_by_policy' }, `${mode}: ${argv.join(' ')}`);
      }
      // A proven, allow-listed program still starts.
      const d = await policy.check(launchReq(['harmless']));
      d.done('ok');
    }
  } finally { process.env['PATH'] = savedPath; }
});

test('an unproven launch is asked about once, never granted for the session or saved', async () => {
  const asked: string[][] = [];
  const policy = new Policy({ mode: 'accept-edits', allowApps: ['python3'], audit: false, settingsPath: false, hostPids: [],
    confirmer: { interactive: true, confirm: async (q) => { asked.push([...q.choices]); return 'allow_once'; } } });
  const argv = ['python3', '-c', 'print(1)'];
  for (let i = 0; i < 2; i++) (await policy.check(launchReq(argv))).done('ok');
  assert.deepEqual(
    asked,
    [
      ['allow_once', 'deny'],
      ['allow_once', 'deny'],
    ],
    'asked every time, with no "always" choice',
  );
  const none = new Policy({
    mode: 'accept-edits',
    allowApps: ['python3'],
    audit: false,
    settingsPath: false,
    hostPids: [],
  });
  await assert.rejects(none.check(launchReq(argv)), { code: 'confirmation_required' });
});
