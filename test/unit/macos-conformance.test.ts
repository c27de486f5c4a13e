/**
 * The conformance kit's wire layer against the real macOS driver process (`computer-use driver macos`) bound
 * to the fake AX library built with AddressSanitizer (test/macos-fake): a use after free or a bad pointer in
 * the driver's FFI aborts the process and fails a rule here.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { runConformance } from '../../src/conformance/kit.js';
import { formatReport } from '../../src/conformance/report.js';
import { asanEnv, buildFakeAx, MACOS_FIXTURES } from '../macos/fake-ax.js';

const CLI = fileURLToPath(new URL('../../src/hosts/cli/main.js', import.meta.url));

test('the macOS driver on the fake AX library passes the wire layer of the conformance kit', { timeout: 180_000 }, async () => {
  const lib = buildFakeAx({ asan: true });
  const report = await runConformance({
    driver: [process.execPath, CLI, 'driver', 'macos'].map((a) => `'${a}'`).join(' '),
    env: asanEnv(lib, join(MACOS_FIXTURES, 'textedit.json')),
  });
  const text = formatReport(report);
  assert.ok(report.ok, text);
  assert.equal(report.hello?.platform, 'macos', text);
  assert.ok(report.results.filter((r) => r.verdict === 'PASS').length >= 9, text);
});
