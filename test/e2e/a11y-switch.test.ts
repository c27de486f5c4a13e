/**
 * Accessibility switch-on in the sandbox desktop: with `org.a11y.Status.IsEnabled`
 * switched off on the sandbox's session bus, doctor and the driver's hello report it off with the one-step
 * fix; `doctor --fix` without a terminal only prints the commands; a declined confirmation changes nothing;
 * a confirmed one switches it on, read back from the bus. The CLI's terminal prompt is answered through a
 * pseudo-terminal (util-linux `script`).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { runDoctor } from '../../src/doctor/doctor.js';
import { a11yStatus, onPath, setA11yEnabled } from '../../src/drivers/linux/checkup/prereq.js';
import type { ConfirmChoice, ConfirmRequest, Confirmer } from '../../src/policy/confirm.js';

const CLI = join(fileURLToPath(new URL('../../../', import.meta.url)), 'dist', 'src', 'hosts', 'cli', 'main.js');

function scripted(answer: ConfirmChoice): Confirmer & { asked: ConfirmRequest[] } {
  const asked: ConfirmRequest[] = [];
  return { interactive: true, asked, confirm: async (r) => { asked.push(r); return answer; } };
}

test('IsEnabled off: doctor and hello report it with the fix, which is applied only after a yes', async (t) => {
  assert.ok(process.env['DBUS_SESSION_BUS_ADDRESS'], 'run inside `computer-use sandbox exec`');
  await setA11yEnabled(false);
  try {
    assert.equal((await a11yStatus()).isEnabled, false, 'the sandbox bus launcher took IsEnabled=false');

    // Doctor (library): reported off, with both commands, and no change.
    const report = await runDoctor();
    const check = report.checks.find((c) => c.id === 'a11y_status')!;
    assert.equal(check.status, 'warn', JSON.stringify(check));
    assert.match(check.summary, /IsEnabled is false/);
    assert.match(check.fix!, /gsettings set org\.gnome\.desktop\.interface toolkit-accessibility true/);
    assert.match(check.fix!, /org\.a11y\.Status IsEnabled '<true>'/);
    assert.match(check.fix!, /computer-use doctor --fix/);
    assert.deepEqual(report.fixes?.map((f) => f.id), ['a11y_status']);
    assert.equal(report.applied, undefined);
    // The driver's hello says the same.
    assert.equal(report.hello?.permissions['toolkit_accessibility'], false);
    assert.equal(report.hello?.facts?.['a11y_is_enabled'], 'false');
    assert.match(report.hello?.facts?.['a11y_fix'] ?? '', /toolkit-accessibility true/);
    assert.equal((await a11yStatus()).isEnabled, false);

    // The CLI with --fix and no terminal: prints the commands, changes nothing.
    const cli = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const p = spawn(process.execPath, [CLI, 'doctor', '--fix'], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      p.stdout.setEncoding('utf8').on('data', (d: string) => { out += d; });
      p.once('exit', (code) => resolve({ code, out }));
    });
    t.diagnostic(cli.out);
    assert.match(cli.out, /fix a11y_status: not_asked/);
    assert.match(cli.out, /gsettings set org\.gnome\.desktop\.interface toolkit-accessibility true/);
    assert.equal((await a11yStatus()).isEnabled, false, 'no terminal: nothing changed');

    // A host's confirmer that says no: nothing changes.
    const no = scripted('deny');
    const declined = await runDoctor({ fix: true, confirmer: no });
    assert.equal(no.asked.length, 1);
    assert.match(no.asked[0]!.message, /toolkit-accessibility true/);
    assert.equal(declined.applied?.[0]?.result, 'declined');
    assert.equal((await a11yStatus()).isEnabled, false, 'declined: nothing changed');

    // A yes: applied, read back on, and doctor's check and hello agree.
    const yes = scripted('allow_once');
    const fixed = await runDoctor({ fix: true, confirmer: yes });
    t.diagnostic(JSON.stringify(fixed.applied));
    assert.equal(fixed.applied?.[0]?.result, 'applied', JSON.stringify(fixed.applied));
    assert.equal(fixed.applied?.[0]?.isEnabledAfter, true);
    assert.equal((await a11yStatus()).isEnabled, true);
    assert.equal(fixed.checks.find((c) => c.id === 'a11y_status')?.status, 'ok');
    assert.equal(fixed.hello?.permissions['toolkit_accessibility'], true);
    assert.equal(fixed.hello?.facts?.['a11y_is_enabled'], undefined);
  } finally {
    await setA11yEnabled(true).catch(() => undefined);
  }
});

test('computer-use doctor --fix on a terminal asks, and "once" (the offered answer) ' +
    'switches accessibility on', { skip: !onPath('script') && 'util-linux script is not installed' }, async () => {
  await setA11yEnabled(false);
  try {
    const out = await new Promise<string>((resolve, reject) => {
      const p = spawn(
        'script',
        ['-qec', `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} doctor --fix`, '/dev/null'],
        { stdio: ['pipe', 'pipe', 'inherit'] },
      );
      let text = '';
      let answered = false;
      const timer = setTimeout(() => { p.kill(); reject(new Error(`no prompt: ${text}`)); }, 60_000);
      p.stdout.setEncoding('utf8').on('data', (d: string) => {
        text += d;
        if (!answered && /\[d\]eny > /.test(text)) { answered = true; p.stdin.write('o\r'); }
      });
      p.once('exit', () => { clearTimeout(timer); p.stdin.end(); resolve(text); });
    });
    assert.match(out, /Switch toolkit accessibility on\?/);
    assert.match(out, /fix a11y_status: applied \(IsEnabled now true\)/, out);
    assert.equal((await a11yStatus()).isEnabled, true);
  } finally {
    await setA11yEnabled(true).catch(() => undefined);
  }
});
