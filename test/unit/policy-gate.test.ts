/**
 * The policy on the act flow, through the in-memory fake driver: every mode against every acting tool, the
 * deny list through act, keys and launch, prompt injection, the decider adding (never removing) a question,
 * approvals bound to their target, secrets kept out of outputs and the audit log.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import type { FakeWindow } from '../../src/drivers/fake/driver.js';
import type { AuditRecord, DecidedRecord } from '../../src/policy/audit.js';
import type { ConfirmChoice, ConfirmRequest, Confirmer } from '../../src/policy/confirm.js';
import type { Decider } from '../../src/policy/decider/types.js';
import { MODES, type Mode } from '../../src/policy/modes.js';
import { Policy, type PolicyOptions } from '../../src/policy/policy.js';
import { Session } from '../../src/session/session.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool, type ToolResult } from '../../src/tools/tool.js';
import { byId, n } from '../fixtures/engine/build.js';
import { WIDENING } from '../fixtures/policy/widening.js';
import { INJECTION, keepassWindow, mailWindow, PolicyFake, polkitWindow } from '../fixtures/policy/apps.js';

const SECRET = 'S3cr3t-hunter2-密码';

/** A confirmer that records questions and answers with `answer` (default: allow once). */
function stubConfirmer(
  answer: (r: ConfirmRequest) => ConfirmChoice | Promise<ConfirmChoice> = () => 'allow_once',
): Confirmer & { asked: ConfirmRequest[] } {
  const asked: ConfirmRequest[] = [];
  return { interactive: true, asked, confirm: async (r) => { asked.push(r); return answer(r); } };
}

function setup(opts: PolicyOptions = {}, windows: FakeWindow[] = [mailWindow(), keepassWindow(), polkitWindow()]) {
  const fake = new PolicyFake(windows);
  const dir = mkdtempSync(join(tmpdir(), 'cu-policy-'));
  const auditPath = join(dir, 'audit.jsonl');
  const policy = new Policy({
    processInfo: () => undefined,
    hostPids: [],
    audit: auditPath,
    settingsPath: join(dir, 'settings.json'),
    ...opts,
  });
  const session = new Session({ device: new Device({ connect: () => fake.connect() }), gate: policy });
  const outputs: string[] = [];
  const call = async (name: string, params: unknown): Promise<ToolResult> => {
    const r = await runTool(TOOLS.find((t) => t.schema.name === name)!, { session }, params);
    outputs.push(r.text);
    return r;
  };
  const sent = (method = 'node.act') => fake.calls.filter((c) => c.method === method).length;
  const audit = (): AuditRecord[] =>
    readFileSync(auditPath, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as AuditRecord);
  return { fake, policy, session, call, sent, auditPath, audit, outputs, dir };
}

const refOf = (text: string, pattern: RegExp): string => {
  const line = text.split('\n').find((l) => pattern.test(l));
  assert.ok(line, `no line matches ${pattern} in\n${text}`);
  return /\[(e\d+)\]/.exec(line)![1]!;
};

/** Runs one acting tool; `kind` picks a harmless act, an irreversible act, keys or launch. */
async function acting(s: ReturnType<typeof setup>, kind: 'act' | 'send' | 'keys' | 'launch'): Promise<ToolResult> {
  if (kind === 'launch') return s.call('computer_launch', { command: 'mailer', waitMs: 0 });
  if (kind === 'keys') return s.call('computer_keys', { keys: 'ctrl+a', app: 'mailer' });
  const snap = (await s.call('computer_observe', { app: 'mailer', full: true })).text;
  const ref = kind === 'send' ? refOf(snap, /button "Send"/) : refOf(snap, /checkbox "Request receipt"/);
  return s.call('computer_act', { actions: [{ ref, op: kind === 'send' ? 'click' : 'toggle' }] });
}

const code = (r: ToolResult): string => (r.isError ? r.code ?? 'error' : 'ok');

