/**
 * Denied means unseen, titles masked (item 12) and the tool's own files out of reach (item 6),
 * on the fake driver: no read tool returns a denied app's content, the driver is never even asked for its tree,
 * and acts that name the tool's home (in their value or their window's title) are refused.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import type { FakeWindow } from '../../src/drivers/fake/driver.js';
import { Policy } from '../../src/policy/policy.js';
import type { Snapshot } from '../../src/engine/snapshot.js';
import { chooserPaths } from '../../src/session/chooser.js';
import { Session } from '../../src/session/session.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool, type ToolResult } from '../../src/tools/tool.js';
import { n } from '../fixtures/engine/build.js';
import { keepassWindow, mailWindow, PolicyFake } from '../fixtures/policy/apps.js';

const GHP = 'ghp_' + 'aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6';

function setup(windows: FakeWindow[], opts: { home?: string; statePath?: string } = {}) {
  const fake = new PolicyFake(windows);
  const dir = mkdtempSync(join(tmpdir(), 'cu-unseen-'));
  const home = opts.home ?? join(dir, 'home');
  const policy = new Policy({
    mode: 'bypass',
    allowApps: ['mailer', 'keepassxc'],
    processInfo: () => undefined,
    hostPids: [],
    audit: join(dir, 'audit.jsonl'),
    settingsPath: join(home, 'settings.json'),
    protectedPaths: [home],
  });
  const session = new Session({
    device: new Device({ connect: () => fake.connect() }),
    gate: policy,
    ...(opts.statePath ? { statePath: opts.statePath } : {}),
  });
  const outputs: string[] = [];
  const call = async (name: string, params: unknown): Promise<ToolResult> => {
    const r = await runTool(TOOLS.find((t) => t.schema.name === name)!, { session }, params);
    outputs.push(r.text);
    return r;
  };
  const snapshotsOf = (id: string) =>
    fake.calls.filter((c) => c.method === 'tree.snapshot' && (c.params as { window: string }).window === id).length;
  return { fake, session, call, outputs, home, snapshotsOf };
}

test('a denied app is unseen: apps lists it as denied without titles or refs; ' +
    'observe, find, wait, screenshot refuse; the driver is never asked', async () => {
  const kp = keepassWindow();
  const s = setup([mailWindow(), kp]);
  const apps = (await s.call('computer_apps', {})).text;
  assert.match(apps, /^KeePassXC \(denied: it is a password manager/m);
  assert.ok(!apps.includes('Passwords.kdbx'), apps);
  assert.equal(apps.split('\n').filter((l) => /\[w\d+\]/.test(l)).length, 1, apps);
  for (const [tool, params] of [
    ['computer_observe', { app: 'KeePassXC' }],
    ['computer_observe', { window: 'Passwords.kdbx' }],
    ['computer_find', { text: 'password', app: 'KeePassXC' }],
    ['computer_wait', { until: 'appears', text: 'Copy', app: 'KeePassXC', timeoutMs: 100 }],
    ['computer_screenshot', { app: 'KeePassXC' }],
  ] as const) {
    const r = await s.call(tool, params);
    assert.equal(r.code, 'denied_by_policy', `${tool}: ${r.text}`);
    assert.ok(!r.text.includes('Passwords.kdbx'), r.text);
  }
  const any = await s.call('computer_wait', { until: 'window_appears', text: 'kdbx', timeoutMs: 100 });
  assert.equal(any.code, 'timeout', any.text);
  assert.equal(s.snapshotsOf(kp.info.id), 0, 'the denied window was never read');
  assert.ok(!s.fake.calls.some((c) => c.method.startsWith('screen.')));
  for (const o of s.outputs) assert.ok(!o.includes('Copy password') && !o.includes('kdbx'), o);
  await s.session.close();
});

test('a denied window that appears after an act is reported without title or content', async () => {
  const mail = mailWindow();
  const s = setup([mail]);
  const snap = (await s.call('computer_observe', { app: 'mailer' })).text;
  const ref = /\[(e\d+)\] checkbox "Request receipt"/.exec(snap)?.[1];
  assert.ok(ref, snap);
  s.fake.onAct = () => { if (s.fake.windows.length === 1) s.fake.windows.push(keepassWindow()); };
  const r = await s.call('computer_act', { actions: [{ ref, op: 'toggle' }] });
  assert.match(r.text, /a window of a denied app appeared/);
  assert.ok(!r.text.includes('kdbx') && !r.text.includes('Copy password'), r.text);
  assert.equal(s.snapshotsOf(keepassWindow().info.id), 0);
  await s.session.close();
});

test('tokens in titles are masked in apps, the observe header, find, and the session file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-titles-'));
  const statePath = join(dir, 'session.json');
  const w = mailWindow();
  w.info.title = `deploy ${GHP}`;
  const s = setup([w], { statePath });
  const apps = (await s.call('computer_apps', {})).text;
  assert.match(apps, /"deploy ••••\(secret\)"/);
  const obs = (await s.call('computer_observe', {})).text;
  assert.match(obs, /^app .*deploy ••••\(secret\)/m);
  await s.call('computer_find', { text: 'To' });
  const bad = await s.call('computer_observe', { window: 'no such window' });
  assert.equal(bad.code, 'window_not_found');
  await s.session.close();
  for (const o of s.outputs) assert.ok(!o.includes(GHP.slice(0, 12)), o);
  assert.ok(!readFileSync(statePath, 'utf8').includes(GHP.slice(0, 12)));
});

test('acts that name the tool\'s own files are refused in ' +
    'bypass mode: value, typed keys, launch, window title', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-own-'));
  const home = join(dir, '.computer-use');
  const editor = (title: string): FakeWindow => {
    const root = n(':1.90', 1, 'window', { name: title }, [
      n(':1.90', 2, 'textbox', {
        name: 'Name',
        states: ['editable', 'focusable'],
        actions: ['set_value', 'type', 'focus'],
        value: '',
      }),
    ]);
    return { info: { id: root.id, title, app: 'mailer', pid: 4242, role: 'window', focused: true }, root };
  };
  const s = setup([editor('Save As')], { home });
  const snap = (await s.call('computer_observe', {})).text;
  const name = /\[(e\d+)\] textbox "Name"/.exec(snap)?.[1];
  assert.ok(name, snap);
  for (const value of [
    join(home, 'settings.json'),
    `${dir}//x/../.computer-use/settings.json`,
    join(home, 'SETTINGS.JSON').toUpperCase(),
    `file://${home}/plugin-data/computer-use/audit.jsonl`,
    home,
  ]) {
    const r = await s.call('computer_act', { actions: [{ ref: name, op: 'set_value', value }] });
    assert.equal(r.code, 'denied_by_policy', `${value}: ${r.text}`);
  }
  const typed = home
    .split('')
    .map((c) => (c === '/' ? 'slash' : c === '.' ? 'period' : c === '-' ? 'minus' : c))
    .join(' ');
  const keys = await s.call('computer_keys', { keys: typed });
  assert.equal(keys.code, 'denied_by_policy', keys.text);
  const launched = await s.call('computer_launch', {
    command: 'mailer',
    args: [join(home, 'settings.json')],
    waitMs: 0,
  });
  assert.equal(launched.code, 'denied_by_policy', launched.text);
  const ok = await s.call('computer_act', { actions: [{ ref: name, op: 'set_value', value: join(dir, 'notes.txt') }] });
  assert.equal(ok.isError, false, ok.text);
  assert.equal(s.fake.calls.filter((c) => c.method === 'node.act').length, 1, 'only the harmless path was sent');
  await s.session.close();

  // An editor whose title shows the file: every act in it is refused.
  for (const title of [
    `settings.json (${home}) - gedit`,
    `*settings.json (${home.replace(homedir(), '~')}) - gedit`,
    'settings.json (~/.computer-use) - gedit',
  ]) {
    const e = setup([editor(title)], {
      home: title.includes('~/.computer-use') ? join(homedir(), '.computer-use') : home,
    });
    const text = (await e.call('computer_observe', {})).text;
    const ref = /\[(e\d+)\] textbox "Name"/.exec(text)?.[1];
    const r = await e.call('computer_act', { actions: [{ ref, op: 'type', value: 'x' }] });
    assert.equal(r.code, 'denied_by_policy', `${title}: ${r.text}`);
    assert.match(r.text, /own files/);
    await e.session.close();
  }
});

test('a relative name typed into a file chooser names the file in ' +
    'the folder the driver reported; an unknown folder names none', () => {
  const snap = (chooser?: { folder?: string }) =>
    ({ elements: [], ...(chooser ? { chooser } : {}) }) as unknown as Snapshot;
  assert.deepEqual(chooserPaths(snap({ folder: '/tmp/cu-x' }), '../cu-x/home/settings.json'), [
    '/tmp/cu-x/home/settings.json',
  ]);
  assert.deepEqual(chooserPaths(snap({ folder: '/tmp/cu-x' }), '/abs/path'), []);
  assert.deepEqual(chooserPaths(snap({}), 'settings.json'), []);
  assert.deepEqual(chooserPaths(snap(), 'settings.json'), []);
});

test('clipboard_read refuses text a password field copied ' +
    '(owner.secret) or a denied app owns; other text is read', async () => {
  class ClipFake extends PolicyFake {
    result: { text: string; method: string; owner?: { pid?: number; secret?: boolean; unproven?: boolean } } = {
      text: '',
      method: 'fake',
    };
    override handlers(): ReturnType<PolicyFake['handlers']> {
      return { ...super.handlers(), 'input.clipboard': () => this.result };
    }
  }
  const fake = new ClipFake([mailWindow()]);
  const dir = mkdtempSync(join(tmpdir(), 'cu-clip-'));
  const policy = new Policy({
    mode: 'bypass',
    allowApps: ['clipboard'],
    hostPids: [],
    audit: join(dir, 'audit.jsonl'),
    settingsPath: false,
    processInfo: (pid) =>
      pid === 4343
        ? { executable: '/opt/KeePassXC/keepassxc' }
        : pid === 5000
          ? { executable: '/usr/bin/mousepad' }
          : undefined,
  });
  const session = new Session({ device: new Device({ connect: () => fake.connect() }), gate: policy });
  const read = () =>
    runTool(
      TOOLS.find((t) => t.schema.name === 'computer_input')!,
      { session },
      { action: 'clipboard_read' },
    );
  fake.result = { text: 'hunter2-secret', method: 'fake', owner: { secret: true, pid: 5000 } };
  const secret = await read();
  assert.equal(secret.code, 'denied_by_policy', secret.text);
  assert.match(secret.text, /password field/);
  fake.result = { text: 'correct horse', method: 'fake', owner: { pid: 4343 } };
  const denied = await read();
  assert.equal(denied.code, 'denied_by_policy', denied.text);
  assert.match(denied.text, /password manager/);
  // An owner no live process is proven to be (a forked copy tool's exited first process): refused, whatever
  // text a driver sent along.
  for (const owner of [{ unproven: true }, {}]) {
    fake.result = { text: 'horse-unproven', method: 'fake', owner };
    const unproven = await read();
    assert.equal(unproven.code, 'denied_by_policy', unproven.text);
    assert.match(unproven.text, /no running process could be proven/);
    assert.ok(!unproven.text.includes('horse'), unproven.text);
  }
  fake.result = { text: 'plain words', method: 'fake', owner: { pid: 5000 } };
  const plain = await read();
  assert.equal(plain.isError, false, plain.text);
  assert.match(plain.text, /plain words/);
  const log = readFileSync(join(dir, 'audit.jsonl'), 'utf8');
  for (const t of [secret.text, denied.text, log]) assert.ok(!t.includes('hunter2') && !t.includes('horse'), t);
  await session.close();
});
