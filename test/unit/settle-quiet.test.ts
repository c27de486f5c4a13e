/**
 * The settle's quiet window: the host names none unless the caller set one, so the driver uses the quiet time it
 * measured for the app's toolkit (src/drivers/linux/bus/quiet.ts), and an unknown toolkit gets the safe default. An
 * app whose events still came after a settle called it quiet gets a longer window from then on.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import { A11yBus } from '../../src/drivers/linux/bus/bus.js';
import { EventWatcher } from '../../src/drivers/linux/bus/events.js';
import { quietTimeFor, TOOLKIT_QUIET } from '../../src/drivers/linux/bus/quiet.js';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import type { PolicyGate } from '../../src/policy/gate.js';
import { DEFAULT_QUIET_MS, type SettleParams } from '../../src/protocol/methods.js';
import { Session } from '../../src/session/session.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/tool.js';
import { widgetFactory } from '../fixtures/engine/widget-factory.js';

function setup() {
  const f = widgetFactory();
  const fake = new FakeDriver([{ info: f.window, root: f.root }]);
  const gate: PolicyGate = { check: async () => ({ done: () => undefined }), visible: () => undefined };
  const session = new Session({ device: new Device({ connect: () => fake.connect() }), gate });
  const call = async (name: string, params: unknown) =>
    runTool(
      TOOLS.find((t) => t.schema.name === name)!,
      { session },
      params,
    );
  return { fake, call };
}

const boldRef = (text: string): string => /\[(e\d+)\] checkbox "Bold"/.exec(text)![1]!;
const settles = (fake: FakeDriver): SettleParams[] =>
  fake.calls.filter((c) => c.method === 'ui.settle').map((c) => c.params as SettleParams);

test('an act with no settle option leaves the quiet window to the driver; one the caller sets is sent', async () => {
  const { fake, call } = setup();
  const bold = boldRef((await call('computer_observe', {})).text);
  assert.equal((await call('computer_act', { actions: [{ ref: bold, op: 'toggle' }] })).isError, false);
  const [plain] = settles(fake);
  assert.ok(plain, 'the act settled');
  assert.equal('quietMs' in plain, false, `the host named a quiet window: ${JSON.stringify(plain)}`);
  assert.equal(plain.timeoutMs, 3000);
  assert.equal(
    (await call('computer_act', { actions: [{ ref: bold, op: 'toggle' }], settle: { quietMs: 120 } })).isError,
    false,
  );
  assert.equal(settles(fake)[1]?.quietMs, 120);
});

test('the quiet time follows the toolkit the app names, by major version; an unknown one gets the default', () => {
  const gtk3 = quietTimeFor({ name: 'gtk', version: '3.24.38' });
  const gtk4 = quietTimeFor({ name: 'GTK', version: '4.8.3' });
  assert.equal(gtk3, TOOLKIT_QUIET.find((r) => r.major === 3)!.ms);
  assert.equal(gtk4, TOOLKIT_QUIET.find((r) => r.major === 4)!.ms);
  assert.ok(gtk3 < DEFAULT_QUIET_MS, 'GTK 3 settles sooner than the default');
  assert.equal(
    quietTimeFor({ name: 'Gecko', version: '153.8.0' }),
    TOOLKIT_QUIET.find((r) => r.name.test('Gecko'))!.ms,
  );
  // A GTK of another major version, a toolkit nobody measured, an app that names none: the safe default.
  assert.equal(quietTimeFor({ name: 'GTK', version: '5.0' }), DEFAULT_QUIET_MS);
  assert.equal(quietTimeFor({ name: 'Motif', version: '2.3' }), DEFAULT_QUIET_MS);
  assert.equal(quietTimeFor({ name: 'Qt', version: '6.4.2' }), DEFAULT_QUIET_MS);
  assert.equal(quietTimeFor({ name: '', version: '' }), DEFAULT_QUIET_MS);
  // Every measured figure is a real wait, never longer than the default.
  for (const r of TOOLKIT_QUIET) assert.ok(r.ms > 0 && r.ms <= DEFAULT_QUIET_MS, `${r.name}: ${r.ms}`);
});

/**
 * An EventWatcher on a bus whose every app answers pings at once (`onPing` runs before each answer, as an app that
 * sends events before it answers); `emit` delivers one AT-SPI signal of `app` on element `path`.
 */
