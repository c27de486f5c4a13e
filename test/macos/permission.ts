/**
 * `node dist/test/macos/permission.js`: the first check of .github/workflows/macos.yml. Starts the macOS driver
 * as a host does, asks hello and the window list, and fails loudly (a GitHub error annotation and
 * exit 1) when macOS does not trust it for Accessibility, printing the driver's own instruction, so a run without
 * the grant stops here instead of failing every later step with the same permission_denied.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

// The driver's own entry, as a host starts it (src/devices/stdio.ts builtinDriver): run from a copy under a folder
// named with a space and an accent, this also proves the entry check.
const entry = fileURLToPath(new URL('../../src/drivers/macos/main.js', import.meta.url));
const child = spawn(process.execPath, [entry], { stdio: ['pipe', 'pipe', 'inherit'] });
const lines = createInterface({ input: child.stdout });
const send = (id: number, method: string, params: unknown): void => {
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
};
const finish = (ok: boolean, text: string): never => {
  const annotation = `::error title=macOS Accessibility not granted::${text.replace(/\n/g, ' ')}`;
  process.stdout.write(ok ? `PASS: ${text}\n` : `${annotation}\nFAIL: ${text}\n`);
  child.stdin.end();
  child.kill();
  process.exit(ok ? 0 : 1);
};
const timer = setTimeout(() => finish(false, 'the macOS driver did not answer within 60 s'), 60_000);

interface Msg {
  id?: number;
  result?: { permissions?: Record<string, boolean>; facts?: Record<string, string> };
  error?: { message?: string; data?: { code?: string } };
}
send(1, 'hello', { client: 'computer-use permission check' });
for await (const line of lines) {
  let msg: Msg;
  try { msg = JSON.parse(line) as Msg; } catch { continue; }
  if (msg.id === 1) {
    if (msg.error) finish(false, `hello failed: ${msg.error.message ?? ''}`);
    const said = msg.result?.facts?.['accessibility'] ?? 'not granted';
    if (msg.result?.permissions?.['accessibility'] !== true) finish(false, `hello says accessibility ${said}`);
    send(2, 'windows.list', {});
  } else if (msg.id === 2) {
    clearTimeout(timer);
    if (msg.error?.data?.code === 'permission_denied') finish(false, msg.error.message ?? 'permission_denied');
    if (msg.error) finish(false, `windows.list failed: ${msg.error.message ?? ''}`);
    finish(true, 'macOS trusts the driver for Accessibility (hello and windows.list answered)');
  }
}
finish(false, 'the macOS driver closed without answering');
