/**
 * The held-back check: each deliberately broken driver (test/conformance/broken/defects.ts, one rule broken each)
 * fails the default kit (no scenarios file) under the check that covers it, and the failure cites the rule's id.
 * The fake driver without a defect passes the same kit (test/unit/conformance.test.ts).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { runConformance } from '../../src/conformance/kit.js';
import { formatReport, type ConformanceReport } from '../../src/conformance/report.js';
import { RULES } from '../../src/protocol/rules.js';
import { DEFECTS } from '../conformance/broken/defects.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const broken = (defect: string): string =>
  [process.execPath, join(ROOT, 'dist', 'test', 'conformance', 'broken', 'driver.js'), '--defect', defect]
    .map((a) => `'${a}'`)
    .join(' ');
const failLine = (r: ConformanceReport, check: string): string | undefined =>
  formatReport(r)
    .split('\n')
    .find((l) => l.startsWith(`FAIL ${check}:`));

/** Runs the kit on every defect, a few at a time (each sends a 16 MB line). */
async function runAll(): Promise<Map<string, ConformanceReport>> {
  const names = Object.keys(DEFECTS);
  const out = new Map<string, ConformanceReport>();
  for (let i = 0; i < names.length; i += 4) {
    const batch = names.slice(i, i + 4);
    const reports = await Promise.all(batch.map((d) => runConformance({ driver: broken(d) })));
    batch.forEach((d, j) => out.set(d, reports[j]!));
  }
  return out;
}

test('each broken driver fails the default kit under its check, citing its rule id', { timeout: 600_000 }, async () => {
  const reports = await runAll();
  for (const [name, d] of Object.entries(DEFECTS)) {
    const r = reports.get(name)!;
    const text = formatReport(r);
    assert.equal(r.ok, false, `${name} (${d.what}) passed:\n${text}`);
    assert.ok(Object.hasOwn(RULES, d.rule), d.rule);
    const line = failLine(r, d.check);
    assert.ok(line, `${name} (${d.what}): expected FAIL ${d.check}:\n${text}`);
    assert.match(line, new RegExp(`\\b${d.rule}: `), `${name}: the failure cites ${d.rule}`);
    assert.match(text, /\d+ passed, [1-9]\d* failed, .*: the driver does not conform\.$/);
  }
  // What came is said, not only that it failed.
  assert.match(
    failLine(reports.get('version')!, 'wire.hello')!,
    /expected protocolVersion with major version 1, got "2\.0\.0"/,
  );
  assert.match(
    failLine(reports.get('ticked')!, 'wire.schema')!,
    /tree\.snapshot answered outside its schema: \/root\/.*states\/\d+: expected one of/,
  );
  assert.match(
    failLine(reports.get('window-not-found')!, 'behaviour.handles')!,
    /node\.act click on handle "conformance-no-such-element": expected error stale_ref, got error -32000 \(window_not_found\)/,
  );
  assert.match(failLine(reports.get('cut-frame')!, 'wire.framing')!, /stdout held a line that is not a JSON object/);
  assert.match(
    failLine(reports.get('toggle-lies')!, 'semantic.gtk.agree.toggle#1')!,
    /after toggle, agree: expected state checked/,
  );
  assert.match(failLine(reports.get('char-count')!, 'wire.oversize-line')!, /the cap counts bytes/);
  assert.match(
    failLine(reports.get('clamps')!, 'semantic.gtk.level.set_value#1')!,
    /R-act-value: expected set_value "11" to fail with invalid_params, got result/,
  );
  assert.match(failLine(reports.get('closed-window')!, 'semantic.gtk.closed-window')!,
    /R-handle-node: click through the handle of an element of the closed window: expected error stale_ref, got error -32000 \(window_not_found\)/);
  assert.match(
    failLine(reports.get('cancel')!, 'wire.cancel')!,
    /to be answered within 5000 ms of \$\/cancel, got no answer/,
  );
  // A crash does not hide the checks after it: the kit started the driver again.
  assert.equal(reports.get('nonbmp')!.results.find((x) => x.rule === 'wire.oversize-line')?.verdict, 'PASS');
});
