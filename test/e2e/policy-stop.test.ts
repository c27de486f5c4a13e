/**
 * The emergency stop across processes, in the sandbox desktop: `computer-use stop` from another process aborts
 * a long act in a running session and pauses it until a human resumes; and a `kill -9` during an act
 * leaves a complete "decided" record in the audit log.
 */
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import type { AuditRecord, DecidedRecord } from '../../src/policy/audit.js';
import { requestResume } from '../../src/policy/stop.js';

const cli = fileURLToPath(new URL('../../src/hosts/cli/main.js', import.meta.url));
const childScript = fileURLToPath(new URL('./policy-stop-child.js', import.meta.url));
const home = await mkdtemp(join(tmpdir(), 'cu-stop-e2e-'));
const env = { ...process.env, COMPUTER_USE_HOME: home };
const auditPath = join(home, 'plugin-data', 'computer-use', 'audit.jsonl');
const cleanups: (() => void)[] = [];
after(() => { for (const c of cleanups) c(); });

interface Msg { event: string; isError?: boolean; code?: string; at?: number; ms?: number; text?: string; ref?: string }

/** Starts the child session and returns a way to send commands and read its next message. */
async function startChild(
  title: string,
): Promise<{
  proc: ChildProcessWithoutNullStreams;
  send: (c: string) => void;
  next: (event: string) => Promise<Msg>;
}> {
  const proc = spawn(process.execPath, [childScript, '--child', title], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  cleanups.push(() => proc.kill('SIGKILL'));
  let stderr = '';
  proc.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
  const queue: Msg[] = [];
  const waiters: (() => void)[] = [];
  createInterface({ input: proc.stdout }).on('line', (l) => {
    try {
      queue.push(JSON.parse(l) as Msg);
    } catch {
      return;
    }
    waiters.splice(0).forEach((w) => w());
  });
  const next = async (event: string): Promise<Msg> => {
    const deadline = Date.now() + 30000;
    for (;;) {
      const i = queue.findIndex((m) => m.event === event || m.event === 'error');
      if (i >= 0) {
        const m = queue.splice(i, 1)[0]!;
        if (m.event === 'error') assert.fail(`child: ${m.text}`);
        return m;
      }
      if (Date.now() > deadline || proc.exitCode !== null)
        assert.fail(`no "${event}" from the child; stderr:\n${stderr}`);
      await new Promise<void>((r) => { waiters.push(r); setTimeout(r, 200); });
    }
  };
  return { proc, send: (c) => proc.stdin.write(c + '\n'), next };
}

function runCli(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [cli, ...args], { env }, (err, stdout, stderr) =>
      err ? reject(new Error(stderr || err.message)) : resolve(stdout),
    ),
  );
}

async function auditRecords(): Promise<AuditRecord[]> {
  const text = await readFile(auditPath, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as AuditRecord);
}

/** Waits until the audit log holds `n` allowed "decided" records (the act is past the gate, in dispatch or settle). */
async function decidedCount(n: number): Promise<DecidedRecord[]> {
  for (let i = 0; i < 200; i++) {
    const d = (await auditRecords()).filter(
      (r): r is DecidedRecord => r.phase === 'decided' && r.decision === 'allowed',
    );
    if (d.length >= n) return d;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail(`fewer than ${n} decided records in ${auditPath}`);
}

function zenity(title: string): void {
  const z = spawn('zenity', ['--entry', '--title', title, '--text', 'stop test'], {
    env: process.env,
    stdio: 'ignore',
  });
  cleanups.push(() => z.kill());
}

test('computer-use stop aborts a long act in another process at once; acts are paused until resume', async () => {
  const title = `Stop test ${process.pid}`;
  zenity(title);
  const c = await startChild(title);
  await c.next('ready');
  c.send('act-long');
  await c.next('started');
  await decidedCount(1);
  await new Promise((r) => setTimeout(r, 200)); // well inside the 5 s settle
  await runCli('stop');
  const result = await c.next('result');
  const pause = JSON.parse(await readFile(join(home, 'paused'), 'utf8')) as { time: number };
  const latency = result.at! - pause.time;
  process.stdout.write(`# stop latency: ${latency} ms (act returned after ${result.ms} ms)\n`);
  assert.equal(result.code, 'paused', result.text);
  assert.ok(latency < 1000, `the act returned ${latency} ms after the stop`);
  c.send('act');
  const paused = await c.next('result');
  assert.equal(paused.code, 'paused', paused.text);
  assert.match(paused.text ?? '', /computer-use resume/);
  assert.match(await runCli('audit', '--tail', '5'), /paused/);
  requestResume(home); // a human's resume (the panel's button; `computer-use resume` asks on a terminal)
  c.send('act');
  const resumed = await c.next('result');
  assert.equal(resumed.isError, false, resumed.text);
  c.send('exit');
  await new Promise((r) => c.proc.once('exit', r));
});

test('kill -9 during an act leaves a complete "decided" record in the audit log (mode 0600)', async () => {
  const title = `Kill test ${process.pid}`;
  zenity(title);
  const before = (await auditRecords()).filter(
    (r) => r.phase === 'decided' && (r as DecidedRecord).decision === 'allowed',
  ).length;
  const c = await startChild(title);
  await c.next('ready');
  c.send('act-long');
  await decidedCount(before + 1);
  c.proc.kill('SIGKILL');
  await new Promise((r) => c.proc.once('exit', r));
  assert.equal((await stat(auditPath)).mode & 0o777, 0o600);
  const records = await auditRecords(); // every line parses: nothing torn
  const last = records.filter((r): r is DecidedRecord => r.phase === 'decided' && r.decision === 'allowed').at(-1)!;
  assert.ok(!records.some((r) => r.phase === 'done' && r.id === last.id), 'the killed act never completed');
  for (const k of ['id', 'time', 'session', 'device', 'app', 'ref', 'fingerprint', 'op', 'mode'] as const)
    assert.ok(last[k] !== undefined, `decided record has ${k}`);
  assert.equal(last.app, 'zenity');
  assert.equal(last.op, 'focus');
  assert.match(await runCli('audit'), /no completion record: interrupted/);
});
