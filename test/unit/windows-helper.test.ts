/**
 * The C# helper itself, run under Mono with its replay backend (the same IBackend the COM backend implements),
 * through the TypeScript client: JSON framing both ways (non-BMP text, U+2028, controls, deep nesting),
 * routing, recorded errors with their HRESULT, cancellation, malformed and oversize lines, events, the P/Invoke
 * struct sizes it was compiled with, and a helper that dies mid-request.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { ensureHelper, monoMcs } from '../../src/drivers/windows/build.js';
import { HelperClient, helperCommand, helperError, type HelperEvent } from '../../src/drivers/windows/helper-client.js';
import { HELPER_SOURCES } from '../../src/drivers/windows/helper-sources.generated.js';
import { isComputerUseError } from '../../src/protocol/errors.js';

const FIXTURE = fileURLToPath(new URL('../../../test/fixtures/windows/notepad.helper.json', import.meta.url));
let dir = '';
let exe = '';
const clients: HelperClient[] = [];
const start = (recording = FIXTURE): HelperClient => {
  const c = new HelperClient(helperCommand(exe, ['--replay', recording]));
  clients.push(c);
  return c;
};

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cu-win-helper-'));
  exe = (await ensureHelper({ sources: HELPER_SOURCES, driversDir: join(dir, 'drivers'), compiler: monoMcs() })).path;
});
after(() => { for (const c of clients) c.close(0); rmSync(dir, { recursive: true, force: true }); });

test('JSON crosses the helper intact: surrogate pairs, ' +
    'U+2028, controls, quotes, numbers, nesting', { timeout: 60_000 }, async () => {
  const h = start();
  const value = {
    s: '𝒳 😀 Zoë\u2028\u2029\n\t"\\\u0000\u001b[31m',
    n: [0, -1.5, 1e21, 2 ** 53],
    b: [true, false, null],
    deep: [[[[{ a: [[[]]] }]]]],
  };
  assert.deepEqual(await h.request('echo', value), value);
});

test('recorded answers are routed by op and match; ' +
    'recorded errors keep their code and HRESULT', { timeout: 60_000 }, async () => {
  const h = start();
  const w = await h.request<{ windows: { hwnd: string }[] }>('windows');
  assert.equal(w.windows[0]!.hwnd, '264462');
  const node = await h.request<{ name: string }>('node', { hwnd: '264462', rid: '42.264462.1.3' });
  assert.equal(node.name, 'Close');
  await assert.rejects(h.request('node', { hwnd: '264462', rid: '42.264462.9' }), (e: unknown) => {
    assert.ok(isComputerUseError(e, 'stale_ref'));
    assert.equal(e.details['hresult'], '0x80040201', 'UIA_E_ELEMENTNOTAVAILABLE');
    return true;
  });
  await assert.rejects(h.request('tree', { hwnd: '1' }), (e: unknown) => isComputerUseError(e, 'window_not_found'));
});

test('a cancelled request is answered at once; the helper goes on', { timeout: 60_000 }, async () => {
  const h = start();
  const ac = new AbortController();
  const t0 = Date.now();
  const slow = h.request('sleep', { ms: 60_000 }, { signal: ac.signal, timeoutMs: 120_000 });
  setTimeout(() => ac.abort(), 200);
  await assert.rejects(slow, (e: unknown) => isComputerUseError(e, 'timeout'));
  assert.deepEqual(await h.request('echo', { after: 'cancel' }), { after: 'cancel' });
  assert.ok(Date.now() - t0 < 30_000, 'the helper was not stuck in the cancelled sleep');
});

test('a request past its deadline fails with timeout and is cancelled in the helper', { timeout: 60_000 }, async () => {
  const h = start();
  await assert.rejects(h.request('sleep', { ms: 60_000 }, { timeoutMs: 300 }), /did not answer sleep within 300 ms/);
  assert.deepEqual(await h.request('echo', { next: 1 }), { next: 1 }, 'the worker left the cancelled sleep');
});

test('events a recording carries arrive before its answer', { timeout: 60_000 }, async () => {
  const h = start();
  const events: HelperEvent[] = [];
  h.onEvent((e) => events.push(e));
  await h.request('act', { hwnd: '264462', rid: '42.264462.4.7', op: 'set_value', value: 'x' });
  assert.deepEqual(events, [{ event: 'property', pid: 4812 }]);
});

test('the P/Invoke structs have their documented x64 ' +
    'sizes (INPUT 40, KEYBDINPUT 24, MOUSEINPUT 32)', { timeout: 60_000 }, async () => {
  const sizes = await start().request<Record<string, number>>('selftest');
  assert.deepEqual(sizes, {
    INPUT: 40,
    KEYBDINPUT: 24,
    MOUSEINPUT: 32,
    GUITHREADINFO: 72,
    STARTUPINFOW: 104,
    PROCESS_INFORMATION: 24,
    BITMAPINFOHEADER: 40,
    pointer: 8,
  });
});

test('a helper that exits fails what is in flight ' +
    'with its reason; later requests fail at once', { timeout: 60_000 }, async () => {
  const rec = join(dir, 'bad.json');
  writeFileSync(rec, '{"answers": 5}');
  const h = start(rec);
  await assert.rejects(h.request('hello'), /Windows helper exited/);
  await assert.rejects(h.request('hello'), /Windows helper exited/);
});

test('helper errors become protocol errors: a code outside the protocol is internal, never passed through', () => {
  assert.equal(helperError({ code: 'elevation_required', message: 'm' }).code, 'elevation_required');
  assert.equal(helperError({ code: 'constructor', message: 'm' }).code, 'internal');
  assert.equal(helperError({ code: '__proto__' }).code, 'internal');
  assert.equal(helperError({ code: 'stale_ref', message: 'x'.repeat(5000) }).message.length, 2000);
});

test('malformed and oversize lines are skipped, ' +
    'never fatal; the next request is answered', { timeout: 120_000 }, async () => {
  const { spawnSync } = await import('node:child_process');
  const cmd = helperCommand(exe, ['--replay', FIXTURE]);
  const input = [
    'not json {',
    '[1,2,3]',
    '{"id":1}',
    '{"op":"echo"}',
    `{"id":9,"op":"echo","args":{"x":"${'y'.repeat(16 * 1024 * 1024 + 10)}"}}`,
    '{"id":2,"op":"echo","args":{"ok":true}}',
    '',
  ].join('\n');
  const r = spawnSync(cmd.command, cmd.args, {
    input,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 100_000,
  });
  assert.equal(r.status, 0, r.stderr);
  const answers = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { id: number });
  assert.deepEqual(answers, [{ id: 2, result: { ok: true } }], 'only the well-formed request is answered');
  assert.match(r.stderr, /not JSON/);
  assert.match(r.stderr, /oversize/);
});
