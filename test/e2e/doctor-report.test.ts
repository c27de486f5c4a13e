/**
 * `computer-use doctor --report` on this Linux desktop (the sandbox): the doctor, the conformance kit against
 * the Linux driver and the smoke task in gedit and galculator through the real tools and policy; both files are
 * written, every section is there, and neither names the host, the home folder or the user.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, hostname, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'node:test';
import type { ShareableReport } from '../../src/doctor/report.js';

const CLI = fileURLToPath(new URL('../../src/hosts/cli/main.js', import.meta.url));

test('doctor --report on the Linux desktop: both files, every ' +
    'section, the smoke task passed, nothing private', { timeout: 300_000 }, async () => {
  const out = mkdtempSync(join(tmpdir(), 'cu-report-e2e-'));
  try {
    const r = await promisify(execFile)(process.execPath, [CLI, 'doctor', '--report', '--out', out], {
      maxBuffer: 1 << 22,
    }).catch((e: { stdout: string; stderr: string }) => e);
    assert.match(
      r.stdout,
      /Report written:\n.*computer-use-report\.md\n.*computer-use-report\.json/,
      r.stdout + r.stderr,
    );
    const md = readFileSync(join(out, 'computer-use-report.md'), 'utf8');
    const json = readFileSync(join(out, 'computer-use-report.json'), 'utf8');
    const report = JSON.parse(json) as ShareableReport;
    for (const h of ['## Doctor checks', '## Conformance kit', '## Smoke task', '## Send it'])
      assert.ok(md.includes(h), md);
    assert.equal(report.os.platform, 'linux');
    assert.equal(report.driver.platform, 'linux');
    assert.ok(report.checks.some((c) => c.name === 'a11y_bus' && c.status === 'ok'), md);
    assert.equal(report.conformance.failed, 0, md);
    const steps = report.smoke.steps;
    assert.ok(steps.length >= 3 && steps.every((s) => s.ok), md);
    assert.ok(steps.some((s) => s.tool === 'computer_act' && s.status === 'confirmed'), md);
    const words = [hostname(), homedir(), ...(userInfo().username === 'root' ? [] : [userInfo().username])];
    for (const text of [md, json])
      for (const w of words)
        assert.ok(
          !new RegExp(`(?<![\\w-])${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`).test(text),
          `${w} in:\n${text}`,
        );
  } finally { rmSync(out, { recursive: true, force: true }); }
});
