/**
 * A line break in typed text presses Return (every driver types "\n" as the Enter key): in a terminal it runs the
 * command line, in a one-line field it submits the form. Those submits are judged (the keys path asks about a
 * terminal's command with the line quoted); `type` must not be a way around them. Found by a model in the loop:
 * `type "echo hello\n"` into an allow-listed terminal ran the command with no question.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import type { FakeWindow } from '../../src/drivers/fake/driver.js';
import { Policy } from '../../src/policy/policy.js';
import { Session } from '../../src/session/session.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/tool.js';
import { n } from '../fixtures/engine/build.js';
import { mailWindow, PolicyFake } from '../fixtures/policy/apps.js';

function terminalWindow(): FakeWindow {
  const b = ':1.80';
  const root = n(b, 1, 'window', { name: 'Terminal', states: ['active'] }, [
    n(b, 2, 'terminal', {
      name: 'Terminal',
      states: ['focusable', 'focused', 'multiline'],
      actions: ['type', 'focus', 'scroll'],
      value: 'user@host:~$ ',
      caret: 13,
    }),
  ]);
  return {
    info: { id: root.id, title: 'Terminal', app: 'xfce4-terminal', pid: 4545, role: 'window', focused: true },
    root,
  };
}

function setup(windows: FakeWindow[]) {
  const fake = new PolicyFake(windows);
  const dir = mkdtempSync(join(tmpdir(), 'cu-linebreak-'));
  const policy = new Policy({
    mode: 'bypass',
    allowApps: ['mailer', 'xfce4-terminal'],
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
  const acts = () => fake.calls.filter((c) => c.method === 'node.act' || c.method === 'input.keys');
  return { session, call, acts };
}

test('type with a line break into a terminal is refused, nothing ' +
    'sent, and the reply says how to run it so it is judged', async () => {
  const s = setup([terminalWindow()]);
  const text = (await s.call('computer_observe', {})).text;
  const ref = /\[(e\d+)\] terminal "Terminal"/.exec(text)?.[1];
  assert.ok(ref, text);
  for (const value of ['echo hello\n', 'rm -rf ~\r', 'a\r\nb']) {
    const r = await s.call('computer_act', { actions: [{ ref, op: 'type', value }] });
    assert.match(r.text, /line break/i, r.text);
    assert.match(r.text, /Nothing was sent/, r.text);
    assert.match(r.text, /computer_keys/, r.text);
  }
  assert.equal(s.acts().length, 0, 'no keystroke reached the terminal');
  const plain = await s.call('computer_act', { actions: [{ ref, op: 'type', value: 'echo hello' }] });
  assert.ok(!/line break/i.test(plain.text), plain.text);
  assert.equal(s.acts().length, 1, 'text without a line break is typed');
  await s.session.close();
});

test('a line break into a one-line field is refused; a multi-line field takes it', async () => {
  const s = setup([mailWindow()]);
  const text = (await s.call('computer_observe', {})).text;
  const to = /\[(e\d+)\] textbox "To"/.exec(text)?.[1];
  const body = /\[(e\d+)\] textbox "Body"/.exec(text)?.[1];
  assert.ok(to && body, text);
  const r = await s.call('computer_act', { actions: [{ ref: to, op: 'type', value: 'bob@example.com\n' }] });
  assert.match(r.text, /line break/i, r.text);
  assert.equal(s.acts().length, 0);
  const ok = await s.call('computer_act', { actions: [{ ref: body, op: 'type', value: 'line one\nline two' }] });
  assert.ok(!/line break/i.test(ok.text), ok.text);
  assert.equal(s.acts().length, 1);
  await s.session.close();
});

test('a paste into a terminal of text with a line break, or of the ' +
    'clipboard unread, is refused unless a human allowed commands there', async () => {
  const s = setup([terminalWindow()]);
  for (const params of [{ action: 'paste', text: 'rm -rf ~\n' }, { action: 'paste' }]) {
    const r = await s.call('computer_input', { ...params, app: 'xfce4-terminal' });
    assert.equal(r.code, 'denied_by_policy', r.text);
    assert.match(r.text, /can run commands/, r.text);
  }
  assert.equal(s.acts().length, 0, 'no key reached the terminal');
  const one = await s.call('computer_input', { action: 'paste', text: 'echo hi', app: 'xfce4-terminal' });
  assert.notEqual(one.code, 'denied_by_policy', one.text);
  await s.session.close();
});
