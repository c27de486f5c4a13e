/**
 * `node dist/test/windows/broken-build.js`: the first-use build with the real csc.exe on a deliberately broken
 * source must fail with csc's own error line for that file (not a warning, not a path of the build folder).
 * Run by .github/workflows/windows.yml; it needs Windows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureHelper, frameworkCsc } from '../../src/drivers/windows/build.js';
import { HELPER_SOURCES } from '../../src/drivers/windows/helper-sources.generated.js';

const dir = mkdtempSync(join(tmpdir(), 'cu-broken-'));
const text = 'namespace ComputerUse.Windows { static class Broken { static int F() { return 1 } } }\n';
const broken = [...HELPER_SOURCES, { name: 'Broken.cs', text }];
try {
  const compiler = frameworkCsc(process.env['WINDIR'] ?? 'C:\\Windows');
  await ensureHelper({ sources: broken, driversDir: dir, compiler });
  process.stdout.write('FAIL: the broken source compiled\n');
  process.exitCode = 1;
} catch (e) {
  const message = (e as Error).message;
  process.stdout.write(`${message}\n`);
  const second = message.split('\n')[1] ?? '';
  const ok = /^Broken\.cs\(1,\d+\): error CS\d{4}: /.test(second) && !message.includes(dir);
  process.stdout.write(ok ? 'PASS: csc\'s own error line, first, without the build folder\n'
    : 'FAIL: expected "Broken.cs(1,N): error CSnnnn: ..." on the second line\n');
  process.exitCode = ok ? 0 : 1;
} finally { rmSync(dir, { recursive: true, force: true }); }
