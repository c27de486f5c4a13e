/**
 * The conformance kit (doctor --conformance) on drivers that run anywhere: the fake driver process on the
 * recorded GTK harness passes every rule; the deliberately broken driver fails each defect under the rule that
 * names it; a transcript recorded on a real machine (the Linux driver in a sandbox desktop) replays as a
 * golden test, and one recorded here replays to the same verdicts.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { splitCommand } from '../../src/conformance/command.js';
import { runConformance } from '../../src/conformance/kit.js';
import { formatReport, type ConformanceReport } from '../../src/conformance/report.js';
import { parseTranscript } from '../../src/protocol/transcript.js';
import { PROTOCOL_VERSION } from '../../src/protocol/methods.js';
import { canonical, exchanges } from '../../src/drivers/replay/driver.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(ROOT, 'dist', 'src', 'hosts', 'cli', 'main.js');
const node = (...args: string[]): string => [process.execPath, ...args].map((a) => `'${a}'`).join(' ');
const FAKE = node(CLI, 'driver', 'fake');

const verdict = (r: ConformanceReport, rule: string): string | undefined =>
  r.results.find((x) => x.rule === rule)?.verdict;
const failed = (r: ConformanceReport): string[] => r.results.filter((x) => x.verdict === 'FAIL').map((x) => x.rule);

test('the driver command is split into words like a shell would, without one', () => {
  assert.deepEqual(splitCommand(`node 'a b.js' --x "y \\"z\\"" c\\ d $HOME;rm`), [
    'node',
    'a b.js',
    '--x',
    'y "z"',
    'c d',
    '$HOME;rm',
  ]);
  assert.deepEqual(splitCommand(`a '' b`), ['a', '', 'b']);
  assert.throws(() => splitCommand(`node "open`), /unclosed/);
});

test('the fake driver passes every rule, the GTK ' +
    'harness included, and says which it skipped', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-conformance-'));
  try {
    const record = join(dir, 'fake.jsonl');
    const report = await runConformance({ driver: FAKE, record });
    const text = formatReport(report);
    assert.deepEqual(failed(report), [], text);
    assert.equal(report.ok, true);
    for (const rule of [
      'wire.hello',
      'wire.strict-params',
      'wire.unknown-method',
      'wire.malformed-lines',
      'wire.oversize-line',
      'wire.cancel',
      'wire.out-of-order',
      'wire.non-bmp',
      'wire.schema',
      'wire.eof-exit',
      'semantic.gtk.name.set_value',
      'semantic.gtk.hello.click#1',
      'semantic.gtk.hello.click#2',
      'behaviour.handles',
      'behaviour.snapshots',
      'wire.framing',
      'wire.whitespace',
      'semantic.gtk.disabled',
      'semantic.gtk.stale-ref',
      'semantic.gtk.unfocused',
    ])
      assert.equal(verdict(report, rule), 'PASS', `${rule}\n${text}`);
    assert.match(text, /^SKIP semantic\.web: no window titled "Conformance harness \(web\)"/m);
    // The kit's own page is a harness for any platform: not opened here (no launch), so skipped with how to start it.
    assert.match(text, /^SKIP semantic\.page: no window titled "Computer-use harness \(page\)"/m);
    assert.match(text, /^\d+ passed, 0 failed, 2 skipped: the driver conforms\.$/m);

    // What was recorded here replays to the same verdicts.
    const t = parseTranscript(readFileSync(record, 'utf8'));
    assert.equal(t.header.driver['platform'], 'fake');
    assert.deepEqual(t.header.apps, [{ name: 'conformance-harness' }]);
    const replayed = await runConformance({ driver: node(CLI, 'driver', 'replay', record) });
    assert.deepEqual(
      replayed.results.map((r) => `${r.verdict} ${r.rule}`),
      report.results.map((r) => `${r.verdict} ${r.rule}`),
      formatReport(replayed),
    );
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('a transcript recorded from the Linux driver ' +
    'on the GTK harness replays as a golden test', { timeout: 120_000 }, async () => {
  const file = join(ROOT, 'test', 'fixtures', 'transcripts', 'linux-gtk.jsonl');
  const t = parseTranscript(readFileSync(file, 'utf8'));
  assert.equal(t.header.driver['platform'], 'linux');
  assert.equal(t.header.driver['protocolVersion'], '1.1.0');
  const report = await runConformance({ driver: node(CLI, 'driver', 'replay', file) });
  const text = formatReport(report);
  assert.deepEqual(failed(report), [], text);
  assert.equal(verdict(report, 'semantic.gtk.stale-ref'), 'PASS', text);
  assert.equal(verdict(report, 'semantic.gtk.unfocused'), 'PASS', text);
});

test('replay pairs requests with their answers by id, whatever the key order of their params', () => {
  const t = parseTranscript(
    [
      JSON.stringify({
        type: 'header',
        format: 'computer-use-transcript',
        version: 1,
        recordedAt: '',
        host: { os: 'linux', release: '' },
        driver: {},
        apps: [],
      }),
      JSON.stringify({ type: 'request', id: 1, method: 'ui.settle', params: { timeoutMs: 9, quietMs: 1 } }),
      JSON.stringify({ type: 'request', id: 2, method: 'hello', params: {} }),
      JSON.stringify({ type: 'result', id: 2, result: { platform: 'fake' } }),
      JSON.stringify({ type: 'notification', from: 'host', method: '$/cancel', params: { id: 1 } }),
      JSON.stringify({
        type: 'error',
        id: 1,
        error: { code: -32000, message: 'cancelled', data: { code: 'timeout' } },
      }),
    ].join('\n'),
  );
  const x = exchanges(t);
  assert.deepEqual(
    x.map((e) => [e.method, e.answer?.type, e.cancelled]),
    [
      ['ui.settle', 'error', true],
      ['hello', 'result', false],
    ],
  );
  assert.equal(x[0]!.params, canonical({ quietMs: 1, timeoutMs: 9 }));
  assert.throws(() => parseTranscript('{"type":"header","format":"other"}'), /not a computer-use-transcript header/);
});

test('the Python reference driver, written from the schema alone, speaks the protocol version of the spec and ' +
    'passes the default kit: wire, behaviour and the read part of the GTK harness', { timeout: 120_000 }, async () => {
  const report = await runConformance({ driver: `python3 '${join(ROOT, 'test', 'reference-driver', 'driver.py')}'` });
  const text = formatReport(report);
  assert.deepEqual(failed(report), [], text);
  assert.equal(
    report.hello?.protocolVersion,
    PROTOCOL_VERSION,
    `the reference driver speaks the spec's own version\n${text}`,
  );
  for (const rule of ['behaviour.snapshots', 'behaviour.handles'])
    assert.equal(verdict(report, rule), 'PASS', `${rule}\n${text}`);
  for (const rule of [
    'wire.hello',
    'wire.strict-params',
    'wire.unknown-method',
    'wire.malformed-lines',
    'wire.oversize-line',
    'wire.cancel',
    'wire.out-of-order',
    'wire.non-bmp',
    'wire.schema',
    'wire.eof-exit',
    'semantic.gtk.name',
    'semantic.gtk.never',
    'semantic.gtk.status',
  ]) {
    assert.equal(verdict(report, rule), 'PASS', `${rule}\n${text}`);
  }
  // It serves a recording: every act is a SKIP that names the method it lacks, never a FAIL.
  assert.match(text, /^SKIP semantic\.gtk\.hello\.click#1: the driver does not list node\.act$/m);
  // The identity methods are optional: it lists none, passes, and the kit says what the host does without them.
  assert.equal(verdict(report, 'wire.identity'), 'PASS', text);
  assert.match(
    text,
    /^PASS wire\.identity: optional, not listed: process\.identify \(without it nothing proves what an app is.*apps\.resolveLaunch .*apps\.terminate /m,
  );
  assert.match(text, /^PASS wire\.cancel: the cancelled ui\.settle was answered: error -32000 \(timeout\)/m);
});
