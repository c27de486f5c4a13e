/**
 * The conformance kit's wire layer against the real Windows driver process (`computer-use driver windows
 * --replay`): the TypeScript driver, compiled on first use into a fresh data dir (mcs standing in for csc), with
 * its C# helper running under Mono on an assembled recording (test/fixtures/windows/notepad.helper.json).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { runConformance } from '../../src/conformance/kit.js';
import { formatReport } from '../../src/conformance/report.js';

const CLI = fileURLToPath(new URL('../../src/hosts/cli/main.js', import.meta.url));
const FIXTURE = fileURLToPath(new URL('../../../test/fixtures/windows/notepad.helper.json', import.meta.url));

test(
  'the Windows driver (C# helper under Mono, replaying) passes the default conformance kit: wire and behaviour',
  { timeout: 240_000 },
  async () => {
    const home = mkdtempSync(join(tmpdir(), 'cu-win-conf-'));
    try {
      const driver = [process.execPath, CLI, 'driver', 'windows', '--replay', FIXTURE].map((a) => `'${a}'`).join(' ');
      const report = await runConformance({ driver, env: { COMPUTER_USE_HOME: home } });
      const text = formatReport(report);
      // Wire and behaviour by default: every listed window read (the elevated console too), unknown handles refused.
      assert.deepEqual(report.results.filter((r) => r.verdict === 'FAIL').map((r) => r.rule), [], text);
      assert.match(text, /^PASS behaviour\.snapshots: 2 listed windows read/m);
      assert.equal(report.results.find((r) => r.rule === 'behaviour.handles')?.verdict, 'PASS', text);
      assert.equal(report.hello?.platform, 'windows', text);
      const passed = report.results.filter((r) => r.verdict === 'PASS').map((r) => r.rule);
      const wire = ['wire.hello', 'wire.strict-params', 'wire.unknown-method', 'wire.malformed-lines', 'wire.cancel',
        'wire.out-of-order', 'wire.non-bmp', 'wire.oversize-line', 'wire.schema', 'wire.eof-exit', 'wire.identity'];
      for (const rule of wire) {
        assert.ok(passed.includes(rule), `${rule} did not pass:\n${text}`);
      }
    } finally { rmSync(home, { recursive: true, force: true }); }
  },
);
