/**
 * The Android driver's device layer: the dump parser on hostile and real-shaped input, the role map, handles
 * that refuse to follow a different node, the facts and foreground parsers, the dump retry on an animating
 * screen, and the input argv proven through mksh on the fake phone (what `input` and the IME receive).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { AdbClient } from '../../src/drivers/android/adb/client.js';
import { shellCommand } from '../../src/drivers/android/adb/quote.js';
import {
  dumpUi,
  isLocked,
  parseForeground,
  parseWmDensity,
  parseWmSize,
  readFacts,
} from '../../src/drivers/android/device.js';
import { centerOf, imeTextArgv, inputTextArgvs, tapArgv, typableByInput } from '../../src/drivers/android/input.js';
import { resolveHandle, toRawNode, handleOf, parseHandle } from '../../src/drivers/android/nodes.js';
import { parseUiDump, decodeEntities } from '../../src/drivers/android/uixml.js';
import type { RawNode } from '../../src/engine/node.js';
import { FakeAdbServer } from '../android/fake-adb-server.js';
import { MkshDevice } from '../android/fake-device.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`../../../test/fixtures/android/${name}`, import.meta.url), 'utf8');
const phone = new MkshDevice('emulator-5554');
const server = new FakeAdbServer([phone]);
let client: AdbClient;
before(async () => {
  client = new AdbClient({ address: { host: '127.0.0.1', port: await server.start() }, timeoutMs: 8000 });
});
after(async () => { await server.stop(); phone.dispose(); });

const flat = (n: RawNode, out: RawNode[] = []): RawNode[] => {
  out.push(n);
  for (const c of n.children ?? []) flat(c, out);
  return out;
};

test('a Settings page parses into protocol nodes: roles, names, states, ops, stable ids', () => {
  const dump = parseUiDump(fixture('network-internet.xml'));
  const root = toRawNode('w', dump.roots[0]!, [0], undefined, { width: 1080, height: 2400 });
  const nodes = flat(root);
  const title = nodes.find((n) => n.name === 'Network & internet');
  assert.equal(title?.role, 'text', 'entities are decoded');
  const up = nodes.find((n) => n.name === 'Navigate up');
  assert.deepEqual([up?.role, up?.actions], ['button', ['click']]);
  const list = nodes.find((n) => n.stableId === 'com.android.settings:id/recycler_view');
  assert.equal(list?.role, 'list');
  assert.ok(list?.actions.includes('scroll'));
  assert.deepEqual(list?.children?.map((c) => c.role), ['listitem', 'listitem', 'listitem']);
  const wifi = nodes.find((n) => n.role === 'switch' && n.name === 'Wi‑Fi');
  assert.ok(wifi?.actions.includes('toggle'));
  assert.ok(!wifi?.states.includes('checked'));
  assert.deepEqual(wifi?.bounds, [891, 906, 126, 105], 'bounds become [x, y, w, h]');
  const airplane = nodes.find((n) => n.role === 'switch' && n.name === 'Airplane mode');
  assert.ok(airplane?.states.includes('disabled'));
});

test('an EditText: its text is the value, its hint the name; a password reads as bullets', () => {
  const dump = parseUiDump(fixture('messenger-draft.xml'));
  const nodes = flat(toRawNode('w', dump.roots[0]!, [0], undefined));
  const box = nodes.find((n) => n.role === 'textbox');
  assert.deepEqual([box?.name, box?.value], ['Text message', '']);
  assert.ok(box?.actions.includes('set_value') && box.states.includes('editable'));
  const pw = parseUiDump(
    '<hierarchy rotation="0"><node class="android.widget.EditText" text="hunter2" password="true" ' +
      'enabled="true" bounds="[0,0][10,10]"/></hierarchy>',
  );
  const raw = toRawNode('w', pw.roots[0]!, [0], undefined);
  assert.equal(raw.value, '••••');
  assert.ok(!JSON.stringify(raw).includes('hunter2'), 'the password text never leaves the driver');
});

test('hostile dumps fail clearly instead of being guessed at', () => {
  assert.throws(() => parseUiDump('no xml here'), /no <hierarchy>/);
  assert.throws(() => parseUiDump('<hierarchy><node class="a"></hierarchy>'), /inside an open node/);
  assert.throws(() => parseUiDump('<hierarchy><node class="a" text="&bogus;"/></hierarchy>'), /unknown entity/);
  assert.throws(() => parseUiDump('<hierarchy><script>x</script></hierarchy>'), /unexpected/);
  assert.throws(() => parseUiDump(`<hierarchy>${'<node class="a">'.repeat(300)}`), /deeper/);
  assert.throws(() => parseUiDump('<hierarchy><node class="a"/>'), /ends before/);
  assert.equal(
    decodeEntities('a&#10;b&#x2028;c'),
    'a\nb\u2028c',
    'forged separators arrive as data; the host escapes them',
  );
  // uiautomator's trailing "dumped to" line and an XML declaration are not part of the tree
  assert.equal(
    parseUiDump('<?xml version=\'1.0\' ?><hierarchy rotation="1"/>UI hierchary dumped to: /dev/tty').rotation,
    1,
  );
});

test('a handle finds its node only while the same kind of node is there', () => {
  const dump = parseUiDump(fixture('network-internet.xml'));
  const row = dump.roots[0]!.children[1]!.children[1]!;
  const sw = row.children[1]!;
  const h = handleOf('settings/.Net', [0, 1, 1, 1], sw, row);
  assert.equal(resolveHandle(dump.roots, h), sw);
  const other = parseUiDump(fixture('messenger-draft.xml'));
  assert.equal(resolveHandle(other.roots, h), undefined, 'another app at that path is not the same node');
  // A recycled row: the same classes and ids at the same path, another title (a switch without a description is
  // named by its row). The old handle must not follow it.
  const unnamed = parseUiDump(fixture('network-internet.xml'));
  const unnamedRow = unnamed.roots[0]!.children[1]!.children[1]!;
  unnamedRow.children[1]!.contentDesc = '';
  const h2 = handleOf('settings/.Net', [0, 1, 1, 1], unnamedRow.children[1]!, unnamedRow);
  assert.equal(resolveHandle(unnamed.roots, h2), unnamedRow.children[1]);
  unnamedRow.children[0]!.text = 'Mobile network';
  assert.equal(resolveHandle(unnamed.roots, h2), undefined, 'a recycled row is not the row the ref was issued for');
  assert.equal(parseHandle('w|0.1|a%7Cb|c|00')?.className, 'a|b', 'a class name cannot forge a handle part');
  assert.equal(parseHandle('0.1|x'), undefined);
});

test('facts, size, density, foreground and lock state from what the phone prints', async () => {
  assert.deepEqual(parseWmSize('Physical size: 1080x2400\nOverride size: 720x1600\n'), { width: 720, height: 1600 });
  assert.equal(parseWmDensity('Physical density: 420\n'), 420);
  assert.deepEqual(
    parseForeground(
      '  mCurrentFocus=Window{4c2b1f u0 ' +
        'com.android.settings/com.android.settings.Settings$NetworkDashboardActivity}\n',
    ),
    { packageName: 'com.android.settings', activity: 'com.android.settings.Settings$NetworkDashboardActivity' },
  );
  assert.deepEqual(
    parseForeground('  mFocusedApp=ActivityRecord{9f0 u0 com.example.messenger/.ConversationActivity t31}\n'),
    { packageName: 'com.example.messenger', activity: 'com.example.messenger.ConversationActivity' },
  );
  assert.equal(parseForeground('mCurrentFocus=null'), undefined);
  assert.equal(isLocked('    mShowingLockscreen=true mShowingDream=false'), true);
  assert.equal(isLocked('    mShowingLockscreen=false'), false);
  phone.print('getprop.ro.product.model', 'Pixel 7\n');
  phone.print('getprop.ro.build.version.sdk', '34\n');
  phone.print('getprop.ro.build.version.release', '14\n');
  phone.print('wm.size', 'Physical size: 1080x2400\n');
  phone.print('wm.density', 'Physical density: 420\n');
  phone.print(
    'dumpsys.window',
    'mCurrentFocus=Window{1 u0 com.android.settings/.Settings}\nmShowingLockscreen=false\n',
  );
  const facts = await readFacts(client, phone.serial);
  assert.deepEqual(
    { ...facts, manufacturer: undefined },
    {
      model: 'Pixel 7',
      manufacturer: undefined,
      release: '14',
      apiLevel: 34,
      screen: { width: 1080, height: 2400 },
      density: 420,
      locked: false,
      foreground: { packageName: 'com.android.settings', activity: 'com.android.settings.Settings' },
    },
  );
});

test('a dump on an animating screen is retried with backoff, then fails in the device\'s words', async () => {
  phone.print('uiautomator', 'ERROR: could not get idle state.\n');
  const waits: number[] = [];
  await assert.rejects(
    dumpUi(client, phone.serial, {
      attempts: 3,
      backoffMs: 10,
      sleep: async (ms) => {
        waits.push(ms);
      },
    }),
    /could not get idle state/,
  );
  assert.deepEqual(waits, [10, 20]);
  phone.print('uiautomator', `${fixture('messenger-draft.xml')}UI hierchary dumped to: /dev/tty\n`);
  const ok = await dumpUi(client, phone.serial);
  assert.equal(ok.attempts, 1);
  assert.equal(parseUiDump(ok.xml).roots.length, 1);
  const calls = phone.takeCalls().filter((c) => c[0] === 'uiautomator');
  assert.deepEqual(calls.at(-1), ['uiautomator', 'dump', '--compressed', '/dev/tty']);
});

test('typed text reaches `input` and the IME exactly as the model wrote it, through mksh', async () => {
  phone.takeCalls();
  const texts = ['hello world', "it's 100%s sure; rm -rf / & $(reboot)", '%s%s', 'a"b`c`\\d'];
  for (const t of texts) {
    assert.ok(typableByInput(t));
    for (const argv of inputTextArgvs(t)) await client.shell(phone.serial, shellCommand(argv));
    const typed = phone
      .takeCalls()
      .map((c) => {
        assert.deepEqual(c.slice(0, 2), ['input', 'text']);
        assert.equal(c.length, 3);
        assert.ok(!c[2]!.includes('%s'));
        return c[2];
      })
      .join('');
    assert.equal(typed, t);
  }
  const chinese = '你好，世界 😀\nsecond line';
  assert.ok(!typableByInput(chinese));
  await client.shell(phone.serial, shellCommand(imeTextArgv(chinese)));
  const [call] = phone.takeCalls();
  assert.deepEqual(call?.slice(0, 6), ['am', 'broadcast', '-a', 'ADB_INPUT_B64', '--es', 'msg']);
  assert.equal(Buffer.from(call![6]!, 'base64').toString('utf8'), chinese);
  await client.shell(phone.serial, shellCommand(tapArgv(centerOf([891, 906, 126, 105]))));
  assert.deepEqual(phone.takeCalls(), [['input', 'tap', '954', '958']]);
});
