/**
 * Tool params are validated at run time against each tool's schema: a call
 * outside the schema answers invalid_params naming the first failing path and what is allowed there, and the
 * handler never runs (nothing reaches the driver).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import { Session } from '../../src/session/session.js';
import { TOOLS } from '../../src/tools/index.js';
import { fullSchema, runTool, type ToolResult } from '../../src/tools/tool.js';
import { widgetFactory } from '../fixtures/engine/widget-factory.js';

function setup() {
  const f = widgetFactory();
  const fake = new FakeDriver([{ info: f.window, root: f.root }]);
  const session = new Session({ device: new Device({ connect: () => fake.connect() }) });
  const call = async (name: string, params: unknown): Promise<ToolResult> =>
    runTool(
      TOOLS.find((t) => t.schema.name === name)!,
      { session },
      params,
    );
  return { fake, session, call };
}

/** Asserts an invalid_params answer whose text matches `why`, and that the driver saw no call at all. */
function refused(s: ReturnType<typeof setup>, r: ToolResult, why: RegExp): void {
  assert.equal(r.isError, true, r.text);
  assert.equal(r.code, 'invalid_params', r.text);
  assert.match(r.text, why);
  assert.deepEqual(s.fake.calls.map((c) => c.method), [], 'the handler never ran: nothing reached the driver');
}

test('300 actions are refused (at most 20), and nothing is sent', async () => {
  const s = setup();
  const actions = Array.from({ length: 300 }, () => ({ ref: 'e1', op: 'click' }));
  refused(s, await s.call('computer_act', { actions }), /computer_act: actions: .*maxItems 20/);
});

test('an unknown op ("explode") is invalid_params naming the allowed ops, at ' +
    'the action as the model numbered it (action 1, not /actions/0)', async () => {
  const s = setup();
  refused(
    s,
    await s.call('computer_act', { actions: [{ ref: 'e1', op: 'explode' }] }),
    /computer_act: action 1's op: expected one of "click", "double_click"/,
  );
});

test('computer_wait with timeoutMs 1e9 is invalid_params at once (no wait, no driver call)', async () => {
  const s = setup();
  refused(
    s,
    await s.call('computer_wait', { until: 'appears', text: 'x', timeoutMs: 1e9 }),
    /: timeoutMs: .*maximum 120000/,
  );
  refused(s, await s.call('computer_wait', { until: 'appears', text: 'x', timeoutMs: -5 }), /timeoutMs/);
});

test('computer_wait disappears on a ref never issued answers unknown_ref, not success', async () => {
  const s = setup();
  const r = await s.call('computer_wait', { until: 'disappears', ref: 'e99999', timeoutMs: 100 });
  assert.equal(r.isError, true, r.text);
  assert.equal(r.code, 'unknown_ref', r.text);
  assert.match(r.text, /e99999/);
});

test('unknown fields, wrong types, oversize strings and prototype keys are refused', async () => {
  const s = setup();
  refused(
    s,
    await s.call('computer_observe', { app: 'gtk3-widget-factory', verbose: true }),
    /: verbose: unknown field/,
  );
  refused(
    s,
    await s.call('computer_act', { actions: [{ ref: 'e1', op: 'click', force: true }] }),
    /: action 1's force: unknown field/,
  );
  refused(
    s,
    await s.call('computer_act', JSON.parse('{"actions":[{"ref":"e1","op":"click"}],"__proto__":{"isAdmin":true}}')),
    /: __proto__: unknown field/,
  );
  refused(
    s,
    await s.call('computer_act', { actions: [{ ref: 'e1'.repeat(20), op: 'click' }] }),
    /: action 1's ref: .*maxLength 27/,
  );
  // A cell ref (table ref + address, session/cells.ts) passes the schema; a malformed one does not.
  refused(
    s,
    await s.call('computer_act', { actions: [{ ref: 'e1:B7x', op: 'click' }] }),
    /: action 1's ref: .*pattern/,
  );
  refused(
    s,
    await s.call('computer_act', { actions: [{ ref: 'e1', op: 'set_value', value: 'x'.repeat(10_001) }] }),
    /: action 1's value: .*maxLength 10000/,
  );
  refused(
    s,
    await s.call('computer_keys', { keys: 'a '.repeat(1001), app: 'gtk3-widget-factory' }),
    /: keys: .*maxLength 2000/,
  );
  refused(s, await s.call('computer_keys', { keys: 'Return', settle: { timeoutMs: 1e9 } }), /: settle.timeoutMs/);
  refused(s, await s.call('computer_find', { text: 7 }), /: text: expected string/);
  refused(s, await s.call('computer_apps', 'not an object'), /: the params: expected object/);
  refused(s, await s.call('computer_input', { action: 'click', x: Number.NaN, y: 1, window: 'w1' }), /: x: /);
  // The refused value is never echoed (it may be typed text or a secret).
  const secret = await s.call('computer_act', {
    actions: [{ ref: 'e1', op: 'set_value', value: 'hunter2', extra: 'hunter2' }],
  });
  assert.doesNotMatch(secret.text, /hunter2/);
});

