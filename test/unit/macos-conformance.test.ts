/**
 * The conformance kit (wire and behaviour, by default) against the real macOS driver process (`computer-use
 * driver macos`) bound to the fake AX library built with AddressSanitizer (test/macos-fake): a use after free or
 * a bad pointer in the driver's FFI aborts the process and fails a rule here.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { runConformance } from '../../src/conformance/kit.js';
import { formatReport } from '../../src/conformance/report.js';
import { asanEnv, buildFakeAx, MACOS_FIXTURES } from '../macos/fake-ax.js';

const CLI = fileURLToPath(new URL('../../src/hosts/cli/main.js', import.meta.url));

test(
  'the macOS driver on the fake AX library passes the default kit: wire and behaviour',
  { timeout: 180_000 },
  async () => {
    const lib = buildFakeAx({ asan: true });
    const report = await runConformance({
      driver: [process.execPath, CLI, 'driver', 'macos'].map((a) => `'${a}'`).join(' '),
      env: asanEnv(lib, join(MACOS_FIXTURES, 'textedit.json')),
    });
    const text = formatReport(report);
    assert.ok(report.ok, text);
    // Behaviour is checked by default: the listed windows read, unknown handles refused (a SKIP here would hide them).
    for (const rule of ['behaviour.snapshots', 'behaviour.handles'])
      assert.equal(report.results.find((r) => r.rule === rule)?.verdict, 'PASS', `${rule}\n${text}`);
    assert.equal(report.hello?.platform, 'macos', text);
    assert.ok(report.results.filter((r) => r.verdict === 'PASS').length >= 9, text);
  },
);
