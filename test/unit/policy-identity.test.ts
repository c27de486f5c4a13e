/** App identity (issue 8 items 5, 13): names may deny, never allow; interpreters are allowed only with their script. */
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { procInfo } from '../../src/common/proc.js';
import { AppRules } from '../../src/policy/apps.js';

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
    assert.equal(rules.allowed({ name: 'x', executable: PY, cmdline: ['/usr/bin/python3', '-c', `exec(open("${app}").read())`] }), false, 'code is not the script');
    assert.equal(rules.allowed({ name: 'x', executable: PY, cmdline: ['/usr/bin/python3', join(dir, 'other.py')] }), false);
    assert.equal(rules.allowed({ name: 'x', executable: '/usr/bin/perl', cmdline: ['/usr/bin/perl', app] }), false, 'another interpreter');
  }
  assert.equal(AppRules.keyOf({ name: 'x', executable: PY, cmdline: ['/usr/bin/python3', app] }), `${PY.split('/').pop() ?? ''} ${app.toLowerCase()}`);
});

test('any name may deny: executable, basename, app name, WM_CLASS, title, look-alikes', () => {
  const rules = new AppRules({ denyApps: ['mousepad'] });
  assert.match(rules.denied({ name: 'Notes', executable: '/opt/x/keepassxc' }) ?? '', /password manager/);
  assert.match(rules.denied({ name: 'Notes', executable: '/usr/bin/zenity', className: 'keepassxc\0KeePassXC' }) ?? '', /password manager/);
  assert.match(rules.denied({ name: 'k\u0435\u0435passxc', executable: '/usr/bin/zenity' }) ?? '', /password manager/, 'Cyrillic е');
  assert.match(rules.denied({ name: 'x', executable: '/usr/bin/zenity', title: 'Authentic\u0430tion Required' }) ?? '', /authentication/);
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
