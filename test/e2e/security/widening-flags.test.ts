/**
 * docs/policy-threat-model.md, the CLI: a model at a shell is refused, reads no flag that widens its permissions in
 * the refusal, and the flag it adds anyway (`--mode bypass --allow-app zenity`, as a model in the loop did after a
 * refusal told it to) holds neither for that call nor for the next one without it: both ask or refuse what the
 * default mode asks about. Before, the refusal named the flag, the flag held, and the CLI kept it for every later
 * call. A person at a terminal who types the same flags is asked, and their "this session" is kept.
 */
import assert from 'node:assert/strict';
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { WIDENING } from '../../fixtures/policy/widening.js';

const cli = fileURLToPath(new URL('../../../src/hosts/cli/main.js', import.meta.url));
const PTY = fileURLToPath(new URL('../../../../test/fixtures/pty-run.py', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'cu-widening-'));
const env = { ...process.env, COMPUTER_USE_HOME: home };
let app: ChildProcess | undefined;
after(() => { app?.kill('SIGKILL'); });

/** The CLI as a model's shell runs it: no terminal on stdin. */
function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [cli, ...args], { env, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
    child.stdin?.end();
  });
}

/** Starts the app the calls aim at, once. */
async function zenity(): Promise<void> {
  if (app) return;
  app = spawn('zenity', ['--entry', '--title', 'widening', '--text', 'Name'], { env: process.env, stdio: 'ignore' });
  let apps = '';
  for (let i = 0; i < 100 && !/zenity/.test(apps); i++) {
    apps = (await run('apps')).stdout;
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.match(apps, /zenity/, apps);
}

test('a model at a shell adds --mode bypass: it holds ' +
    'neither for its call nor for the next call without it', { timeout: 180_000 }, async () => {
  await zenity();
  // The remedy a model tried after a refusal printed it: the flag on the call.
  const tried = await run('keys', '--mode', 'bypass', '--allow-app', 'zenity', 'End', '--app', 'zenity');
  assert.equal(tried.code, 1, tried.stdout + tried.stderr);
  assert.match(tried.stdout, /confirmation_required/, tried.stdout);
  assert.match(tried.stderr, /not applied and not kept: mode bypass; apps allowed: zenity/, tried.stderr);
  const next = await run('keys', 'End', '--app', 'zenity');
  assert.equal(next.code, 1, next.stdout + next.stderr);
  assert.match(next.stdout, /confirmation_required/, 'the next call without the flag asks what the default mode asks');
  // The environment is the agent's too.
  const byEnv = await new Promise<string>((resolve) => {
    execFile(
      process.execPath,
      [cli, 'keys', 'End', '--app', 'zenity'],
      { env: { ...env, COMPUTER_USE_MODE: 'bypass', COMPUTER_USE_ALLOW_APPS: 'zenity' }, timeout: 60_000 },
      (_e, stdout, stderr) => resolve(stdout + stderr),
    );
  });
  assert.match(byEnv, /confirmation_required/, byEnv);
});

test('a refused call names no widening flag; ' +
    'the remedy a model would try is refused', { timeout: 180_000 }, async () => {
  await zenity();
  const refused = await run('keys', 'End', '--app', 'zenity');
  assert.equal(refused.code, 1, refused.stdout + refused.stderr);
  assert.match(refused.stdout, /confirmation_required[^]*Nothing was sent/, refused.stdout);
  for (const w of WIDENING)
    assert.doesNotMatch(refused.stdout + refused.stderr, w, 'the refusal hands the model no flag');
  assert.match(refused.stdout, /computer-use panel/, 'it says where the user decides');
  // What it says is the user's to do; every flag a model could copy from the text is tried, and the call still asks.
  const flags = [...(refused.stdout + refused.stderr).matchAll(/(--[a-z-]+)(?:[ =]([^\s,.)]+))?/g)].flatMap((m) => [
    m[1]!,
    ...(m[2] ? [m[2]] : []),
  ]);
  const again = await run('keys', ...flags, 'End', '--app', 'zenity');
  assert.match(again.stdout, /confirmation_required/, again.stdout + again.stderr);
});

const hasPython = spawnSync('python3', ['-c', 'import pty'], { encoding: 'utf8' }).status === 0;

test('a person at a terminal who types the flag is asked; "this session" holds and is ' +
    'kept for the next calls', { timeout: 180_000, skip: !hasPython && 'python3 is not installed' }, async () => {
  const r = spawnSync(
    'python3',
    [
      PTY,
      '[d]eny > ',
      JSON.stringify(['s\r']),
      '--',
      process.execPath,
      cli,
      '--mode',
      'bypass',
      '--allow-app',
      'zenity',
      'keys',
      'End',
      '--app',
      'zenity',
    ],
    { env, encoding: 'utf8', timeout: 120_000 },
  );
  const { output } = JSON.parse(r.stdout) as { output: string };
  assert.match(output, /Lower computer-use's questions for this command\?/, output);
  assert.match(
    output,
    /you confirmed mode bypass; apps allowed: zenity: it holds for this command and is kept/,
    output,
  );
  assert.match(output, /ok keys "End"/, output);
  const later = await run('keys', 'End', '--app', 'zenity');
  assert.equal(later.code, 0, later.stdout + later.stderr);
  assert.match(later.stdout, /^ok keys "End"/m, later.stdout);
  assert.equal((await run('session', 'clear')).code, 0);
  assert.match((await run('keys', 'End', '--app', 'zenity')).stdout, /confirmation_required/);
});
