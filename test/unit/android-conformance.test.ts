/**
 * The conformance kit (wire and behaviour, by default) against the real Android driver process (`computer-use
 * driver android`) on the fake phone behind the fake adb server: the adb driver is one more driver that speaks the
 * protocol.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { runConformance } from '../../src/conformance/kit.js';
import { formatReport } from '../../src/conformance/report.js';
import { FakePhone } from '../android/phone.js';

const CLI = fileURLToPath(new URL('../../src/hosts/cli/main.js', import.meta.url));

test('the Android driver passes the default conformance kit: wire and behaviour', { timeout: 180_000 }, async () => {
  const phone = new FakePhone(
    FakePhone.screen('network-internet.xml', 'com.android.settings.Settings$NetworkDashboardActivity'),
  );
  const port = await phone.start();
  try {
    const report = await runConformance({
      driver: [process.execPath, CLI, 'driver', 'android'].map((a) => `'${a}'`).join(' '),
      env: { ADB_SERVER_SOCKET: `tcp:127.0.0.1:${port}` },
    });
    const text = formatReport(report);
    // tree.snapshot with a `scope` no element has is stale_ref (rule R-handle-node), never the whole screen.
    assert.deepEqual(report.results.filter((r) => r.verdict === 'FAIL').map((r) => r.rule), [], text);
    for (const rule of ['behaviour.snapshots', 'behaviour.handles'])
      assert.equal(report.results.find((r) => r.rule === rule)?.verdict, 'PASS', `${rule}\n${text}`);
    assert.equal(report.hello?.platform, 'android', text);
    assert.ok(report.results.filter((r) => r.verdict === 'PASS').length >= 9, text);
  } finally { await phone.stop(); }
});
