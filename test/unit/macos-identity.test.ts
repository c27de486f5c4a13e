/**
 * App identity on macOS from the code signature, against the fake AX library's Security, CFBundle and Launch
 * Services (test/macos-fake/security.c) and its assembled code table (test/fixtures/macos/textedit.json): a
 * validated Apple or Developer ID signature gives "bundle id@apple" / "bundle id@team id"; an ad-hoc, unsigned,
 * modified or other-team signature gives only the executable path; launches resolve to one bundle, which is what
 * apps.launch then starts. After every test every reference the driver was given or made is released once.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { MacDriver } from '../../src/drivers/macos/driver.js';
import { oneLibrary } from '../../src/drivers/macos/ffi.js';
import { macHandlers } from '../../src/drivers/macos/main.js';
import { AppRules, factsOfIdentify } from '../../src/policy/apps.js';
import { launchIdentity } from '../../src/policy/launched.js';
import { Policy } from '../../src/policy/policy.js';
import { assertBalanced, buildFakeAx, fakeAx, MACOS_FIXTURES } from '../macos/fake-ax.js';

const LIB = buildFakeAx();
const fake = fakeAx(LIB);
let driver: MacDriver | undefined;

/** The fake's bundles are not on disk: realpath knows the fixture's paths and one symlink. */
const LINKS: Record<string, string> = { '/Applications/TextEdit.app': '/Applications/FakeTextEdit.app' };
function realpath(p: string): string {
  if (LINKS[p]) return LINKS[p];
  if (/^\/(System\/)?Applications\/|^\/usr\/local\/bin\//.test(p)) return p;
  throw Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
}

function start(kill?: (pid: number) => void): MacDriver {
  driver = new MacDriver({
    libraries: oneLibrary(LIB),
    messagingTimeoutS: 0.3,
    resolve: { realpath, appFolders: ['/System/Applications', '/Applications'] },
    ...(kill ? { kill } : {}),
  });
  return driver;
}

beforeEach(() => { fake.load(join(MACOS_FIXTURES, 'textedit.json')); });
afterEach(() => {
  driver?.close();
  driver = undefined;
  assertBalanced(fake);
});

test('apps carry the appId their validated signature proves: ' +
    'Apple\'s code by bundle id, a Developer ID app with its team', () => {
  const d = start();
  const [te, login] = d.apps();
  assert.equal(te?.appId, 'com.apple.TextEdit@apple');
  assert.equal(login?.appId, 'com.example.login@ABCDE12345');
  assert.equal(te?.windows[0]?.appId, 'com.apple.TextEdit@apple');
  // Cached per pid and start time: a second listing validates nothing again.
  fake.clearLog();
  d.apps();
  assert.doesNotMatch(fake.log(), /CheckValidity/);
});

test('process.identify: libproc\'s facts plus the signature; a ' +
    'reused pid is validated afresh; a gone pid says so', () => {
  const d = start();
  const h = macHandlers(d);
  const r = d.identify({ pid: 4343 });
  assert.deepEqual(
    { ...r },
    {
      pid: 4343,
      startToken: String(1764633700 * 1_000_000),
      user: '501',
      ppid: 1,
      executable: '/Applications/Login.app/Contents/MacOS/Login',
      appId: 'com.example.login@ABCDE12345',
      appIdKind: 'signed',
      signing: 'developer',
      argv: ['/Applications/Login.app/Contents/MacOS/Login'],
    },
  );
  // The developer requirement names the team the signing information claimed, validated by the running code.
  assert.match(
    fake.log(),
    /SecCodeCheckValidity anchor apple generic and certificate leaf\[subject\.OU\] = "ABCDE12345"/,
  );
  fake.clearLog();
  fake.reusePid(4343, 1764639999);
  const again = d.identify({ pid: 4343 });
  assert.equal(again.startToken, String(1764639999 * 1_000_000));
  assert.match(fake.log(), /SecCodeCheckValidity/, 'another process on the same pid is validated again');
  assert.deepEqual(d.identify({ pid: 9999 }), { pid: 9999, gone: true });
  assert.ok(h['process.identify'], 'served on the wire');
});

test('apps.resolveLaunch: a name, an .app path and a bundle id ' +
    'resolve to one bundle, its executable and its signature', () => {
  const d = start();
  const byName = d.resolveLaunch({ command: 'TextEdit', args: ['a b'] });
  assert.equal(byName.executable, '/System/Applications/TextEdit.app/Contents/MacOS/TextEdit');
  assert.equal(byName.appId, 'com.apple.TextEdit@apple');
  assert.equal(byName.signing, 'apple');
  assert.deepEqual(byName.argv, ['/System/Applications/TextEdit.app/Contents/MacOS/TextEdit', 'a b']);
  assert.ok(byName.names.includes('com.apple.TextEdit') && byName.names.includes('TextEdit'));
  assert.equal(d.resolveLaunch({ command: 'com.example.login', kind: 'bundle' }).appId, 'com.example.login@ABCDE12345');
  assert.equal(d.resolveLaunch({ command: '/Applications/Login.app/' }).appId, 'com.example.login@ABCDE12345');
  const none = d.resolveLaunch({ command: 'com.example.none', kind: 'bundle' });
  assert.match(none.unproven ?? '', /no installed app has the bundle id/);
  assert.equal(none.executable, undefined);
  assert.match(d.resolveLaunch({ command: 'Missing' }).unproven ?? '', /no Missing\.app/);
  assert.match(d.resolveLaunch({ command: 'Apps/Login.app' }).unproven ?? '', /relative path/);
  assert.match(d.resolveLaunch({ command: 'x', kind: 'aumid' }).unproven ?? '', /do not exist on macOS/);
});

test('an unproven signature never gives a bundle id: ad-hoc (claiming Apple\'s ' +
    'id), modified, another team\'s certificate, a forged team id, unsigned', () => {
  const d = start();
  // /Applications/TextEdit.app links to an ad-hoc signed bundle that claims com.apple.TextEdit.
  const forged = d.resolveLaunch({ command: '/Applications/TextEdit.app' });
  assert.equal(forged.signing, 'adhoc');
  assert.equal(forged.appId, '/Applications/FakeTextEdit.app/Contents/MacOS/TextEdit');
  assert.ok(
    forged.names.includes('/Applications/TextEdit.app') && forged.names.includes('/Applications/FakeTextEdit.app'),
    'every name met can deny',
  );
  const patched = d.resolveLaunch({ command: '/Applications/Patched.app' });
  assert.deepEqual([patched.signing, patched.appId], ['invalid', '/Applications/Patched.app/Contents/MacOS/Patched']);
  const other = d.resolveLaunch({ command: '/Applications/OtherTeam.app' });
  assert.deepEqual([other.signing, other.appId], ['invalid', '/Applications/OtherTeam.app/Contents/MacOS/OtherTeam']);
  // A team id with a quote never reaches a requirement's text.
  fake.clearLog();
  const quote = d.resolveLaunch({ command: '/Applications/Quote.app' });
  assert.deepEqual([quote.signing, quote.appId], ['invalid', '/Applications/Quote.app/Contents/MacOS/Quote']);
  assert.doesNotMatch(fake.log(), /or anchor apple/);
  const tool = d.resolveLaunch({ command: '/usr/local/bin/tool', args: ['-x'] });
  assert.deepEqual(
    [tool.signing, tool.appId, tool.executable, tool.argv],
    ['unsigned', '/usr/local/bin/tool', '/usr/local/bin/tool', ['/usr/local/bin/tool', '-x']],
  );
  assert.match(d.resolveLaunch({ command: '/nope/tool' }).unproven ?? '', /does not exist/);
});

test('apps.launch starts the bundle it resolved (never a name Launch ' +
    'Services would look up again); unproven launches start nothing', async () => {
  const calls: [string, readonly string[]][] = [];
  driver = new MacDriver({
    libraries: oneLibrary(LIB),
    messagingTimeoutS: 0.3,
    resolve: { realpath, appFolders: ['/Applications'] },
    spawner: async (file, args) => {
      calls.push([file, args]);
    },
  });
  await assert.rejects(driver.launch({ command: 'Missing', waitForWindowMs: 0 }), /no Missing\.app in \/Applications/);
  await assert.rejects(driver.launch({ command: 'com.example.none', kind: 'bundle' }), /bundle id/);
  assert.deepEqual(calls, []);
  const r = await driver.launch({ command: 'com.example.login', kind: 'bundle', waitForWindowMs: 1000 });
  assert.deepEqual(calls, [['/usr/bin/open', ['-a', '/Applications/Login.app']]]);
  assert.equal(r.pid, 4343);
  // A name resolves through the symlink once: open gets the real bundle, the one resolveLaunch judged.
  assert.equal(driver.resolveLaunch({ command: 'TextEdit' }).signing, 'adhoc');
  await assert.rejects(
    driver.launch({ command: 'TextEdit', waitForWindowMs: 0 }),
    (e) => (e as { code?: string }).code === 'timeout',
  );
  assert.deepEqual(calls[1], ['/usr/bin/open', ['-a', '/Applications/FakeTextEdit.app']]);
});

test('apps.terminate signals only the process that still has the start token', () => {
  const killed: number[] = [];
  const d = start((pid) => { killed.push(pid); });
  const token = d.identify({ pid: 4242 }).startToken!;
  assert.deepEqual(d.terminate({ pid: 4242, startToken: '1' }), { ended: false });
  assert.deepEqual(d.terminate({ pid: 9999 }), { ended: false });
  assert.deepEqual(killed, []);
  assert.deepEqual(d.terminate({ pid: 4242, startToken: token }), { ended: true });
  assert.deepEqual(killed, [4242]);
});

test('the policy allows by bundle id what the fake library\'s ' +
    'signatures prove, and never a forged or ad-hoc claim to it', async () => {
  const d = start();
  const policy = (allowApps: string[]) =>
    new Policy({
      mode: 'unattended',
      allowApps,
      processInfo: (pid) => factsOfIdentify(d.identify({ pid })),
      hostPids: [],
      audit: false,
      settingsPath: false,
    });
  const act = (p: Policy, pid: number, app: string) =>
    p.check({ kind: 'element', tool: 'computer_act', ref: 'e1', app, pid, op: 'click', role: 'button', name: 'Bold' });
  const sent = async (p: Promise<unknown>): Promise<boolean> =>
    p.then(
      () => true,
      (e: unknown) => {
        assert.equal((e as { code?: string }).code, 'denied_by_policy');
        return false;
      },
    );
  assert.equal(
    await sent(act(policy(['com.apple.TextEdit']), 4242, 'TextEdit')),
    true,
    "Apple's TextEdit by its bundle id",
  );
  assert.equal(
    await sent(act(policy(['com.example.login@ABCDE12345']), 4343, 'Login')),
    true,
    'a Developer ID app by id and team',
  );
  assert.equal(await sent(act(policy(['com.example.login@ZZZZZ99999']), 4343, 'Login')), false, 'another team');
  // The app's own name proves nothing: Login calling itself com.apple.TextEdit.
  assert.equal(await sent(act(policy(['com.apple.TextEdit']), 4343, 'com.apple.TextEdit')), false);
  // The ad-hoc bundle that claims com.apple.TextEdit (through the /Applications/TextEdit.app link) is known by its path
  // only.
  const forged = launchIdentity(
    ['/Applications/TextEdit.app'],
    d.resolveLaunch({ command: '/Applications/TextEdit.app' }),
  );
  assert.equal(forged.signedId, undefined);
  assert.equal(new AppRules({ allowApps: ['com.apple.TextEdit'] }).allowed(forged), false);
  const real = launchIdentity(['TextEdit'], d.resolveLaunch({ command: '/System/Applications/TextEdit.app' }));
  assert.equal(new AppRules({ allowApps: ['com.apple.TextEdit'] }).allowed(real), true);
});