test('every tool input schema is strict: no additional properties ' +
    'at any object level (unlisted keywords included)', () => {
  const loose: string[] = [];
  const visit = (schema: unknown, path: string): void => {
    if (typeof schema !== 'object' || schema === null) return;
    const s = schema as Record<string, unknown>;
    if (s['type'] === 'object' && s['additionalProperties'] !== false) loose.push(path);
    if (s['type'] === 'string' && typeof s['maxLength'] !== 'number' && !('anyOf' in s) && !('const' in s))
      loose.push(`${path} (string without maxLength)`);
    for (const [k, v] of Object.entries(s)) if (typeof v === 'object') visit(v, `${path}/${k}`);
  };
  for (const t of TOOLS) visit(fullSchema(t.schema.inputSchema), t.schema.name);
  assert.deepEqual(loose, []);
});

test('valid params still run the tool', async () => {
  const s = setup();
  const r = await s.call('computer_observe', { app: 'gtk3-widget-factory' });
  assert.equal(r.isError, false, r.text);
  assert.ok(s.fake.calls.some((c) => c.method === 'tree.snapshot'));
});

test('unlisted caps, enums and tuning fields are still enforced: ' +
    'the listed JSON is compact, validation is not weaker', async () => {
  const s = setup();
  const listed = JSON.stringify(TOOLS.map((t) => t.schema.inputSchema));
  for (const k of ['maxLength', 'pattern', 'additionalProperties', 'maxItems', 'settle', 'maxMarks', '"button"'])
    assert.ok(!listed.includes(k), `${k} is not listed`);
  assert.ok(listed.includes('"enum":["click","double_click"'), 'the op list is listed as an enum');
  refused(s, await s.call('computer_find', { role: 'buton' }), /: role: expected one of "window", .*"button"/);
  refused(s, await s.call('computer_wait', { until: 'appears', role: 'nonsense' }), /: role: expected one of/);
  refused(
    s,
    await s.call('computer_act', { actions: [{ ref: 'e1', op: 'click' }], settle: { quietMs: 1, extra: 1 } }),
    /: settle.extra: unknown field/,
  );
  refused(
    s,
    await s.call('computer_act', { actions: [{ ref: 'e1', op: 'click' }], settle: { timeoutMs: 30_001 } }),
    /: settle.timeoutMs: .*maximum 30000/,
  );
  refused(
    s,
    await s.call('computer_wait', { until: 'appears', text: 'x', timeoutMs: 120_001 }),
    /: timeoutMs: .*maximum 120000/,
  );
  refused(s, await s.call('computer_find', { text: 'x', limit: 0 }), /: limit: .*minimum 1/);
  refused(s, await s.call('computer_screenshot', { mode: 'image', maxMarks: 201 }), /: maxMarks: .*maximum 200/);
  refused(s, await s.call('computer_observe', { scope: 'e1; rm' }), /: scope: .*pattern/);
  refused(s, await s.call('computer_observe', { bogus: 1 }), /: bogus: unknown field/);
  const ok = await s.call('computer_find', { text: 'Name', role: 'textbox', limit: 5 });
  assert.equal(ok.isError, false, ok.text);
});
