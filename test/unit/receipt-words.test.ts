/**
 * A confirmed receipt prints its evidence, not the accessibility call that did it: `ok click e5 · confirmed
 * (Action.DoAction(0) "Click"; checked on)` spent ~9 tokens of ~25 on a call name a model cannot use once the effect
 * is seen (about 1,100 of the eval's 37,000 tokens). An unconfirmed receipt keeps the call: it says what was tried.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import { FakeDriver, type FakeWindow } from '../../src/drivers/fake/driver.js';
import { Session } from '../../src/session/session.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/tool.js';
import { n } from '../fixtures/engine/build.js';
import { receiptWords } from '../../src/tools/format.js';

const B = ':1.50';

function app(): FakeWindow {
  const root = n(B, 1, 'window', { name: 'Counter' }, [
    n(B, 2, 'label', { name: 'Display', value: '4' }),
    n(B, 3, 'button', { name: '2', actions: ['click'] }),
    n(B, 4, 'textbox', { name: 'Note', value: '', states: ['editable'] }),
  ]);
  return { info: { id: root.id, title: 'Counter', app: 'counter', pid: 4343, role: 'window', focused: true }, root };
}

function setup() {
  const win = app();
  const fake = new FakeDriver([win]);
  const session = new Session({ device: new Device({ connect: () => fake.connect() }) });
  const call = async (name: string, params: unknown) =>
    runTool(
      TOOLS.find((t) => t.schema.name === name)!,
      { session },
      params,
    );
  return { fake, win, session, call };
}

const refOf = (text: string, pattern: RegExp): string =>
  /\[(e\d+)\]/.exec(text.split('\n').find((l) => pattern.test(l)) ?? '')?.[1] ?? assert.fail(`${pattern} in\n${text}`);

test('a click confirmed by the diff prints the evidence alone, not the call name', async () => {
  const { fake, win, session, call } = setup();
  fake.extra['node.act'] = () => {
    win.root.children![0]!.value = '42';
    return { method: 'pattern', detail: 'Action.DoAction(0) "Click"' };
  };
  try {
    const snap = (await call('computer_observe', {})).text;
    const two = refOf(snap, /button "2"/);
    const r = (await call('computer_act', { actions: [{ ref: two, op: 'click' }] })).text;
    // The diff below is the evidence: the receipt does not say "the window changed" above it.
    assert.match(r, new RegExp(`^ok click ${two} · confirmed$`, 'm'), r);
    assert.match(r, /value "4" → "42"/, r);
  } finally { await session.close(); }
});

test('an unconfirmed click keeps the call it tried', async () => {
  const { fake, session, call } = setup();
  fake.extra['node.act'] = () => ({ method: 'pattern', detail: 'Action.DoAction(0) "Click"' });
  try {
    const snap = (await call('computer_observe', {})).text;
    const two = refOf(snap, /button "2"/);
    const r = (await call('computer_act', { actions: [{ ref: two, op: 'click' }] })).text;
    assert.match(r, new RegExp(`^ok click ${two} · unknown \\(Action.DoAction\\(0\\) "Click"\\)$`, 'm'), r);
  } finally { await session.close(); }
});

test('receiptWords: the call name goes only when confirmed and only when it is a bare interface call', () => {
  const r = (detail: string, how: string, status: 'confirmed' | 'unknown' = 'confirmed') =>
    receiptWords({ status, detail, how });
  assert.equal(r('Action.DoAction(0) "Click"; checked on', 'Action.DoAction(0) "Click"'), 'checked on');
  assert.equal(
    r('EditableText.SetTextContents; value now reads as set', 'EditableText.SetTextContents'),
    'value now reads as set',
  );
  assert.equal(r('EditableText.InsertText at 0; text present', 'EditableText.InsertText at 0'), 'text present');
  assert.equal(r('Selection.SelectChild on parent; selected on', 'Selection.SelectChild on parent'), 'selected on');
  assert.equal(r('Action.DoAction(0) "Click"; checked on', 'Action.DoAction(0) "Click"', 'unknown'),
    'Action.DoAction(0) "Click"; checked on');
  // Prose from the driver says something of its own (the current item, a fallback path): it stays.
  const row = 'pointer left click at 1,2 (XTest): a click on a row clicks it as a person does; it is the current item';
  assert.equal(r(`${row}; selected on`, row), `${row}; selected on`);
  assert.equal(r('row selected (read back), then Action.DoAction(0) "activate"; a window appeared',
    'row selected (read back), then Action.DoAction(0) "activate"'),
  'row selected (read back), then Action.DoAction(0) "activate"');
  // An effect the lines below the receipt print (the new or closed window, the diff) is not said again.
  assert.equal(r('Action.DoAction(0) "Click"; the window changed', 'Action.DoAction(0) "Click"'), '');
  assert.equal(r('fake click; a window closed', 'fake click'), 'fake click');
  // A call name forged inside app text is not a call name: nothing is cut from it.
  assert.equal(
    r('Action.DoAction(0) "a\nb"; checked on', 'Action.DoAction(0) "a\nb"'),
    'Action.DoAction(0) "a\nb"; checked on',
  );
  // Nothing after the call: the call stays (a receipt never prints empty words).
  assert.equal(r('Component.GrabFocus', 'Component.GrabFocus'), 'Component.GrabFocus');
});

test('keys whose effect shows print the effect, not how they were sent', async () => {
  const { fake, session, call } = setup();
  try {
    await call('computer_observe', {});
    fake.onKeys = () => { fake.windows.splice(0, fake.windows.length); };
    const r = (await call('computer_keys', { keys: 'Escape', app: 'counter' })).text;
    assert.match(r, /^ok keys "Escape" → \[w\d+\] · confirmed\nwindow closed: \[w\d+\] "Counter"$/m, r);
  } finally { await session.close(); }
});
