/**
 * Pairing on loopback, with the real CLI at both ends: `computer-use pairing start` on the
 * "server" home shows a code; `computer-use pair <url> --code …` on the "device" (a second sandbox desktop with
 * its own COMPUTER_USE_HOME) dials in and serves its driver. One MCP session then drives gedit on the device
 * with `d2e…` refs. Wrong, reused and expired codes are refused; revoking from either end closes the link and
 * a redial with the old credential is refused.
 */
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { killApp } from '../helpers.js';

const cli = fileURLToPath(new URL('../../../src/hosts/cli/main.js', import.meta.url));
const REMOTE_HOME = process.env['CU_PAIR_REMOTE_HOME'] ?? join(tmpdir(), 'cu-pairing-remote');
let home: string;
let url: string;
let client: Client | undefined;
const children: ChildProcess[] = [];
const pids: number[] = [];

const run = (args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> => new Promise((resolve) => {
  execFile(process.execPath, [cli, ...args], { env: { ...process.env, COMPUTER_USE_HOME: home, ...env }, timeout: 120_000 }, (e, stdout, stderr) => {
    resolve({ code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, stdout, stderr });
  });
});
const onDevice = (args: string[]): ReturnType<typeof run> => run(args, { COMPUTER_USE_HOME: REMOTE_HOME });

/** A long-running CLI child; its output is collected. */
function start(
  args: string[],
  env: Record<string, string>,
): { child: ChildProcess; out: () => string; exited: Promise<number> } {
  const child = spawn(process.execPath, [cli, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let text = '';
  child.stdout!.on('data', (d: Buffer) => { text += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => { text += d.toString(); });
  const exited = new Promise<number>((r) => child.on('exit', (c) => r(c ?? -1)));
  return { child, out: () => text, exited };
}
const until = async (what: string, cond: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
};

/** `pairing start` on the server home; resolves with its code once shown. */
async function pairingStart(extra: string[] = []): Promise<{ code: string; proc: ReturnType<typeof start> }> {
  let proc = start(['pairing', 'start', '--listen', url, '--name', 'lab', ...extra], { COMPUTER_USE_HOME: home });
  // The port may still be held for a moment by the MCP server of the previous test, which is exiting.
  for (let i = 0; i < 20; i++) {
    await until(
      'the code or an exit',
      () => /pairing code: \d{3}-\d{3}/.test(proc.out()) || proc.child.exitCode !== null,
      30_000,
    );
    if (proc.child.exitCode === null || !/address_in_use/.test(proc.out())) break;
    await new Promise((r) => setTimeout(r, 500));
    proc = start(['pairing', 'start', '--listen', url, '--name', 'lab', ...extra], { COMPUTER_USE_HOME: home });
  }
  assert.match(proc.out(), /pairing code: \d{3}-\d{3}/);
  const code = /pairing code: (\d{3}-\d{3})/.exec(proc.out())![1]!;
  assert.match(proc.out(), new RegExp(`on the device: computer-use pair ${url} --code ${code}`));
  return { code, proc };
}

const text = (r: Awaited<ReturnType<Client['callTool']>>): string =>
  (r.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
const call = async (name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> => {
  const r = await client!.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
  return { text: text(r), isError: r.isError === true };
};
async function openMcp(): Promise<void> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', '--desktop', 'current', '--mode', 'bypass', '--allow-app', 'gedit'],
    env: { ...(process.env as Record<string, string>), COMPUTER_USE_HOME: home },
    stderr: 'inherit',
  });
  client = new Client({ name: 'e2e-pairing', version: '0' });
  await client.connect(transport);
}
/** Waits until the paired device answers in the MCP session (it redials with backoff). */
const labUp = (): Promise<void> =>
  until('the device to dial in', async () => !(await call('computer_apps', { device: 'lab' })).isError, 90_000);

before(async () => {
  home = mkdtempSync(join(tmpdir(), 'cu-pairing-home-'));
  const port = await new Promise<number>((r) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => r(p));
    });
  });
  url = `ws://127.0.0.1:${port}`;
  const up = await onDevice(['sandbox', 'up']);
  assert.equal(up.code, 0, up.stderr);
  await onDevice(['unpair']);
});
after(async () => {
  await client?.close().catch(() => undefined);
  for (const p of pids) await killApp(p);
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  await onDevice(['sandbox', 'down', '--all']);
});

test('refused: a code off loopback without TLS, a wrong code, an expired code', async () => {
  const open = await run(['pairing', 'start', '--listen', 'ws://0.0.0.0:7787']);
  assert.equal(open.code, 2);
  assert.match(open.stderr, /only allowed on loopback.*SSH tunnel/);
  const { code, proc } = await pairingStart(['--ttl', '10']);
  const wrong = code === '000-000' ? '000-001' : '000-000';
  const bad = await onDevice(['pair', url, '--code', wrong]);
  assert.equal(bad.code, 2, bad.stdout + bad.stderr);
  assert.match(bad.stderr, /error auth_failed: The server refused the pairing: wrong code \(4 tries left\)/);
  await new Promise((r) => setTimeout(r, 10_500));
  const late = await onDevice(['pair', url, '--code', code]);
  assert.equal(late.code, 2);
  assert.match(late.stderr, /the code expired/);
  assert.equal(await proc.exited, 1);
  assert.equal(existsSync(join(REMOTE_HOME, 'paired-server.json')), false);
  assert.equal((await run(['device', 'list'])).stdout.trim(), 'local  this machine');
});

