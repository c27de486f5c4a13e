/**
 * The one acting pipeline: every acting tool reaches the driver's acting
 * methods only through the gate, and nothing else in a session can call them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TSchema } from '@sinclair/typebox';
import { Device, type ReadDevice } from '../../src/devices/manager.js';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import { OPS } from '../../src/engine/node.js';
import type { RawNode } from '../../src/engine/node.js';
import { ComputerUseError } from '../../src/protocol/errors.js';
import type { Handlers } from '../../src/protocol/peer.js';
import { METHODS, type ActingMethodName } from '../../src/protocol/methods.js';
import type { ActionRequest, ClipboardStep, KeysStep, PolicyGate } from '../../src/policy/gate.js';
import { allowAllGate } from '../../src/policy/gate.js';
import { classifyAction } from '../../src/policy/irreversible.js';
import { parseChords } from '../../src/session/chords.js';
import { Session } from '../../src/session/session.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/tool.js';
import { byId, n } from '../fixtures/engine/build.js';
import { widgetFactory } from '../fixtures/engine/widget-factory.js';

/** Driver methods that change something on the device. */
const ACTING = new Set(['node.act', 'input.keys', 'input.pointer', 'input.clipboard', 'apps.launch']);

/** The fake driver plus the acting methods it lacks and an OCR reading, each logged like the rest. */
class FullFake extends FakeDriver {
  override handlers(): Handlers {
    const log = <T,>(method: string, params: unknown, value: T): T => {
      this.calls.push({ method, params });
      return value;
    };
    const w = this.windows[0]!.info;
    const geometry = {
      screen: [0, 0, 800, 600] as [number, number, number, number],
      window: [0, 0, 800, 600] as [number, number, number, number],
      width: 800,
      height: 600,
      scale: 1,
    };
    return {
      ...super.handlers(),
      'input.pointer': (p) => log('input.pointer', p, { method: 'synthetic' as const, detail: 'fake pointer' }),
      'input.clipboard': (p) => log('input.clipboard', p, { text: '', method: 'fake' }),
      'apps.launch': (p) => log('apps.launch', p, { pid: w.pid, window: w }),
      'screen.ocr': (p) =>
        log('screen.ocr', p, {
          lines: [{ text: 'OK', bounds: [10, 10, 40, 20] as [number, number, number, number], confidence: 90 }],
          geometry,
          ms: { capture: 0, ocr: 0 },
        }),
    };
  }
}

function setup(gate: PolicyGate) {
  const f = widgetFactory();
  f.window.bounds = [0, 0, 800, 600];
  const fake = new FullFake([{ info: f.window, root: f.root }]);
  // The walk tries every op, close included: the window stays so that the tools after it still have a target.
  fake.ignoreClose = true;
  const session = new Session({ device: new Device({ connect: () => fake.connect() }), gate });
  const call = async (name: string, params: unknown) =>
    runTool(
      TOOLS.find((t) => t.schema.name === name)!,
      { session },
      params,
    );
  return { fake, session, call };
}

const refOf = (text: string, pattern: RegExp): string => {
  const line = text.split('\n').find((l) => pattern.test(l));
  assert.ok(line, `no line matches ${pattern} in\n${text}`);
  return /\[([eo]\d+)\]/.exec(line)![1]!;
};

/** Literal values of a union schema property (`action`, `op`). */
function literals(schema: TSchema | undefined): string[] {
  const s = schema as { anyOf?: { const?: unknown }[] } | undefined;
  return (s?.anyOf ?? []).map((x) => x.const).filter((x): x is string => typeof x === 'string');
}

/**
 * Valid params for every op/action of every acting tool, from the tool schemas (a new op or action is
 * covered without editing this list; a new acting tool fails the test until it has cases).
 */
