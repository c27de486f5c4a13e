/**
 * A click on an element with no action of its own that wraps clickable ones (GNOME Calculator's GtkMenuButton):
 * the driver hands it to the one child that fills it (ActResult `via`) or refuses naming several (`inside`); the
 * host words both with refs, and the policy judges such a click by the names inside it too.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import { fills } from '../../src/drivers/common/rects.js';
import { FakeDriver, type FakeWindow } from '../../src/drivers/fake/driver.js';
import type { ActionRequest, PolicyGate } from '../../src/policy/gate.js';
import { classifyAction } from '../../src/policy/irreversible.js';
import { ComputerUseError } from '../../src/protocol/errors.js';
import { Session } from '../../src/session/session.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/tool.js';
import { n } from '../fixtures/engine/build.js';

const B = ':1.40';
const id = (k: number): string => `${B}/org/a11y/atspi/accessible/${k}`;

function calculator(): FakeWindow {
  const root = n(B, 1, 'window', { name: 'Calculator', states: ['active'] }, [
    n(B, 2, 'button', { description: 'Mode selection' }, [n(B, 3, 'button', { name: 'Advanced', actions: ['click'] })]),
    n(B, 4, 'button', { description: 'Edit tools' }, [
      n(B, 5, 'button', { name: 'Cut', actions: ['click'] }),
      n(B, 6, 'button', { name: 'Copy "x"', actions: ['click'] }),
    ]),
    n(B, 7, 'button', { description: 'Memory' }, [n(B, 8, 'button', { name: 'Delete all', actions: ['click'] })]),
  ]);
  return {
    info: { id: root.id, title: 'Calculator', app: 'gnome-calculator', pid: 4242, role: 'window', focused: true },
    root,
  };
}

function setup() {
  const fake = new FakeDriver([calculator()]);
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
  return { fake, session, call, asked };
}

const refOf = (text: string, pattern: RegExp): string =>
  /\[(e\d+)\]/.exec(text.split('\n').find((l) => pattern.test(l)) ?? '')?.[1] ??
  assert.fail(`${pattern} in\n${text}`);

test('a click the driver gave to the child inside names that child by its ref in the receipt', async () => {
  const { fake, session, call } = setup();
  fake.extra['node.act'] = () => ({
    method: 'pattern',
    detail: 'Action.DoAction(0) "click"',
    via: { id: id(3), role: 'button', name: 'Advanced' },
  });
  try {
    const snap = (await call('computer_observe', {})).text;
    const mode = refOf(snap, /description="Mode selection"/);
    const advanced = refOf(snap, /button "Advanced"/);
    const res = (await call('computer_act', { actions: [{ ref: mode, op: 'click' }] })).text;
    assert.match(
      res,
      new RegExp(
        `^ok click ${mode} · unknown \\(Action.DoAction\\(0\\) "click" via its child \\[${advanced}\\] button ` +
          `"Advanced" \\(${mode} has no action of its own\\)\\)`,
        'm',
      ),
      res,
    );
  } finally { await session.close(); }
});

test('several clickable children: the error names each by its ref, app ' +
    'text quoted; a malformed list is left as the driver said it', async () => {
  const { fake, session, call } = setup();
  let inside: unknown = [{ id: id(5), role: 'button', name: 'Cut' }, { id: id(6), role: 'button', name: 'Copy "x"' }];
  fake.extra['node.act'] = () => {
    throw new ComputerUseError(
      'unsupported',
      'click is not supported by this button: 2 clickable elements inside it.',
      { op: 'click', inside },
    );
  };
  try {
    const snap = (await call('computer_observe', {})).text;
    const tools = refOf(snap, /description="Edit tools"/);
    const cut = refOf(snap, /button "Cut"/);
    const copy = refOf(snap, /button "Copy/);
    const res = await call('computer_act', { actions: [{ ref: tools, op: 'click' }] });
    assert.equal(res.code, 'unsupported');
    assert.match(
      res.text,
      new RegExp(
        `failed click ${tools} · unsupported: ${tools} has no action of its own, and 2 clickable elements ` +
          `inside it could take the click: ` +
          (`\\[${cut}\\] button "Cut", \\[${copy}\\] button "Copy \\\\"x\\\\""\\. Nothing was sent; click ` +
            `the one you mean\\.`),
      ),
      res.text,
    );
    inside = [{ id: id(5), role: 'no such role', name: 'Cut' }, 'e9'];
    const bad = await call('computer_act', { actions: [{ ref: tools, op: 'click' }] });
    assert.match(
      bad.text,
      /unsupported: click is not supported by this button: 2 clickable elements inside it\./,
      bad.text,
    );
  } finally { await session.close(); }
});

test('the policy judges a click by the names inside the ' +
    'element: "Delete all" inside a nameless button asks', async () => {
  const { session, call, asked } = setup();
  try {
    const snap = (await call('computer_observe', {})).text;
    const memory = refOf(snap, /description="Memory"/);
    await call('computer_act', { actions: [{ ref: memory, op: 'click' }] });
    const req = asked.find((r) => r.kind === 'element' && r.ref === memory);
    assert.ok(req && req.kind === 'element', JSON.stringify(asked));
    assert.deepEqual(req.inside, ['Delete all']);
    assert.equal(classifyAction(req)?.kind, 'irreversible');
    assert.equal(classifyAction({ ...req, op: 'focus' }), undefined, 'only a click reaches inside');
  } finally { await session.close(); }
});

test('a child fills its control when it lies inside it and leaves only a padding free', () => {
  // GNOME Calculator 43's mode button and its primary menu button, each around its inner button, as GTK 4.8 reports
  // them.
  assert.equal(fills([279, 6, 112, 34], [288, 11, 94, 24]), true);
  assert.equal(fills([516, 6, 34, 34], [521, 11, 24, 24]), true);
  assert.equal(fills([380, 309, 110, 42], [386, 313, 98, 34]), true);
  // One of two buttons side by side; a small link in a wide cell; a child sticking out; no area.
  assert.equal(fills([498, 309, 147, 42], [504, 313, 56, 34]), false);
  assert.equal(fills([0, 0, 400, 30], [10, 5, 60, 20]), false);
  assert.equal(fills([0, 0, 100, 30], [20, 0, 100, 30]), false);
  assert.equal(fills([0, 0, 0, 0], [0, 0, 0, 0]), false);
});
