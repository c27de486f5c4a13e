/**
 * One app, one allow entry (docs/policy.md, "One app, one allow entry"): `libreoffice` covers the launch of its
 * launcher script
 * (/usr/bin/libreoffice → /usr/lib/libreoffice/program/soffice, run by dash) and the acts on soffice.bin, which it
 * starts; `chromium` covers Debian's /usr/bin/chromium script and /usr/lib/chromium/chromium. The launch is named by
 * the commands the system's program directories give the launcher (driver fact `launchers[].commands`), never by the
 * whole package: before, `libreoffice` also started every other program built from that source, `unopkg add x.oxt`
 * (installs an extension: code) and `uno.bin -l file:///tmp/x.so` (loads any library), in unattended mode.
 * The policy part runs on facts recorded from the Linux driver on Debian 12; the driver part on this machine's
 * packages when they are installed.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { resolveLaunchFacts } from '../../src/drivers/linux/apps/resolve.js';
import type { LaunchFacts, ProcessFacts } from '../../src/policy/apps.js';
import type { ActionRequest } from '../../src/policy/gate.js';
import { Policy } from '../../src/policy/policy.js';

const LO = '/usr/lib/libreoffice/program';
const DASH = { executable: '/usr/bin/dash', appId: '/usr/bin/dash' };
/** apps.resolveLaunch answers recorded on Debian 12 (LibreOffice 7.4, Chromium), `commands` as the driver now reports them. */
const RECORDED: Record<string, LaunchFacts> = {
  'soffice --calc': {
    ...DASH,
    argv: ['/usr/bin/dash', `${LO}/soffice`, '--calc'],
    names: ['soffice', '--calc', '/usr/bin/soffice', `${LO}/soffice`, '/bin/sh'],
    launchers: [
      {
        path: `${LO}/soffice`,
        systemOwned: true,
        package: 'libreoffice-common/libreoffice',
        commands: ['libreoffice', 'soffice'],
      },
    ],
    package: 'libreoffice-common/libreoffice',
  },
  'unopkg add /tmp/x.oxt': {
    ...DASH,
    argv: ['/usr/bin/dash', `${LO}/unopkg`, 'add', '/tmp/x.oxt'],
    names: ['unopkg', 'add', '/tmp/x.oxt', '/usr/bin/unopkg', `${LO}/unopkg`, '/bin/sh'],
    launchers: [
      { path: `${LO}/unopkg`, systemOwned: true, package: 'libreoffice-common/libreoffice', commands: ['unopkg'] },
    ],
    package: 'libreoffice-common/libreoffice',
  },
  [`${LO}/uno.bin -l file:///tmp/x.so`]: {
    executable: `${LO}/uno.bin`,
    appId: `${LO}/uno.bin`,
    argv: [`${LO}/uno.bin`, '-l', 'file:///tmp/x.so'],
    names: [`${LO}/uno.bin`, '-l', 'file:///tmp/x.so'],
    package: 'ure/libreoffice',
  },
  chromium: {
    ...DASH,
    argv: ['/usr/bin/dash', '/usr/bin/chromium'],
    names: ['chromium', '/usr/bin/chromium', '/bin/sh'],
    launchers: [{ path: '/usr/bin/chromium', systemOwned: true, package: 'chromium', commands: ['chromium'] }],
    package: 'chromium',
  },
  '/usr/lib/chromium/chrome_crashpad_handler': {
    executable: '/usr/lib/chromium/chrome_crashpad_handler',
    appId: '/usr/lib/chromium/chrome_crashpad_handler',
    argv: ['/usr/lib/chromium/chrome_crashpad_handler'],
    names: ['/usr/lib/chromium/chrome_crashpad_handler'],
    package: 'chromium',
  },
};
/** process.identify of the processes the launchers start, recorded the same way. */
const SOFFICE_BIN: ProcessFacts = {
  executable: `${LO}/soffice.bin`,
  appId: `${LO}/soffice.bin`,
  startToken: '4242',
  user: '0',
  package: 'libreoffice-core/libreoffice',
  cmdline: [`${LO}/soffice.bin`, '--calc'],
};
const CHROMIUM_BIN: ProcessFacts = {
  executable: '/usr/lib/chromium/chromium',
  appId: '/usr/lib/chromium/chromium',
  startToken: '4343',
  user: '0',
  package: 'chromium',
  cmdline: ['/usr/lib/chromium/chromium'],
};