async function cases(call: (name: string, p: unknown) => Promise<{ text: string }>): Promise<Map<string, unknown[]>> {
  const snap = (await call('computer_observe', {})).text;
  const name = refOf(snap, /textbox "Name"/);
  const bold = refOf(snap, /checkbox "Bold"/);
  const ocr = (await call('computer_screenshot', { mode: 'ocr' })).text;
  const oRef = refOf(ocr, /text "OK" \(ocr\)/);
  const capture = /capture (c\d+)/.exec(ocr)![1]!;
  const out = new Map<string, unknown[]>();
  for (const tool of TOOLS) {
    if (tool.schema.type !== 'destructive') continue;
    const props = (tool.schema.inputSchema as unknown as { properties: Record<string, TSchema> }).properties;
    const list: unknown[] = [];
    switch (tool.schema.name) {
      case 'computer_act': {
        const ops = literals(
          (props['actions'] as unknown as { items: { properties: Record<string, TSchema> } }).items.properties['op'],
        );
        assert.deepEqual([...ops].sort(), [...OPS].sort());
        for (const op of ops) {
          const value =
            op === 'drag_to'
              ? bold
              : op === 'scroll'
                ? 'down'
                : op === 'select'
                  ? 'Row 1'
                  : op === 'set_value' || op === 'type'
                    ? 'x'
                    : undefined;
          list.push({ actions: [{ ref: name, op, ...(value !== undefined ? { value } : {}) }] });
        }
        for (const op of ['click', 'double_click', 'right_click', 'scroll'])
          list.push({ actions: [{ ref: oRef, op, ...(op === 'scroll' ? { value: 'down' } : {}) }] });
        break;
      }
      case 'computer_keys':
        list.push({ keys: 'ctrl+s' }, { keys: 's e c r e t Return' }, { keys: 'ctrl+s', app: 'gtk3-widget-factory' });
        break;
      case 'computer_launch':
        list.push({ command: 'gedit' }, { command: 'gedit', args: ['/tmp/x.txt'], waitMs: 100 });
        break;
      case 'computer_input':
        for (const action of literals(props['action'])) {
          if (action === 'clipboard_read') { list.push({ action }); continue; }
          if (action === 'clipboard_write') { list.push({ action, text: 'hello' }); continue; }
          if (action === 'paste') {
            list.push({ action, text: 'hello', app: 'gtk3-widget-factory' }, { action, app: 'gtk3-widget-factory' });
            continue;
          }
          const extra =
            action === 'drag' ? { to: { x: 50, y: 60 } } : action === 'scroll' ? { direction: 'down', amount: 2 } : {};
          list.push(
            { action, x: 10, y: 20, app: 'gtk3-widget-factory', ...extra },
            { action, x: 10, y: 20, capture, ...extra },
          );
        }
        break;
      default:
        assert.fail(`the walk has no cases for the acting tool ${tool.schema.name}: add them`);
    }
    out.set(tool.schema.name, list);
  }
  return out;
}

test('with a gate that refuses everything, no acting tool call reaches an acting driver method', async () => {
  const asked: ActionRequest[] = [];
  const refuse: PolicyGate = {
    visible: () => undefined,
    check: async (req) => {
      asked.push(req);
      throw new ComputerUseError('denied_by_policy', 'refused by the test gate');
    },
  };
  const { fake, session, call } = setup(refuse);
  const all = await cases(call);
  let calls = 0;
  for (const [tool, list] of all) {
    for (const params of list) {
      calls++;
      const before = asked.length;
      const res = await call(tool, params);
      assert.equal(res.isError, true, `${tool} ${JSON.stringify(params)}: ${res.text}`);
      assert.equal(res.code, 'denied_by_policy', `${tool} ${JSON.stringify(params)}: ${res.text}`);
      assert.equal(asked.length, before + 1, `${tool} ${JSON.stringify(params)} asked the gate once`);
    }
  }
  assert.ok(calls >= 30, `${calls} calls`);
  assert.deepEqual(fake.calls.filter((c) => ACTING.has(c.method)), []);
  await session.close();
});

test('control: with a gate that allows everything, the same walk does reach the acting methods', async () => {
  const { fake, session, call } = setup(allowAllGate);
  const all = await cases(call);
  const reached = new Set<string>();
  for (const [tool, list] of all) {
    for (const params of list) {
      const before = fake.calls.length;
      await call(tool, params);
      for (const c of fake.calls.slice(before)) if (ACTING.has(c.method)) reached.add(c.method);
    }
  }
  assert.deepEqual([...reached].sort(), [...ACTING].sort());
  await session.close();
});

/** The acting methods of the protocol, each tried on a read-only device in `readOnlyHolder` below. */
const TRIED_ACTING = [
  'node.act',
  'input.keys',
  'input.pointer',
  'input.clipboard',
  'apps.launch',
  'apps.terminate',
  'window.activate',
] as const;
/** Holds only when A and B are the same type. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
const triedAll: Same<(typeof TRIED_ACTING)[number], ActingMethodName> = true;

/**
 * Never run: a type test. Each acting call below must fail to compile (`@ts-expect-error` fails the build the day
 * one type-checks), so a tool or the session, which hold a ReadDevice, cannot even write one.
 */
