/**
 * `node dist/test/windows/foreground.js`: two Notepad windows, each brought to the front in turn through the
 * driver (window.activate: the foreground ladder of helper/Foreground.cs) while the other holds the foreground;
 * every activation must leave its window in front. Run by .github/workflows/windows.yml; it needs Windows.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../../src/hosts/cli/main.js', import.meta.url));
const pads = [spawn('notepad.exe', [], { detached: true }), spawn('notepad.exe', [], { detached: true })];
const driver = spawn(process.execPath, [cli, 'driver', 'windows'], { stdio: ['pipe', 'pipe', 'inherit'] });
const lines = createInterface({ input: driver.stdout });
const waiting = new Map<number, (m: { result?: unknown; error?: { message?: string } }) => void>();
lines.on('line', (l) => {
  let m: { id?: number };
  try { m = JSON.parse(l) as { id?: number }; } catch { return; } // a log line
  if (m.id !== undefined) waiting.get(m.id)?.(m as never);
});
let next = 1;
type Answer = { result?: unknown; error?: { message?: string } };
const call = (method: string, params: unknown): Promise<Answer> => new Promise((resolve) => {
  const id = next++;
  waiting.set(id, resolve);
  driver.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
});
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

let failed = 0;
try {
  await call('hello', { client: 'foreground check' });
  let windows: { id: string; pid: number; focused?: boolean }[] = [];
  for (let i = 0; i < 40 && windows.length < 2; i++) {
    await sleep(250);
    const r = await call('windows.list', {});
    const all = (r.result as { windows?: typeof windows })?.windows ?? [];
    windows = all.filter((w) => pads.some((p) => p.pid === w.pid));
  }
  if (windows.length < 2) throw new Error(`expected two Notepad windows, saw ${windows.length}`);
  for (const w of [windows[0]!, windows[1]!, windows[0]!]) {
    const r = await call('window.activate', { window: w.id });
    const list = ((await call('windows.list', {})).result as { windows: { id: string; focused?: boolean }[] }).windows;
    const front = list.find((x) => x.id === w.id)?.focused === true;
    process.stdout.write(`${w.id}: ${r.error ? `error ${r.error.message ?? ''}` : 'ok'}, in front: ${front}\n`);
    if (r.error || !front) failed++;
  }
} catch (e) {
  process.stdout.write(`FAIL: ${(e as Error).message}\n`);
  failed++;
} finally {
  for (const p of pads) p.kill();
  driver.stdin.end();
  driver.kill();
}
process.stdout.write(failed ? `FAIL: ${failed} activation(s) did not bring the window to the front\n`
  : 'PASS: every activation brought its window to the front\n');
process.exit(failed ? 1 : 0);