const launch = (command: string, facts = RECORDED[command]): ActionRequest =>
  ({ kind: 'launch', tool: 'computer_launch', command, argv: command.split(' '), ...(facts ? { launch: facts } : {}) });
const act = (app: string, pid: number, identity: ProcessFacts): ActionRequest => ({
  kind: 'element',
  tool: 'computer_act',
  ref: 'e1',
  app,
  pid,
  startToken: identity.startToken!,
  identity,
  role: 'button',
  name: 'Bold',
  op: 'click',
  title: 'Untitled 1',
});
const unattended = (allowApps: string[]): Policy =>
  new Policy({ mode: 'unattended', allowApps, audit: false, settingsPath: false, hostPids: [] });

async function allowed(policy: Policy, req: ActionRequest): Promise<boolean> {
  try { (await policy.check(req)).done('ok'); return true; } catch (e) {
    if ((e as { code?: string }).code === 'denied_by_policy') return false;
    throw e;
  }
}

test('libreoffice: one entry starts the launcher and acts on ' +
    'soffice.bin; other programs of its source are not covered', async () => {
  const policy = unattended(['libreoffice']);
  assert.equal(await allowed(policy, launch('soffice --calc')), true, 'the launcher, by a command that names it');
  assert.equal(await allowed(policy, act('soffice', 5001, SOFFICE_BIN)), true, 'soffice.bin, which it starts');
  assert.equal(
    await allowed(policy, launch('unopkg add /tmp/x.oxt')),
    false,
    'another launcher of the same source package',
  );
  assert.equal(
    await allowed(policy, launch(`${LO}/uno.bin -l file:///tmp/x.so`)),
    false,
    'a program of the source package started directly',
  );
  // The launcher's own command allows it too (its name in /usr/bin), and then only it.
  assert.equal(await allowed(unattended(['unopkg']), launch('unopkg add /tmp/x.oxt')), true);
  assert.equal(await allowed(unattended(['unopkg']), launch('soffice --calc')), false);
});

test('chromium: one entry starts Debian\'s launcher script and acts on the browser it runs', async () => {
  const policy = unattended(['chromium']);
  assert.equal(await allowed(policy, launch('chromium')), true);
  assert.equal(await allowed(policy, act('Chromium', 5002, CHROMIUM_BIN)), true);
  assert.equal(await allowed(policy, launch('/usr/lib/chromium/chrome_crashpad_handler')), false);
});