test('each mode against each acting tool, with the app allow-listed or not, and no human channel', async () => {
  const expect: Record<Mode, Record<'listed' | 'unlisted', Record<'act' | 'send' | 'keys' | 'launch', string>>> = {
    plan: {
      listed: {
        act: 'denied_by_policy',
        send: 'denied_by_policy',
        keys: 'denied_by_policy',
        launch: 'denied_by_policy',
      },
      unlisted: {
        act: 'denied_by_policy',
        send: 'denied_by_policy',
        keys: 'denied_by_policy',
        launch: 'denied_by_policy',
      },
    },
    default: {
      listed: { act: 'ok', send: 'confirmation_required', keys: 'ok', launch: 'ok' },
      unlisted: {
        act: 'confirmation_required',
        send: 'confirmation_required',
        keys: 'confirmation_required',
        launch: 'confirmation_required',
      },
    },
    'accept-edits': {
      listed: { act: 'ok', send: 'confirmation_required', keys: 'ok', launch: 'ok' },
      unlisted: {
        act: 'confirmation_required',
        send: 'confirmation_required',
        keys: 'confirmation_required',
        launch: 'confirmation_required',
      },
    },
    bypass: {
      listed: { act: 'ok', send: 'ok', keys: 'ok', launch: 'ok' },
      unlisted: {
        act: 'confirmation_required',
        send: 'confirmation_required',
        keys: 'confirmation_required',
        launch: 'confirmation_required',
      },
    },
    unattended: {
      listed: { act: 'ok', send: 'denied_by_policy', keys: 'ok', launch: 'ok' },
      unlisted: {
        act: 'denied_by_policy',
        send: 'denied_by_policy',
        keys: 'denied_by_policy',
        launch: 'denied_by_policy',
      },
    },
  };
  for (const mode of MODES) {
    for (const listing of ['listed', 'unlisted'] as const) {
      for (const kind of ['act', 'send', 'keys', 'launch'] as const) {
        const s = setup({ mode, ...(listing === 'listed' ? { allowApps: ['mailer'] } : {}) });
        const r = await acting(s, kind);
        const want = expect[mode][listing][kind];
        assert.equal(code(r), want, `${mode} ${listing} ${kind}:\n${r.text}`);
        const dispatched = sent('node.act') + sent('input.keys') + sent('apps.launch');
        function sent(m: string) { return s.sent(m); }
        assert.equal(dispatched, want === 'ok' ? 1 : 0, `${mode} ${listing} ${kind}: dispatches`);
        if (want !== 'ok') assert.match(r.text, /Nothing was sent/, r.text);
        // The refusal says where the user decides, and hands the model no flag or field that widens its permissions.
        if (want === 'confirmation_required')
          assert.match(r.text, /the computer-use panel|where the user can be asked/, r.text);
        for (const w of WIDENING) assert.doesNotMatch(r.text, w, `${mode} ${listing} ${kind}: ${r.text}`);
        await s.session.close();
      }
    }
  }
});

test('plan mode: the read-only tools run, and never reach the gate', async () => {
  const s = setup({ mode: 'plan' });
  for (const [name, params] of [
    ['computer_apps', {}],
    ['computer_observe', { app: 'mailer' }],
    ['computer_find', { text: 'Send', app: 'mailer' }],
    ['computer_wait', { until: 'appears', text: 'Send', app: 'mailer', timeoutMs: 100 }],
  ] as const) {
    const r = await s.call(name, params);
    assert.equal(r.isError, false, `${name}: ${r.text}`);
  }
  assert.equal(
    s.policy.audit &&
      (() => {
        try {
          return s.audit().length;
        } catch {
          return 0;
        }
      })(),
    0,
    'no decision was needed',
  );
  const act = await acting(s, 'act');
  assert.match(act.text, /Plan mode: computer_act is refused/);
  await s.session.close();
});

test('default mode asks on first use; "this session" is ' +
    'remembered, irreversible steps still ask every time', async () => {
  const confirmer = stubConfirmer((r) => (r.reason === 'app_first_use' ? 'allow_session' : 'allow_once'));
  const s = setup({ mode: 'default', confirmer });
  assert.equal(code(await acting(s, 'act')), 'ok');
  assert.equal(code(await acting(s, 'act')), 'ok');
  assert.deepEqual(confirmer.asked.map((r) => r.reason), ['app_first_use']);
  assert.deepEqual(confirmer.asked[0]!.choices, ['allow_once', 'allow_session', 'allow_always', 'deny']);
  assert.equal(code(await acting(s, 'send')), 'ok');
  assert.equal(code(await acting(s, 'send')), 'ok');
  assert.deepEqual(confirmer.asked.map((r) => r.reason), ['app_first_use', 'irreversible', 'irreversible']);
  assert.deepEqual(confirmer.asked[1]!.choices, ['allow_once', 'deny']);
  const declined = setup({ mode: 'accept-edits', allowApps: ['mailer'], confirmer: stubConfirmer(() => 'deny') });
  const r = await acting(declined, 'send');
  assert.equal(r.code, 'confirmation_declined');
  assert.match(r.text, /The user declined: click button "Send" in "mailer"\. Nothing was sent\. Do not retry/);
  assert.equal(declined.sent(), 0);
  await s.session.close();
  await declined.session.close();
});

