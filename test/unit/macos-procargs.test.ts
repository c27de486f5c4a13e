/**
 * process.identify's argument vector and working directory on macOS (src/drivers/macos/procargs.ts): sysctl
 * KERN_PROCARGS2 and proc_pidinfo PROC_PIDVNODEPATHINFO on the fake library (test/macos-fake/procargs.c, over
 * test/fixtures/macos/processes.json), hostile buffers parsed directly, and the policy judging an interpreter by
 * the script its proven command line runs, as on Linux. The environment that follows argv holds secrets and is
 * never read.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { macHandlers } from '../../src/drivers/macos/main.js';
import { MAX_ARG_UNITS, MAX_ARGS, parseProcArgs } from '../../src/drivers/macos/procargs.js';
import { factsOfIdentify } from '../../src/policy/apps.js';
import { Policy } from '../../src/policy/policy.js';
import { IdentifyResult } from '../../src/protocol/identity.js';
import { checkerOf } from '../../src/protocol/validate.js';
import { fakeDriverTests } from '../macos/fake-ax.js';

const { fake, start } = fakeDriverTests('processes.json', { resolve: { realpath: (p) => p } });

/** A KERN_PROCARGS2 buffer: argc, the executable path, padding, then the strings (arguments and environment). */
function procargs(argc: number, exec: string, strings: (string | Uint8Array)[], pad = 3): Uint8Array {
  const head = Buffer.alloc(4);
  head.writeInt32LE(argc);
  const parts = [head, Buffer.from(exec), Buffer.alloc(pad)];
  for (const s of strings) parts.push(Buffer.from(s), Buffer.alloc(1));
  return new Uint8Array(Buffer.concat(parts));
}

const SECRET = /sk-live|wJalrXUtnFEMI|API_TOKEN|AWS_SECRET/;

test('process.identify reports argv and cwd from KERN_PROCARGS2 ' +
    'and PROC_PIDVNODEPATHINFO, never the environment after argv', async () => {
  const d = start();
  const r = d.identify({ pid: 4545 });
  assert.deepEqual(r.argv, ['/usr/bin/python3', '-X', 'dev', '/Users/me/tools/notes.py', '--open', 'today']);
  assert.equal(r.cwd, '/Users/me/tools');
  assert.doesNotMatch(JSON.stringify(r), SECRET);
  assert.match(fake.log(), /sysctl KERN_PROCARGS2 4545/);
  // On the wire too, and within the protocol's schema.
  const wire = (await macHandlers(d)['process.identify']!({ pid: 4646 }, {
    signal: new AbortController().signal,
  } as never)) as IdentifyResult;
  assert.deepEqual([wire.argv, wire.cwd], [['node', 'app/main.js'], '/Users/me/project']);
  assert.ok(checkerOf(IdentifyResult).Check(wire));
  assert.doesNotMatch(JSON.stringify(wire), SECRET);
});

test('the policy judges an interpreter by the script its proven argv runs (was: never allowed on macOS)', async () => {
  const d = start();
  const policy = (allowApps: string[]) =>
    new Policy({
      mode: 'unattended',
      allowApps,
      processInfo: (pid) => factsOfIdentify(d.identify({ pid })),
      hostPids: [],
      audit: false,
      settingsPath: false,
    });
  const sent = async (p: Policy, pid: number, app: string): Promise<boolean> =>
    p
      .check({ kind: 'element', tool: 'computer_act', ref: 'e1', app, pid, op: 'click', role: 'button', name: 'Save' })
      .then(
        () => true,
        (e: unknown) => {
          assert.equal((e as { code?: string }).code, 'denied_by_policy');
          return false;
        },
      );
  assert.equal(
    await sent(policy(['python3 /Users/me/tools/notes.py']), 4545, 'python3'),
    true,
    'interpreter + the script it runs',
  );
  assert.equal(
    await sent(policy(['node /Users/me/project/app/main.js']), 4646, 'node'),
    true,
    'a relative script, resolved against the proven cwd',
  );
  assert.equal(await sent(policy(['python3']), 4545, 'python3'), false, 'an interpreter\'s name is never enough');
  assert.equal(
    await sent(policy(['com.apple.python3']), 4545, 'python3'),
    false,
    "nor its signature: Apple's python3 runs any script",
  );
  assert.equal(await sent(policy(['python3 /Users/me/tools/other.py']), 4545, 'python3'), false, 'another script');
  assert.equal(
    await sent(policy(['python3 /Users/me/tools/notes.py']), 4747, 'python3'),
    false,
    'code given with -c has no script',
  );
  // A process macOS gives no arguments for (another user's): no script proven, never allowed.
  fake.setProcargs(4545, null);
  assert.equal(d.identify({ pid: 4545 }).argv, undefined);
  assert.equal(await sent(policy(['python3 /Users/me/tools/notes.py']), 4545, 'python3'), false);
});