export function readOnlyHolder(device: ReadDevice, session: Session): unknown[] {
  return [
    // @ts-expect-error node.act is an acting method: only the acting pipeline sends it
    device.call('node.act', { id: 'x', op: 'click' }),
    // @ts-expect-error input.keys is an acting method
    device.call('input.keys', { window: 'w', chords: parseChords('a') }),
    // @ts-expect-error input.pointer is an acting method
    device.call('input.pointer', { action: 'click', x: 1, y: 1, window: 'w' }),
    // @ts-expect-error input.clipboard is an acting method
    device.call('input.clipboard', { action: 'write', text: 'x' }),
    // @ts-expect-error apps.launch is an acting method
    device.call('apps.launch', { command: 'gedit' }),
    // @ts-expect-error apps.terminate is an acting method
    device.call('apps.terminate', { pid: 1 }),
    // @ts-expect-error window.activate is an acting method
    device.call('window.activate', { window: 'w' }),
    // @ts-expect-error the session's own device is the read-only one
    session.device.call('node.act', { id: 'x', op: 'click' }),
    // @ts-expect-error the device a session was made with is not kept in its options (no second door)
    session.options.device,
  ];
}

test('a session holds a read-only device: every acting method is refused by its type, reads go through', async () => {
  assert.equal(triedAll, true);
  // The type test above covers every method the protocol declares acting (a new one must be added there).
  assert.deepEqual([...TRIED_ACTING].sort(), METHODS.filter((m) => m.acting).map((m) => m.method).sort());
  const { fake, session } = setup(allowAllGate);
  assert.equal('device' in session.options, false, 'the session keeps no acting device in its options');
  const w = fake.windows[0]!.info;
  const snap = await session.device.call('tree.snapshot', { window: w.id });
  assert.equal(snap.window.id, w.id);
  assert.deepEqual(fake.calls.filter((c) => ACTING.has(c.method)), []);
  await session.close();
});

/** Two rows, each with a label and an "Archive" button, inside a list (like test/apps/rows.py). */
function rowsWindow(): {
  info: { id: string; title: string; app: string; pid: number; role: 'window'; focused: boolean };
  root: RawNode;
} {
  const row = (id: number, who: string): RawNode => n(':1.9', id, 'listitem', { nativeRole: 'list item' }, [
    n(':1.9', id + 1, 'generic', { nativeRole: 'filler' }, [
      n(':1.9', id + 2, 'label', { nativeRole: 'label', name: who }),
      n(':1.9', id + 3, 'button', { nativeRole: 'push button', name: 'Archive', actions: ['click'] }),
    ]),
  ]);
  const root = n(':1.9', 1, 'window', { nativeRole: 'frame', name: 'Rows' }, [
    n(':1.9', 2, 'list', { nativeRole: 'list box' }, [row(10, 'alice'), row(20, 'bob')]),
  ]);
  return { info: { id: root.id, title: 'Rows', app: 'rows', pid: 6161, role: 'window', focused: true }, root };
}

/** A session over the two-row window, its tool caller, and the ref of bob's Archive button in the first observe. */
async function rowsSession() {
  const w = rowsWindow();
  const fake = new FakeDriver([w]);
  const session = new Session({ device: new Device({ connect: () => fake.connect() }) });
  const call = async (name: string, params: unknown) =>
    runTool(
      TOOLS.find((t) => t.schema.name === name)!,
      { session },
      params,
    );
  const snap = (await call('computer_observe', {})).text;
  const lines = snap.split('\n');
  const bobArchive = /\[(e\d+)\] button "Archive"/.exec(
    lines.slice(lines.findIndex((l) => /label "bob"/.test(l))).join('\n'),
  )![1]!;
  return { w, fake, session, call, snap, bobArchive };
}

test('a removed row: its Archive ref is stale_ref with a fresh snapshot, never the other row\'s button', async () => {
  const { w, fake, session, call, snap, bobArchive } = await rowsSession();
  const aliceArchive = refOf(snap, /button "Archive"/);
  assert.notEqual(bobArchive, aliceArchive);
  // bob's row goes away (the app removed it).
  byId(w.root, 2).children = byId(w.root, 2).children!.filter((r) => !r.id.endsWith('/20'));
  const res = await call('computer_act', { actions: [{ ref: bobArchive, op: 'click' }] });
  assert.equal(res.code, 'stale_ref', res.text);
  assert.match(res.text, /fresh snapshot:/);
  const acts = fake.calls.filter((c) => c.method === 'node.act').map((c) => (c.params as { id: string }).id);
  assert.ok(acts.every((id) => !id.endsWith('/13')), `alice's Archive was clicked: ${acts.join(', ')}`);
  // alice's button keeps its ref: the diff never shows bob's ref on alice's button.
  const again = (await call('computer_observe', { full: true })).text;
  assert.equal(refOf(again, /button "Archive"/), aliceArchive);
  await session.close();
});

