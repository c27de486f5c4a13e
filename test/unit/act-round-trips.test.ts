/**
 * Driver round trips of one act (docs/platforms.md, "Linux: how the driver reads and acts"): with a driver that proves
 * the element's process and window at
 * dispatch (`act_identity`) and lists the windows around the act (`act_windows`), a click or toggle on a ref of the
 * last observe costs node.act, ui.settle and tree.snapshot, and the policy still decides on every act from facts
 * the driver proved. A window whose process was swapped under the same handle and title is refused with nothing
 * sent, on either path; a changed title is decided again on what the window is now.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import type { ActionRequest, PolicyGate } from '../../src/policy/gate.js';
import type { IdentifyParams, IdentifyResult } from '../../src/protocol/identity.js';
import type { ActParams } from '../../src/protocol/methods.js';
import { Session } from '../../src/session/session.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/tool.js';
import { widgetFactory } from '../fixtures/engine/widget-factory.js';

const EXE = '/usr/bin/gtk3-widget-factory';

function setup(opts: { capabilities?: FakeDriver['capabilities'] } = {}) {
  const f = widgetFactory();
  const info = { ...f.window, startToken: '777', appId: EXE, executable: EXE };
  const fake = new FakeDriver([{ info, root: f.root }]);
  if (opts.capabilities) fake.capabilities = opts.capabilities;
  // What /proc would prove: the process the window's info names, while it lives.
  fake.extra['process.identify'] = (p: IdentifyParams): IdentifyResult => {
    const w = fake.windows.find((x) => x.info.pid === p.pid)?.info;
    return w
      ? { pid: p.pid, startToken: w.startToken!, appId: w.appId!, executable: w.executable! }
      : { pid: p.pid, gone: true };
  };
  const asked: ActionRequest[] = [];
  const gate: PolicyGate = {
    check: async (req) => {
      asked.push(req);
      return { done: () => undefined };
    },
    visible: () => undefined,
  };
  const session = new Session({ device: new Device({ connect: () => fake.connect() }), gate });
  const call = async (name: string, params: unknown) =>
    runTool(
      TOOLS.find((t) => t.schema.name === name)!,
      { session },
      params,
    );
  return { fake, session, call, asked, window: fake.windows[0]! };
}

const refOf = (text: string, pattern: RegExp): string => {
  const line = text.split('\n').find((l) => pattern.test(l));
  assert.ok(line, `no line matches ${pattern} in\n${text}`);
  return /\[(e\d+)\]/.exec(line)![1]!;
};
/** The requests the host sent since `from` (the visible agent's unawaited ui.highlight left out, as bench/act.ts
* counts). */
const sent = (fake: FakeDriver, from: number): string[] =>
  fake.calls
    .slice(from)
    .map((c) => c.method)
    .filter((m) => m !== 'ui.highlight');

