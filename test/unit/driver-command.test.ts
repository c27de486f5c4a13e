/**
 * A driver of one's own is a first-class device: `computer-use … --driver 'COMMAND'` and `device add NAME
 * --command 'COMMAND'` run any driver for normal use, without a fake ssh. One driver process serves the CLI session
 * (each command is a process of its own: a keeper holds the driver between them), and a session whose device is not
 * this machine's desktop starts no sandbox. The command is the person's configuration: no tool takes it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { keptDriverConnection } from '../../src/devices/kept-driver.js';
import { validateSpec } from '../../src/devices/registry.js';
import { namesOtherDevice } from '../../src/hosts/cli/tool-commands.js';
import { mcpOptionsFrom } from '../../src/hosts/options.js';
import { updateSettings } from '../../src/policy/settings.js';
import { TOOLS } from '../../src/tools/index.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const MAIN = join(ROOT, 'dist', 'src', 'hosts', 'cli', 'main.js');
const FAKE = `'${process.execPath}' '${MAIN}' driver fake`;
const REFERENCE = `python3 '${join(ROOT, 'test', 'reference-driver', 'driver.py')}'`;

/** A home whose settings allow the harness app (written by the tool's own writer, so they hold unconfirmed). */
function home(): string {
  const h = mkdtempSync(join(tmpdir(), 'cu-driver-command-'));
  updateSettings(join(h, 'settings.json'), (s) => Object.assign(s, { allowApps: ['conformance-harness'] }));
  return h;
}

/** Ends the keepers a test started (each wrote its pid next to its socket). */
function endKeepers(h: string): void {
  const dir = join(h, 'drivers');
  if (!existsSync(dir)) return;
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.pid'))) {
    try { process.kill(Number(readFileSync(join(dir, f), 'utf8')), 'SIGTERM'); } catch { /* gone */ }
  }
}

const cli = (h: string, ...args: string[]) =>
  spawnSync(process.execPath, [MAIN, ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, COMPUTER_USE_HOME: h, DISPLAY: '', AT_SPI_BUS_ADDRESS: '', COMPUTER_USE_DRIVER: '' },
  });

test('--driver COMMAND: one driver process serves the CLI session ' +
    '(what one command set, the next reads); no sandbox starts', { timeout: 120_000 }, () => {
  const h = home();
  try {
    const first = cli(h, 'observe', '--driver', FAKE);
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stdout, /\[e2\] textbox "Name"/);
    const act = cli(h, 'act', 'e2', 'set_value', 'kept between commands', '--driver', FAKE);
    assert.equal(act.status, 0, `${act.stdout}\n${act.stderr}`);
    // The fake driver holds its tree in memory: a driver started per command would read "Name" empty again.
    const again = cli(h, 'observe', '--full', '--driver', FAKE);
    assert.match(again.stdout, /\[e2\] textbox "Name" value="kept between commands"/);
    const keepers = readdirSync(join(h, 'drivers')).filter((f) => f.endsWith('.sock'));
    assert.equal(keepers.length, 1, 'one driver keeper for the one command line');
    assert.ok(
      !existsSync(join(h, 'sandboxes')) || readdirSync(join(h, 'sandboxes')).length === 0,
      'no sandbox desktop was started',
    );
    assert.doesNotMatch(`${first.stderr}${act.stderr}${again.stderr}`, /started sandbox/);
  } finally { endKeepers(h); rmSync(h, { recursive: true, force: true }); }
});

test('device add NAME --command: the Python reference driver ' +
    'as a device, read with --device, no sandbox started', { timeout: 120_000 }, () => {
  const h = home();
  try {
    const add = cli(h, 'device', 'add', 'ref', '--command', REFERENCE);
    assert.equal(add.status, 0, add.stderr);
    assert.match(add.stdout, /^ref: reachable: driver fake/m);
    assert.match(add.stdout, /added ref \(driver python3 .*driver\.py; device 2: refs d2…\)/);
    assert.match(cli(h, 'device', 'list').stdout, /^ref {2}driver python3 \S+driver\.py {2}refs d2…$/m);
    const seen = cli(h, 'observe', '--device', 'ref');
    assert.equal(seen.status, 0, seen.stderr);
    assert.match(seen.stdout, /\[d2e\d+\] button "Hello"/);
    assert.ok(
      !existsSync(join(h, 'sandboxes')) || readdirSync(join(h, 'sandboxes')).length === 0,
      'no sandbox desktop was started',
    );
    // A device without a command is refused, before anything is saved.
    assert.equal(cli(h, 'device', 'add', 'other').status, 2);
  } finally { endKeepers(h); rmSync(h, { recursive: true, force: true }); }
});

test('the kept driver renumbers ids: two commands at ' +
    'once, both using id 1, each get their own answer', { timeout: 60_000 }, async () => {
  const h = home();
  const sock = join(h, 'drivers', 'k.sock');
  const argv = [process.execPath, MAIN, 'driver', 'fake'];
  const a = keptDriverConnection(argv, 10_000, sock);
  const b = keptDriverConnection(argv, 10_000, sock);
  try {
    const [ra, rb] = await Promise.all([a.peer.request('windows.list', {}), b.peer.request('hello', { client: 'b' })]);
    assert.ok(Array.isArray(ra.windows));
    assert.equal(rb.platform, 'fake');
    await a.end();
    assert.equal(
      (await b.peer.request('hello', {})).platform,
      'fake',
      'one command leaving does not end the driver for the other',
    );
  } finally { await b.end(); endKeepers(h); rmSync(h, { recursive: true, force: true }); }
});

test('a driver command is a person\'s configuration: a flag or the environment, never a tool param', () => {
  assert.deepEqual(mcpOptionsFrom(['--driver', `python3 'my driver.py' --x`], {}).driverCommand, [
    'python3',
    'my driver.py',
    '--x',
  ]);
  assert.equal(mcpOptionsFrom([], { COMPUTER_USE_DRIVER: 'cdp' }).driver, 'cdp');
  assert.equal(mcpOptionsFrom([], { COMPUTER_USE_DRIVER: 'cdp' }).driverCommand, undefined);
  assert.deepEqual(mcpOptionsFrom(['--driver', './my-driver'], {}).driverCommand, ['./my-driver']);
  for (const t of TOOLS) {
    const props = Object.keys((t.schema.inputSchema as { properties?: object }).properties ?? {});
    assert.ok(!props.includes('driver') && !props.includes('driverCommand'), `${t.schema.name} takes a driver`);
  }
  assert.deepEqual(
    validateSpec({ name: 'mine', url: 'local', kind: 'command', command: ['python3', 'd.py'] }).command,
    ['python3', 'd.py'],
  );
  assert.throws(
    () => validateSpec({ name: 'mine', url: 'local', kind: 'command', command: 'python3 d.py' }),
    /list of 1 to 256 words/,
  );
  assert.throws(
    () => validateSpec({ name: 'mine', url: 'local', kind: 'command', command: [] }),
    /list of 1 to 256 words/,
  );
});

test('a call for another device is told apart from one for this machine (no sandbox for the first)', () => {
  assert.equal(namesOtherDevice({ device: 'lab' }), true);
  assert.equal(namesOtherDevice({ device: 'local' }), false);
  assert.equal(namesOtherDevice({ actions: [{ ref: 'd2e5', op: 'click' }] }), true);
  assert.equal(namesOtherDevice({ actions: [{ ref: 'e5', op: 'click' }] }), false);
  assert.equal(namesOtherDevice({ scope: 'd3e1' }), true);
  assert.equal(namesOtherDevice({}), false);
});
