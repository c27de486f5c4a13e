/**
 * `node dist/test/windows/first-use.js compiled|cached`: starts the Windows driver the way a host does,
 * asks hello and checks how its helper came to be (compiled now through csc.exe, or reused from the cache) and
 * that UI Automation answered. Run by .github/workflows/windows.yml; it needs Windows.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const want = process.argv[2] ?? 'compiled';
// The driver's own entry, as a host starts it (src/devices/stdio.ts builtinDriver): run from a copy under a folder
// named with a space and an accent, this also proves the entry check.
const entry = fileURLToPath(new URL('../../src/drivers/windows/main.js', import.meta.url));
const t0 = Date.now();
const child = spawn(process.execPath, [entry], { stdio: ['pipe', 'pipe', 'inherit'] });
const lines = createInterface({ input: child.stdout });
const timer = setTimeout(() => {
  process.stdout.write('FAIL: no hello within 120 s\n');
  child.kill();
  process.exit(1);
}, 120_000);
child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'hello', params: {} })}\n`);
for await (const line of lines) {
  const msg = JSON.parse(line) as {
    id?: number;
    result?: { platform?: string; facts?: Record<string, string> };
    error?: unknown;
  };
  if (msg.id !== 1) continue;
  clearTimeout(timer);
  process.stdout.write(`${line}\nhello after ${Date.now() - t0} ms\n`);
  const f = msg.result?.facts ?? {};
  const ok = msg.result?.platform === 'windows' && f['helper'] === want && f['helper_backend'] === 'uia';
  child.stdin.end();
  process.stdout.write(
    ok ? `PASS: helper ${want}, UI Automation up\n` : `FAIL: expected helper ${want} with the uia backend\n`,
  );
  process.exit(ok ? 0 : 1);
}
