/**
 * Protocol-line fuzzer against the real Linux driver, inside a sandbox desktop: a few thousand
 * generated and mutated lines (invalid JSON, wrong jsonrpc, unknown methods, wrong param types, oversize lines,
 * odd ids, acting methods with hostile params: chords with key "exec", text and commands with shell syntax).
 * Every request gets exactly one valid JSON-RPC response, nothing is executed (no file appears from shell
 * syntax), and the driver stays alive and answers hello at the end. FUZZ_LINES=N sends more.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DEFAULT_MAX_LINE_BYTES, LineReader } from '../../../src/protocol/framing.js';
import { checkAnswers, fuzzLines, responseProblem } from '../../fuzz/lines.js';

const CLI = fileURLToPath(new URL('../../../src/hosts/cli/main.js', import.meta.url));
const LINES = Number(process.env['FUZZ_LINES'] ?? 3000);

test(`protocol-line fuzz: ${LINES} lines to the Linux driver, one ` +
    `valid response per request, nothing executed, still alive`, async (t) => {
  assert.ok(
    process.env['DISPLAY'] && process.env['AT_SPI_BUS_ADDRESS'],
    'run inside a sandbox: computer-use sandbox exec -- …',
  );
  const dir = mkdtempSync(join(tmpdir(), 'cu-fuzz-driver-'));
  const marker = join(dir, 'pwned');
  const child = spawn(process.execPath, [CLI, 'driver', 'linux'], {
    cwd: dir,
    env: process.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  const received: unknown[] = [];
  const junk: string[] = [];
  const reader = new LineReader();
  let wake: () => void = () => undefined;
  // A driver that died shows up in `alive()` with its stderr; a write to its closed stdin must not throw instead.
  child.stdin.on('error', () => undefined);
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => { stderr = (stderr + d).slice(-20_000); });
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    for (const ev of reader.push(chunk)) {
      if (ev.kind === 'message') received.push(ev.message);
      else junk.push(ev.kind === 'junk' ? ev.line : `oversize ${ev.bytes}`);
    }
    wake();
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => { wake(); r(code); }));
  const alive = (): boolean => child.exitCode === null && child.signalCode === null;
  /** Waits until `probe` holds, failing if the driver exits or the deadline passes (event-driven, no sleeps). */
  const until = async (what: string, probe: () => boolean, timeoutMs: number): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (!probe()) {
      if (!alive())
        assert.fail(`the driver exited (${child.exitCode ?? child.signalCode}) while waiting for ${what}:\n${stderr}`);
      const left = deadline - Date.now();
      if (left <= 0)
        assert.fail(`timed out waiting for ${what} (${received.length} answers so far):\n${stderr.slice(-3000)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 1000));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  };
  try {
    const lines = fuzzLines(LINES, Number(process.env['FUZZ_SEED'] ?? 8_014), marker);
    const t0 = performance.now();
    for (const l of lines) child.stdin.write(`${l.line}\n`);
    // Two lines over the 16 MB cap: each refused once with id null, and the stream recovers after them.
    const oversize =
      `{"jsonrpc":"2.0","id":"oversize","method":"input.keys","params":{"window":"w","text":"` +
      `${'$(touch pwned) '.repeat(Math.ceil(DEFAULT_MAX_LINE_BYTES / 15) + 10)}"}}\n`;
    child.stdin.write(oversize);
    child.stdin.write(oversize);
    const answers = lines.filter((l) => l.expect !== 'none').length + 2;
    await until(`${answers} answers`, () => received.length >= answers, 300_000);
    const ms = Math.round(performance.now() - t0);
    // The driver is alive and still serves a plain request.
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 'final', method: 'hello', params: {} })}\n`);
    await until('the final hello', () => received.some((m) => (m as { id?: unknown }).id === 'final'), 30_000);
    const final = received.find((m) => (m as { id?: unknown }).id === 'final') as { result?: { platform?: string } };
    assert.equal(responseProblem(final), undefined);
    assert.equal(final.result?.platform, 'linux', JSON.stringify(final));
    const failures = checkAnswers(lines, received.filter((m) => (m as { id?: unknown }).id !== 'final'), 2);
    assert.deepEqual(failures.slice(0, 20), [], `${failures.length} problems`);
    assert.deepEqual(junk, [], 'the driver wrote only JSON-RPC lines on stdout');
    // Nothing was executed: no file from shell syntax, here or in the driver's working directory.
    assert.equal(existsSync(marker), false, 'shell syntax created the marker file');
    assert.deepEqual(readdirSync(dir), [], 'nothing appeared in the driver\'s working directory');
    const kinds = new Map<string, number>();
    for (const l of lines) { const k = l.kind.split(' ').slice(-1)[0]!; kinds.set(k, (kinds.get(k) ?? 0) + 1); }
    const errors = new Map<string, number>();
    for (const m of received) {
      const e = (m as { error?: { code: number; data?: { code?: string } } }).error;
      const key = e ? `${e.code}${e.data?.code ? ` ${e.data.code}` : ''}` : 'result';
      errors.set(key, (errors.get(key) ?? 0) + 1);
    }
    t.diagnostic(`${lines.length} lines + 2 oversize in ${ms} ms; ${received.length} answers`);
    t.diagnostic(`kinds ${JSON.stringify(Object.fromEntries(kinds))}`);
    t.diagnostic(`answers ${JSON.stringify(Object.fromEntries(errors))}`);
    const internal = new Set(received.map((m) => (m as { error?: { message: string; data?: { code?: string } } }).error)
      .filter((e) => e?.data?.code === 'internal').map((e) => e!.message.replace(/\d+/g, 'N').slice(0, 160)));
    t.diagnostic(`internal errors (unclassified by the driver): ${JSON.stringify([...internal].slice(0, 8))}`);
    // A handle that names nothing is stale_ref/window_not_found, never an `internal` echoing the handle.
    assert.deepEqual([...internal], [], 'every driver error carries a code that says what to do');
  } finally {
    if (alive()) {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
  }
});
