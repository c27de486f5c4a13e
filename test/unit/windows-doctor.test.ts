/**
 * `computer-use doctor` on Windows (src/doctor/windows.ts), run here with Mono's mcs for csc.exe and the helper's
 * replay backend for UI Automation: each check's verdict and fix on recorded helper answers (a locked desktop, an
 * elevated app beside a normal one, a hostile window title), a compiler error reported with the compiler's own
 * message, a missing csc.exe, and which platform's doctor the command picks.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { monoMcs } from '../../src/drivers/windows/build.js';
import { HELPER_SOURCES } from '../../src/drivers/windows/helper-sources.generated.js';
import { platformDoctor } from '../../src/drivers/doctors.js';
import { desktopCheck, doctorWindows } from '../../src/drivers/windows/doctor.js';

const dir = mkdtempSync(join(tmpdir(), 'cu-win-doctor-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A recording ASSEMBLED here for this test (not from Windows): a medium-integrity host, the secure desktop up. */
function recording(desktop: unknown): string {
  const file = join(dir, `rec-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify({ answers: [
    {
      op: 'hello',
      result: {
        backend: 'replay',
        version: '1.0.0',
        os: 'Microsoft Windows NT 10.0.22631.0 (assembled)',
        self: { pid: 7000, integrity: 0x2000, elevated: false },
      },
    },
    { op: 'desktop', result: desktop },
    {
      op: 'windows',
      result: {
        windows: [
          {
            hwnd: '1',
            title: 'Untitled - Notepad',
            process: { pid: 10, image: 'C:\\Windows\\System32\\notepad.exe', integrity: 0x2000, elevated: false },
          },
          {
            hwnd: '2',
            title: 'Registry Editor\u001b[2J\nok  all fine',
            process: { pid: 11, image: 'C:\\Windows\\regedit.exe', integrity: 0x3000, elevated: true },
          },
          { hwnd: '3', title: 'Task Manager\u2028ok', process: { pid: 12, denied: true } },
        ],
      },
    },
  ], }));
  return file;
}

const byName = (checks: { name: string }[], name: string) => {
  const c = checks.find((x) => x.name === name);
  assert.ok(c, `a ${name} check`);
  return c as { name: string; ok: boolean; detail: string; fix?: string; warn?: boolean };
};

test('doctor builds the helper (then finds it cached), reaches ' +
    'UIA, and names the locked desktop and the elevated apps', { timeout: 180_000 }, async () => {
  const base = { compiler: monoMcs(), driversDir: join(dir, 'drivers'), prebuilt: undefined, sources: HELPER_SOURCES };
  const first = await doctorWindows({ ...base, helperArgs: ['--replay', recording({ open: false, error: 5 })] });
  assert.deepEqual(
    first.map((c) => c.name),
    ['compiler', 'helper build', 'ui automation', 'desktop', 'elevation', 'windows'],
  );
  assert.match(byName(first, 'compiler').detail, /^mcs: mcs$/);
  assert.match(byName(first, 'helper build').detail, /^compiled now in .*\(entry [0-9a-f]{16}\)$/);
  assert.equal(byName(first, 'ui automation').ok, true);
  const desk = byName(first, 'desktop');
  assert.equal(desk.ok, false);
  assert.match(desk.detail, /Windows error 5\).*locked.*UAC/);
  assert.match(desk.fix ?? '', /unlock the screen/);
  assert.match(byName(first, 'elevation').detail, /not elevated, medium integrity/);
  const w = byName(first, 'windows');
  assert.equal(w.ok, true);
  assert.equal(w.warn, true);
  assert.match(
    w.detail,
    /^2 of 3 windows .*\(regedit\.exe, "Task Manager\\nok"\)/,
    'the elevated one by its executable, the unopenable one by its title, escaped',
  );
  assert.doesNotMatch(w.detail, /Notepad|notepad/);
  assert.doesNotMatch(
    JSON.stringify(first),
    /\\u001b|\u2028/,
    'no ANSI escape or line separator from a title reaches the report',
  );
  assert.match(w.fix ?? '', /Run as administrator/);

  const second = await doctorWindows({ ...base, helperArgs: ['--replay', recording({ open: true, name: 'Default' })] });
  assert.match(byName(second, 'helper build').detail, /^cached in /);
  assert.equal(byName(second, 'desktop').ok, true);
});

test('a helper that does not compile is reported with the ' +
    'compiler\'s own message, and the rest is skipped', { timeout: 120_000 }, async () => {
  const broken = [
    ...HELPER_SOURCES,
    { name: 'Broken.cs', text: 'namespace X { class Y { string s = $"interpolated {1}"; } }\n' },
  ];
  const checks = await doctorWindows({
    compiler: monoMcs(),
    driversDir: join(dir, 'broken'),
    prebuilt: undefined,
    sources: broken,
  });
  assert.deepEqual(checks.map((c) => [c.name, c.ok]), [['compiler', true], ['helper build', false]]);
  const build = byName(checks, 'helper build');
  assert.match(build.detail, /did not compile with mcs/);
  assert.match(
    build.detail,
    /Broken\.cs\(1,\d+\): error CS\d+/,
    'the compiler names the file and line (C# 6 interpolation under -langversion:5)',
  );
  assert.match(build.fix ?? '', /COMPUTER_USE_DRIVER_WINDOWS/);
});

test('no csc.exe: the check says where it was looked for and how to get it; a prebuilt helper needs none', async () => {
  const none = await doctorWindows({ compiler: undefined, prebuilt: undefined });
  assert.equal(none.length, 1);
  assert.equal(none[0]!.ok, false);
  assert.match(none[0]!.detail, /Framework64\\v4\.0\.30319\\csc\.exe/);
  assert.match(none[0]!.fix ?? '', /\.NET Framework 4\.8 Advanced Services/);
  const missing = await doctorWindows({ compiler: undefined, prebuilt: join(dir, 'no-such-helper.exe') });
  assert.equal(byName(missing, 'compiler').ok, true);
  assert.equal(byName(missing, 'helper build').ok, false);
  assert.match(byName(missing, 'helper build').detail, /does not exist/);
});

test('desktop verdicts: the user\'s desktop, another desktop by name, a helper that could not tell', () => {
  assert.equal(desktopCheck({ open: true, name: 'Default' }).ok, true);
  const winlogon = desktopCheck({ open: true, name: 'Winlogon' });
  assert.equal(winlogon.ok, false);
  assert.match(winlogon.detail, /"Winlogon"/);
  assert.match(
    desktopCheck({ error: -1, message: 'the recording has no answer for desktop' }).detail,
    /could not tell/,
  );
});

test('the command picks the doctor of the platform it runs on; Linux keeps its own report', () => {
  assert.equal(platformDoctor({}, 'win32')?.platform, 'windows');
  assert.equal(platformDoctor({}, 'darwin')?.platform, 'macos');
  assert.equal(platformDoctor({ COMPUTER_USE_MACOS_AX_LIB: '/x' }, 'linux')?.platform, 'macos');
  assert.equal(platformDoctor({}, 'linux'), undefined);
});
