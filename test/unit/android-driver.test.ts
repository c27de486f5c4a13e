/**
 * The Android driver's protocol handlers against a fake phone behind the fake adb server (every command through
 * mksh): observe, toggle Wi-Fi with the effect read back, type a Chinese draft through the IME, and every way an
 * act must refuse with nothing sent (stale handle, another app in front, disabled, no IME, locked, unauthorized),
 * plus a link that drops mid-act.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AdbClient } from '../../src/drivers/android/adb/client.js';
import { AndroidDriver } from '../../src/drivers/android/driver.js';
import { androidHandlers } from '../../src/drivers/android/main.js';
import { isComputerUseError } from '../../src/protocol/errors.js';
import type { Handlers } from '../../src/protocol/peer.js';
import type { RawNode } from '../../src/engine/node.js';
import { FakePhone } from '../android/phone.js';

const ctx = { signal: new AbortController().signal } as never;
const flat = (n: RawNode, out: RawNode[] = []): RawNode[] => {
  out.push(n);
  for (const c of n.children ?? []) flat(c, out);
  return out;
};

async function withPhone(
  fn: (h: Required<Handlers>, phone: FakePhone, window: string) => Promise<void>,
  first = FakePhone.screen('network-internet.xml', 'com.android.settings.Settings$NetworkDashboardActivity'),
): Promise<void> {
  const phone = new FakePhone(first);
  const port = await phone.start();
  try {
    const driver = new AndroidDriver({
      client: new AdbClient({ address: { host: '127.0.0.1', port }, timeoutMs: 8000 }),
      pollMs: 10,
    });
    const h = androidHandlers(driver) as Required<Handlers>;
    await h.hello({}, ctx);
    const apps = await h['apps.list']({}, ctx);
    await fn(h, phone, apps.apps[0]!.windows[0]!.id);
  } finally { await phone.stop(); }
}

const inputCalls = (phone: FakePhone): string[][] =>
  phone.log.filter((c) => c[0] === 'input' || (c[0] === 'am' && c[1] === 'broadcast'));

test('hello reports the phone; the foreground activity is the window, the package the app', async () => {
  await withPhone(async (h, _phone, window) => {
    const hello = await h.hello({}, ctx);
    assert.equal(hello.platform, 'android');
    assert.deepEqual(
      [hello.facts?.model, hello.facts?.api_level, hello.facts?.screen, hello.facts?.density, hello.facts?.locked],
      ['sdk_gphone64_x86_64', '34', '1080x2400', '420', 'false'],
    );
    assert.equal(window, 'com.android.settings/com.android.settings.Settings$NetworkDashboardActivity');
    const apps = await h['apps.list']({}, ctx);
    assert.deepEqual([apps.apps[0]?.name, apps.apps[0]?.pid], ['com.android.settings', 4242]);
  });
});

test('toggle Wi-Fi: a tap at the switch\'s center, and the next dump shows it checked', async () => {
  await withPhone(async (h, phone, window) => {
    const snap = await h['tree.snapshot']({ window }, ctx);
    const wifi = flat(snap.root).find((n) => n.role === 'switch' && n.name === 'Wi‑Fi')!;
    assert.ok(!wifi.states.includes('checked'));
    const r = await h['node.act']({ id: wifi.id, op: 'toggle', expect: { role: 'switch' } }, ctx);
    assert.equal(r.method, 'synthetic');
    assert.deepEqual(inputCalls(phone), [['input', 'tap', '954', '958']]);
    const settled = await h['ui.settle']({ quietMs: 0, timeoutMs: 2000 }, ctx);
    assert.ok(settled.settled);
    const after = flat((await h['tree.snapshot']({ window }, ctx)).root).find((n) => n.id === wifi.id)!;
    assert.ok(after.states.includes('checked'), 'the receipt can confirm the new state from the dump');
  });
});

test('a handle whose node changed, another app in front, a disabled switch: refused, nothing sent', async () => {
  await withPhone(async (h, phone, window) => {
    const snap = await h['tree.snapshot']({ window }, ctx);
    const nodes = flat(snap.root);
    const airplane = nodes.find((n) => n.name === 'Airplane mode' && n.role === 'switch')!;
    await assert.rejects(
      async () => h['node.act']({ id: airplane.id, op: 'toggle' }, ctx),
      (e: unknown) => isComputerUseError(e, 'element_disabled'),
    );
    const up = nodes.find((n) => n.name === 'Navigate up')!;
    await assert.rejects(
      async () => h['node.act']({ id: up.id, op: 'click', expect: { role: 'textbox' } }, ctx),
      (e: unknown) => isComputerUseError(e, 'stale_ref'),
    );
    phone.open(FakePhone.screen('messenger-draft.xml', '.ConversationActivity'));
    await assert.rejects(
      async () => h['node.act']({ id: up.id, op: 'click' }, ctx),
      (e: unknown) => isComputerUseError(e, 'window_changed'),
    );
    await assert.rejects(
      async () => h['tree.snapshot']({ window }, ctx),
      (e: unknown) => isComputerUseError(e, 'window_not_found'),
    );
    assert.deepEqual(inputCalls(phone), []);
  });
});

test('a Chinese draft: refused without the ADB Keyboard (nothing sent), typed through it when selected', async () => {
  await withPhone(async (h, phone, window) => {
    const box = flat((await h['tree.snapshot']({ window }, ctx)).root).find((n) => n.role === 'textbox')!;
    const draft = '明天见 👋 "ok"';
    await assert.rejects(
      async () => h['node.act']({ id: box.id, op: 'set_value', value: draft }, ctx),
      (e: unknown) =>
        isComputerUseError(e, 'input_unavailable') &&
        /ADB Keyboard/.test(e.message) &&
        /Nothing was sent/.test(e.message),
    );
    assert.deepEqual(inputCalls(phone), []);
    phone.ime = 'com.android.adbkeyboard/.AdbIME';
    phone.render();
    await h['node.act']({ id: box.id, op: 'set_value', value: draft }, ctx);
    const after = flat((await h['tree.snapshot']({ window }, ctx)).root).find((n) => n.role === 'textbox')!;
    assert.equal(after.value, draft);
    assert.ok(!phone.log.some((c) => c[0] === 'input' && c[1] === 'tap' && c[2] === '970'), 'Send was never tapped');
  }, FakePhone.screen('messenger-draft.xml', 'com.example.messenger.ConversationActivity'));
});

test('ASCII text with %s and shell metacharacters arrives exactly through input text', async () => {
  await withPhone(async (h, phone, window) => {
    const box = flat((await h['tree.snapshot']({ window }, ctx)).root).find((n) => n.role === 'textbox')!;
    const text = "50%s off; $(reboot) & 'quotes'";
    await h['node.act']({ id: box.id, op: 'set_value', value: text }, ctx);
    const after = flat((await h['tree.snapshot']({ window }, ctx)).root).find((n) => n.role === 'textbox')!;
    assert.equal(after.value, text);
    void phone;
    const r = await h['node.act']({ id: box.id, op: 'type', value: 'hunter2' }, ctx);
    assert.ok(!r.detail?.includes('hunter2'), `the typed text is not in the receipt: ${r.detail}`);
  }, FakePhone.screen('messenger-draft.xml', 'com.example.messenger.ConversationActivity'));
});

test('keys and system actions map to key codes; an unknown key is refused before anything is sent', async () => {
  await withPhone(async (h, phone) => {
    await h['input.keys']({ window: 'x', chords: [{ mods: [], key: 'Enter' }, { mods: ['Primary'], key: 'a' }] }, ctx);
    assert.deepEqual(inputCalls(phone), [
      ['input', 'keyevent', 'KEYCODE_ENTER'],
      ['input', 'keycombination', 'KEYCODE_CTRL_LEFT', 'KEYCODE_A'],
    ]);
    await assert.rejects(
      async () =>
        h['input.keys'](
          {
            window: 'x',
            chords: [
              { mods: [], key: 'Return' },
              { mods: [], key: 'XF86Launch0' },
            ],
          },
          ctx,
        ),
      (e: unknown) => isComputerUseError(e, 'unsupported'),
    );
    assert.equal(inputCalls(phone).length, 2);
  });
});

test('back, home, recents and notifications are ops of the window node: key events ' +
    'and the status bar through mksh; refused when another screen is in front', async () => {
  await withPhone(async (h, phone, window) => {
    const root = (await h['tree.snapshot']({ window }, ctx)).root;
    assert.deepEqual(root.actions, ['back', 'home', 'recents', 'notifications']);
    const before = phone.log.length;
    for (const op of ['back', 'home', 'recents', 'notifications'] as const) {
      const r = await h['node.act']({ id: root.id, op }, ctx);
      assert.equal(r.before?.role, 'window');
    }
    const sent = phone.log.slice(before).filter((c) => c[0] === 'input' || c[0] === 'cmd');
    assert.deepEqual(sent, [
      ['input', 'keyevent', 'KEYCODE_BACK'],
      ['input', 'keyevent', 'KEYCODE_HOME'],
      ['input', 'keyevent', 'KEYCODE_APP_SWITCH'],
      ['cmd', 'statusbar', 'expand-notifications'],
    ]);
    const element = flat(root).find((n) => n.name === 'Navigate up')!;
    await assert.rejects(
      async () => h['node.act']({ id: element.id, op: 'back' }, ctx),
      (e: unknown) => isComputerUseError(e, 'unsupported'),
    );
    await assert.rejects(
      async () => h['node.act']({ id: 'com.android.launcher3/.Launcher', op: 'home' }, ctx),
      (e: unknown) => isComputerUseError(e, 'window_changed'),
    );
    // No close button on a phone: close is refused with the ops that leave a screen, never passed off as Back.
    await assert.rejects(async () => h['node.act']({ id: root.id, op: 'close' }, ctx),
      (e: unknown) => isComputerUseError(e, 'unsupported') && /back leaves the screen/.test(e.message));
    assert.equal(
      phone.log.slice(before).filter((c) => c[0] === 'input' || c[0] === 'cmd').length,
      4,
      'nothing more was sent',
    );
  });
});

test('a locked phone, an unauthorized one and a link that drops mid-act each say so', async () => {
  await withPhone(async (h, phone, window) => {
    const up = flat((await h['tree.snapshot']({ window }, ctx)).root).find((n) => n.name === 'Navigate up')!;
    phone.locked = true; phone.render();
    await assert.rejects(
      async () => h['tree.snapshot']({ window }, ctx),
      (e: unknown) => isComputerUseError(e, 'screen_locked') && /unlock/.test(e.message),
    );
    const sent = inputCalls(phone).length;
    await assert.rejects(
      async () => h['node.act']({ id: up.id, op: 'click' }, ctx),
      (e: unknown) => isComputerUseError(e, 'screen_locked'),
    );
    assert.equal(inputCalls(phone).length, sent, 'nothing was sent to a locked phone');
    phone.locked = false; phone.render();
    phone.server.dropOn = 'shell,v2,raw:input';
    await assert.rejects(
      async () => h['node.act']({ id: up.id, op: 'click' }, ctx),
      (e: unknown) => isComputerUseError(e, 'link_lost'),
    );
    phone.server.dropOn = undefined;
    phone.device.state = 'unauthorized';
    // The server's own words say nothing of what to do: the error names the fix on the phone.
    await assert.rejects(
      async () => h['apps.list']({}, ctx),
      (e: unknown) =>
        isComputerUseError(e, 'unauthorized') &&
        /accept "Allow USB debugging\?"/.test(e.message) &&
        e.details['where'] === "the phone's screen",
    );
  });
});

test('a phone unplugged mid-act: the act is link_lost (it may have ' +
    'run), every later call device_offline with what to do', async () => {
  await withPhone(async (h, phone, window) => {
    const up = flat((await h['tree.snapshot']({ window }, ctx)).root).find((n) => n.name === 'Navigate up')!;
    phone.server.vanishOn = 'shell,v2,raw:input';
    await assert.rejects(
      async () => h['node.act']({ id: up.id, op: 'click' }, ctx),
      (e: unknown) => isComputerUseError(e, 'link_lost'),
    );
    await assert.rejects(
      async () => h['tree.snapshot']({ window }, ctx),
      (e: unknown) => isComputerUseError(e, 'device_offline') && /adb devices/.test(e.message),
    );
  });
});

test('dumps never overlap on the phone: screens read in parallel by the host take turns', async () => {
  const xml =
    '<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="p" ' +
    'bounds="[0,0][10,10]"/></hierarchy>';
  let running = 0;
  let most = 0;
  const client = {
    shell: async () => ({
      stdout: Buffer.from('mCurrentFocus=Window{1 u0 p/p.Main}\n'),
      stderr: Buffer.alloc(0),
      exitCode: 0,
    }),
    exec: async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 30));
      running--;
      return Buffer.from(xml);
    },
  } as unknown as AdbClient;
  const driver = new AndroidDriver({ client });
  await Promise.all([driver.screen(), driver.screen(), driver.screen()]);
  assert.equal(most, 1);
});
