/**
 * The act lifecycle above the protocol, through the in-memory fake driver:
 * actionability waits after the gate and before dispatch, a disabled element sends nothing, edits settle long
 * enough for dependent state, toggles are judged against the state at dispatch.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import type { State } from '../../src/engine/node.js';
import type { PolicyGate } from '../../src/policy/gate.js';
import { ComputerUseError } from '../../src/protocol/errors.js';
import type { ActParams, SettleParams } from '../../src/protocol/methods.js';
import { EDIT_SETTLE_MS, Session } from '../../src/session/session.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/tool.js';
import { byId } from '../fixtures/engine/build.js';
import { widgetFactory } from '../fixtures/engine/widget-factory.js';

function setup(opts: { gate?: PolicyGate; actionTimeoutMs?: number } = {}) {
  const f = widgetFactory();
  const fake = new FakeDriver([{ info: f.window, root: f.root }]);
  const session = new Session({
    device: new Device({ connect: () => fake.connect() }),
    ...(opts.gate ? { gate: opts.gate } : {}),
    ...(opts.actionTimeoutMs !== undefined ? { actionTimeoutMs: opts.actionTimeoutMs } : {}),
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
const setStates = (node: { states: State[] }, states: State[]): void => { node.states = states; };

test('every clicking and editing op asks the driver to wait until the element is actionable', async () => {
  const { call, fake, session } = setup({ actionTimeoutMs: 1500 });
  const snap = (await call('computer_observe', {})).text;
  await call('computer_act', {
    actions: [
      { ref: refOf(snap, /checkbox "Bold"/), op: 'toggle' },
      { ref: refOf(snap, /textbox "Name"/), op: 'set_value', value: 'x' },
    ],
  });
  const acts = fake.calls.filter((c) => c.method === 'node.act').map((c) => (c.params as ActParams).actionable);
  assert.deepEqual(acts, [
    { timeoutMs: 1500, checks: ['visible', 'enabled', 'stable'] },
    { timeoutMs: 1500, checks: ['visible', 'enabled', 'editable', 'stable'] },
  ]);
  await session.close();
});

test('an element enabled while the act waits is acted on; ' +
    'one that stays disabled fails with nothing sent', async () => {
  const { call, fake, root, session } = setup({ actionTimeoutMs: 300 });
  const bold = byId(root, 13);
  setStates(bold, ['disabled']);
  const snap = (await call('computer_observe', {})).text;
  const ref = refOf(snap, /checkbox "Bold"/);
  const res = await call('computer_act', { actions: [{ ref, op: 'toggle' }] });
  assert.equal(res.isError, true, res.text);
  assert.equal(res.code, 'element_disabled');
  assert.match(res.text, new RegExp(`^failed toggle ${ref} · element_disabled: .*nothing was sent`, 'm'));
  assert.deepEqual(fake.dispatched, []);
  // Enabled 50 ms into the wait (an app timer after typing): the same act goes through.
  setTimeout(() => setStates(bold, []), 50);
  const again = await call('computer_act', { actions: [{ ref, op: 'toggle' }] });
  assert.equal(again.isError, false, again.text);
  assert.equal(fake.dispatched.length, 1);
  assert.deepEqual(bold.states, ['checked']);
  await session.close();
});

test('a hidden element fails with not_visible; a read-only field with element_disabled', async () => {
  const { call, fake, root, session } = setup({ actionTimeoutMs: 0 });
  const snap = (await call('computer_observe', {})).text;
  setStates(byId(root, 13), ['offscreen']);
  setStates(byId(root, 24), ['readonly']);
  const hidden = await call('computer_act', { actions: [{ ref: refOf(snap, /checkbox "Bold"/), op: 'toggle' }] });
  assert.equal(hidden.code, 'not_visible', hidden.text);
  const readOnly = await call('computer_act', {
    actions: [{ ref: refOf(snap, /textbox "Verification code"/), op: 'set_value', value: '1' }],
  });
  assert.equal(readOnly.code, 'element_disabled', readOnly.text);
  assert.deepEqual(fake.dispatched, []);
  await session.close();
});

test('the policy decides before any wait: a refused act never waits for its element', async () => {
  const order: string[] = [];
  const gate: PolicyGate = {
    check: async (req) => {
      order.push('gate');
      if (req.kind === 'element' && req.name === 'Bold') throw new ComputerUseError('denied_by_policy', 'no');
      return { done: () => undefined };
    },
    visible: () => undefined,
  };
  const { call, fake, root, session } = setup({ gate, actionTimeoutMs: 5000 });
  setStates(byId(root, 13), ['disabled']);
  const snap = (await call('computer_observe', {})).text;
  const t0 = performance.now();
  const res = await call('computer_act', { actions: [{ ref: refOf(snap, /checkbox "Bold"/), op: 'toggle' }] });
  assert.equal(res.code, 'denied_by_policy');
  assert.ok(performance.now() - t0 < 4000, 'the refusal waited for the element');
  assert.deepEqual(order, ['gate']);
  assert.equal(fake.calls.filter((c) => c.method === 'node.act').length, 0);
  await session.close();
});

test('set_value and type settle at least EDIT_SETTLE_MS ' +
    'so dependent state shows in the diff; clicks do not', async () => {
  const { call, fake, session } = setup();
  const snap = (await call('computer_observe', {})).text;
  await call('computer_act', { actions: [{ ref: refOf(snap, /checkbox "Bold"/), op: 'toggle' }] });
  await call('computer_act', { actions: [{ ref: refOf(snap, /textbox "Name"/), op: 'set_value', value: 'x' }] });
  const settles = fake.calls.filter((c) => c.method === 'ui.settle').map((c) => (c.params as SettleParams).minMs);
  assert.deepEqual(settles, [undefined, EDIT_SETTLE_MS]);
  await session.close();
});

test('a toggle is judged against the state at dispatch, not the last snapshot', async () => {
  const { call, root, session } = setup();
  const snap = (await call('computer_observe', {})).text;
  const bold = refOf(snap, /checkbox "Bold"/);
  // Someone else checks it after the model looked; the toggle unchecks it again.
  setStates(byId(root, 13), ['checked']);
  const res = await call('computer_act', { actions: [{ ref: bold, op: 'toggle' }] });
  assert.equal(res.isError, false, res.text);
  assert.match(
    res.text,
    new RegExp(
      `^ok toggle ${bold} · confirmed \\(fake toggle; now unchecked \\(it was checked at dispatch, not ` +
        `unchecked as last observed\\)\\)`,
      'm',
    ),
  );
  await session.close();
});

test('a scroll is confirmed by the scroll bar of its pane, and a selection it moved is reported', async () => {
  const { call, fake, root, session } = setup();
  // The list's pane (node 9) gets a vertical scroll bar beside the list, as GTK puts it.
  const pane = byId(root, 9);
  pane.children!.push({
    id: `${pane.id}-bar`,
    role: 'scrollbar',
    states: [],
    actions: ['set_value'],
    value: '0',
    range: { min: 0, max: 500 },
  });
  const snap = (await call('computer_observe', {})).text;
  const rows = refOf(snap, /list "Rows"/);
  fake.onAct = (p) => {
    if (p.op !== 'scroll') return;
    pane.children!.find((c) => c.role === 'scrollbar')!.value = '280';
    // A Page key moves the list's selection too.
    const list = byId(root, 100);
    setStates(list.children![1]!, ['selected']);
  };
  const res = await call('computer_act', { actions: [{ ref: rows, op: 'scroll', value: 'down' }] });
  assert.equal(res.isError, false, res.text);
  assert.match(
    res.text,
    new RegExp(
      `^ok scroll ${rows} · confirmed \\(fake scroll; scroll bar 0 → 280; side effect: the selection moved to ` +
        `\\[e\\d+\\] "Row \\d+"\\)`,
      'm',
    ),
  );
  // Nothing moved: not confirmed, and it says what was looked at.
  fake.onAct = () => undefined;
  const still = await call('computer_act', { actions: [{ ref: rows, op: 'scroll', value: 'down' }] });
  assert.match(
    still.text,
    new RegExp(
      `^ok scroll ${rows} · unknown \\(fake scroll; no scroll bar moved and the visible items are the same\\)`,
      'm',
    ),
  );
  await session.close();
});

test('a set_value whose value the engine masks (a random temp ' +
    'path) is confirmed by the unmasked read, never shown', async () => {
  const { call, session } = setup();
  const snap = (await call('computer_observe', {})).text;
  // A random run masked as secret-looking by redactText (a temp folder's short random tail no longer is).
  const path = '/tmp/cu-act-Xk9Qz2Lm4Np7Rt1Vw8Bc5/notes.txt';
  const res = await call('computer_act', {
    actions: [{ ref: refOf(snap, /textbox "Name"/), op: 'set_value', value: path }],
  });
  assert.equal(res.isError, false, res.text);
  assert.match(res.text, /^ok set_value e\d+ · confirmed \(fake set_value; value now reads as set\)/m);
  assert.doesNotMatch(res.text, /Xk9Qz2/);
  await session.close();
});
