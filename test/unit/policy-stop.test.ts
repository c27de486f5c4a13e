/** The emergency stop inside one process: a stop aborts the act in flight, later acts are `paused` until resume. */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import { Policy } from '../../src/policy/policy.js';
import { StopController, pauseInfo, requestResume, requestStop, withStop } from '../../src/policy/stop.js';
import { allowAllGate } from '../../src/policy/gate.js';
import { Session } from '../../src/session/session.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/tool.js';
import { mailWindow, PolicyFake } from '../fixtures/policy/apps.js';

function setup(home: string, custom = false) {
  const fake = new PolicyFake([mailWindow()]);
  const stopper = StopController.acquire(home);
  const policy = new Policy({
    mode: 'bypass',
    allowApps: ['mailer'],
    processInfo: () => undefined,
    hostPids: [],
    audit: join(home, 'audit.jsonl'),
    settingsPath: false,
    stop: stopper,
  });
  const session = new Session({
    device: new Device({ connect: () => fake.connect() }),
    gate: custom ? withStop(allowAllGate, stopper) : policy,
  });
  const call = (name: string, params: unknown) =>
    runTool(
      TOOLS.find((t) => t.schema.name === name)!,
      { session, stop: stopper.signal },
      params,
    );
  return { fake, stopper, session, call };
}

const ref = async (call: ReturnType<typeof setup>['call']): Promise<string> =>
  /\[(e\d+)\] checkbox "Request receipt"/.exec((await call('computer_observe', { app: 'mailer' })).text)![1]!;

for (const custom of [false, true]) {
  test(`stop aborts a long act at once; acts are paused until ` +
      `resume (${custom ? 'custom gate' : 'Policy'})`, async () => {
    const home = mkdtempSync(join(tmpdir(), 'cu-stop-'));
    const s = setup(home, custom);
    assert.ok(readdirSync(join(home, 'run')).includes(String(process.pid)), 'the process is registered for signals');
    const box = await ref(s.call);
    s.fake.settleMs = 20_000;
    const pending = s.call('computer_act', {
      actions: [{ ref: box, op: 'toggle' }],
      settle: { quietMs: 5000, timeoutMs: 30000 },
    });
    await new Promise((r) => setTimeout(r, 50));
    const t0 = performance.now();
    requestStop(home, 'test');
    const r = await pending;
    const ms = performance.now() - t0;
    assert.equal(r.code, 'paused', r.text);
    assert.ok(ms < 500, `stop took ${ms} ms`);
    assert.match(r.text, /computer-use resume/);
    s.fake.settleMs = 0;
    const acts = s.fake.calls.filter((c) => c.method === 'node.act').length;
    const later = await runTool(
      TOOLS.find((t) => t.schema.name === 'computer_act')!,
      { session: s.session, stop: s.stopper.signal },
      { actions: [{ ref: box, op: 'toggle' }] },
    );
    assert.equal(later.code, 'paused');
    // Even without the stop signal, the gate refuses while the pause file exists.
    const direct = await runTool(
      TOOLS.find((t) => t.schema.name === 'computer_keys')!,
      { session: s.session },
      { keys: 'ctrl+a', app: 'mailer' },
    );
    assert.equal(direct.code, 'paused', direct.text);
    assert.equal(s.fake.calls.filter((c) => c.method === 'node.act').length, acts);
    assert.ok(pauseInfo(home));
    requestResume(home);
    assert.equal(pauseInfo(home), undefined);
    const resumed = await s.call('computer_act', { actions: [{ ref: box, op: 'toggle' }] });
    assert.equal(resumed.isError, false, resumed.text);
    await s.session.close();
    s.stopper.release();
    assert.equal(existsSync(join(home, 'run', String(process.pid))), false, 'unregistered on release');
  });
}

test('the pause lives in memory: deleting the pause file or ' +
    'forging a resume record lifts nothing; a signed resume does', async () => {
  const home = mkdtempSync(join(tmpdir(), 'cu-stop-mem-'));
  const stopper = StopController.acquire(home);
  try {
    requestStop(home, 'test');
    assert.equal(stopper.paused, true);
    const signal = stopper.signal;
    rmSync(join(home, 'paused'));
    assert.equal(stopper.paused, true, 'a deleted pause file does not resume');
    writeFileSync(join(home, 'resumed'), JSON.stringify({ time: Date.now() + 1000, hmac: '00'.repeat(32) }));
    assert.equal(stopper.paused, true, 'a forged resume record does not resume');
    requestResume(home);
    assert.equal(stopper.paused, false);
    assert.equal(signal.aborted, true);
    assert.equal(stopper.signal.aborted, false, 'a fresh signal after resume');
    // An old (valid) resume record does not lift a later stop.
    requestStop(home, 'again');
    assert.equal(stopper.paused, true);
  } finally { stopper.release(); }
});
