/** The CLI prints what the model reads, and refs from one process work in the next. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { updateSettings } from '../../src/policy/settings.js';
import { killApp, refOn } from './helpers.js';

const cli = fileURLToPath(new URL('../../src/hosts/cli/main.js', import.meta.url));
const home = await mkdtemp(join(tmpdir(), 'cu-cli-'));
// The CLI reads the policy from the home's settings: the test app is allowed, nothing asks.
// Written through the tool's own writer: a settings file written by anything else is not honoured unconfirmed.
updateSettings(join(home, 'settings.json'), (s) =>
  Object.assign(s, { mode: 'bypass', allowApps: ['gtk3-widget-factory'] }),
);
let appPid = 0;

function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { env: { ...process.env, COMPUTER_USE_HOME: home }, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

after(async () => { if (appPid) await killApp(appPid); });

test('launch, observe and act in separate processes share refs', async () => {
  const launched = await run('launch', 'gtk3-widget-factory');
  assert.equal(launched.code, 0, launched.stderr + launched.stdout);
  appPid = Number(/pid=(\d+)/.exec(launched.stdout)?.[1]);
  const observed = await run('observe', 'gtk3-widget-factory', '--max-tokens', '20000');
  assert.equal(observed.code, 0, observed.stderr);
  assert.match(observed.stdout, /^app gtk3-widget-factory pid=\d+ · window/);
  const box = refOn(observed.stdout, /\] checkbox "checkbutton" unchecked$/);
  const entry = refOn(observed.stdout, /\] textbox value="entry" editable$/);
  const acted = await run('act', box, 'toggle', ',', entry, 'set_value', 'from the CLI, 中文');
  assert.equal(acted.code, 0, acted.stderr + acted.stdout);
  assert.match(acted.stdout, new RegExp(`^ok toggle ${box} · confirmed`, 'm'));
  assert.match(acted.stdout, new RegExp(`^~ \\[${entry}\\] textbox value "entry" → "from the CLI, 中文"$`, 'm'));
  const found = await run('find', 'from the CLI', '--app', 'gtk3-widget-factory');
  assert.match(found.stdout, new RegExp(`\\[${entry}\\] textbox`));
});

test('errors exit non-zero with the code and what to do', async () => {
  const stale = await run('act', 'e999999', 'click');
  assert.equal(stale.code, 1);
  assert.match(stale.stdout, /unknown_ref: Ref e999999 was never given in this session\. Call computer-use observe/);
  const usage = await run('act', 'e1');
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /usage: computer-use act/);
});

test('a flag that narrows is kept and announced once; one that ' +
    'lowers a question is not applied without a person', async () => {
  const notice = /kept for the next commands/;
  const first = await run('apps', '--deny-app', 'firefox');
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stderr, /kept for the next commands on this desktop: apps denied: firefox/, first.stderr);
  // Two agents in the CLI trial called the notice on every later command noise.
  const plain = await run('apps');
  assert.doesNotMatch(plain.stderr, notice, plain.stderr);
  assert.doesNotMatch(
    (await run('apps', '--deny-app', 'firefox')).stderr,
    notice,
    'the same flag again changes nothing kept',
  );
  // No terminal here: an allow entry given on the call is said to be neither applied nor kept.
  const wide = await run('apps', '--allow-app', 'pluma');
  assert.equal(wide.code, 0, wide.stderr);
  assert.match(wide.stderr, /not applied and not kept: apps allowed: pluma/, wide.stderr);
  assert.doesNotMatch(wide.stderr, notice);
});
