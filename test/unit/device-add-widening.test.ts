/**
 * `device add … --mode bypass --allow-app X` wrote devices.json as asked, without asking anyone: an agent at a
 * shell could lower every question on a device it added. What lowers a question takes the path the other CLI
 * permission flags take: it holds only after a person's yes on their own terminal; without one the device is added
 * without it, and the words say so without naming a flag that widens.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runDeviceCommand } from '../../src/hosts/cli/device-command.js';
import type { ConfirmChoice, ConfirmRequest, Confirmer } from '../../src/policy/confirm.js';

const MAIN = fileURLToPath(new URL('../../src/hosts/cli/main.js', import.meta.url));
const WIDENING_FLAG = /--mode|--allow-app|--allow-commands|bypass-|settings\.json/;

function sink(): Writable & { text: string } {
  const s = new Writable({ write(chunk, _e, cb) { s.text += String(chunk); cb(); } }) as Writable & { text: string };
  s.text = '';
  return s;
}

function terminal(answer: ConfirmChoice, interactive = true): Confirmer & { asked: ConfirmRequest[] } {
  const asked: ConfirmRequest[] = [];
  return { interactive, asked, confirm: async (r) => { asked.push(r); return answer; } };
}

const devices = (
  home: string,
): { devices: { name: string; mode?: string; allowApps?: string[]; denyApps?: string[] }[] } =>
  JSON.parse(readFileSync(join(home, 'devices.json'), 'utf8'));

async function add(
  home: string,
  confirmer: Confirmer,
  ...more: string[]
): Promise<{ code: number; out: string; err: string }> {
  process.env['COMPUTER_USE_HOME'] = home;
  const out = sink();
  const err = sink();
  const code = await runDeviceCommand(['add', 'ssh://u@lab.example', '--no-check', ...more], out, err, confirmer);
  return { code, out: out.text, err: err.text };
}

test('without a terminal the widening parts are left out, the narrowing ones kept, and no flag is named', async () => {
  const home = mkdtempSync(join(tmpdir(), 'cu-devadd-'));
  const r = await add(
    home,
    terminal('allow_once', false),
    '--mode',
    'bypass',
    '--allow-app',
    'gedit',
    '--deny-app',
    'firefox',
  );
  assert.equal(r.code, 0, r.err);
  const [d] = devices(home).devices;
  assert.equal(d?.mode, undefined);
  assert.equal(d?.allowApps, undefined);
  assert.deepEqual(d?.denyApps, ['firefox']);
  assert.match(r.err, /not applied: mode bypass; apps allowed: gedit/);
  assert.match(r.err, /a person's yes on their own terminal/);
  assert.doesNotMatch(r.err + r.out, WIDENING_FLAG);
});

test('a person asked on their terminal: yes keeps them, no leaves them out', async () => {
  const yes = mkdtempSync(join(tmpdir(), 'cu-devadd-'));
  const t = terminal('allow_once');
  assert.equal((await add(yes, t, '--mode', 'bypass', '--allow-app', 'gedit')).code, 0);
  assert.equal(t.asked.length, 1);
  assert.match(t.asked[0]!.message, /mode bypass; apps allowed: gedit/);
  assert.equal(devices(yes).devices[0]?.mode, 'bypass');
  assert.deepEqual(devices(yes).devices[0]?.allowApps, ['gedit']);
  const no = mkdtempSync(join(tmpdir(), 'cu-devadd-'));
  assert.equal((await add(no, terminal('deny'), '--mode', 'bypass')).code, 0);
  assert.equal(devices(no).devices[0]?.mode, undefined);
  // A stricter mode only narrows: no question.
  const strict = mkdtempSync(join(tmpdir(), 'cu-devadd-'));
  const s = terminal('deny');
  assert.equal((await add(strict, s, '--mode', 'plan')).code, 0);
  assert.equal(s.asked.length, 0);
  assert.equal(devices(strict).devices[0]?.mode, 'plan');
});

test('an agent at a pipe answering "y" cannot widen a device', () => {
  const home = mkdtempSync(join(tmpdir(), 'cu-devadd-'));
  const r = spawnSync(
    process.execPath,
    [MAIN, 'device', 'add', 'ssh://u@lab.example', '--no-check', '--mode', 'bypass', '--allow-app', 'gedit'],
    { env: { ...process.env, COMPUTER_USE_HOME: home }, input: 'y\nyes\no\n', encoding: 'utf8', timeout: 20_000 },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.equal(devices(home).devices[0]?.mode, undefined);
  assert.equal(devices(home).devices[0]?.allowApps, undefined);
  assert.doesNotMatch(r.stderr + r.stdout, WIDENING_FLAG);
});

test('a driver of one\'s own (device add NAME --command) ' +
    'takes the same path: no widening without a person', async () => {
  const home = mkdtempSync(join(tmpdir(), 'cu-devadd-'));
  process.env['COMPUTER_USE_HOME'] = home;
  const out = sink();
  const err = sink();
  const code = await runDeviceCommand(
    ['add', 'mine', '--command', 'python3 /opt/my-driver.py', '--no-check', '--mode', 'bypass', '--allow-app', 'gedit'],
    out,
    err,
    terminal('allow_once', false),
  );
  assert.equal(code, 0, err.text);
  const [d] = devices(home).devices;
  assert.equal(d?.name, 'mine');
  assert.equal(d?.mode, undefined);
  assert.equal(d?.allowApps, undefined);
  assert.match(err.text, /not applied: mode bypass; apps allowed: gedit/);
});
