/** App identity: names may deny, never allow; interpreters are allowed only with their script. */
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { procInfo } from '../../src/common/proc.js';
import { AppRules, signedIdOf } from '../../src/policy/apps.js';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cu-ident-')));
const app = join(dir, 'app.py');
const PY = realpathSync('/usr/bin/python3');
writeFileSync(app, 'print(1)\n');

test('an interpreter is never allowed by its name or the name the app chooses', () => {
  const rules = new AppRules({ allowApps: ['gedit', 'python3'] });
  const py = { executable: PY, cmdline: ['/usr/bin/python3', app] };
  assert.equal(rules.allowed({ name: 'gedit', ...py }), false, 'a python3 app calling itself gedit');
  assert.equal(rules.allowed({ name: 'myapp', ...py }), false, 'an allow entry "python3" allows no Python app');
  assert.equal(rules.allowed({ name: 'gedit', executable: '/usr/bin/gedit' }), true);
  // Session grants are keyed by identity: the impostor's key is not gedit's.
  assert.notEqual(AppRules.keyOf({ name: 'gedit', executable: PY, cmdline: ['/usr/bin/python3', '-c', 'x'] }), 'gedit');
  assert.equal(rules.allowed({ name: 'gedit', executable: PY, cmdline: ['/usr/bin/python3', '-c', 'x'] }), false);
});

test('an interpreted app is allowed by interpreter + script, matched on the proven command line', () => {
  for (const entry of [`/usr/bin/python3 ${app}`, `python3 ${app}`]) {
    const rules = new AppRules({ allowApps: [entry] });
    assert.equal(rules.allowed({ name: 'x', executable: PY, cmdline: ['/usr/bin/python3', '-u', app] }), true, entry);
    assert.equal(
      rules.allowed({ name: 'x', executable: PY, cmdline: ['/usr/bin/python3', '-c', `exec(open("${app}").read())`] }),
      false,
      'code is not the script',
    );
    assert.equal(
      rules.allowed({ name: 'x', executable: PY, cmdline: ['/usr/bin/python3', join(dir, 'other.py')] }),
      false,
    );
    assert.equal(
      rules.allowed({ name: 'x', executable: '/usr/bin/perl', cmdline: ['/usr/bin/perl', app] }),
      false,
      'another interpreter',
    );
  }
  assert.equal(
    AppRules.keyOf({ name: 'x', executable: PY, cmdline: ['/usr/bin/python3', app] }),
    `${PY.split('/').pop() ?? ''} ${app.toLowerCase()}`,
  );
});

test('any name may deny: executable, basename, app name, WM_CLASS, title, look-alikes', () => {
  const rules = new AppRules({ denyApps: ['mousepad'] });
  assert.match(rules.denied({ name: 'Notes', executable: '/opt/x/keepassxc' }) ?? '', /password manager/);
  assert.match(
    rules.denied({ name: 'Notes', executable: '/usr/bin/zenity', className: 'keepassxc\0KeePassXC' }) ?? '',
    /password manager/,
  );
  assert.match(
    rules.denied({ name: 'k\u0435\u0435passxc', executable: '/usr/bin/zenity' }) ?? '',
    /password manager/,
    'Cyrillic е',
  );
  assert.match(
    rules.denied({ name: 'x', executable: '/usr/bin/zenity', title: 'Authentic\u0430tion Required' }) ?? '',
    /authentication/,
  );
  assert.match(rules.denied({ name: 'Text', executable: '/usr/bin/m\u043eusepad' }) ?? '', /denyApps/);
  assert.match(rules.denied({ name: 'Text', className: 'Mousepad' }) ?? '', /denyApps/);
  assert.equal(rules.denied({ name: 'gedit', executable: '/usr/bin/gedit', title: 'notes.txt' }), undefined);
});

test('an unproven identity is never allowed', () => {
  const rules = new AppRules({ allowApps: ['gedit'] });
  assert.equal(rules.allowed({ name: 'gedit', unproven: 'its executable cannot be read', pid: 1 }), false);
});

test('procInfo proves this process: realpath executable, start time, parent, uid, command line', () => {
  const info = procInfo(process.pid);
  assert.ok(info);
  assert.equal(info.executable, realpathSync(process.execPath));
  assert.ok((info.startTime ?? 0) > 0);
  assert.equal(info.ppid, process.ppid);
  assert.equal(info.uid, process.getuid?.());
  assert.ok(info.cmdline?.some((a) => a.includes('policy-identity')));
  assert.equal(procInfo(-1), undefined);
});

/** What a macOS driver proves of TextEdit: Apple's validated signature, kind `signed`. */
const TEXTEDIT = {
  executable: '/System/Applications/TextEdit.app/Contents/MacOS/TextEdit',
  appId: 'com.apple.TextEdit@apple',
  appIdKind: 'signed',
  signing: 'apple',
} as const;
const identityOf = (
  facts: { executable?: string; appId?: string; appIdKind?: string; signing?: string },
  name = 'TextEdit',
) => {
  const signed = signedIdOf(facts);
  return {
    name,
    ...(facts.executable ? { executable: facts.executable } : {}),
    ...(signed ? { signedId: signed } : {}),
  };
};

