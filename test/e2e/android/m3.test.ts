/**
 * The Android milestone tasks through the MCP server, driven by the SDK's own client, against the fake phone
 * behind the fake adb server: open Wi-Fi in Settings (the receipt confirms the switch's new state), and type a
 * Chinese draft in a messenger box without sending it (a tap on Send asks first). The phone is a device added as
 * `adb:SERIAL` in the home's devices file, its driver the real `computer-use driver android` process.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { saveDevices } from '../../../src/devices/registry.js';
import { FakePhone } from '../../android/phone.js';

const cli = fileURLToPath(new URL('../../../src/hosts/cli/main.js', import.meta.url));
const text = (r: Awaited<ReturnType<Client['callTool']>>): string =>
  (r.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
const homes: string[] = [];
after(() => { for (const h of homes) rmSync(h, { recursive: true, force: true }); });

async function mcpWithPhone(phone: FakePhone, args: string[]): Promise<Client> {
  const port = await phone.start();
  const home = mkdtempSync(join(tmpdir(), 'cu-m3-'));
  homes.push(home);
  saveDevices([{ name: 'phone', url: 'adb:emulator-5554', kind: 'adb' }], join(home, 'devices.json'));
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  Object.assign(env, { COMPUTER_USE_HOME: home, ADB_SERVER_SOCKET: `tcp:127.0.0.1:${port}` });
  const client = new Client({ name: 'e2e-android', version: '0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [cli, 'mcp', '--desktop', 'current', ...args],
      env,
      stderr: 'inherit',
    }),
  );
  return client;
}

const refOf = (snapshot: string, pattern: RegExp): string => {
  const line = snapshot.split('\n').find((l) => pattern.test(l));
  const ref = line && /\[(d\d+e\d+)\]/.exec(line)?.[1];
  assert.ok(ref, `no line matching ${pattern} in:\n${snapshot}`);
  return ref;
};

test('M3: open Wi-Fi in Settings; the receipt confirms the switch is on', async () => {
  const phone = new FakePhone(
    FakePhone.screen('network-internet.xml', 'com.android.settings.Settings$NetworkDashboardActivity'),
  );
  const client = await mcpWithPhone(phone, ['--mode', 'bypass', '--allow-app', 'com.android.settings']);
  try {
    const apps = text(await client.callTool({ name: 'computer_apps', arguments: { device: 'phone' } }));
    assert.match(apps, /com\.android\.settings/, apps);
    const snap = text(
      await client.callTool({
        name: 'computer_observe',
        arguments: { full: true, device: 'phone', app: 'com.android.settings' },
      }),
    );
    const wifi = refOf(snap, /switch "Wi‑Fi"/);
    const r = text(
      await client.callTool({ name: 'computer_act', arguments: { actions: [{ ref: wifi, op: 'toggle' }] } }),
    );
    assert.match(r, /confirmed/, r);
    assert.match(r, /\bchecked\b/, r);
    assert.ok(phone.front.dump.roots[0]!.children[1]!.children[1]!.children[1]!.checked, 'the phone\'s switch is on');
  } finally { await client.close(); await phone.stop(); }
});

test('the phone\'s Back is an op of the window: computer_act on ' +
    'the window\'s ref sends KEYCODE_BACK through the policy', async () => {
  const phone = new FakePhone(
    FakePhone.screen('network-internet.xml', 'com.android.settings.Settings$NetworkDashboardActivity'),
  );
  const client = await mcpWithPhone(phone, ['--mode', 'bypass', '--allow-app', 'com.android.settings']);
  try {
    const snap = text(
      await client.callTool({
        name: 'computer_observe',
        arguments: { full: true, device: 'phone', app: 'com.android.settings' },
      }),
    );
    const window = refOf(snap, /^\[d\d+e\d+\] window\b/);
    const r = text(
      await client.callTool({ name: 'computer_act', arguments: { actions: [{ ref: window, op: 'back' }] } }),
    );
    assert.match(r, /ok back/, r);
    assert.deepEqual(phone.log.filter((c) => c[0] === 'input').at(-1), ['input', 'keyevent', 'KEYCODE_BACK']);
  } finally { await client.close(); await phone.stop(); }
});

test('a phone unplugged mid-act: the receipt is unknown (the tap ' +
    'may have landed), the next observe says the phone is gone', async () => {
  const phone = new FakePhone(
    FakePhone.screen('network-internet.xml', 'com.android.settings.Settings$NetworkDashboardActivity'),
  );
  const client = await mcpWithPhone(phone, ['--mode', 'bypass', '--allow-app', 'com.android.settings']);
  try {
    const snap = text(
      await client.callTool({
        name: 'computer_observe',
        arguments: { full: true, device: 'phone', app: 'com.android.settings' },
      }),
    );
    const wifi = refOf(snap, /switch "Wi‑Fi"/);
    phone.server.vanishOn = 'shell,v2,raw:input';
    const r = text(
      await client.callTool({ name: 'computer_act', arguments: { actions: [{ ref: wifi, op: 'toggle' }] } }),
    );
    assert.match(r, /unknown/, r);
    assert.doesNotMatch(r, /confirmed/, r);
    const again = text(
      await client.callTool({
        name: 'computer_observe',
        arguments: { full: true, device: 'phone', app: 'com.android.settings' },
      }),
    );
    assert.match(again, /device_offline|adb devices/, again);
  } finally { await client.close(); await phone.stop(); }
});

test('M3: a Chinese draft in a messenger, not sent; tapping Send asks first', async () => {
  const phone = new FakePhone(FakePhone.screen('messenger-draft.xml', 'com.example.messenger.ConversationActivity'));
  phone.ime = 'com.android.adbkeyboard/.AdbIME';
  phone.render();
  // accept-edits: the allow-listed app is acted on without a question, irreversible steps still ask.
  const client = await mcpWithPhone(phone, ['--mode', 'acceptEdits', '--allow-app', 'com.example.messenger']);
  try {
    const snap = text(
      await client.callTool({
        name: 'computer_observe',
        arguments: { full: true, device: 'phone', app: 'com.example.messenger' },
      }),
    );
    const box = refOf(snap, /textbox "Text message"/);
    const draft = '明天下午三点见，带上合同 🙏';
    const r = text(
      await client.callTool({
        name: 'computer_act',
        arguments: { actions: [{ ref: box, op: 'set_value', value: draft }] },
      }),
    );
    assert.match(r, /confirmed/, r);
    const field = phone.front.dump.roots[0]!.children[1]!;
    assert.equal(field.text, draft);
    const send = refOf(snap, /button "Send"/);
    const taps = phone.log.filter((c) => c[0] === 'input' && c[1] === 'tap').length;
    const s = await client.callTool({ name: 'computer_act', arguments: { actions: [{ ref: send, op: 'click' }] } });
    assert.match(text(s), /confirm|rejected|declined|question/i, text(s));
    assert.equal(phone.log.filter((c) => c[0] === 'input' && c[1] === 'tap').length, taps, 'Send was not tapped');
  } finally { await client.close(); await phone.stop(); }
});

test('an Android security screen is unseen: listed as hidden, observe refused, nothing read', async () => {
  const phone = new FakePhone(
    FakePhone.screen('network-internet.xml', 'com.android.settings.Settings$SecurityDashboardActivity'),
  );
  const client = await mcpWithPhone(phone, ['--mode', 'bypass', '--allow-app', 'com.android.settings']);
  try {
    const apps = text(await client.callTool({ name: 'computer_apps', arguments: { device: 'phone' } }));
    assert.match(apps, /1 window hidden: its screen is an Android security/, apps);
    const r = await client.callTool({
      name: 'computer_observe',
      arguments: { full: true, device: 'phone', app: 'com.android.settings' },
    });
    assert.match(text(r), /denied_by_policy/, text(r));
    assert.doesNotMatch(text(r), /Wi‑Fi|Airplane/);
  } finally { await client.close(); await phone.stop(); }
});