test('"always" is saved to the settings file and holds in the next session', async () => {
  const confirmer = stubConfirmer(() => 'allow_always');
  const s = setup({ mode: 'accept-edits', confirmer });
  assert.equal(code(await acting(s, 'act')), 'ok');
  const settings = JSON.parse(readFileSync(join(s.dir, 'settings.json'), 'utf8')) as { allowApps: string[] };
  assert.deepEqual(settings.allowApps, ['mailer']);
  assert.equal(statSync(join(s.dir, 'settings.json')).mode & 0o777, 0o600);
  await s.session.close();
});

test('deny-listed apps are refused through act, keys and ' +
    'launch in every mode, whatever the allow list says', async () => {
  for (const mode of ['default', 'bypass', 'unattended'] as const) {
    const s = setup({
      mode,
      allowApps: ['keepassxc', 'KeePassXC', 'polkit-gnome-authentication-agent-1', 'mailer'],
      allowIrreversibleUnattended: true,
      confirmer: stubConfirmer(),
    });
    // Denied means unseen: not even observed, so there is no ref to act on.
    const kp = await s.call('computer_observe', { app: 'KeePassXC' });
    assert.equal(kp.code, 'denied_by_policy', kp.text);
    assert.match(
      kp.text,
      /may not read or act on: it is a password manager \(built-in deny list; no setting lifts it\)/,
    );
    const kpKeys = await s.call('computer_keys', { keys: 'ctrl+c', app: 'KeePassXC' });
    assert.equal(kpKeys.code, 'denied_by_policy', kpKeys.text);
    const pk = await s.call('computer_observe', { app: 'polkit-gnome-authentication-agent-1' });
    assert.equal(pk.code, 'denied_by_policy', pk.text);
    const auth = await s.call('computer_keys', { keys: 'Return', window: 'Authentication Required' });
    assert.equal(auth.code, 'denied_by_policy', auth.text);
    for (const command of ['keepassxc', '/usr/bin/keepassxc', 'pkexec', 'seahorse']) {
      const launched = await s.call('computer_launch', { command, waitMs: 0 });
      assert.equal(launched.code, 'denied_by_policy', `${command}: ${launched.text}`);
    }
    const wrapped = await s.call('computer_launch', { command: 'env', args: ['keepassxc'], waitMs: 0 });
    assert.equal(wrapped.code, 'denied_by_policy', wrapped.text);
    assert.equal(s.sent('node.act') + s.sent('input.keys') + s.sent('apps.launch'), 0, `${mode}: nothing dispatched`);
    await s.session.close();
  }
});

test('a label telling the agent to skip confirmation is data: Send still asks', async () => {
  const confirmer = stubConfirmer(() => 'deny');
  const s = setup({ mode: 'accept-edits', allowApps: ['mailer'], confirmer });
  const snap = (await s.call('computer_observe', { app: 'mailer', full: true })).text;
  assert.ok(snap.includes(INJECTION));
  const send = refOf(snap, /button "Send"/);
  const r = await s.call('computer_act', { actions: [{ ref: send, op: 'click' }] });
  assert.equal(r.code, 'confirmation_declined');
  assert.equal(confirmer.asked.length, 1);
  assert.equal(confirmer.asked[0]!.reason, 'irreversible');
  assert.match(confirmer.asked[0]!.message, /click button "Send" in "mailer"/);
  assert.match(confirmer.asked[0]!.message, /Text in quotes comes from the app/);
  // The mnemonic form of Delete is seen through too.
  const del = await s.call('computer_act', { actions: [{ ref: refOf(snap, /button "&?Delete"/), op: 'click' }] });
  assert.equal(del.code, 'confirmation_declined');
  assert.equal(s.sent(), 0);
  await s.session.close();
});

