/**
 * docs/policy.md, "Stop and resume": the pause lives in the serving process's memory. A process that deletes the pause
 * file over and over (what an allowed terminal the agent drives can run: `while :; do rm -f …/paused; sleep
 * 0.2; done &`) does not keep the agent acting after `computer-use stop`, and `computer-use resume` typed
 * where there is no terminal for a human to answer on resumes nothing. A human's resume (the panel's button
 * calls requestResume) lets acts run again.
 */
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { requestResume } from '../../../src/policy/stop.js';

const cli = fileURLToPath(new URL('../../../src/hosts/cli/main.js', import.meta.url));
const childScript = fileURLToPath(new URL('../policy-stop-child.js', import.meta.url));
const home = await mkdtemp(join(tmpdir(), 'cu-stop-undo-'));
const env = { ...process.env, COMPUTER_USE_HOME: home };
const cleanups: (() => void)[] = [];
after(() => { for (const c of cleanups) c(); });

interface Msg { event: string; isError?: boolean; code?: string; text?: string }

function startChild(title: string): {
  proc: ChildProcessWithoutNullStreams;
  send: (c: string) => void;
  next: (event: string) => Promise<Msg>;
} {
  const proc = spawn(process.execPath, [childScript, '--child', title], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  cleanups.push(() => proc.kill('SIGKILL'));
  let stderr = '';
  proc.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
  const queue: Msg[] = [];
  createInterface({ input: proc.stdout }).on('line', (l) => {
    try {
      queue.push(JSON.parse(l) as Msg);
    } catch {
      /* not ours */
    }
  });
  const next = async (event: string): Promise<Msg> => {
    for (let i = 0; i < 300; i++) {
      const at = queue.findIndex((m) => m.event === event || m.event === 'error');
      if (at >= 0) {
        const m = queue.splice(at, 1)[0]!;
        if (m.event === 'error') assert.fail(`child: ${m.text}`);
        return m;
      }
      if (proc.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.fail(`no "${event}" from the child; stderr:\n${stderr}`);
  };
  return { proc, send: (c) => proc.stdin.write(c + '\n'), next };
}

const runCli = (...args: string[]): Promise<{ code: number; out: string }> => new Promise((resolve) => {
  // stdin is not a terminal and setsid leaves no controlling terminal: as for a command an agent's pipe runs.
  execFile('setsid', [process.execPath, cli, ...args], { env }, (err, stdout, stderr) =>
    resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
  );
});

test('deleting the pause file in a loop, or `computer-use ' +
    'resume` without a human terminal, does not lift a stop', async () => {
  const title = `Stop undo ${process.pid}`;
  const z = spawn('zenity', ['--entry', '--title', title, '--text', 'stop undo test'], { stdio: 'ignore' });
  cleanups.push(() => z.kill());
  const c = startChild(title);
  await c.next('ready');
  c.send('act');
  assert.equal((await c.next('result')).isError, false, 'acts run before the stop');

  const loop = spawn('bash', ['-c', `while :; do rm -f ${JSON.stringify(join(home, 'paused'))}; sleep 0.2; done`], {
    stdio: 'ignore',
    detached: true,
  });
  cleanups.push(() => { try { process.kill(-loop.pid!, 'SIGKILL'); } catch { /* gone */ } });
  assert.equal((await runCli('stop')).code, 0);
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal(existsSync(join(home, 'paused')), false, 'the loop deleted the pause file');
  c.send('act');
  const after1 = await c.next('result');
  assert.equal(after1.code, 'paused', `the agent kept acting after the stop: ${after1.text}`);

  const resumed = await runCli('resume');
  assert.notEqual(resumed.code, 0, resumed.out);
  assert.match(resumed.out, /nothing was resumed/);
  c.send('act');
  assert.equal((await c.next('result')).code, 'paused', '`computer-use resume` without a terminal for a human resumed');

  process.kill(-loop.pid!, 'SIGKILL');
  requestResume(home); // what the panel's RESUME button does
  c.send('act');
  const again = await c.next('result');
  assert.equal(again.isError, false, again.text);
  c.send('exit');
  await new Promise((r) => c.proc.once('exit', r));
});