test('computer_act refuses more than 20 actions before anything runs; an unknown ref is unknown_ref', async () => {
  const seen: string[] = [];
  const gate: PolicyGate = {
    visible: () => undefined,
    check: async (req) => {
      seen.push(req.kind === 'element' ? req.op : req.kind);
      return { done: () => undefined };
    },
  };
  const { fake, session, call } = setup(gate);
  const bold = refOf((await call('computer_observe', {})).text, /checkbox "Bold"/);
  const many = await call('computer_act', { actions: Array.from({ length: 21 }, () => ({ ref: bold, op: 'toggle' })) });
  assert.equal(many.code, 'invalid_params', many.text);
  assert.match(many.text, /at most 20 actions|maxItems 20/);
  assert.deepEqual(seen, []);
  assert.deepEqual(fake.calls.filter((c) => ACTING.has(c.method)), []);
  const unknown = await call('computer_act', { actions: [{ ref: 'e424242', op: 'click' }] });
  assert.equal(unknown.code, 'unknown_ref', unknown.text);
  assert.match(unknown.text, /computer_observe/);
  await session.close();
});

/** The widget factory with the password entry focused (nothing observed yet). */
function passwordFocused(gate: PolicyGate) {
  const s = setup(gate);
  const root = s.fake.windows[0]!.root;
  byId(root, 22).states = ['editable', 'focusable'];
  byId(root, 23).states = ['editable', 'focusable', 'focused', 'password'];
  return s;
}

test('keys and paste read the focused element live (no prior observe) and pass chords to the gate', async () => {
  const asked: (KeysStep | ClipboardStep)[] = [];
  const gate: PolicyGate = {
    visible: () => undefined,
    check: async (req) => {
      if (req.kind === 'keys' || req.kind === 'clipboard') asked.push(req);
      return { done: () => undefined };
    },
  };
  const { session, call } = passwordFocused(gate);
  await call('computer_keys', { keys: 's e c r e t Return' });
  await call('computer_input', { action: 'paste', text: 'secret', app: 'gtk3-widget-factory' });
  await call('computer_input', { action: 'paste', app: 'gtk3-widget-factory' });
  assert.equal(asked.length, 3);
  for (const req of asked) {
    assert.equal(req.focused?.role, 'textbox');
    assert.equal(req.focused?.name, 'Password');
    assert.equal(req.focused?.password, true);
    assert.ok(req.focused?.states?.includes('password'));
  }
  const first = asked[0];
  assert.ok(first?.kind === 'keys');
  assert.deepEqual(first.chords, parseChords('s e c r e t Return'));
  assert.equal(classifyAction(asked[0]!)?.kind, 'password');
  assert.equal(classifyAction(asked[1]!)?.kind, 'password', 'paste with text into a password field asks');
  assert.equal(classifyAction(asked[2]!)?.kind, 'password', 'paste of the clipboard into a password field asks');
  await session.close();
});

test('the focused element is read at decision time, not taken from an older snapshot', async () => {
  const asked: (KeysStep | ClipboardStep)[] = [];
  const gate: PolicyGate = {
    visible: () => undefined,
    check: async (req) => {
      if (req.kind === 'keys' || req.kind === 'clipboard') asked.push(req);
      return { done: () => undefined };
    },
  };
  const { session, call, fake } = setup(gate);
  await call('computer_observe', {}); // "Name" is focused in this snapshot
  const root = fake.windows[0]!.root;
  byId(root, 22).states = ['editable', 'focusable'];
  byId(root, 23).states = ['editable', 'focusable', 'focused', 'password'];
  await call('computer_keys', { keys: 'a b c' });
  assert.equal(asked[0]?.focused?.password, true);
  await session.close();
});

