/**
 * Two devices in one MCP session: this sandbox desktop ("local", mousepad) and a "remote" reached
 * through a real sshd on loopback with the real ssh client ("lab", gedit in a second sandbox desktop with its
 * own COMPUTER_USE_HOME and DISPLAY). The remote end runs `node <repo>/dist/src/hosts/cli/main.js driver linux
 * --desktop sandbox` as the device's configured command. Also: the link killed mid-act is receipt `unknown`
 * and the next call reconnects; host-key and key failures give their own codes; doctor --device.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { killApp } from '../helpers.js';
import { cmdline, descendants, startSshd, type TestSshd } from './sshd.js';

const cli = fileURLToPath(new URL('../../../src/hosts/cli/main.js', import.meta.url));
const REMOTE_HOME = process.env['CU_REMOTE_HOME'] ?? join(tmpdir(), 'cu-devices-remote');
const cutLink = fileURLToPath(new URL('./cut-link.js', import.meta.url));
const armFile = join(tmpdir(), `cu-devices-cut-${process.pid}`);
// The package is not installed globally on the "remote": the device's command runs it from this checkout, through
// a pipe that can cut the link right after passing an act on (cut-link.ts).
const remoteCommand =
  `env COMPUTER_USE_HOME=${REMOTE_HOME} ${process.execPath} ${cutLink} ${armFile} ${process.execPath} ${cli} ` +
  `driver linux --desktop sandbox`;
let sshd: TestSshd;
let home: string;
let client: Client;
let transport: StdioClientTransport;
const pids: number[] = [];

const run = (args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> => new Promise((resolve) => {
  execFile(process.execPath, [cli, ...args], { env: { ...process.env, COMPUTER_USE_HOME: home, ...env }, timeout: 120_000 }, (e, stdout, stderr) => {
    resolve({ code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, stdout, stderr });
  });
});
const text = (r: Awaited<ReturnType<Client['callTool']>>): string =>
  (r.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
const call = async (name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> => {
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
  return { text: text(r), isError: r.isError === true };
};
const refIn = (t: string, pattern: RegExp): string => {
  const line = t.split('\n').find((l) => pattern.test(l));
  const m = line ? /\[((?:d\d+)?e\d+)\]/.exec(line) : null;
  assert.ok(m?.[1], `no line matches ${pattern} in:\n${t}`);
  return m[1];
};

before(async () => {
  sshd = await startSshd();
  home = mkdtempSync(join(tmpdir(), 'cu-devices-home-'));
  // The "remote" desktop: a second sandbox of its own home (reused when one is running).
  const up = await run(['sandbox', 'up'], { COMPUTER_USE_HOME: REMOTE_HOME });
  assert.equal(up.code, 0, up.stderr);
});
after(async () => {
  await client?.close().catch(() => undefined);
  for (const p of pids) await killApp(p);
  await sshd?.stop();
  await run(['sandbox', 'down', '--all'], { COMPUTER_USE_HOME: REMOTE_HOME });
});

test('device add refuses a changed host key and a key the device does not accept, with their own codes', async () => {
  // A known_hosts entry with another key for this host:port.
  const wrongKnown = join(sshd.dir, 'known_hosts_wrong');
  const other = join(sshd.dir, 'other');
  await new Promise((r) => execFile('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', other], r));
  writeFileSync(
    wrongKnown,
    `[127.0.0.1]:${sshd.port} ${readFileSync(`${other}.pub`, 'utf8').split(' ').slice(0, 2).join(' ')}\n`,
  );
  const badHostCfg = join(sshd.dir, 'ssh_config_badhost');
  writeFileSync(badHostCfg, readFileSync(sshd.sshConfig, 'utf8').replace(sshd.knownHosts, wrongKnown));
  const mismatch = await run([
    'device',
    'add',
    sshd.url,
    '--name',
    'bad',
    '--ssh-config',
    badHostCfg,
    '--command',
    remoteCommand,
  ]);
  assert.equal(mismatch.code, 1, mismatch.stdout + mismatch.stderr);
  assert.match(
    mismatch.stderr,
    /^error host_key_mismatch: The SSH host key of device bad .* differs from the one in your known_hosts/m,
  );
  // A key the server does not have in authorized_keys: refused, and no password prompt (BatchMode).
  const badKeyCfg = join(sshd.dir, 'ssh_config_badkey');
  writeFileSync(badKeyCfg, readFileSync(sshd.sshConfig, 'utf8').replace(join(sshd.dir, 'id_ed25519'), other));
  const auth = await run([
    'device',
    'add',
    sshd.url,
    '--name',
    'bad',
    '--ssh-config',
    badKeyCfg,
    '--command',
    remoteCommand,
  ]);
  assert.equal(auth.code, 1);
  assert.match(auth.stderr, /^error auth_failed: SSH refused the login/m);
  // A hostile address never reaches ssh as an option or a shell string.
  const hostile = await run(['device', 'add', 'ssh://-oProxyCommand=touch%20x@127.0.0.1', '--no-check']);
  assert.equal(hostile.code, 2);
  assert.match(hostile.stderr, /invalid_params/);
  const injected = await run([
    'device',
    'add',
    sshd.url,
    '--name',
    'x',
    '--no-check',
    '--command',
    'node main.js; touch /tmp/pwned',
  ]);
  assert.equal(injected.code, 2);
  assert.equal((await run(['device', 'list'])).stdout.trim(), 'local  this machine');
});

test('device add checks and saves the device (0600); doctor ' +
    '--device checks ssh, node and the driver there', async () => {
  const add = await run([
    'device',
    'add',
    sshd.url,
    '--name',
    'lab',
    '--ssh-config',
    sshd.sshConfig,
    '--command',
    remoteCommand,
  ]);
  assert.equal(add.code, 0, add.stderr);
  assert.match(add.stdout, /^lab: reachable: driver linux .*\(x11\)/m);
  assert.match(add.stdout, /added lab ssh:\/\/.*refs d2/);
  assert.equal(statSync(join(home, 'devices.json')).mode & 0o777, 0o600);
  const doctor = await run(['doctor', '--device', 'lab']);
  assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
  assert.match(doctor.stdout, /^ok {3}ssh: /m);
  assert.match(doctor.stdout, /^ok {3}node: node v\d+/m);
  assert.match(doctor.stdout, /^ok {3}driver: /m);
});

test('one MCP session drives both devices: refs name their device, a call cannot mix them', async () => {
  transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', '--desktop', 'current', '--mode', 'bypass', '--allow-app', 'gedit'],
    env: { ...(process.env as Record<string, string>), COMPUTER_USE_HOME: home },
    stderr: 'inherit',
  });
  client = new Client({ name: 'e2e-devices', version: '0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  assert.ok(
    tools.every((t) => (t.inputSchema.properties as Record<string, unknown>)['device']),
    'device is listed when there are several devices',
  );

  const remote = await call('computer_launch', {
    device: 'lab',
    command: 'gedit',
    args: ['--new-window'],
    waitMs: 20000,
  });
  assert.equal(remote.isError, false, remote.text);
  pids.push(Number(/pid=(\d+)/.exec(remote.text)?.[1]));
  const doc = refIn(remote.text, /\] document\b.*editable/);
  assert.match(doc, /^d2e\d+$/);
  const local = await call('computer_launch', {
    device: 'local',
    command: 'gedit',
    args: ['--new-window'],
    waitMs: 20000,
  });
  assert.equal(local.isError, false, local.text);
  pids.push(Number(/pid=(\d+)/.exec(local.text)?.[1]));
  const area = refIn(local.text, /\] document\b.*editable/);
  assert.match(area, /^e\d+$/, 'the first device keeps plain refs');

  const apps = await call('computer_apps', {});
  assert.match(apps.text, /^device local:\n(?: {2}[^\n]*\n)*? {2}gedit pid=/m);
  assert.match(
    apps.text,
    /^device lab \(refs d2…\) ssh:\/\/[^\n]*:\n(?: {2}[^\n]*\n)*? {2}gedit pid=\d+\n {4}\[d2w\d+\] window /m,
  );

  // Acts go to the device the ref names, whatever was used last.
  const typed = await call('computer_act', { actions: [{ ref: doc, op: 'type', value: 'over ssh' }] });
  assert.equal(typed.isError, false, typed.text);
  assert.match(typed.text, new RegExp(`^ok type ${doc} · confirmed`, 'm'));
  const typedLocal = await call('computer_act', { actions: [{ ref: area, op: 'type', value: 'here' }] });
  assert.match(typedLocal.text, new RegExp(`^ok type ${area} · confirmed`, 'm'));
  const seen = await call('computer_observe', { full: true, app: 'gedit', device: 'lab' });
  assert.match(seen.text, /over ssh/);
  assert.doesNotMatch(seen.text, /here/);
  const seenLocal = await call('computer_observe', { full: true, app: 'gedit', device: 'local' });
  assert.match(seenLocal.text, /here/);
  assert.doesNotMatch(seenLocal.text, /over ssh/);

  const mixed = await call('computer_act', { actions: [{ ref: doc, op: 'click' }, { ref: area, op: 'click' }] });
  assert.equal(mixed.isError, true);
  assert.match(
    mixed.text,
    /^error invalid_params: This call mixes refs of 2 devices \(lab, local\|local, lab\)|^error invalid_params: This call mixes refs of 2 devices/m,
  );
  const wrong = await call('computer_act', { device: 'local', actions: [{ ref: doc, op: 'click' }] });
  assert.match(wrong.text, /^error invalid_params: The refs belong to device lab, not local/m);
  const nobody = await call('computer_observe', { full: true, device: 'nowhere' });
  assert.match(nobody.text, /^error unknown_device: No device is named "nowhere"/m);
});

test('the link killed mid-act: receipt unknown (never failed), and the next call reconnects', async () => {
  const server = transport.pid!;
  const sshClient = descendants(server).find((p) => cmdline(p).startsWith('ssh '));
  assert.ok(sshClient, 'the MCP server runs ssh for the lab device');
  const seen = await call('computer_observe', { full: true, app: 'gedit', device: 'lab' });
  const doc = refIn(seen.text, /\] document\b.*editable/);
  // Armed: the remote end passes the next act to the driver, then its sshd session is killed.
  writeFileSync(armFile, '');
  const res = await call('computer_act', { actions: [{ ref: doc, op: 'type', value: ' more' }] });
  assert.equal(existsSync(armFile), false, 'the act reached the remote end');
  assert.equal(res.isError, false, res.text);
  assert.match(
    res.text,
    new RegExp(
      `^ok type ${doc} · unknown \\(The link to device lab dropped while node.act was in flight: it may have ` +
        `happened`,
      'm',
    ),
  );
  assert.doesNotMatch(res.text, /failed/);
  // The next call starts a new link (a new ssh, a new driver) and works; it shows why the receipt said unknown.
  const again = await call('computer_observe', { full: true, app: 'gedit', device: 'lab' });
  assert.equal(again.isError, false, again.text);
  assert.match(again.text, /over ssh more/);
  const newSsh = descendants(server).find((p) => cmdline(p).startsWith('ssh '));
  assert.ok(newSsh && newSsh !== sshClient, 'a new ssh link');
  // The local device was never disturbed.
  assert.equal((await call('computer_observe', { full: true, app: 'gedit', device: 'local' })).isError, false);
});
