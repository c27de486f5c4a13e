/**
 * The M3 tasks on a real emulator or phone (.github/workflows/android.yml; skipped unless CU_ANDROID_SERIAL names
 * a device on this machine's adb server): open Wi-Fi in Settings through the adb driver (the receipt confirms the
 * switch), then pair the AccessibilityService app (`computer-use pairing start`, `adb reverse`, PairActivity) and
 * type a Chinese draft into the messenger's compose box through it without sending it (Send asks). Not run where
 * it was written: there is no emulator there (docs/platforms.md, "Verified on").
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { saveDevices } from '../../../src/devices/registry.js';

const serial = process.env['CU_ANDROID_SERIAL'];
const skip = !serial && 'CU_ANDROID_SERIAL is not set (no emulator or phone here)';
const cli = fileURLToPath(new URL('../../../src/hosts/cli/main.js', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'cu-m3-device-'));
after(() => { rmSync(home, { recursive: true, force: true }); });
const env = (): Record<string, string> => {
  const e: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) e[k] = v;
  return { ...e, COMPUTER_USE_HOME: home };
};
const adb = (...args: string[]): string => execFileSync('adb', ['-s', serial!, ...args], { encoding: 'utf8' });
const text = (r: Awaited<ReturnType<Client['callTool']>>): string =>
  (r.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
const refOf = (snapshot: string, pattern: RegExp): string => {
  const ref = /\[(d\d+e\d+)\]/.exec(snapshot.split('\n').find((l) => pattern.test(l)) ?? '')?.[1];
  assert.ok(ref, `no line matching ${pattern} in:\n${snapshot}`);
  return ref;
};

async function mcp(args: string[]): Promise<Client> {
  const client = new Client({ name: 'e2e-android-device', version: '0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [cli, 'mcp', '--desktop', 'current', ...args],
      env: env(),
      stderr: 'inherit',
    }),
  );
  return client;
}

test('M3 on the device: open Wi-Fi in Settings through ' +
    'the adb driver; the receipt confirms the switch', { skip, timeout: 120_000 }, async () => {
  saveDevices([{ name: 'phone', url: `adb:${serial}`, kind: 'adb' }], join(home, 'devices.json'));
  adb('shell', 'svc', 'wifi', 'disable');
  adb('shell', 'am', 'start', '-a', 'android.settings.WIFI_SETTINGS');
  const client = await mcp(['--mode', 'bypass', '--allow-app', 'com.android.settings']);
  try {
    await client.callTool({
      name: 'computer_wait',
      arguments: { device: 'phone', until: 'appears', app: 'com.android.settings', text: 'Wi', timeoutMs: 10_000 },
    });
    const snap = text(
      await client.callTool({
        name: 'computer_observe',
        arguments: { full: true, device: 'phone', app: 'com.android.settings' },
      }),
    );
    const wifi = refOf(snap, /switch "(Use )?Wi.?Fi"/i);
    const r = text(
      await client.callTool({ name: 'computer_act', arguments: { actions: [{ ref: wifi, op: 'toggle' }] } }),
    );
    assert.match(r, /confirmed/, r);
  } finally { await client.close(); }
});

test('M3 on the device: the paired service types a Chinese ' +
    'draft into the messenger; Send asks and is not tapped', { skip, timeout: 180_000 }, async () => {
  const pairing = spawn(
    process.execPath,
    [cli, 'pairing', 'start', '--listen', 'ws://127.0.0.1:7787', '--name', 'app'],
    { env: env(), stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  pairing.stdout.setEncoding('utf8');
  const seen = (re: RegExp): Promise<RegExpExecArray> => new Promise((resolve, reject) => {
    const check = (): void => { const m = re.exec(out); if (m) resolve(m); };
    pairing.stdout.on('data', (d: string) => { out += d; check(); });
    pairing.once('exit', () => {
      const m = re.exec(out);
      if (m) resolve(m);
      else reject(new Error(`pairing start ended: ${out}`));
    });
    check();
  });
  const code = (await seen(/pairing code: (\d{3}-\d{3})/))[1]!;
  adb('reverse', 'tcp:7787', 'tcp:7787');
  adb(
    'shell',
    'am',
    'start',
    '-n',
    'dev.computeruse/.android.PairActivity',
    '--es',
    'server',
    'ws://127.0.0.1:7787',
    '--es',
    'code',
    code,
  );
  await seen(/paired: app/);
  adb('shell', 'am', 'start', '-a', 'android.intent.action.SENDTO', '-d', 'sms:5554');
  const client = await mcp(['--mode', 'acceptEdits']);
  try {
    const apps = text(await client.callTool({ name: 'computer_apps', arguments: { device: 'app' } }));
    const messenger = /^(com\.[\w.]*messaging[\w.]*)/m.exec(apps)?.[1];
    assert.ok(messenger, apps);
    const snap = text(
      await client.callTool({ name: 'computer_observe', arguments: { full: true, device: 'app', app: messenger } }),
    );
    const box = refOf(snap, /textbox/);
    const draft = '明天下午三点见，带上合同 🙏';
    const r = text(
      await client.callTool({
        name: 'computer_act',
        arguments: { actions: [{ ref: box, op: 'set_value', value: draft }] },
      }),
    );
    assert.match(r, /confirmed|asks|question/, r);
    const after = text(
      await client.callTool({ name: 'computer_observe', arguments: { full: true, device: 'app', app: messenger } }),
    );
    assert.ok(after.includes('明天下午三点见'), after);
    const send = refOf(after, /button "Send/i);
    const s = text(
      await client.callTool({ name: 'computer_act', arguments: { actions: [{ ref: send, op: 'click' }] } }),
    );
    assert.match(s, /confirm|rejected|declined|question/i, s);
  } finally { await client.close(); pairing.kill(); }
});