test('paired: one MCP session drives gedit on the device with ' +
    'd2 refs; the code is not reusable; revoked on the server', async (t) => {
  const { code, proc } = await pairingStart();
  const device = start(['pair', url, '--code', code, '--desktop', 'sandbox'], { COMPUTER_USE_HOME: REMOTE_HOME });
  assert.equal(await proc.exited, 0, proc.out());
  assert.match(proc.out(), /paired: lab/);
  await until('the device to save its pairing', () => /paired with .* as lab/.test(device.out()));
  assert.equal(statSync(join(REMOTE_HOME, 'paired-server.json')).mode & 0o777, 0o600);
  assert.equal(statSync(join(home, 'devices.json')).mode & 0o777, 0o600);
  assert.match(
    (await run(['device', 'list'])).stdout,
    /^lab {2}paired, listens at ws:\/\/127\.0\.0\.1:\d+ {2}refs d2/m,
  );

  await openMcp();
  await labUp();
  const launched = await call('computer_launch', {
    device: 'lab',
    command: 'gedit',
    args: ['--new-window'],
    waitMs: 20000,
  });
  assert.equal(launched.isError, false, launched.text);
  pids.push(Number(/pid=(\d+)/.exec(launched.text)?.[1]));
  const doc = /\[(d2e\d+)\] document\b[^\n]*editable/.exec(launched.text)?.[1];
  assert.ok(doc, launched.text);
  const typed = await call('computer_act', { actions: [{ ref: doc, op: 'type', value: 'over a paired link' }] });
  assert.equal(typed.isError, false, typed.text);
  assert.match(typed.text, new RegExp(`^ok type ${doc} · confirmed`, 'm'));
  const seen = await call('computer_observe', { full: true, app: 'gedit', device: 'lab' });
  assert.match(seen.text, /over a paired link/);
  // Observe latency over the paired link (a loopback WebSocket to a driver on a second desktop), for the report.
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    assert.equal((await call('computer_observe', { full: true, app: 'gedit', device: 'lab' })).isError, false);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  t.diagnostic(
    `observe gedit over the paired link: median ${Math.round(times[2]!)} ms (min ${Math.round(times[0]!)}, ` +
      `max ${Math.round(times[4]!)})`,
  );
  const apps = await call('computer_apps', {});
  // gedit among the paired device's apps (a desktop may run others: a portal backend that gedit woke on its bus).
  assert.match(apps.text, /^device lab \(refs d2…\)[^\n]*:\n(?: {2}[^\n]*\n)*? {2}gedit pid=/m);

  // While the session listens there, another pairing on the same address says why it cannot start.
  const busy = await run(['pairing', 'start', '--listen', url, '--name', 'other']);
  assert.equal(busy.code, 1);
  assert.match(busy.stderr, /^error address_in_use: .* a session of this home may be listening there/m);
  // The used code again, from another "device": refused (the session's listener takes no codes at all).
  const reuse = await run(['pair', url, '--code', code], {
    COMPUTER_USE_HOME: mkdtempSync(join(tmpdir(), 'cu-pairing-thief-')),
  });
  assert.equal(reuse.code, 2);
  assert.match(reuse.stderr, /refused the pairing: this server takes no pairing code now/);

  // Revoked on the server (another process edits the devices file): the link closes, the device stops.
  const saved = join(tmpdir(), `cu-pairing-cred-${process.pid}.json`);
  copyFileSync(join(REMOTE_HOME, 'paired-server.json'), saved);
  const revoke = await run(['device', 'revoke', 'lab']);
  assert.equal(revoke.code, 0, revoke.stderr);
  assert.match(revoke.stdout, /revoked lab/);
  assert.equal(await device.exited, 1, device.out());
  assert.match(device.out(), /the server refused this pairing \(revoked\)/);
  assert.equal(existsSync(join(REMOTE_HOME, 'paired-server.json')), false, 'the device deleted the refused credential');
  const gone = await call('computer_observe', { full: true, device: 'lab' });
  assert.equal(gone.isError, true);
  assert.match(gone.text, /driver_unavailable/);
  // A redial with the old credential is refused.
  copyFileSync(saved, join(REMOTE_HOME, 'paired-server.json'));
  const redial = await onDevice(['pair', '--desktop', 'sandbox']);
  assert.equal(redial.code, 1, redial.stdout + redial.stderr);
  assert.match(redial.stdout, /the server refused this pairing/);
  await client!.close();
  client = undefined;
});

test('revoked on the device: the server forgets it and closes its link; a redial is refused', async () => {
  const { code, proc } = await pairingStart();
  const device = start(['pair', url, '--code', code, '--desktop', 'sandbox'], { COMPUTER_USE_HOME: REMOTE_HOME });
  assert.equal(await proc.exited, 0, proc.out());
  await until('the device to save its pairing', () => /paired with .* as lab/.test(device.out()));
  const saved = join(tmpdir(), `cu-pairing-cred2-${process.pid}.json`);
  copyFileSync(join(REMOTE_HOME, 'paired-server.json'), saved);
  await openMcp();
  await labUp();
  const un = await onDevice(['unpair']);
  assert.equal(un.code, 0, un.stderr);
  assert.match(un.stdout, /the server forgot it and closed its link/);
  assert.equal(await device.exited, 0, device.out());
  assert.match(device.out(), /unpaired/);
  assert.equal((await run(['device', 'list'])).stdout.trim(), 'local  this machine');
  const gone = await call('computer_observe', { full: true, device: 'lab' });
  assert.equal(gone.isError, true);
  copyFileSync(saved, join(REMOTE_HOME, 'paired-server.json'));
  const redial = await onDevice(['pair', '--desktop', 'sandbox']);
  assert.equal(redial.code, 1, redial.stdout + redial.stderr);
  assert.match(redial.stdout, /the server refused this pairing/);
});
