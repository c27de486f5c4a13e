/**
 * Each driver's process entry (main.ts) starts when node runs it from a folder whose name has a space and a
 * non-ASCII letter (`José Smith`, a home like `/home/josé`): the dist tree is copied there and every driver must
 * answer hello, with a result or with the error that says why it cannot serve this machine. Before the shared
 * check (src/drivers/common/entry.ts) the entry compared import.meta.url, which percent-encodes such a path, with
 * `file://${argv[1]}`, which does not: the process exited at once and answered nothing.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { isEntryModule } from '../../src/drivers/common/entry.js';
import { ensureHelper, monoMcs } from '../../src/drivers/windows/build.js';
import { HELPER_SOURCES } from '../../src/drivers/windows/helper-sources.generated.js';
import { buildFakeAx, MACOS_FIXTURES } from '../macos/fake-ax.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DIST_SRC = fileURLToPath(new URL('../../src/', import.meta.url));
let base = '';
let copy = '';

before(() => {
  base = mkdtempSync(join(tmpdir(), 'cu-entry-'));
  copy = join(base, 'José Smith', 'computer use');
  mkdirSync(join(copy, 'dist'), { recursive: true });
  cpSync(DIST_SRC, join(copy, 'dist', 'src'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
});
after(() => { rmSync(base, { recursive: true, force: true }); });

interface Answer { id?: number; result?: { platform?: string }; error?: { data?: { code?: string }; message?: string } }

/** Starts `dist/src/drivers/<name>/main.js` of the copy, sends hello, and returns its first answer (or none). */
function hello(name: string, args: string[], env: Record<string, string> = {}): Promise<Answer | undefined> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(copy, 'dist', 'src', 'drivers', name, 'main.js'), ...args], {
      env: { ...process.env, COMPUTER_USE_HOME: join(base, 'Zoë home'), ...env }, stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let done = false;
    const finish = (a: Answer | undefined): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.kill();
      resolve(a);
    };
    const timer = setTimeout(() => finish(undefined), 60_000);
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      for (const line of out.split('\n').slice(0, -1)) {
        try { const m = JSON.parse(line) as Answer; if (m.id === 1) finish(m); } catch { /* a log line */ }
      }
    });
    child.on('exit', () => setTimeout(() => finish(undefined), 100));
    child.stdin.on('error', () => undefined);
    const request = { jsonrpc: '2.0', id: 1, method: 'hello', params: { client: 'computer-use conformance' } };
    child.stdin.write(`${JSON.stringify(request)}\n`);
  });
}

test('the shared check takes a path with a space, a non-ASCII letter or no .js, and refuses another module', () => {
  const file = join(copy, 'dist', 'src', 'drivers', 'fake', 'main.js');
  const url = new URL(`file://${file}`).href;
  assert.notEqual(url, `file://${file}`, 'the URL percent-encodes the path');
  assert.equal(isEntryModule(url, file), true);
  assert.equal(isEntryModule(url, file.slice(0, -3)), true);
  assert.equal(isEntryModule(url, join(copy, 'dist', 'src', 'drivers', 'linux', 'main.js')), false);
  assert.equal(isEntryModule(url, undefined), false);
});

test('the fake driver answers hello from a folder named José Smith', { timeout: 90_000 }, async () => {
  const a = await hello('fake', ['--fixture', join(ROOT, 'test/fixtures/linux/conformance-harness.json')]);
  assert.ok(a?.result, JSON.stringify(a));
});

test('the replay driver answers hello from there', { timeout: 90_000 }, async () => {
  const a = await hello('replay', [join(ROOT, 'test/fixtures/transcripts/linux-gtk.jsonl')]);
  assert.ok(a?.result, JSON.stringify(a));
});

test('the macOS driver answers hello from there (on the fake AX library)', { timeout: 90_000 }, async () => {
  const env = { COMPUTER_USE_MACOS_AX_LIB: buildFakeAx(), FAKE_AX_TREE: join(MACOS_FIXTURES, 'textedit.json') };
  const a = await hello('macos', [], env);
  assert.equal(a?.result?.platform, 'macos', JSON.stringify(a));
});

test('the Windows driver answers hello from there ' +
    '(its helper under Mono on a recording)', { timeout: 180_000 }, async () => {
  const driversDir = join(base, 'Zoë drivers');
  const helper = await ensureHelper({ sources: HELPER_SOURCES, driversDir, compiler: monoMcs() });
  const recording = join(ROOT, 'test/fixtures/windows/notepad.helper.json');
  const a = await hello('windows', ['--replay', recording], { COMPUTER_USE_DRIVER_WINDOWS: helper.path });
  assert.equal(a?.result?.platform, 'windows', JSON.stringify(a));
});

// Without a device, a browser or an accessibility bus these drivers answer hello with the reason they cannot
// serve: an answer all the same, which a driver that never started cannot give.
for (const [name, args, env] of [
  ['linux', [], { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus',
    AT_SPI_BUS_ADDRESS: 'unix:path=/nonexistent/atspi', DISPLAY: '' }],
  ['cdp', ['--endpoint', 'http://127.0.0.1:9'], {}],
  ['android', [], { ADB_SERVER_SOCKET: 'tcp:127.0.0.1:9' }],
] as const) {
  test(`the ${name} driver answers hello from there`, { timeout: 90_000 }, async () => {
    const a = await hello(name, [...args], { ...env });
    assert.ok(a && (a.result || a.error), JSON.stringify(a));
  });
}