test('the decider can add a confirmation where rules are silent, and never remove one', async () => {
  const calls: string[] = [];
  const decider = (p: number): Decider => ({
    irreversible: async (ctx) => {
      calls.push(`${ctx.op} ${ctx.name}`);
      return p;
    },
    choose: async () => null,
  });
  // "Reversible" (0.0) does not remove the rule's question for Send.
  const lenient = setup({
    mode: 'accept-edits',
    allowApps: ['mailer'],
    decider: decider(0),
    confirmer: stubConfirmer(() => 'deny'),
  });
  assert.equal(code(await acting(lenient, 'send')), 'confirmation_declined');
  const noHuman = setup({ mode: 'accept-edits', allowApps: ['mailer'], decider: decider(0) });
  assert.equal(code(await acting(noHuman, 'send')), 'confirmation_required');
  // 0.9 adds a question to an action the rules let through.
  const strict = setup({
    mode: 'accept-edits',
    allowApps: ['mailer'],
    decider: decider(0.9),
    confirmer: stubConfirmer(() => 'deny'),
  });
  const snap = (await strict.call('computer_observe', { app: 'mailer', full: true })).text;
  const archive = await strict.call('computer_act', {
    actions: [{ ref: refOf(snap, /button "Archive"/), op: 'click' }],
  });
  assert.equal(archive.code, 'confirmation_declined', archive.text);
  assert.ok(calls.includes('click Archive'));
  const unattended = setup({ mode: 'unattended', allowApps: ['mailer'], decider: decider(0.9) });
  const snap2 = (await unattended.call('computer_observe', { app: 'mailer', full: true })).text;
  const r = await unattended.call('computer_act', {
    actions: [{ ref: refOf(snap2, /button "Archive"/), op: 'click' }],
  });
  assert.equal(r.code, 'denied_by_policy');
  // A decider that never answers is no opinion after its timeout.
  const slow = setup({ mode: 'accept-edits', allowApps: ['mailer'], deciderTimeoutMs: 50,
    decider: { irreversible: () => new Promise<number | null>(() => undefined), choose: async () => null } });
  const snap3 = (await slow.call('computer_observe', { app: 'mailer', full: true })).text;
  assert.equal(
    code(await slow.call('computer_act', { actions: [{ ref: refOf(snap3, /button "Archive"/), op: 'click' }] })),
    'ok',
  );
  for (const s of [lenient, noHuman, strict, unattended, slow]) await s.session.close();
});

test('an approval is bound to its target: a target changed while the user was asked gets nothing', async () => {
  let mutate: (() => void) | undefined;
  const confirmer = stubConfirmer(() => { mutate?.(); return 'allow_once'; });
  const s = setup({ mode: 'accept-edits', allowApps: ['mailer'], confirmer });
  const root = s.fake.windows[0]!.root;
  // 1. The button the user approved was relabelled meanwhile (same handle, now "Send to all contacts").
  let snap = (await s.call('computer_observe', { app: 'mailer', full: true })).text;
  mutate = () => { byId(root, 6).name = 'Send to all contacts'; };
  let r = await s.call('computer_act', { actions: [{ ref: refOf(snap, /button "Send"/), op: 'click' }] });
  assert.equal(r.code, 'stale_ref', r.text);
  assert.match(r.text, /changed while the user was being asked/);
  assert.equal(s.sent(), 0);
  // 2. The element was replaced by another one with the same name (new handle): not the approved element either.
  byId(root, 6).name = 'Send';
  snap = (await s.call('computer_observe', { app: 'mailer', full: true })).text;
  mutate = () => { const b = byId(root, 6); b.id = b.id.replace(/\/6$/, '/66'); };
  r = await s.call('computer_act', { actions: [{ ref: refOf(snap, /button "Send"/), op: 'click' }] });
  assert.equal(r.code, 'stale_ref', r.text);
  assert.equal(s.sent(), 0);
  // Observing again and retrying asks again, and then sends.
  mutate = undefined;
  snap = (await s.call('computer_observe', { app: 'mailer', full: true })).text;
  r = await s.call('computer_act', { actions: [{ ref: refOf(snap, /button "Send"/), op: 'click' }] });
  assert.equal(r.isError, false, r.text);
  assert.equal(confirmer.asked.length, 3);
  assert.equal(s.sent(), 1);
  const stale = s.audit().filter((x): x is DecidedRecord => x.phase === 'decided' && x.decision === 'stale');
  assert.equal(stale.length, 2);
  await s.session.close();
});

test('a password typed through act or keys never appears in outputs, questions or the audit log', async () => {
  const confirmer = stubConfirmer();
  const s = setup({ mode: 'accept-edits', allowApps: ['mailer'], confirmer });
  const snap = (await s.call('computer_observe', { app: 'mailer', full: true })).text;
  const field = refOf(snap, /textbox "SMTP password"/);
  const r = await s.call('computer_act', { actions: [{ ref: field, op: 'set_value', value: SECRET }] });
  assert.equal(r.isError, false, r.text);
  assert.equal(confirmer.asked.at(-1)?.reason, 'password', 'password writes are always confirmed');
  // Keys typed while the password field has focus.
  byId(s.fake.windows[0]!.root, 3).states = ['editable', 'focusable'];
  byId(s.fake.windows[0]!.root, 5).states = ['editable', 'password', 'focusable', 'focused'];
  await s.call('computer_observe', { app: 'mailer', full: true });
  const typed = await s.call('computer_keys', { keys: [...'hunter2'].join(' '), app: 'mailer' });
  assert.equal(typed.isError, false, typed.text);
  assert.equal(confirmer.asked.at(-1)?.reason, 'password');
  assert.equal(byId(s.fake.windows[0]!.root, 5).value, SECRET, 'the secret reached the field');
  await s.call('computer_observe', { app: 'mailer', full: true });
  const log = readFileSync(s.auditPath, 'utf8');
  for (const text of [...s.outputs, log, ...confirmer.asked.map((q) => `${q.title}\n${q.message}`)]) {
    assert.ok(
      !text.includes(SECRET) && !text.includes('hunter2') && !text.includes('h u n t e r'),
      `secret leaked in:\n${text}`,
    );
  }
  const rec = s.audit().find((x): x is DecidedRecord => x.phase === 'decided' && x.op === 'set_value')!;
  assert.equal(rec.value?.len, [...SECRET].length);
  assert.match(rec.value?.hmac ?? '', /^[0-9a-f]{16}$/);
  assert.equal(rec.redacted, true);
  await s.session.close();
});