test('the live window\'s command controls and their access keys ' +
    'reach the gate (the driver\'s key binding, in W3C key names)', async () => {
  const asked: (KeysStep | ClipboardStep)[] = [];
  const gate: PolicyGate = {
    visible: () => undefined,
    check: async (req) => {
      if (req.kind === 'keys' || req.kind === 'clipboard') asked.push(req);
      return { done: () => undefined };
    },
  };
  const { session, call, fake } = setup(gate);
  const root = fake.windows[0]!.root;
  byId(root, 7).children!.push(
    // As a driver reports them with `keyBindings`: the name without the toolkit's marker, the key in W3C names.
    {
      ...n(':1.77', 700, 'button', { nativeRole: 'push button', name: 'Delete all', actions: ['click'] }),
      keyBinding: 'Alt+d',
    } as RawNode,
    {
      ...n(':1.77', 701, 'button', { nativeRole: 'push button', name: 'Send', actions: ['click'] }),
      keyBinding: 'Alt+S',
    } as RawNode,
    n(':1.77', 702, 'button', { nativeRole: 'push button', name: 'Fish && chips', actions: ['click'] }),
    // A binding that is no access key (a shortcut) names none.
    {
      ...n(':1.77', 703, 'button', { nativeRole: 'push button', name: 'Green light', actions: ['click'] }),
      keyBinding: 'Control+g',
    } as RawNode,
    {
      ...n(':1.77', 704, 'button', { nativeRole: 'push button', name: 'Go', actions: ['click'] }),
      keyBinding: 'Alt+g',
    } as RawNode,
  );
  await call('computer_keys', { keys: 'alt+d' });
  const keyed = asked[0]?.mnemonics?.filter((m) => m.key !== '').map((m) => `${m.key}=${m.label}`).sort();
  assert.deepEqual(keyed, ['d=Delete all', 'g=Go', 's=Send']);
  // Every command control is listed, with or without an access key; a check box is not a command.
  assert.ok(asked[0]?.mnemonics?.some((m) => m.key === '' && m.label === 'Fish && chips'));
  assert.ok(asked[0]?.mnemonics?.some((m) => m.key === '' && m.label === 'togglebutton'));
  assert.ok(!asked[0]?.mnemonics?.some((m) => m.label === 'Bold'));
  await session.close();
});

test('a stop aborts the in-flight dispatch: the call answers ' +
    'paused, the audit "done" says stopped, the receipt is unknown', async () => {
  const done: { receipt: string; detail?: string }[] = [];
  let finished!: () => void;
  const recorded = new Promise<void>((r) => { finished = r; });
  const gate: PolicyGate = {
    visible: () => undefined,
    check: async () => ({
      done: (receipt, detail) => {
        done.push({ receipt, ...(detail ? { detail } : {}) });
        finished();
      },
    }),
  };
  const f = widgetFactory();
  let started!: () => void;
  const dispatching = new Promise<void>((r) => { started = r; });
  class SlowKeys extends FakeDriver {
    override handlers(): Handlers {
      // Keys that take 10 s unless cancelled.
      return {
        ...super.handlers(),
        'input.keys': (p) => {
          this.calls.push({ method: 'input.keys', params: p });
          started();
          return new Promise((r) =>
            setTimeout(() => r({ method: 'synthetic', focusedFirst: false, sent: 6 }), 10_000).unref(),
          );
        },
      };
    }
  }
  const fake = new SlowKeys([{ info: f.window, root: f.root }]);
  const session = new Session({ device: new Device({ connect: () => fake.connect() }), gate });
  const stop = new AbortController();
  const running = runTool(
    TOOLS.find((t) => t.schema.name === 'computer_keys')!,
    { session, stop: stop.signal },
    { keys: 'a b c d e f' },
  );
  await dispatching;
  stop.abort(new ComputerUseError('paused', 'Stopped by the user (test).'));
  const res = await running;
  assert.equal(res.code, 'paused', res.text);
  await Promise.race([
    recorded,
    new Promise((_, reject) =>
      setTimeout(() => reject(new Error('no done record within 3 s of the stop')), 3000).unref(),
    ),
  ]);
  assert.deepEqual(done.map((d) => d.receipt), ['stopped']);
  assert.match(done[0]!.detail ?? '', /unknown/);
  await session.close();
});

test('a row recycled under the same handles: the old ref never acts on the new row, observed or not', async () => {
  for (const observeAgain of [true, false]) {
    const { w, fake, session, call, snap, bobArchive } = await rowsSession();
    // The list shows carol in the widgets that showed bob (same handles).
    byId(w.root, 22).name = 'carol';
    if (observeAgain) {
      const again = (await call('computer_observe', { full: true })).text;
      assert.doesNotMatch(again, new RegExp(`\\[${bobArchive}\\]`), 'bob\'s ref shown on carol\'s button');
    }
    const res = await call('computer_act', { actions: [{ ref: bobArchive, op: 'click' }] });
    assert.equal(res.code, 'stale_ref', res.text);
    assert.match(res.text, /fresh snapshot:/);
    assert.deepEqual(fake.calls.filter((c) => c.method === 'node.act'), [], `observed again: ${observeAgain}`);
    await session.close();
  }
});