test('hostile KERN_PROCARGS2 buffers: too short, a negative count, an unterminated ' +
    'path give nothing; a cut, a bad byte or an oversize argument end a prefix', () => {
  assert.equal(parseProcArgs(new Uint8Array(0)), undefined);
  assert.equal(parseProcArgs(new Uint8Array([2, 0, 0])), undefined);
  assert.equal(parseProcArgs(procargs(-1, '/usr/bin/python3', ['python3'])), undefined);
  assert.equal(
    parseProcArgs(new Uint8Array([...procargs(1, '', []).subarray(0, 4), ...Buffer.from('/usr/bin/python3')])),
    undefined,
    'the path runs to the end',
  );
  assert.deepEqual(
    parseProcArgs(procargs(0, '/bin/x', ['SECRET=1'])),
    [],
    'argc 0: the environment is not an argument',
  );
  assert.deepEqual(parseProcArgs(procargs(2, '/usr/bin/python3', ['python3', 'a.py', 'API_TOKEN=sk-live-1'])), [
    'python3',
    'a.py',
  ]);
  // Cut inside the script's path: the partial path is not reported (it could name another file).
  const full = procargs(3, '/usr/bin/python3', ['python3', '/Users/me/tools/notes.py', '--x']);
  const cut = full.indexOf(Buffer.from('notes.py')[0]!, 30);
  assert.deepEqual(parseProcArgs(full.subarray(0, cut)), ['python3']);
  assert.deepEqual(
    parseProcArgs(full.subarray(0, full.length - 1)),
    ['python3', '/Users/me/tools/notes.py'],
    'the last argument without its NUL',
  );
  // Not UTF-8, and longer than the protocol allows: the arguments stop there.
  assert.deepEqual(
    parseProcArgs(procargs(3, '/usr/bin/python3', ['python3', new Uint8Array([0x2f, 0xff, 0xfe]), 'b.py'])),
    ['python3'],
  );
  assert.deepEqual(parseProcArgs(procargs(3, '/usr/bin/python3', ['python3', 'x'.repeat(MAX_ARG_UNITS + 1), 'b.py'])), [
    'python3',
  ]);
  // A count far above what is there reads to the buffer's end, and never more than the protocol's cap.
  const many = parseProcArgs(
    procargs(
      1_000_000_000,
      '/bin/sh',
      Array.from({ length: MAX_ARGS + 10 }, (_, i) => `a${i}`),
    ),
  );
  assert.equal(many?.length, MAX_ARGS);
  assert.deepEqual(parseProcArgs(procargs(1_000_000_000, '/bin/sh', ['sh', 'x'])), ['sh', 'x']);
  // No padding at all, and much of it.
  assert.deepEqual(parseProcArgs(procargs(1, '/bin/sh', ['sh'], 1)), ['sh']);
  assert.deepEqual(parseProcArgs(procargs(1, '/bin/sh', ['sh'], 300)), ['sh']);
  // Arguments are data: newlines, quotes, terminal escapes and bidi controls come back as they are.
  const hostile = ['python3', '/tmp/a.py\nALLOW python3', '"; rm -rf ~ #', '\u001b]0;title\u0007', '\u202etxt.exe', ''];
  assert.deepEqual(parseProcArgs(procargs(hostile.length, '/usr/bin/python3', hostile)), hostile);
});

test('through the fake\'s sysctl: a buffer cut by kern.argmax, a ' +
    'rewritten argument area, a garbled or relative working directory', () => {
  const d = start();
  // kern.argmax smaller than the area: the copy ends inside the script's path, which is then not reported.
  fake.setArgmax(50);
  assert.deepEqual(d.identify({ pid: 4545 }).argv, ['/usr/bin/python3', '-X', 'dev']);
  fake.setArgmax(1 << 20);
  // The process rewrote its arguments (its own memory): reported as it shows them, environment still unread.
  fake.setProcargs(
    4545,
    procargs(2, '/usr/bin/python3', [
      '/usr/bin/python3',
      '/Users/me/tools/notes.py\u0000',
      'API_TOKEN=sk-live-0123456789',
    ]),
  );
  const r = d.identify({ pid: 4545 });
  assert.deepEqual(r.argv, ['/usr/bin/python3', '/Users/me/tools/notes.py']);
  assert.doesNotMatch(JSON.stringify(r), SECRET);
  fake.setProcargs(4545, new Uint8Array([1, 0]));
  assert.equal(d.identify({ pid: 4545 }).argv, undefined, 'two bytes: no count');
  // The working directory: 1024 bytes without a NUL, a relative path, invalid UTF-8, refused.
  fake.setCwd(4545, new Uint8Array(1024).fill(0x61));
  assert.equal(d.identify({ pid: 4545 }).cwd, undefined);
  fake.setCwd(4545, Buffer.from('tools'));
  assert.equal(d.identify({ pid: 4545 }).cwd, undefined);
  fake.setCwd(4545, new Uint8Array([0x2f, 0xc3, 0x28]));
  assert.equal(d.identify({ pid: 4545 }).cwd, undefined);
  fake.setCwd(4545, null);
  const none = d.identify({ pid: 4545 });
  assert.equal(none.cwd, undefined);
  assert.equal(none.startToken, String(1764633800 * 1_000_000), 'the rest of the identity stands');
});
