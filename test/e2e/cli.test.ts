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
updateSettings(join(home, 'settings.json'), (s) => Object.assign(s, { mode: 'bypass', allowApps: ['gtk3-widget-factory'] }));
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

test('kept permission flags are announced on stderr when the kept set changes, not on every command', async () => {
  const notice = /this session keeps/;
  const first = await run('apps', '--allow-app', 'pluma');
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stderr, /this session keeps --allow-app pluma for the next commands/, first.stderr);
  // Two agents in the CLI trial called the notice on every later command noise.
  const plain = await run('apps');
  assert.doesNotMatch(plain.stderr, notice, plain.stderr);
  const same = await run('apps', '--allow-app', 'pluma');
  assert.doesNotMatch(same.stderr, notice, 'the same flag again changes nothing kept');
  const more = await run('apps', '--deny-app', 'firefox');
  assert.match(more.stderr, /this session keeps --allow-app pluma --deny-app firefox for the next commands/, more.stderr);
  assert.doesNotMatch((await run('apps')).stderr, notice);
});