function watcher(onPing: (n: number) => void = () => undefined) {
  let pings = 0;
  const bus = { getProp: async () => { onPing(++pings); return 0; } } as unknown as A11yBus;
  const w = new (EventWatcher as unknown as new (b: A11yBus) => EventWatcher)(bus);
  const emit = (
    app: string,
    member = 'StateChanged',
    detail = 'checked',
    path = '/org/a11y/atspi/accessible/3',
  ): void =>
    (w as unknown as { onMessage(m: unknown): void }).onMessage({
      type: 4,
      interface: 'org.a11y.atspi.Event.Object',
      member,
      body: [detail, 1, 0, { signature: 'i', value: 0 }],
      sender: app,
      path,
    });
  return { w, emit, pings: () => pings };
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test("an event of the app a settle just called quiet raises that app's quiet window, up to the default", async () => {
  const { w, emit } = watcher();
  assert.equal(w.quietWindow(':1.5', 20), 20);
  setTimeout(() => emit(':1.5'), 2);
  const first = await w.settle(20, 2000, ':1.5');
  assert.equal(first.settled, true);
  // The app's update goes on after the settle ended (a toolbar's timer): its next settles wait longer.
  emit(':1.5');
  const raised = w.quietWindow(':1.5', 20);
  assert.ok(raised > 20 && raised <= DEFAULT_QUIET_MS, `raised to ${raised}`);
  // Another app keeps its own window; a caller's longer window stands.
  assert.equal(w.quietWindow(':1.9', 20), 20);
  assert.equal(w.quietWindow(':1.5', 200), 200);
});

test('events after a new input, or long after the settle, are not late ones', async () => {
  const { w, emit } = watcher();
  setTimeout(() => emit(':1.5'), 2);
  assert.equal((await w.settle(20, 2000, ':1.5')).settled, true);
  w.inputSent();
  emit(':1.5');
  assert.equal(w.quietWindow(':1.5', 20), 20, 'the next act\'s own events');
  setTimeout(() => emit(':1.5'), 2);
  assert.equal((await w.settle(20, 2000, ':1.5')).settled, true);
  await sleep(300);
  emit(':1.5');
  assert.equal(w.quietWindow(':1.5', 20), 20, 'an event 300 ms later');
});

test("the app's toolkit is read from its application root's ToolkitName and Version, once per app", async () => {
  const props: Record<string, string> = { ToolkitName: 'gtk', Version: '3.24.38' };
  const asked: string[] = [];
  const bus = Object.assign(Object.create(A11yBus.prototype) as object, {
    toolkits: new Map(),
    getProp: async (_t: unknown, iface: string, prop: string) => {
      asked.push(`${iface}.${prop}`);
      if (!(prop in props)) throw new Error(`No such property ${prop}`);
      return props[prop];
    },
  }) as unknown as A11yBus;
  assert.deepEqual(await bus.toolkit(':1.5'), { name: 'gtk', version: '3.24.38' });
  assert.equal(quietTimeFor(await bus.toolkit(':1.5')), TOOLKIT_QUIET.find((r) => r.major === 3)!.ms);
  assert.deepEqual(asked, ['org.a11y.atspi.Application.ToolkitName', 'org.a11y.atspi.Application.Version']);
});

const TARGET = ':1.5/org/a11y/atspi/accessible/3';

test("the act's effect on its target and a silent round trip end the settle before the quiet time", async () => {
  const { w, emit } = watcher();
  const since = performance.now();
  emit(':1.5'); // the check box's state change, sent before the DoAction's answer (GTK 3)
  const done = await w.settle(200, 2000, ':1.5', { since, effectOn: TARGET });
  assert.equal(done.settled, true);
  assert.ok(done.ms < 100, `settled after ${done.ms} ms, not the 200 ms quiet time`);
  // Without the target named (keys, a caller's own quiet window) the quiet time is waited out.
  const since2 = performance.now();
  emit(':1.5');
  assert.ok((await w.settle(200, 2000, ':1.5', { since: since2 })).ms >= 190);
});

test('no early end on an event of another element, on a ' +
    'structural event, or with events between the pings', async () => {
  const { w, emit } = watcher();
  let since = performance.now();
  emit(':1.5', 'StateChanged', 'checked', '/org/a11y/atspi/accessible/9');
  assert.ok((await w.settle(150, 2000, ':1.5', { since, effectOn: TARGET })).ms >= 140, 'another element');
  w.inputSent();
  since = performance.now();
  emit(':1.5');
  emit(':1.5', 'ChildrenChanged', 'add', '/org/a11y/atspi/accessible/1');
  assert.ok((await w.settle(150, 2000, ':1.5', { since, effectOn: TARGET })).ms >= 140, 'structural');
  // An app that keeps sending across each round trip waits out its quiet time, after a few pings at most.
  w.inputSent();
  let sending = true;
  const busy = watcher((n) => { if (sending && n < 40) busy.emit(':1.5', 'PropertyChange', 'accessible-name'); });
  since = performance.now();
  busy.emit(':1.5');
  setTimeout(() => { sending = false; }, 120);
  const r = await busy.w.settle(20, 2000, ':1.5', { since, effectOn: TARGET });
  assert.equal(r.settled, true);
  assert.ok(r.ms >= 100, `settled after ${r.ms} ms while the app still sent`);
});

test('an app whose late events raised its quiet window no longer ends a settle by the effect', async () => {
  const { w, emit } = watcher();
  const since = performance.now();
  emit(':1.5');
  assert.ok((await w.settle(200, 2000, ':1.5', { since, effectOn: TARGET })).ms < 100);
  // The act's update went on after the settle called the app quiet: a late event.
  await sleep(30);
  emit(':1.5', 'StateChanged', 'enabled', '/org/a11y/atspi/accessible/4');
  assert.ok(w.quietWindow(':1.5', 20) > 20, 'the late event raised the quiet window');
  w.inputSent();
  const since2 = performance.now();
  emit(':1.5');
  const next = await w.settle(w.quietWindow(':1.5', 20), 2000, ':1.5', { since: since2, effectOn: TARGET });
  assert.ok(next.ms >= w.quietWindow(':1.5', 20) - 2, `settled after ${next.ms} ms`);
});