test('a forged appId grants nothing: only a validated signature of kind signed names the app by its bundle id', () => {
  const rules = new AppRules({ allowApps: ['com.apple.TextEdit', 'com.example.login@ABCDE12345'] });
  const forged = [
    { ...TEXTEDIT, signing: 'adhoc' },
    { ...TEXTEDIT, signing: 'invalid' },
    { ...TEXTEDIT, signing: 'unsigned' },
    // A driver that says nothing of the kind (Linux, a remote device) or an unknown kind: appId is a path to the
    // policy.
    { executable: TEXTEDIT.executable, appId: TEXTEDIT.appId },
    { ...TEXTEDIT, appIdKind: 'executable' },
    { ...TEXTEDIT, appIdKind: 'bundle' },
    // Signer and signing disagree: Apple's code is "apple" only, a team is never "apple".
    { ...TEXTEDIT, appId: 'com.apple.TextEdit@ABCDE12345' },
    { ...TEXTEDIT, appId: 'com.example.login@apple', signing: 'developer' },
    // Garbled ids: a second @, a newline, U+2028, a space, an empty signer or id.
    { ...TEXTEDIT, appId: 'com.apple.TextEdit@apple@x' },
    { ...TEXTEDIT, appId: 'com.apple.TextEdit\n@apple' },
    { ...TEXTEDIT, appId: 'com.apple.TextEdit\u2028@apple' },
    { ...TEXTEDIT, appId: 'com.apple.TextEdit @apple' },
    { ...TEXTEDIT, appId: 'com.apple.TextEdit@' },
    { ...TEXTEDIT, appId: '@apple' },
  ];
  for (const f of forged) assert.equal(rules.allowed(identityOf(f)), false, JSON.stringify(f));
  // An unsigned or ad-hoc app is still judged by its path, as on Linux.
  assert.equal(
    new AppRules({ allowApps: [TEXTEDIT.executable] }).allowed(identityOf({ ...TEXTEDIT, signing: 'adhoc' })),
    true,
  );
  assert.equal(AppRules.keyOf(identityOf({ ...TEXTEDIT, signing: 'adhoc' })), 'textedit');
});

test('a validated signature names the app: a bare bundle id ' +
    'for any validated signer, "id@team" for that team only', () => {
  assert.deepEqual(signedIdOf(TEXTEDIT), { id: 'com.apple.TextEdit', signer: 'apple' });
  assert.equal(new AppRules({ allowApps: ['com.apple.TextEdit'] }).allowed(identityOf(TEXTEDIT)), true);
  assert.equal(
    new AppRules({ allowApps: ['com.apple.textedit@apple'] }).allowed(identityOf(TEXTEDIT)),
    true,
    'bundle ids compare without case',
  );
  const login = {
    executable: '/Applications/Login.app/Contents/MacOS/Login',
    appId: 'com.example.login@ABCDE12345',
    appIdKind: 'signed',
    signing: 'developer',
  };
  assert.equal(new AppRules({ allowApps: ['com.example.login@ABCDE12345'] }).allowed(identityOf(login, 'Login')), true);
  assert.equal(
    new AppRules({ allowApps: ['com.example.login@ZZZZZ99999'] }).allowed(identityOf(login, 'Login')),
    false,
    'another team',
  );
  assert.equal(
    new AppRules({ allowApps: ['com.example'] }).allowed(identityOf(login, 'Login')),
    false,
    'a prefix is not the id',
  );
  // The executable's name still allows a signed app, as on Linux; the name the app gives itself never does.
  assert.equal(new AppRules({ allowApps: ['login'] }).allowed(identityOf(login, 'com.apple.TextEdit')), true);
  assert.equal(
    new AppRules({ allowApps: ['com.apple.TextEdit'] }).allowed(identityOf(login, 'com.apple.TextEdit')),
    false,
  );
  // A grant is keyed by id and signer: "always allow" pins the team that signed it.
  assert.equal(AppRules.keyOf(identityOf(login, 'Login')), 'com.example.login@abcde12345');
  // Platform-neutral: a driver without `signing` (a Windows package identity) is believed on its kind.
  const pkg = {
    executable: 'C:\\Program Files\\WindowsApps\\Contoso\\app.exe',
    appId: 'Contoso.Notes_8wekyb3d8bbwe!App@8wekyb3d8bbwe',
    appIdKind: 'signed',
  };
  assert.equal(
    new AppRules({ allowApps: ['Contoso.Notes_8wekyb3d8bbwe!App'] }).allowed(identityOf(pkg, 'Notes')),
    true,
  );
});

test('an interpreter\'s signature allows no script; a signed bundle id may deny like any name', () => {
  const py = {
    executable: '/usr/bin/python3',
    appId: 'com.apple.python3@apple',
    appIdKind: 'signed',
    signing: 'apple',
  };
  const rules = new AppRules({ allowApps: ['com.apple.python3', 'com.apple.python3@apple'] });
  assert.equal(rules.allowed({ ...identityOf(py, 'Notes'), cmdline: ['/usr/bin/python3', app] }), false);
  assert.notEqual(
    AppRules.keyOf({ ...identityOf(py, 'Notes'), cmdline: ['/usr/bin/python3', app] }),
    'com.apple.python3@apple',
  );
  const vault = {
    executable: '/Applications/Notes2.app/Contents/MacOS/Notes2',
    appId: 'com.example.vault@ABCDE12345',
    appIdKind: 'signed',
    signing: 'developer',
  };
  assert.match(new AppRules({ denyApps: ['com.example.vault'] }).denied(identityOf(vault, 'Notes')) ?? '', /denyApps/);
});
