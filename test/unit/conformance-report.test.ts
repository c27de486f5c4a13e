/**
 * What the kit reports to a driver author: each failure lists the protocol rule ids it cites (`rules`, in the
 * `--json` output next to the check name `rule`), and a scenarios file that did not load is said to be the reason
 * no harness ran (not a hint at --no-scenarios, which was never given).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { runConformance } from '../../src/conformance/kit.js';
import { cite, citedRules, formatReport, Verdicts } from '../../src/conformance/report.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FAKE = [process.execPath, join(ROOT, 'dist', 'src', 'hosts', 'cli', 'main.js'), 'driver', 'fake']
  .map((a) => `'${a}'`)
  .join(' ');

test('a failure carries the rule ids it cites, the check name stays in rule', () => {
  const v = new Verdicts();
  v.check(
    'semantic.gtk.level.set_value#1',
    [cite('R-act-value', 'expected invalid_params'), cite('R-handle-node', 'x'), cite('R-act-value', 'y')],
    '',
  );
  v.pass('wire.hello', 'fine');
  assert.deepEqual(v.results[0], {
    rule: 'semantic.gtk.level.set_value#1',
    verdict: 'FAIL',
    rules: ['R-act-value', 'R-handle-node'],
    detail: 'R-act-value: expected invalid_params; R-handle-node: x; R-act-value: y',
  });
  assert.equal(v.results[1]!.rules, undefined);
  assert.deepEqual(citedRules('expected a window titled "R-fake: x"'), []);
});

test('a scenarios file that does not load: semantic.scenarios fails ' +
    'and the semantic SKIP names the file, not --no-scenarios', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-scenarios-'));
  try {
    const file = join(dir, 'bad.json');
    writeFileSync(
      file,
      JSON.stringify({ version: 1, harnesses: [{ name: 'x', window: { title: 'X' }, controls: [], extra: 1 }] }),
    );
    const report = await runConformance({ driver: FAKE, scenarios: file });
    const text = formatReport(report);
    assert.equal(report.results.find((r) => r.rule === 'semantic.scenarios')?.verdict, 'FAIL', text);
    assert.match(
      text,
      /^SKIP semantic: no harness ran: the scenarios file .*bad\.json did not load \(see semantic\.scenarios\)$/m,
    );
    assert.doesNotMatch(text, /--no-scenarios/);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('docs/conformance.md names the core methods the spec declares core, no more and no fewer', async () => {
  const { readFileSync } = await import('node:fs');
  const { METHOD_NAMES, methodSpec } = await import('../../src/protocol/methods.js');
  const text = readFileSync(join(ROOT, 'docs', 'conformance.md'), 'utf8').replace(/\s+/g, ' ');
  const line = /The core is ((?:`[a-z.]+`,? ?)+)/.exec(text);
  assert.ok(line, 'the core list is in docs/conformance.md');
  const named = [...line[1]!.matchAll(/`([a-z.]+)`/g)].map((m) => m[1]);
  assert.deepEqual(named.sort(), METHOD_NAMES.filter((m) => !methodSpec(m)!.optional).sort());
});