test('a launcher\'s refusal names the app by the command the ' +
    'user knows, not by dash, and advises that one entry', async () => {
  const policy = new Policy({ mode: 'default', audit: false, settingsPath: false, hostPids: [] });
  await assert.rejects(policy.check(launch('soffice --calc')), (e: Error) => {
    assert.match(e.message, /Start "soffice --calc" in "libreoffice" needs the user's confirmation/, e.message);
    assert.match(e.message, /The user can allow "libreoffice" themselves/, e.message);
    assert.doesNotMatch(e.message, /"dash"/, e.message);
    return true;
  });
});

const hasLibreOffice = existsSync(`${LO}/soffice`) && existsSync('/usr/bin/unopkg');
const hasChromium = existsSync('/usr/bin/chromium');

test('the Linux driver names a launcher ' +
    'by the system commands that run it', { skip: !hasLibreOffice && 'LibreOffice is not installed' }, async () => {
  const soffice = resolveLaunchFacts({ command: 'soffice', args: ['--calc'] });
  const lo = soffice.launchers?.find((l) => l.path === `${LO}/soffice`);
  assert.deepEqual([...(lo?.commands ?? [])].sort(), ['libreoffice', 'soffice'], JSON.stringify(soffice.launchers));
  const unopkg = resolveLaunchFacts({ command: 'unopkg', args: ['add', '/tmp/x.oxt'] });
  assert.ok(!unopkg.launchers?.some((l) => l.commands?.includes('libreoffice')), JSON.stringify(unopkg.launchers));
  const policy = unattended(['libreoffice']);
  const real = (argv: string[]): ActionRequest =>
    launch(argv.join(' '), resolveLaunchFacts({ command: argv[0]!, args: argv.slice(1) }));
  assert.equal(await allowed(policy, real(['libreoffice', '--calc'])), true);
  assert.equal(await allowed(policy, real(['soffice', '--writer'])), true);
  assert.equal(await allowed(policy, real(['unopkg', 'add', '/tmp/x.oxt'])), false);
  assert.equal(await allowed(policy, real([`${LO}/uno`, '-l', 'file:///tmp/x.so'])), false);
});

test('the Linux driver names Debian\'s ' +
    'chromium script by its command', { skip: !hasChromium && 'chromium is not installed' }, async () => {
  const r = resolveLaunchFacts({ command: 'chromium', args: [] });
  assert.ok(
    r.launchers?.some((l) => l.path === '/usr/bin/chromium' && l.commands?.includes('chromium')),
    JSON.stringify(r.launchers),
  );
  assert.equal(await allowed(unattended(['chromium']), launch('chromium', r)), true);
});

test('"allow for this session" on the launch covers the acts on what it starts: the user is asked once', async () => {
  const asked: string[] = [];
  const policy = new Policy({ mode: 'default', audit: false, settingsPath: false, hostPids: [],
    confirmer: { interactive: true, confirm: async (q) => { asked.push(q.message); return 'allow_session'; } } });
  (await policy.check(launch('soffice --calc'))).done('ok');
  (await policy.check(act('soffice', 5001, SOFFICE_BIN))).done('ok');
  assert.equal(asked.length, 1, asked.join('\n'));
  // The grant is the launcher's entry, no wider: another program of the same source is still asked about.
  await policy.check(launch('unopkg add /tmp/x.oxt')).then((d) => d.done('ok'));
  assert.equal(asked.length, 2, asked.join('\n'));
});

/** process.identify of meld (python3 running Debian's /usr/bin/meld), recorded, `launcher` as the driver now reports
* it. */
const MELD: ProcessFacts = {
  executable: '/usr/bin/python3.11',
  appId: '/usr/bin/python3.11',
  startToken: '4444',
  user: '0',
  package: 'python3.11-minimal/python3.11',
  cmdline: ['/usr/bin/python3', '/usr/bin/meld'],
  cwd: '/',
  launcher: { path: '/usr/bin/meld', systemOwned: true, package: 'meld', commands: ['meld'] },
};

test('an interpreted app started by its installed script is acted ' +
    'on by the same one entry (meld: python3 /usr/bin/meld)', async () => {
  const policy = unattended(['meld']);
  assert.equal(await allowed(policy, act('org.gnome.Meld', 5003, MELD)), true, 'the entry that started it');
  // The script must be the one the command line runs, installed, and named by the entry; python3's own package allows
  // nothing.
  assert.equal(
    await allowed(policy, act('org.gnome.Meld', 5003, { ...MELD, cmdline: ['/usr/bin/python3', '/tmp/evil.py'] })),
    false,
    'another script',
  );
  assert.equal(
    await allowed(
      policy,
      act('org.gnome.Meld', 5003, { ...MELD, cmdline: ['/usr/bin/python3', '-c', 'import runpy', '/usr/bin/meld'] }),
    ),
    false,
    'code, not the script',
  );
  assert.equal(
    await allowed(
      policy,
      act('org.gnome.Meld', 5003, { ...MELD, launcher: { ...MELD.launcher!, systemOwned: false } }),
    ),
    false,
    'a script anyone could have written',
  );
  assert.equal(await allowed(unattended(['python3.11']), act('org.gnome.Meld', 5003, MELD)), false);
});

test('the Linux driver reports the installed script an interpreter ' +
    'process runs', { skip: !existsSync('/usr/bin/zmore') && 'gzip\'s zcat script is not here' }, async () => {
  const { spawn } = await import('node:child_process');
  const { identify } = await import('../../src/drivers/linux/apps/identity.js');
  // dash running gzip's zmore script (its pipeline keeps the shell), blocked reading its stdin: a real interpreter
  // process with an installed script.
  const child = spawn('/bin/sh', ['/usr/bin/zmore'], { stdio: ['pipe', 'ignore', 'ignore'] });
  try {
    await new Promise((r) => child.once('spawn', r));
    let facts = identify({ pid: child.pid! });
    for (let i = 0; i < 50 && !facts.argv?.includes('/usr/bin/zmore'); i++) {
      await new Promise((r) => setTimeout(r, 20));
      facts = identify({ pid: child.pid! });
    }
    assert.equal(facts.launcher?.path, '/usr/bin/zmore', JSON.stringify(facts));
    assert.equal(facts.launcher?.systemOwned, true);
    assert.ok(facts.launcher?.commands?.includes('zmore'), JSON.stringify(facts.launcher));
  } finally { child.kill('SIGKILL'); }
  const self = identify({ pid: process.pid });
  assert.equal(self.launcher, undefined, 'node running a test file runs no script a system command names');
});

test('lowriter: the entry that allowed a launch covers the process ' +
    'it became, proven by the launch, for that process only', async () => {
  // Debian's /usr/bin/lowriter is a launcher script whose command is not a package name: before, every act on
  // soffice.bin needed a second entry. Recorded facts of `lowriter` (dash running the script).
  const LOWRITER: LaunchFacts = {
    ...DASH,
    argv: ['/usr/bin/dash', '/usr/bin/lowriter'],
    names: ['lowriter', '/usr/bin/lowriter', '/bin/sh'],
    launchers: [
      {
        path: '/usr/bin/lowriter',
        systemOwned: true,
        package: 'libreoffice-writer/libreoffice',
        commands: ['lowriter'],
      },
    ],
    package: 'libreoffice-writer/libreoffice',
  };
  const policy = unattended(['lowriter']);
  assert.equal(await allowed(policy, launch('lowriter', LOWRITER)), true);
  assert.equal(
    await allowed(policy, act('soffice', 5001, SOFFICE_BIN)),
    false,
    'not yet proven to be what the launch became',
  );
  // The driver proved pid 5001 (start token 4242) runs under the started process (LaunchResult.startedHere).
  policy.noteLaunched({ pid: 5001, startToken: '4242' }, ['lowriter'], LOWRITER);
  assert.equal(
    await allowed(policy, act('soffice', 5001, SOFFICE_BIN)),
    true,
    "the launch's entry covers the process it became",
  );
  assert.equal(
    await allowed(policy, act('soffice', 5002, { ...SOFFICE_BIN, startToken: '9999' })),
    false,
    'another soffice.bin is not covered',
  );
  assert.equal(
    await allowed(policy, act('soffice', 5001, { ...SOFFICE_BIN, startToken: '1' })),
    false,
    'nor a process that reused the pid',
  );
  // Deny still wins over the launch's entry.
  const denying = new Policy({
    mode: 'unattended',
    allowApps: ['lowriter'],
    denyApps: ['soffice.bin'],
    audit: false,
    settingsPath: false,
    hostPids: [],
  });
  denying.noteLaunched({ pid: 5001, startToken: '4242' }, ['lowriter'], LOWRITER);
  assert.equal(await allowed(denying, act('soffice', 5001, SOFFICE_BIN)), false);
});
