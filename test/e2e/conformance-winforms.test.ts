/**
 * The kit's WinForms harness (harness/winforms.cs) as far as Linux can take it: compiled by Mono's mcs with the
 * Windows helper's compiler options, then run under Mono on the sandbox's X display until it shows its window
 * (it prints "ready" from its Shown event). Building its 1,000 rows, its late timers and its layout must not throw
 * before Windows ever runs it; Mono's Windows Forms has no accessibility bridge, so nothing here reads its tree.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { WINFORMS_REFERENCES } from '../../src/conformance/harness-launch.js';
import { monoMcs } from '../../src/drivers/host.js';

const SOURCE = fileURLToPath(new URL('../../../harness/winforms.cs', import.meta.url));
const FORMS = '/usr/lib/mono/4.5/System.Windows.Forms.dll';
const skip = !['/usr/bin/mcs', '/usr/bin/mono', FORMS].every(existsSync)
  ? 'Mono with Windows Forms is not installed (Debian: mono-mcs mono-runtime libmono-system-windows-forms4.0-cil)'
  : !process.env['DISPLAY']
    ? 'no X display (run it in the sandbox desktop)'
    : false;

/** Runs `exe` under Mono until it prints "ready" or exits: what it printed and how it ended. */
function runUntilReady(exe: string): Promise<{ ready: boolean; output: string }> {
  const proc = spawn('/usr/bin/mono', [exe], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve) => {
    // A bound so a harness that hangs fails with what it printed; not a timing assertion.
    const timer = setTimeout(() => { output += '\n(no window within 90 s)'; done(false); }, 90_000);
    const done = (ready: boolean): void => {
      clearTimeout(timer);
      proc.stdout.removeAllListeners('data');
      proc.stderr.removeAllListeners('data');
      proc.removeAllListeners('exit');
      if (proc.exitCode === null) proc.kill('SIGTERM');
      resolve({ ready, output });
    };
    const keep = (d: Buffer): void => {
      output = (output + d.toString('utf8')).slice(-8000);
      if (/^ready$/m.test(output)) done(true);
    };
    proc.stdout.on('data', keep);
    proc.stderr.on('data', keep);
    proc.once('exit', (code, signal) => { output += `\n(exited: ${code ?? signal})`; done(false); });
  });
}

test('the WinForms harness (mcs) runs under Mono until it shows its window', { skip, timeout: 180_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-winforms-run-'));
  try {
    const exe = join(dir, 'harness.exe');
    execFileSync('/usr/bin/mcs', [...monoMcs().args(exe, [SOURCE]), ...WINFORMS_REFERENCES], { stdio: 'pipe' });
    const { ready, output } = await runUntilReady(exe);
    assert.ok(ready, `the harness did not show its window:\n${output}`);
    // An unhandled exception in a handler prints Mono's trace but may not end the process.
    assert.doesNotMatch(output, /Unhandled Exception|System\.\w+Exception/, output);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