test('a toggle and a click on refs of the last observe cost 3 ' +
    'round trips: node.act, ui.settle, tree.snapshot', async () => {
  const { call, fake, session, asked } = setup();
  const snap = (await call('computer_observe', {})).text;
  const bold = refOf(snap, /checkbox "Bold"/);
  // The first act on a process proves what it is (process.identify), once.
  let from = fake.calls.length;
  const first = await call('computer_act', { actions: [{ ref: bold, op: 'toggle' }] });
  assert.equal(first.isError, false, first.text);
  assert.deepEqual(sent(fake, from), ['process.identify', 'node.act', 'ui.settle', 'tree.snapshot']);
  from = fake.calls.length;
  const toggle = await call('computer_act', { actions: [{ ref: bold, op: 'toggle' }] });
  assert.match(toggle.text, new RegExp(`ok toggle ${bold} · confirmed`), toggle.text);
  assert.deepEqual(sent(fake, from), ['node.act', 'ui.settle', 'tree.snapshot']);
  const button = refOf(snap, /button "/);
  from = fake.calls.length;
  const click = await call('computer_act', { actions: [{ ref: button, op: 'click' }] });
  assert.equal(click.isError, false, click.text);
  assert.deepEqual(sent(fake, from), ['node.act', 'ui.settle', 'tree.snapshot']);
  // Each act was decided from the facts the driver proved, and the driver was told to prove them again.
  assert.equal(asked.length, 3);
  for (const req of asked)
    assert.deepEqual(req.kind === 'launch' ? [] : [req.identity?.executable, req.identity?.startToken, req.title], [
      EXE,
      '777',
      'GTK+ Widget Factory',
    ]);
  const act = fake.calls.filter((c) => c.method === 'node.act').map((c) => c.params as ActParams);
  for (const p of act)
    assert.deepEqual(
      { ...p.expect, role: undefined, name: undefined },
      {
        role: undefined,
        name: undefined,
        pid: 5151,
        startToken: '777',
        appId: EXE,
        window: fake.windows[0]!.info.id,
        title: 'GTK+ Widget Factory',
      },
    );
  assert.ok(act.every((p) => p.apps === true), 'each act lists the windows open before its input');
  await session.close();
});

test('a driver without act_identity and act_windows keeps the listed path', async () => {
  const { call, fake, session } = setup({ capabilities: ['events', 'keys'] });
  const snap = (await call('computer_observe', {})).text;
  const from = fake.calls.length;
  const res = await call('computer_act', { actions: [{ ref: refOf(snap, /checkbox "Bold"/), op: 'toggle' }] });
  assert.equal(res.isError, false, res.text);
  assert.deepEqual(sent(fake, from), [
    'apps.list',
    'process.identify',
    'node.act',
    'ui.settle',
    'apps.list',
    'tree.snapshot',
  ]);
  const p = fake.calls.find((c) => c.method === 'node.act')!.params as ActParams;
  assert.equal(p.expect?.pid, undefined, 'no identity expectation for a driver that does not prove it');
  assert.equal(p.apps, undefined);
  await session.close();
});

for (const capabilities of [undefined, ['events', 'keys'] as FakeDriver['capabilities']]) {
  const path = capabilities ? 'listed path' : 'proving path';
  test(`${path}: a window whose process was swapped under ` +
      `the same handle and title is refused, nothing sent`, async () => {
    const { call, fake, session, window } = setup(capabilities ? { capabilities } : {});
    const snap = (await call('computer_observe', {})).text;
    const bold = refOf(snap, /checkbox "Bold"/);
    assert.equal((await call('computer_act', { actions: [{ ref: bold, op: 'toggle' }] })).isError, false);
    const dispatched = fake.dispatched.length;
    // Another process now holds the handle (a reused window handle), same title, same tree.
    window.info = { ...window.info, pid: 6262, startToken: '888' };
    const res = await call('computer_act', { actions: [{ ref: bold, op: 'toggle' }] });
    assert.equal(res.isError, true, res.text);
    assert.equal(res.code, 'stale_ref', res.text);
    assert.match(res.text, /another process holds now\. Nothing was sent/);
    assert.equal(fake.dispatched.length, dispatched, 'nothing reached the swapped process');
    await session.close();
  });
}

test('a window retitled since the observe is listed and decided again on its title now', async () => {
  const { call, fake, session, window, asked } = setup();
  const snap = (await call('computer_observe', {})).text;
  const bold = refOf(snap, /checkbox "Bold"/);
  window.info = { ...window.info, title: 'Vault — unlocked' };
  const from = fake.calls.length;
  const res = await call('computer_act', { actions: [{ ref: bold, op: 'toggle' }] });
  assert.equal(res.isError, false, res.text);
  // The driver refused the first dispatch (window_changed, nothing sent); the listed one went through.
  assert.deepEqual(sent(fake, from), [
    'process.identify',
    'node.act',
    'apps.list',
    'process.identify',
    'node.act',
    'ui.settle',
    'tree.snapshot',
  ]);
  assert.deepEqual(
    asked.map((r) => (r.kind === 'launch' ? undefined : r.title)),
    ['GTK+ Widget Factory', 'Vault — unlocked'],
  );
  assert.equal(fake.dispatched.length, 1);
  await session.close();
});

test('a reused pid is proven again: the identity kept is the one of that start token only', async () => {
  const { call, fake, session, window } = setup();
  const snap = (await call('computer_observe', {})).text;
  const bold = refOf(snap, /checkbox "Bold"/);
  assert.equal((await call('computer_act', { actions: [{ ref: bold, op: 'toggle' }] })).isError, false);
  // The app restarted under the same pid and handle (another start token) and was observed again.
  window.info = { ...window.info, startToken: '999' };
  const again = (await call('computer_observe', {})).text;
  const from = fake.calls.length;
  const res = await call('computer_act', { actions: [{ ref: refOf(again, /checkbox "Bold"/), op: 'toggle' }] });
  assert.equal(res.isError, false, res.text);
  assert.deepEqual(sent(fake, from), ['process.identify', 'node.act', 'ui.settle', 'tree.snapshot']);
  await session.close();
});
