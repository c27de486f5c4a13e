/**
 * Input latency of the Linux driver over the protocol, in a sandbox desktop: 20 key chords (input.keys) and a
 * pointer click (input.pointer) into gedit, each repeated. `--driver <main.js>` measures another build of the
 * driver (e.g. the xdotool one before XTest) through the same Device path for comparison.
 *   computer-use sandbox exec -- node dist/bench/input-latency.js [--driver /path/to/dist/src/drivers/linux/main.js]
 * [--runs N]
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { Device } from '../src/devices/manager.js';
import { r1, summarize } from './stats.js';

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const driverEntry = opt('--driver');
const runs = Number(opt('--runs') ?? 10);

const device = new Device({
  platform: 'linux',
  timeoutMs: 30_000,
  ...(driverEntry ? { driver: { command: process.execPath, args: [driverEntry] } } : {}),
});
const hello = await device.hello();
const old = hello.permissions['xdotool'] !== undefined;
const launched = await device.call('apps.launch', {
  command: 'gedit',
  args: ['--new-window'],
  waitForWindowMs: 20_000,
});
const win = launched.window;
if (!win?.bounds) throw new Error('gedit reported no window bounds');
const expect = { pid: win.pid, ...(win.startToken !== undefined ? { startToken: win.startToken } : {}) };
const letters = 'abcdefghijklmnopqrst'.split('');
const keysParams = (): never => (old
  ? { keys: letters.join(' '), window: win.id }
  : { window: win.id, chords: letters.map((key) => ({ mods: [], key })), expect }) as never;
const clear = (): never =>
  (old
    ? { keys: 'ctrl+a BackSpace', window: win.id }
    : {
        window: win.id,
        chords: [
          { mods: ['Control'], key: 'a' },
          { mods: [], key: 'Backspace' },
        ],
        expect,
      }) as never;

const keysMs: number[] = [];
const clickMs: number[] = [];
const [x, y, w, h] = win.bounds;
for (let i = 0; i < runs; i++) {
  let t0 = performance.now();
  await device.call('input.keys', keysParams());
  keysMs.push(performance.now() - t0);
  await device.call('input.keys', clear());
  t0 = performance.now();
  try {
    await device.call('input.pointer', {
      action: 'click',
      x: x + Math.round(w / 2),
      y: y + Math.round(h / 2),
      window: win.id,
    });
    clickMs.push(performance.now() - t0);
  } catch (e) {
    console.log(`run ${i}: click refused: ${(e as Error).message}`);
  }
}
try { process.kill(launched.pid, 'SIGTERM'); } catch { /* gone */ }
await device.close();

const result = { driver: old ? 'xdotool' : 'xtest', runs, keys20: summarize(keysMs), click: summarize(clickMs) };
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(
  new URL(`./results/input-latency-${result.driver}.json`, import.meta.url),
  `${JSON.stringify(result, null, 2)}\n`,
);
console.log(`driver ${result.driver}, ${runs} runs`);
console.log(
  `  20 chords  p50 ${r1(result.keys20.p50)} ms  p95 ${r1(result.keys20.p95)} ms  min ` +
    `${r1(result.keys20.min)} ms`,
);
console.log(
  `  click      p50 ${r1(result.click.p50)} ms  p95 ${r1(result.click.p95)} ms  min ${r1(result.click.min)} ` + `ms`,
);
