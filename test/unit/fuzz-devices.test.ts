/**
 * The device-result fuzz, CI-sized: tool calls against a driver that lies in every answer (hostile text,
 * generated and invalid results, errors with any code). FUZZ_DEVICE_CALLS=N runs more.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fuzzDeviceResults } from '../fuzz/devices.js';

const CALLS = Number(process.env['FUZZ_DEVICE_CALLS'] ?? 1_500);
const SEED = Number(process.env['FUZZ_SEED'] ?? 2_028);

test(`device-result fuzz: ${CALLS} tool calls against a lying ` +
    `driver: no crash, no hang, known error codes, no forged line`, async (t) => {
  const report = await fuzzDeviceResults(CALLS, SEED);
  t.diagnostic(
    `calls ${report.calls}, seed ${report.seed}, ${report.ms} ms, slowest call ${report.slowestMs} ms, ` +
      `answers ${JSON.stringify(report.answers)}`,
  );
  t.diagnostic(`error codes ${JSON.stringify(report.byCode)}`);
  assert.deepEqual(report.failures, []);
  assert.equal(report.calls, CALLS);
  // The lies reach both sides: answers the tools format, and answers they must refuse.
  assert.ok(
    report.answers.coherent > CALLS / 4 && report.answers.invalid > 0 && report.answers.error > 0,
    JSON.stringify(report.answers),
  );
});
