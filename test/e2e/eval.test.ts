/**
 * The CI-sized subset of the evaluation: every task marked `ci` runs with the scripted solver in this
 * sandbox desktop and must pass; a task that passed and now fails is a regression this test reports with the
 * checker's words and the steps taken. Figures (tokens, time) belong to `npm run eval`, not to assertions here.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createComputer, type Computer } from '../../src/index.js';
import { runTask } from '../../bench/eval/runner.js';
import { solveScripted } from '../../bench/eval/scripted.js';
import { TASKS } from '../../bench/eval/tasks/index.js';

const subset = TASKS.filter((t) => t.ci);
const home = mkdtempSync(join(tmpdir(), 'cu-eval-e2e-'));
let computer: Computer;

before(async () => {
  computer = await createComputer({
    desktop: 'current',
    mode: 'bypass',
    allowCommands: ['xfce4-terminal'],
    allowApps: [...new Set(subset.flatMap((t) => [t.appName, ...(t.allowApps ?? [])]))],
    settingsPath: join(home, 'settings.json'),
    auditPath: join(home, 'audit.jsonl'),
    statePath: join(home, 'state.json'),
    showActivity: false,
  });
});
after(async () => { await computer.close(); });

test('the CI subset has tasks of more than one app', () => {
  assert.ok(new Set(subset.map((t) => t.app)).size >= 2, `ci tasks: ${subset.map((t) => t.id).join(', ')}`);
});

for (const task of subset) {
  test(`eval task ${task.id}: ${task.goal}`, async () => {
    const r = await runTask(computer, task, { solverName: 'scripted', solver: solveScripted, keepText: true });
    const trace = r.trace
      .map((s) => `${s.tool} ${JSON.stringify(s.params).slice(0, 120)}${s.isError ? ' → ERROR' : ''}`)
      .join('\n  ');
    assert.ok(r.success, `${task.id} failed: ${r.detail}\n  ${trace}`);
    assert.ok(r.tokens > 0 && r.steps > 0);
  });
}
