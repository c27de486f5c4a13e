/**
 * The AccessibilityService app (android/service): its Java core and its Android adapter compiled for Java 8 with
 * the JDK's javac (-Xlint:all -Werror; the adapter against the hand-written android.* signature stubs in
 * android/stubs), the core's JUnit 4 tests run, its class → role table checked against the adb driver's, and
 * its pairing link run against the host's own pairing server (src/devices/pair-link.ts): the phone pairs with
 * the one-time code, redials with its credentials, and serves the protocol that the host's Peer validates.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocketServer } from 'ws';
import { ANDROID_ROLE_MAP } from '../../src/drivers/android/nodes.js';
import { PairServer } from '../../src/devices/pair-link.js';
import { PairingCode, parsePairUrl } from '../../src/devices/pairing.js';
import { loadDevices } from '../../src/devices/registry.js';
import type { RawNode } from '../../src/engine/node.js';

const android = fileURLToPath(new URL('../../../android', import.meta.url));
const root = join(android, 'service/src');
const JUNIT = ['/usr/share/java/junit4.jar', '/usr/share/java/hamcrest-core.jar'];
const hasJava = (() => {
  try {
    execFileSync('javac', ['-version'], { stdio: 'ignore' });
    return JUNIT.every(existsSync);
  } catch {
    return false;
  }
})();
const skip = !hasJava && 'javac or junit4 is not installed (setup-debian.sh installs them)';

const sources = (dir: string): string[] => readdirSync(dir).flatMap((f) => {
  const p = join(dir, f);
  return statSync(p).isDirectory() ? sources(p) : p.endsWith('.java') ? [p] : [];
});

let out = '';
let cp = '';
before(() => {
  if (!hasJava) return;
  out = mkdtempSync(join(tmpdir(), 'cu-java-'));
  execFileSync(
    'javac',
    ['--release', '8', '-Xlint:all', '-Werror', '-d', join(out, 'stubs'), ...sources(join(android, 'stubs'))],
    { stdio: 'pipe' },
  );
  execFileSync(
    'javac',
    [
      '--release',
      '8',
      '-Xlint:all',
      '-Werror',
      '-cp',
      join(out, 'stubs'),
      '-d',
      join(out, 'main'),
      ...sources(join(root, 'main')),
    ],
    { stdio: 'pipe' },
  );
  execFileSync(
    'javac',
    [
      '--release',
      '8',
      '-d',
      join(out, 'test'),
      '-cp',
      [join(out, 'main'), ...JUNIT].join(':'),
      ...sources(join(root, 'test')),
    ],
    { stdio: 'pipe' },
  );
  // The core runs without android.*: the stubs are not on the runtime class path.
  cp = [join(out, 'main'), join(out, 'test'), ...JUNIT].join(':');
});
after(() => { if (out) rmSync(out, { recursive: true, force: true }); });

test('the core and the adapter compile for Java 8 without warnings, ' +
    'the JUnit tests pass, and the role table is the adb driver\'s', { skip }, () => {
  assert.ok(existsSync(join(out, 'main/dev/computeruse/android/ComputerUseService.class')));
  const junit = execFileSync(
    'java',
    ['-cp', cp, 'org.junit.runner.JUnitCore', 'dev.computeruse.core.CoreTest', 'dev.computeruse.core.ServiceTest'],
    { encoding: 'utf8' },
  );
  assert.match(junit, /OK \(\d+ tests\)/, junit);
  const javaRoles = JSON.parse(
    execFileSync('java', ['-cp', cp, 'dev.computeruse.core.PrintRoles'], { encoding: 'utf8' }),
  ) as Record<string, string>;
  assert.deepEqual(
    javaRoles,
    Object.fromEntries(Object.entries(ANDROID_ROLE_MAP).sort(([a], [b]) => (a < b ? -1 : 1))),
  );
});

test('the manifest names the compiled service and activity, guards the service and the pairing entry', () => {
  const manifest = readFileSync(join(root, 'main/AndroidManifest.xml'), 'utf8');
  assert.match(
    manifest,
    /android:name="\.android\.ComputerUseService"[\s\S]*android:permission="android\.permission\.BIND_ACCESSIBILITY_SERVICE"/,
  );
  assert.match(
    manifest,
    /android:name="\.android\.PairActivity"[\s\S]*android:permission="android\.permission\.WRITE_SECURE_SETTINGS"/,
  );
  assert.match(manifest, /android:resource="@xml\/accessibility_service"/);
  for (const cls of ['ComputerUseService', 'PairActivity'])
    assert.ok(existsSync(join(root, `main/java/dev/computeruse/android/${cls}.java`)));
  const config = readFileSync(join(root, 'main/res/xml/accessibility_service.xml'), 'utf8');
  assert.match(config, /canRetrieveWindowContent="true"/);
  assert.match(config, /canPerformGestures="true"/);
  assert.match(config, /flagRetrieveInteractiveWindows/);
});

/** Runs the phone's link end (test LinkMain); resolves its stdout lines as they come. */
function phone(args: string[]): { child: ChildProcess; lines: string[]; line: (re: RegExp) => Promise<string> } {
  const child = spawn('java', ['-cp', cp, 'dev.computeruse.core.LinkMain', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const waiters: Array<() => void> = [];
  let buf = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (d: string) => {
    buf += d;
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      lines.push(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
    }
    for (const w of waiters.splice(0)) w();
  });
  const line = (re: RegExp): Promise<string> => new Promise((resolve, reject) => {
    const check = (): void => {
      const hit = lines.find((l) => re.test(l));
      if (hit) { resolve(hit); return; }
      if (child.exitCode !== null) { reject(new Error(`the phone exited (${lines.join(' | ')})`)); return; }
      waiters.push(check);
    };
    child.once('exit', () => { for (const w of waiters.splice(0)) w(); });
    check();
  });
  return { child, lines, line };
}

const find = (n: RawNode, name: string): RawNode | undefined =>
  n.name === name ? n : (n.children ?? []).map((c) => find(c, name)).find(Boolean);

test('the phone pairs with the code, redials with its ' +
    'credentials and serves the protocol the host validates', { skip, timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-link-'));
  const devicesPath = join(dir, 'devices.json');
  const code = new PairingCode();
  const pairing = await PairServer.listen({
    address: parsePairUrl('ws://127.0.0.1:0'),
    devicesPath,
    code,
    name: 'phone',
  });
  const url = pairing.url;
  const p = phone(['pair', url, code.text]);
  let hub: PairServer | undefined;
  try {
    await p.line(/^paired phone$/);
    await pairing.close();
    const spec = loadDevices(devicesPath).devices[0]!;
    assert.match(spec.linkToken ?? '', /^[A-Za-z0-9_-]{43}$/, 'the phone gave the host a token to prove itself with');
    hub = await PairServer.listen({ address: parsePairUrl(url), devicesPath });
    for (let i = 0; i < 100 && !hub.connected.includes('phone'); i++) await new Promise((r) => setTimeout(r, 100));
    const { peer } = hub.connection('phone');
    // Every answer below passes the host's schemas (the Peer validates results against protocol/methods.ts).
    const hello = await peer.request('hello', { client: 'computer-use' });
    assert.equal(hello.platform, 'android');
    assert.ok(hello.methods?.includes('node.act'));
    const { windows } = await peer.request('windows.list', {});
    assert.equal(windows[0]?.executable, 'com.android.settings');
    const snap = await peer.request('tree.snapshot', { window: windows[0]!.id });
    const wifi = find(snap.root, 'Wi\u2011Fi');
    assert.equal(wifi?.role, 'switch');
    const acted = await peer.request('node.act', { id: wifi!.id, op: 'toggle' });
    assert.equal(acted.method, 'synthetic');
    const search = find(snap.root, 'Search settings')!;
    const typed = await peer.request('node.act', {
      id: search.id,
      op: 'set_value',
      value: '\u4f60\u597d\uff0c\u4e16\u754c \ud83d\ude00',
    });
    assert.equal(typed.detail, 'set_text (7 chars)', 'the receipt counts the text, never carries it');
    const after = await peer.request('tree.snapshot', { window: windows[0]!.id });
    assert.equal(
      find(after.root, 'Search settings')?.value,
      '\u4f60\u597d\uff0c\u4e16\u754c \ud83d\ude00',
      'Chinese and emoji arrive intact over the link',
    );
    assert.deepEqual(
      snap.root.actions,
      ['back', 'home', 'recents', 'notifications'],
      "the window node's ops are the system actions",
    );
    assert.equal((await peer.request('node.act', { id: snap.root.id, op: 'back' })).detail, 'global action back');
    await assert.rejects(
      peer.request('node.act', { id: `${windows[0]!.id}.0.9|x|`, op: 'click' }),
      /no longer on the screen/,
    );
  } finally {
    p.child.kill();
    await hub?.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a listener that is not the paired host (it ' +
    'never saw the token) is served nothing', { skip, timeout: 30_000 }, async () => {
  // A program on the phone squatting the paired port: it accepts any credentials and sends ok without the token, or a
  // forged one.
  for (const token of [undefined, 'A'.repeat(43)]) {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((r) => { wss.once('listening', () => r()); });
    const port = (wss.address() as { port: number }).port;
    const answered: string[] = [];
    wss.on('connection', (ws) => {
      ws.once('message', () => {
        ws.send(JSON.stringify({ t: 'ok', name: 'phone', ...(token ? { token } : {}) }));
        ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tree.snapshot', params: { window: 'w1' } }));
        // An answer ends the link at once (so a phone that serves it fails fast); else it ends after 2 s.
        ws.on('message', (d) => { answered.push(String(d)); ws.close(1000, 'done'); });
        setTimeout(() => { ws.close(1000, 'done'); }, 2000).unref();
      });
    });
    const p = phone(['serve', `ws://127.0.0.1:${port}`, '0'.repeat(32), 'secret-secret-secret', 'B'.repeat(43)]);
    try {
      assert.match(await p.line(/^link ended/), /^link ended 4001 sent \[\]$/);
      assert.deepEqual(answered, [], 'not one method was answered');
    } finally {
      p.child.kill();
      await new Promise<void>((r) => { wss.close(() => r()); });
    }
  }
});

test('a wrong code pairs nothing', { skip, timeout: 30_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-link-'));
  const code = new PairingCode();
  const pairing = await PairServer.listen({
    address: parsePairUrl('ws://127.0.0.1:0'),
    devicesPath: join(dir, 'devices.json'),
    code,
  });
  const wrong = code.text === '000-000' ? '000-001' : '000-000';
  const p = phone(['pair', pairing.url, wrong]);
  try {
    assert.match(await p.line(/^refused/), /wrong code/);
    assert.equal(loadDevices(join(dir, 'devices.json')).devices.length, 0);
  } finally {
    p.child.kill();
    await pairing.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
