/**
 * In default mode the host's own tool approval stands in for the per-app first-use question (MCP
 * clients without elicitation), recorded as `approved_by: "host"`; irreversible steps and password writes still
 * need a human; `strictFirstUse` keeps the question.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import type { AuditRecord, DecidedRecord } from '../../src/policy/audit.js';
import type { Confirmer, ConfirmRequest } from '../../src/policy/confirm.js';
import { Policy, type PolicyOptions } from '../../src/policy/policy.js';
import { loadSettings, recordConfirmation } from '../../src/policy/settings.js';
import { Session } from '../../src/session/session.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool, type ToolResult } from '../../src/tools/tool.js';
import { keepassWindow, mailWindow, PolicyFake } from '../fixtures/policy/apps.js';

function setup(opts: PolicyOptions) {
  const fake = new PolicyFake([mailWindow(), keepassWindow()]);
  const dir = mkdtempSync(join(tmpdir(), 'cu-host-'));
  const auditPath = join(dir, 'audit.jsonl');
  const policy = new Policy({
    processInfo: () => undefined,
    hostPids: [],
    audit: auditPath,
    settingsPath: join(dir, 'settings.json'),
    ...opts,
  });
  const session = new Session({ device: new Device({ connect: () => fake.connect() }), gate: policy });
  const call = (name: string, params: unknown): Promise<ToolResult> =>
    runTool(
      TOOLS.find((t) => t.schema.name === name)!,
      { session },
      params,
    );
  const decided = (): DecidedRecord[] =>
    readFileSync(auditPath, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as AuditRecord)
      .filter((r): r is DecidedRecord => r.phase === 'decided');
  const act = async (pattern: RegExp, op: string): Promise<ToolResult> => {
    const snap = (await call('computer_observe', { app: 'mailer', full: true })).text;
    const line = snap.split('\n').find((l) => pattern.test(l));
    assert.ok(line, snap);
    return call('computer_act', { actions: [{ ref: /\[(e\d+)\]/.exec(line)![1]!, op }] });
  };
  return {
    fake,
    policyRef: policy,
    call,
    decided,
    act,
    sent: () => fake.calls.filter((c) => c.method === 'node.act' || c.method === 'input.keys').length,
  };
}

test('default mode, host approves: an ordinary act and keys ' +
    'go through without a question, audited approved_by host', async () => {
  const s = setup({ mode: 'default', hostApprovesFirstUse: true });
  const r = await s.act(/checkbox "Request receipt"/, 'toggle');
  assert.equal(r.isError, false, r.text);
  const keys = await s.call('computer_keys', { keys: 'ctrl+a', app: 'mailer' });
  assert.equal(keys.isError, false, keys.text);
  assert.equal(s.sent(), 2);
  const d = s.decided();
  assert.deepEqual(
    d.map((x) => [x.decision, x.approved_by, x.reason]),
    [
      ['allowed', 'host', 'default, approved by the host'],
      ['allowed', 'host', 'default, approved by the host'],
    ],
  );
});

test('host approval never covers an irreversible step: without ' +
    'a human channel it is refused, with one it is asked once', async () => {
  const none = setup({ mode: 'default', hostApprovesFirstUse: true });
  const r = await none.act(/button "Send"/, 'click');
  assert.equal(r.code, 'confirmation_required', r.text);
  assert.equal(none.sent(), 0);
  const asked: ConfirmRequest[] = [];
  const confirmer: Confirmer = { interactive: true, confirm: async (q) => { asked.push(q); return 'allow_once'; } };
  const human = setup({ mode: 'default', hostApprovesFirstUse: true, confirmer });
  const ok = await human.act(/button "Send"/, 'click');
  assert.equal(ok.isError, false, ok.text);
  assert.equal(asked.length, 1);
  assert.equal(asked[0]!.reason, 'irreversible');
  assert.deepEqual(asked[0]!.choices, ['allow_once', 'deny'], 'the question is about the step, not the app');
  const last = human.decided().at(-1)!;
  assert.equal(last.approved_by, 'host');
  assert.equal(last.answer, 'allow_once');
});

test('the built-in deny list still holds, and without host approval (strict) first use asks as before', async () => {
  const s = setup({ mode: 'default', hostApprovesFirstUse: true });
  // A denied app is unseen: host approval does not even let it be read, let alone acted on.
  const denied = await s.call('computer_observe', { app: 'keepassxc' });
  assert.equal(denied.code, 'denied_by_policy', denied.text);
  const strict = setup({ mode: 'default' });
  const r = await strict.act(/checkbox "Request receipt"/, 'toggle');
  assert.equal(r.code, 'confirmation_required', r.text);
  for (const mode of ['accept-edits', 'bypass'] as const) {
    const other = setup({ mode, hostApprovesFirstUse: true });
    assert.equal(
      (await other.act(/checkbox "Request receipt"/, 'toggle')).code,
      'confirmation_required',
      `${mode} is not changed by host approval`,
    );
  }
});

test('settings.json strictFirstUse is read from any file; stopHotkey and showActivity only once confirmed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-host-settings-'));
  const p = join(dir, 'settings.json');
  writeFileSync(p, JSON.stringify({ strictFirstUse: true, stopHotkey: 'ctrl+alt+End', showActivity: false }), {
    mode: 0o600,
  });
  const outside = loadSettings(p);
  assert.equal(outside.settings.strictFirstUse, true, 'it only adds questions');
  assert.equal(outside.settings.stopHotkey, undefined, 'written from outside: not obeyed');
  assert.equal(outside.settings.showActivity, undefined, 'written from outside: not obeyed');
  assert.ok(outside.warnings.some((w) => /showActivity, stopHotkey are ignored/.test(w)), outside.warnings.join('\n'));
  recordConfirmation(p);
  const { settings } = loadSettings(p);
  assert.equal(settings.stopHotkey, 'ctrl+alt+End');
  assert.equal(settings.showActivity, false);
});

test('grants from the panel: once covers the next action only, session every action', async () => {
  const s = setup({ mode: 'default' });
  const policy = s.policyRef;
  policy.grantOnce('mailer');
  assert.equal((await s.act(/checkbox "Request receipt"/, 'toggle')).isError, false);
  assert.equal((await s.act(/checkbox "Request receipt"/, 'toggle')).code, 'confirmation_required');
  policy.grantSession('mailer');
  assert.equal((await s.act(/checkbox "Request receipt"/, 'toggle')).isError, false);
  assert.equal((await s.act(/checkbox "Request receipt"/, 'toggle')).isError, false);
});