test('audit: mode 0600, a fsynced "decided" record before dispatch, completed by "done" after', async () => {
  const s = setup({ mode: 'bypass', allowApps: ['mailer'] });
  let atDispatch: AuditRecord[] = [];
  s.fake.onAct = () => { atDispatch = s.audit(); };
  const r = await acting(s, 'send');
  assert.equal(r.isError, false, r.text);
  assert.equal(statSync(s.auditPath).mode & 0o777, 0o600);
  assert.equal(atDispatch.length, 1);
  const decided = atDispatch[0] as DecidedRecord;
  assert.equal(decided.phase, 'decided');
  assert.equal(decided.decision, 'allowed');
  assert.equal(decided.app, 'mailer');
  assert.equal(decided.op, 'click');
  assert.equal(decided.name, 'Send');
  assert.match(decided.fingerprint ?? '', /^[0-9a-f]{16}$/);
  for (const k of ['time', 'session', 'device', 'ref'] as const) assert.ok(decided[k], k);
  const all = s.audit();
  assert.deepEqual(all.map((x) => x.phase), ['decided', 'done']);
  assert.equal(all[1]!.id, decided.id);
  // The done record carries the act's receipt (here: a click with no visible effect, so unknown).
  assert.equal((all[1] as { receipt: string }).receipt, 'unknown');
  // Refusals are recorded too, as one complete record.
  const plan = setup({ mode: 'plan' });
  await acting(plan, 'keys');
  assert.deepEqual(plan.audit().map((x) => [x.phase, (x as DecidedRecord).decision]), [['decided', 'denied']]);
  await s.session.close();
  await plan.session.close();
});

test('a window whose process was replaced (pid reused) is not acted on', async () => {
  const w = mailWindow();
  w.info.startToken = '1000';
  const s = setup(
    {
      mode: 'bypass',
      allowApps: ['mailer'],
      processInfo: () => ({ startToken: '2000', executable: '/usr/bin/mailer' }),
    },
    [w],
  );
  const r = await acting(s, 'act');
  assert.equal(r.code, 'stale_ref', r.text);
  assert.match(r.text, /pid 4242.*another process/);
  assert.equal(s.sent(), 0);
  await s.session.close();
});

test('an app claiming an allowed name with another executable is not allowed', async () => {
  const s = setup({ mode: 'unattended', allowApps: ['mailer'], processInfo: () => ({ executable: '/tmp/impostor' }) });
  const r = await acting(s, 'act');
  assert.equal(r.code, 'denied_by_policy', r.text);
  assert.match(r.text, /"impostor" is not on the allow list/);
  await s.session.close();
});

void n;

test('an interpreted app started by a relative script path: ' +
    'the refusal names no allow entry that could never match', async () => {
  const py = { executable: '/usr/bin/python3.11', cmdline: ['/usr/bin/python3', 'mailer.py'] };
  const s = setup({ mode: 'accept-edits', allowApps: ['mailer'], processInfo: () => py });
  const r = await acting(s, 'act');
  assert.equal(code(r), 'confirmation_required', r.text);
  assert.doesNotMatch(r.text, /allow "python3\.11 \(/, r.text);
  assert.match(r.text, /No allow entry can name this app[^]*absolute path/, r.text);
  // With the script's absolute path the advice is an entry that works.
  const t = setup({
    mode: 'accept-edits',
    processInfo: () => ({ ...py, cmdline: ['/usr/bin/python3', '/opt/mailer/mailer.py'] }),
  });
  const r2 = await acting(t, 'act');
  assert.match(r2.text, /allow "python3\.11 \/opt\/mailer\/mailer\.py" themselves: in the computer-use panel/, r2.text);
});
