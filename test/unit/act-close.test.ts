/**
 * The `close` op: a window closed as its title bar's close button closes it, through the one acting pipeline and
 * the policy. The receipt says the window closed (and whether the app exited or runs on with no window), or names
 * the dialog the app opened instead (a "Save changes?"); a close on an element inside a window closes that window;
 * a denied app's window is not closed; keys that a window may not bind (ctrl+q) name the close op when nothing shows.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import { FakeDriver, type FakeWindow } from '../../src/drivers/fake/driver.js';
import type { RawNode } from '../../src/engine/node.js';
import type { Confirmer, ConfirmRequest } from '../../src/policy/confirm.js';
import { Policy } from '../../src/policy/policy.js';
import { Session } from '../../src/session/session.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/tool.js';
import { n } from '../fixtures/engine/build.js';

const B = ':1.93';
const PID = 5353;

function editor(title = '*notes.txt - Editor'): FakeWindow {
  const root = n(B, 1, 'window', { name: title, states: ['active'], actions: ['close'] }, [
    n(B, 2, 'textbox', {
      name: 'Body',
      value: 'hello',
      states: ['editable', 'multiline', 'focused'],
      actions: ['set_value', 'type', 'focus'],
    }),
    n(B, 3, 'button', { name: 'Open', actions: ['click'] }),
  ]);
  return { info: { id: root.id, title, app: 'editor', pid: PID, role: 'window', focused: true }, root };
}

function saveDialog(): FakeWindow {
  const root = n(B, 50, 'dialog', { name: 'Save changes?', states: ['modal'], actions: ['close'] }, [
    n(B, 51, 'button', { name: 'Don\'t Save', actions: ['click'] }),
    n(B, 52, 'button', { name: 'Save', actions: ['click'] }),
  ]);
  return {
    info: { id: root.id, title: 'Save changes?', app: 'editor', pid: PID, role: 'dialog', focused: true },
    root,
  };
}

function setup(fake: FakeDriver, confirmer?: Confirmer) {
  const dir = mkdtempSync(join(tmpdir(), 'cu-close-'));
  const policy = new Policy({
    mode: 'default',
    ...(confirmer ? { confirmer } : { allowApps: ['editor'] }),
    processInfo: () => undefined,
    hostPids: [],
    audit: join(dir, 'audit.jsonl'),
    settingsPath: join(dir, 'home', 'settings.json'),
    protectedPaths: [join(dir, 'home')],
  });
  const session = new Session({ device: new Device({ connect: () => fake.connect() }), gate: policy });
  const call = (name: string, params: unknown) =>
    runTool(
      TOOLS.find((t) => t.schema.name === name)!,
      { session },
      params,
    );
  return { session, call };
}

const refOf = (text: string, pattern: RegExp): string => {
  const line = text.split('\n').find((l) => pattern.test(l));
  assert.ok(line, `no line matches ${pattern} in\n${text}`);
  return /\[(e\d+)\]/.exec(line)![1]!;
};

const closes = (fake: FakeDriver): string[] =>
  fake.dispatched.filter((p) => p.op === 'close').map((p) => p.id);

test('close on the window\'s root closes it; the receipt says so and that the app exited', async () => {
  const win = editor();
  const fake = new FakeDriver([win]);
  const { session, call } = setup(fake);
  const root = refOf((await call('computer_observe', {})).text, /^\[e\d+\] window$/);
  const res = await call('computer_act', { actions: [{ ref: root, op: 'close' }] });
  assert.equal(res.isError, false, res.text);
  assert.deepEqual(closes(fake), [win.root.id]);
  assert.match(
    res.text,
    new RegExp(`^ok close ${root} · confirmed \\(.*the window closed; editor exited\\)`, 'm'),
    res.text,
  );
  assert.match(res.text, /^window closed: \[w\d+\] "\*notes\.txt - Editor"/m, res.text);
  await session.close();
});

test('close on an element inside a window closes the window that holds it', async () => {
  const win = editor();
  const fake = new FakeDriver([win]);
  fake.keepRunning.set(PID, 'editor');
  const { session, call } = setup(fake);
  const snap = (await call('computer_observe', {})).text;
  const root = refOf(snap, /^\[e\d+\] window$/);
  const open = refOf(snap, /button "Open"/);
  const res = await call('computer_act', { actions: [{ ref: open, op: 'close' }] });
  assert.equal(res.isError, false, res.text);
  assert.deepEqual(closes(fake), [win.root.id], 'the window root is closed, not the button');
  assert.match(
    res.text,
    new RegExp(
      `^ok close ${root} · confirmed \\(the window that holds ${open}; .*the window closed; ` +
        'editor is still running with no window',
      'm',
    ),
    res.text,
  );
  await session.close();
});

test('a close the app answers with its own "Save changes?" dialog names that dialog; the window stays', async () => {
  const win = editor();
  const fake = new FakeDriver([win]);
  fake.onAct = (p, node: RawNode) => {
    if (p.op === 'close' && node.id === win.root.id) fake.windows.push(saveDialog());
  };
  const { session, call } = setup(fake);
  const root = refOf((await call('computer_observe', {})).text, /^\[e\d+\] window$/);
  const res = await call('computer_act', { actions: [{ ref: root, op: 'close' }] });
  assert.equal(res.isError, false, res.text);
  assert.equal(fake.windows.length, 2, 'the editor window stays open while its app asks');
  assert.match(
    res.text,
    new RegExp(
      `^ok close ${root} · confirmed \\(.*the app asked first: it opened \\[w\\d+\\] dialog ` +
        '"Save changes\\?" \\(below\\); the window stays open until that is answered\\)',
      'm',
    ),
    res.text,
  );
  assert.match(res.text, /^new window \[w\d+\] dialog "Save changes\?" \[focused\] · app editor pid=\d+$/m, res.text);
  assert.match(res.text, /button "Don't Save"/, res.text);
  await session.close();
});

test('a window the app keeps open after the request is `unknown`, never a success', async () => {
  const win = editor();
  const fake = new FakeDriver([win]);
  // An app that ignores the window manager's request (or is busy): the window stays.
  fake.ignoreClose = true;
  const { session, call } = setup(fake);
  const root = refOf((await call('computer_observe', {})).text, /^\[e\d+\] window$/);
  const res = await call('computer_act', { actions: [{ ref: root, op: 'close' }] });
  assert.match(res.text, new RegExp(`^ok close ${root} · unknown \\(.*the window is still open`, 'm'), res.text);
  await session.close();
});

test('the first close in an app asks as any first act does; a denied app\'s window is not closed', async () => {
  const asked: ConfirmRequest[] = [];
  const confirmer: Confirmer = { interactive: true, confirm: async (q) => { asked.push(q); return 'deny'; } };
  const win = editor();
  const fake = new FakeDriver([win]);
  const { session, call } = setup(fake, confirmer);
  const root = refOf((await call('computer_observe', {})).text, /^\[e\d+\] window$/);
  const res = await call('computer_act', { actions: [{ ref: root, op: 'close' }] });
  assert.equal(res.isError, true, res.text);
  assert.match(res.text, new RegExp(`^rejected close ${root}`, 'm'), res.text);
  assert.equal(asked.length, 1);
  assert.match(asked[0]!.message, /close window "\*notes\.txt - Editor"/, asked[0]!.message);
  assert.equal(asked[0]!.reason, 'app_first_use', 'closing is not irreversible by itself: only the first use asks');
  assert.deepEqual(closes(fake), []);
  assert.equal(fake.windows.length, 1);
  await session.close();
});

test('ctrl+q that changes nothing names the close op on the window\'s root', async () => {
  const fake = new FakeDriver([editor()]);
  const { session, call } = setup(fake);
  const root = refOf((await call('computer_observe', {})).text, /^\[e\d+\] window$/);
  for (const keys of ['ctrl+q', 'alt+F4']) {
    const res = await call('computer_keys', { keys });
    assert.match(
      res.text,
      new RegExp(
        `nothing visible changed in the window; the app may not bind this key: computer_act ` +
          `${root} close closes the window as its close button does`,
      ),
      res.text,
    );
  }
  const other = await call('computer_keys', { keys: 'ctrl+b' });
  assert.doesNotMatch(other.text, /close button/, other.text);
  await session.close();
});
