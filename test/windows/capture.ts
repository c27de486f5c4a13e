/**
 * `node dist/test/windows/capture.js`: screen.capture on a real Windows desktop, spoken to `computer-use driver
 * windows` the way a host does. Starts Notepad (apps.launch), captures its window and checks the helper's PNG:
 * the signature, the size the geometry says, a zlib stream node inflates (header, Adler-32), filter-0 rows, and
 * pixels that are not all black (PrintWindow drew the window, or BitBlt copied it). Writes the PNG next to the
 * transcripts when `M0_TRANSCRIPT_DIR` is set. Run by .github/workflows/windows.yml; it needs Windows.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { pngScanlines } from '../fixtures/png.js';

const cli = fileURLToPath(new URL('../../src/hosts/cli/main.js', import.meta.url));
const child = spawn(process.execPath, [cli, 'driver', 'windows'], { stdio: ['pipe', 'pipe', 'inherit'] });
const lines = createInterface({ input: child.stdout });
const waiting = new Map<number, (m: { result?: unknown; error?: { message?: string } }) => void>();
void (async () => {
  for await (const line of lines) {
    const m = JSON.parse(line) as { id?: number; result?: unknown; error?: { message?: string } };
    if (typeof m.id === 'number') waiting.get(m.id)?.(m);
  }
})();
let next = 1;
function call<T>(method: string, params: unknown): Promise<T> {
  const id = next++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${method}: no answer within 120 s`)), 120_000);
    waiting.set(id, (m) => {
      clearTimeout(timer);
      if (m.error) reject(new Error(`${method}: ${m.error.message ?? 'error'}`));
      else resolve(m.result as T);
    });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  });
}

function check(png: Buffer, width: number, height: number): string {
  if (!png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'no PNG signature';
  if (png.readUInt32BE(16) !== width || png.readUInt32BE(20) !== height)
    return `IHDR says ${png.readUInt32BE(16)}x${png.readUInt32BE(20)}, geometry ${width}x${height}`;
  const { raw } = pngScanlines(png);
  if (raw.length !== (width * 3 + 1) * height)
    return `${raw.length} bytes inflated, expected ${(width * 3 + 1) * height}`;
  let lit = 0;
  for (let y = 0; y < height; y++) {
    if (raw[y * (width * 3 + 1)] !== 0) return `row ${y} has filter ${raw[y * (width * 3 + 1)]}`;
    for (let i = 1; i <= width * 3; i++) if (raw[y * (width * 3 + 1) + i] !== 0) lit++;
  }
  return lit > 0 ? '' : 'every pixel is black';
}

let failed = true;
try {
  const hello = await call<{ capabilities: string[] }>('hello', { client: 'windows-capture-check' });
  if (!hello.capabilities.includes('capture'))
    throw new Error(`hello lists no capture capability: ${hello.capabilities.join(', ')}`);
  const launched = await call<{ window?: { id: string } }>('apps.launch', {
    command: 'notepad.exe',
    waitForWindowMs: 15_000,
  });
  if (!launched.window) throw new Error('Notepad showed no window within 15 s');
  const t0 = Date.now();
  const r = await call<{
    png: string;
    geometry: { width: number; height: number; scale: number };
    covered?: unknown[];
  }>('screen.capture', { window: launched.window.id, maxEdge: 1280 });
  const png = Buffer.from(r.png, 'base64');
  const why = check(png, r.geometry.width, r.geometry.height);
  process.stdout.write(
    `capture ${r.geometry.width}x${r.geometry.height} (scale ${r.geometry.scale}), ${png.length} bytes, ` +
      `${Date.now() - t0} ms, covered ${r.covered?.length ?? 0}\n`,
  );
  if (process.env['M0_TRANSCRIPT_DIR']) {
    mkdirSync(process.env['M0_TRANSCRIPT_DIR'], { recursive: true });
    writeFileSync(join(process.env['M0_TRANSCRIPT_DIR'], 'notepad-capture.png'), png);
  }
  if (why) throw new Error(why);
  failed = false;
  process.stdout.write('PASS: the helper\'s PNG of Notepad decodes and shows the window\n');
} catch (e) {
  process.stdout.write(`FAIL: ${(e as Error).message}\n`);
} finally {
  child.stdin.end();
}
process.exit(failed ? 1 : 0);
