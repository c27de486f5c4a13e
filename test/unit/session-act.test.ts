/** The act flow above the protocol, on fixture trees through the in-memory fake driver (any OS). */
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import type { RawNode } from '../../src/engine/node.js';
import { ComputerUseError } from '../../src/protocol/errors.js';
import type { PolicyGate } from '../../src/policy/gate.js';
import { Session } from '../../src/session/session.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/tool.js';
import { byId, n } from '../fixtures/engine/build.js';
import { FAKE_PASSWORD, widgetFactory } from '../fixtures/engine/widget-factory.js';

function setup(opts: { gate?: PolicyGate; statePath?: string; fake?: FakeDriver } = {}) {
  const f = widgetFactory();
  const fake = opts.fake ?? new FakeDriver([{ info: f.window, root: f.root }]);
  const session = new Session({
    device: new Device({ connect: () => fake.connect() }),
    ...(opts.gate ? { gate: opts.gate } : {}),
    ...(opts.statePath ? { statePath: opts.statePath } : {}),
  });
  const call = async (name: string, params: unknown) =>
    runTool(
      TOOLS.find((t) => t.schema.name === name)!,
      { session },
      params,
    );
  return { fake, session, call, root: f.root };
}

const refOf = (text: string, pattern: RegExp): string => {
  const line = text.split('\n').find((l) => pattern.test(l));
  assert.ok(line, `no line matches ${pattern} in\n${text}`);
  return /\[(e\d+)\]/.exec(line)![1]!;
};

test('toggle and set_value are confirmed by the fresh snapshot and reported as a diff', async () => {
  const { call, session } = setup();
  const snap = (await call('computer_observe', { app: 'gtk3-widget-factory' })).text;
  const bold = refOf(snap, /checkbox "Bold"/);
  const volume = refOf(snap, /slider "Volume"/);
  const res = await call('computer_act', {
    actions: [
      { ref: bold, op: 'toggle' },
      { ref: volume, op: 'set_value', value: '80' },
    ],
  });
  assert.equal(res.isError, false, res.text);
  assert.match(res.text, new RegExp(`^ok toggle ${bold} · confirmed \\(fake toggle; now checked\\)`, 'm'));
  assert.match(res.text, new RegExp(`^ok set_value ${volume} · confirmed`, 'm'));
  assert.match(res.text, new RegExp(`^~ \\[${bold}\\] checkbox "Bold" unchecked → checked$`, 'm'));
  assert.match(res.text, new RegExp(`^~ \\[${volume}\\] slider "Volume" value "50" → "80"$`, 'm'));
  await session.close();
});

test('a dead handle is relocated by fingerprint when exactly one element matches', async () => {
  const { call, fake, session } = setup();
  const bold = refOf((await call('computer_observe', {})).text, /checkbox "Bold"/);
  // The app rebuilt the check box: same role, name and place, new handle.
  byId(fake.windows[0]!.root, 13).id += '-rebuilt';
  const res = await call('computer_act', { actions: [{ ref: bold, op: 'toggle' }] });
  assert.equal(res.isError, false, res.text);
  assert.match(res.text, /confirmed/);
  const acts = fake.calls.filter((c) => c.method === 'node.act').map((c) => (c.params as { id: string }).id);
  assert.deepEqual(acts.map((id) => id.endsWith('-rebuilt')), [false, true]);
  await session.close();
});

test('a destroyed element is stale_ref with a fresh ' +
    'snapshot, and nothing is sent to a look-alike elsewhere', async () => {
  const { call, fake, session } = setup();
  const bold = refOf((await call('computer_observe', {})).text, /checkbox "Bold"/);
  const root = fake.windows[0]!.root;
  const group = byId(root, 7);
  group.children = (group.children ?? []).filter((c) => c.name !== 'Bold');
  // A "Bold" check box under another named group is another element.
  byId(root, 8).children!.push(n(':1.77', 999, 'checkbox', { name: 'Bold', actions: ['toggle'] }));
  const res = await call('computer_act', { actions: [{ ref: bold, op: 'toggle' }] });
  assert.equal(res.isError, true);
  assert.equal(res.code, 'stale_ref');
  assert.match(res.text, /fresh snapshot:\napp gtk3-widget-factory/);
  assert.equal(
    fake.calls.filter((c) => c.method === 'node.act').length,
    1,
    'only the failed attempt on the dead handle',
  );
  await session.close();
});

