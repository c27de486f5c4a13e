/**
 * The tool-argument fuzzer, CI-sized: 10,000 calls generated from the tool schemas plus
 * mutations through the real MCP server on the fake driver. FUZZ_CALLS=N runs more (or `npm run bench -- --fuzz N`).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fuzzTools } from '../fuzz/tools.js';

const CALLS = Number(process.env['FUZZ_CALLS'] ?? 10_000);
const SEED = Number(process.env['FUZZ_SEED'] ?? 8_014);

test(`tool-argument fuzz: ${CALLS} calls through the MCP server: no crash, ` +
    `no hang, valid MCP results, invalid params refused before acting`, async (t) => {
  const report = await fuzzTools(CALLS, SEED);
  t.diagnostic(
    `calls ${report.calls} (valid ${report.valid}, invalid ${report.invalid}, refused by the SDK ` +
      `${report.protocolErrors}), seed ${report.seed}, ` +
      `${report.ms} ms, slowest call ${report.slowestMs} ms, acting driver calls ${report.actingCalls}`,
  );
  t.diagnostic(`mutations ${JSON.stringify(report.byMutation)}`);
  t.diagnostic(`error codes ${JSON.stringify(report.byCode)}`);
  assert.deepEqual(report.failures, []);
  assert.equal(report.calls, CALLS);
  // The generator must reach both sides: valid calls that run the tools, invalid ones that must be refused.
  assert.ok(report.valid > CALLS / 10, `only ${report.valid} valid calls`);
  assert.ok(report.invalid > CALLS / 2, `only ${report.invalid} invalid calls`);
  assert.ok(report.actingCalls > 0, 'the valid calls reached the acting paths');
});
