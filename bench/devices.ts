/**
 * Observe and act latency over ssh against local. A real sshd on a loopback port (the test's
 * generated keys and config) and the real ssh client; the "remote" driver runs over that link against the same
 * sandbox desktop as the local one (`driver linux --desktop sandbox` in this home), so the difference is the link:
 * ssh framing, encryption, one more process hop. gedit, one window, the same calls through both devices.
 */
import { fileURLToPath } from 'node:url';
import { createComputer } from '../src/index.js';
import { cuHome } from '../src/paths.js';
import { startSshd } from '../test/e2e/devices/sshd.js';
import { RUNS, WARMUP, errText } from './config.js';
import { summarize, type Summary } from './stats.js';

/** One device's figures (ms). */
export interface DeviceLatency { connectMs: number; observe: Summary; act: Summary }

/** The devices scenario's result. */
export interface DevicesBench { local?: DeviceLatency; ssh?: DeviceLatency; runs: number; error?: string }

const cli = fileURLToPath(new URL('../src/hosts/cli/main.js', import.meta.url));

/** Runs the scenario on the desktop of the process environment: the bench's sandbox `display`, in this home. */
export async function benchDevices(display: string): Promise<DevicesBench> {
  const out: DevicesBench = { runs: RUNS };
  const sshd = await startSshd();
  const computer = await createComputer({
    desktop: 'current',
    mode: 'bypass',
    allowApps: ['gedit'],
    showActivity: false,
    devices: [
      {
        name: 'ssh',
        url: sshd.url,
        sshConfig: sshd.sshConfig,
        command: [
          'env',
          `COMPUTER_USE_HOME=${cuHome()}`,
          `COMPUTER_USE_SANDBOX=${display}`,
          process.execPath,
          cli,
          'driver',
          'linux',
          '--desktop',
          'sandbox',
        ],
      },
    ],
  });
  let pid = 0;
  try {
    const launched = await computer.call('computer_launch', {
      device: 'local',
      command: 'gedit',
      args: ['--new-window'],
      waitMs: 20000,
    });
    if (launched.isError) throw new Error(launched.text);
    pid = Number(/pid=(\d+)/.exec(launched.text)?.[1]);
    for (const name of ['local', 'ssh'] as const) {
      const entry = computer.devices.byName(name)!;
      const t0 = performance.now();
      await entry.session.device.hello();
      const connectMs = Math.round(performance.now() - t0);
      const observe: number[] = [];
      const act: number[] = [];
      let doc = '';
      for (let i = 0; i < WARMUP + RUNS; i++) {
        const s = performance.now();
        const r = await computer.call('computer_observe', { device: name, app: 'gedit' });
        const ms = performance.now() - s;
        if (r.isError) throw new Error(`${name} observe: ${r.text}`);
        doc = /\[((?:d\d+)?e\d+)\] document\b.*editable/.exec(r.text)?.[1] ?? doc;
        if (i >= WARMUP) observe.push(ms);
        const a = performance.now();
        const typed = await computer.call('computer_act', { actions: [{ ref: doc, op: 'type', value: 'x' }] });
        const ams = performance.now() - a;
        if (typed.isError || !/confirmed/.test(typed.text)) throw new Error(`${name} act: ${typed.text}`);
        if (i >= WARMUP) act.push(ams);
      }
      out[name] = { connectMs, observe: summarize(observe), act: summarize(act) };
    }
  } catch (e) {
    out.error = errText(e);
  } finally {
    if (pid) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } }
    await computer.close();
    await sshd.stop();
  }
  const row = (n: string, d?: DeviceLatency): string =>
    d
      ? `${n.padEnd(6)} connect ${d.connectMs} ms · observe p50 ${d.observe.p50} p95 ${d.observe.p95} ms · ` +
        `act(type) p50 ${d.act.p50} p95 ${d.act.p95} ms`
      : `${n}: -`;
  console.log(
    `\ndevices (gedit, ${RUNS} runs): \n  ${row('local', out.local)}\n  ${row('ssh', out.ssh)}` +
      `${out.error ? `\n  error: ${out.error}` : ''}`,
  );
  return out;
}