test('the policy gate sees every act first; a refusal sends nothing', async () => {
  const seen: string[] = [];
  const gate: PolicyGate = {
    check: async (req) => {
      const name = req.kind === 'element' ? req.name ?? '' : '';
      seen.push(`${req.tool} ${req.kind === 'keys' ? req.keys : req.kind === 'launch' ? '' : req.op} ${name}`.trim());
      if (name === 'Bold') throw new ComputerUseError('denied_by_policy', 'Bold is not allowed in this test.');
      return { done: () => undefined };
    },
    visible: () => undefined,
  };
  const { call, fake, session } = setup({ gate });
  const snap = (await call('computer_observe', {})).text;
  const res = await call('computer_act', { actions: [{ ref: refOf(snap, /checkbox "Bold"/), op: 'toggle' }] });
  assert.equal(res.isError, true);
  assert.equal(res.code, 'denied_by_policy');
  assert.match(res.text, /^rejected toggle e\d+ · denied_by_policy: Bold is not allowed/m);
  assert.equal(fake.calls.filter((c) => c.method === 'node.act').length, 0);
  await call('computer_keys', { keys: 'ctrl+s' });
  assert.deepEqual(seen, ['computer_act toggle Bold', 'computer_keys ctrl+s']);
  await session.close();
});

test('without driver events, settling polls the tree until it stops changing', async () => {
  const f = widgetFactory();
  const fake = new FakeDriver([{ info: f.window, root: f.root }]);
  fake.capabilities = ['keys'];
  const { call, session } = setup({ fake });
  const snap = (await call('computer_observe', {})).text;
  const res = await call('computer_act', {
    actions: [{ ref: refOf(snap, /checkbox "Bold"/), op: 'toggle' }],
    settle: { quietMs: 5 },
  });
  assert.match(res.text, /confirmed/);
  assert.equal(fake.calls.filter((c) => c.method === 'ui.settle').length, 0);
  assert.ok(fake.calls.filter((c) => c.method === 'tree.snapshot').length >= 3);
  await session.close();
});

test('a window opened by a click arrives with its own snapshot and confirms the click', async () => {
  const f = widgetFactory();
  const fake = new FakeDriver([{ info: f.window, root: f.root }]);
  fake.onAct = (p, node: RawNode) => {
    if (node.name !== 'togglebutton') return;
    const root = n(':1.77', 500, 'dialog', { name: 'Confirm' }, [
      n(':1.77', 501, 'button', { name: 'OK', actions: ['click'] }),
    ]);
    fake.windows.push({
      info: { id: root.id, title: 'Confirm', app: f.window.app, pid: f.window.pid, role: 'dialog', focused: true },
      root,
    });
  };
  const { call, session } = setup({ fake });
  const snap = (await call('computer_observe', {})).text;
  const res = await call('computer_act', { actions: [{ ref: refOf(snap, /button "togglebutton"/), op: 'click' }] });
  assert.match(res.text, /^ok click e\d+ · confirmed \(fake click\)$/m);
  assert.match(
    res.text,
    /^new window \[w2\] dialog "Confirm" \[focused\] · app gtk3-widget-factory pid=5151\n\[e\d+\] dialog/m,
  );
  assert.match(res.text, /\[e\d+\] button "OK"/);
  await session.close();
});

test('refs survive between processes through the state file; secrets stay out of it', async () => {
  const statePath = join(await mkdtemp(join(tmpdir(), 'cu-state-')), 'session.json');
  const first = setup({ statePath });
  const snap = (await first.call('computer_observe', {})).text;
  const bold = refOf(snap, /checkbox "Bold"/);
  await first.session.close();
  const { readFile } = await import('node:fs/promises');
  assert.ok(!(await readFile(statePath, 'utf8')).includes(FAKE_PASSWORD));
  const second = setup({ statePath, fake: first.fake });
  const res = await second.call('computer_act', { actions: [{ ref: bold, op: 'toggle' }] });
  assert.equal(res.isError, false, res.text);
  assert.match(res.text, new RegExp(`ok toggle ${bold} · confirmed`));
  await second.session.close();
});

test('unknown refs and unknown windows give errors that say what to do', async () => {
  const { call, session } = setup();
  const stale = await call('computer_act', { actions: [{ ref: 'e424242', op: 'click' }] });
  assert.equal(stale.code, 'unknown_ref');
  assert.match(stale.text, /Ref e424242 was never given in this session\. Call computer_observe to get refs/);
  const noApp = await call('computer_observe', { app: 'nonexistent' });
  assert.equal(noApp.code, 'app_not_found');
  assert.match(noApp.text, /Running: gtk3-widget-factory\. Start it with computer_launch/);
  await session.close();
});

test('a ref whose window closed is "gone", not "never given" ' +
    '(a model in the loop read the old wording as false)', async () => {
  const { call, session, fake } = setup();
  const snap = (await call('computer_observe', {})).text;
  const bold = refOf(snap, /checkbox "Bold"/);
  fake.windows.splice(0, fake.windows.length);
  await call('computer_apps', {});
  const r = await call('computer_act', { actions: [{ ref: bold, op: 'toggle' }] });
  assert.equal(r.code, 'unknown_ref', r.text);
  assert.match(
    r.text,
    new RegExp(`Ref ${bold} is gone: its window closed, or its element has not been seen for several snapshots`),
    r.text,
  );
  assert.doesNotMatch(r.text, /never given/);
  await session.close();
});
