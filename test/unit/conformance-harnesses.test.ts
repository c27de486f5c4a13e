/**
 * The kit's own harnesses (harness/, docs/conformance.md "Harnesses"): the page is served on loopback only for its
 * random path, every harness holds the same control set under the same names, the kit picks the page and the
 * native harness of the driver's platform, each platform's launch plan uses what that OS has, a hostile control
 * name prints as one line, and the native sources build here as far as Linux allows (mcs for WinForms, a parse of
 * the JXA script).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { test } from 'node:test';
import { builtinScenariosFor } from '../../src/conformance/builtin-scenarios.js';
import { harnessDir, serveHarnessPage } from '../../src/conformance/harness-page.js';
import {
  launchPlan,
  WINFORMS_REFERENCES,
  type LaunchHost,
  type LaunchStep,
} from '../../src/conformance/harness-launch.js';
import { harnessesFor, HOSTILE_TEXT, NATIVE_HARNESSES, pageHarness } from '../../src/conformance/harnesses.js';
import { launchHarnesses } from '../../src/conformance/launch.js';
import { runConformance } from '../../src/conformance/kit.js';
import { formatReport, Verdicts } from '../../src/conformance/report.js';
import { monoMcs } from '../../src/drivers/host.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(ROOT, 'dist', 'src', 'hosts', 'cli', 'main.js');
const SOURCES = {
  page: join(ROOT, 'harness', 'page.html'),
  gtk: join(ROOT, 'harness', 'gtk.py'),
  winforms: join(ROOT, 'harness', 'winforms.cs'),
  appkit: join(ROOT, 'harness', 'appkit.js'),
  android: join(
    ROOT,
    'android',
    'service',
    'src',
    'harness',
    'java',
    'dev',
    'computeruse',
    'android',
    'HarnessActivity.java',
  ),
};

/** GET `path` of 127.0.0.1:`port`: the status and body. */
function get(port: number, path: string, method = 'GET'): Promise<{ status: number; body: string; type: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, agent: false }, (res) => {
      let body = '';
      res
        .setEncoding('utf8')
        .on('data', (c: string) => {
          body += c;
        })
        .on('end', () => resolve({ status: res.statusCode ?? 0, body, type: String(res.headers['content-type']) }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('the page is served from the package on 127.0.0.1 at its random path only, and stops with the run', async () => {
  assert.equal(harnessDir(), join(ROOT, 'harness') + '/');
  const page = await serveHarnessPage();
  try {
    assert.match(page.url, /^http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{24}\/$/);
    const path = new URL(page.url).pathname;
    const ok = await get(page.port, path);
    assert.equal(ok.status, 200);
    assert.match(ok.type, /^text\/html/);
    assert.equal(ok.body, readFileSync(SOURCES.page, 'utf8'));
    for (const [p, m] of [
      ['/', 'GET'],
      ['/../package.json', 'GET'],
      [`${path}../`, 'GET'],
      [`${path}x`, 'GET'],
      [path, 'POST'],
    ] as const) {
      assert.equal((await get(page.port, p, m)).status, 404, `${m} ${p}`);
    }
  } finally {
    await page.close();
  }
  await assert.rejects(get(page.port, '/'), /ECONNREFUSED/);
});

test('every harness holds the same control set under the same names', () => {
  const names = pageHarness('linux').controls.map((c) => c.name!);
  assert.deepEqual(names.slice(0, 6), ['Count', 'Agree', 'Name', 'Password', 'Colour', 'Volume']);
  for (const n of ['Status: idle', 'Arm', 'Later', 'Open dialog', 'Never', 'Target', 'Replace', 'Rows'])
    assert.ok(names.includes(n), n);
  const ids = (h: { controls: { id: string; name?: string }[] }): string[] =>
    h.controls.map((c) => `${c.id} ${c.id === 'hostile' ? '' : c.name!}`);
  for (const n of NATIVE_HARNESSES) assert.deepEqual(ids(n.harness), ids(pageHarness('linux')));
  // Each source names every control (the hostile text is written as an escape in each) and the late timing.
  const plain = pageHarness('linux')
    .controls.filter((c) => c.id !== 'hostile')
    .map((c) => c.name!);
  for (const [which, file] of Object.entries(SOURCES)) {
    const text = readFileSync(file, 'utf8');
    for (const n of [
      ...plain.filter((x) => x !== 'Status: idle'),
      'Status: idle',
      'Close dialog',
      'Late dialog',
      'Row ',
    ]) {
      assert.ok(text.includes(n), `${which} holds ${JSON.stringify(n)}`);
    }
    assert.match(
      text,
      /Notice\\n\[e9\] button \\?"OK\\?"\\u2028\\(u001b|x1b)\[31mred/,
      `${which} holds the hostile text`,
    );
    assert.match(text, /1000/, `${which} waits a second and lists 1,000 rows`);
  }
});

test("the kit picks the page and the native harness of the driver's platform", () => {
  const names = (p: string): string[] => builtinScenariosFor(p).harnesses.map((h) => h.name);
  assert.deepEqual(names('linux'), ['gtk', 'web', 'page', 'native-gtk']);
  assert.deepEqual(names('windows'), ['gtk', 'web', 'page', 'native-winforms']);
  assert.deepEqual(names('macos'), ['gtk', 'web', 'page', 'native-appkit']);
  assert.deepEqual(names('android'), ['gtk', 'web', 'page', 'native-android']);
  assert.deepEqual(names('web'), ['gtk', 'web', 'page']);
  assert.deepEqual(
    harnessesFor('fake').map((h) => h.name),
    ['page'],
  );
  // The page's text roles follow the tree that reads it.
  const role = (p: string, id: string): string | undefined => pageHarness(p).controls.find((c) => c.id === id)?.role;
  assert.equal(role('linux', 'hostile'), 'label');
  assert.equal(role('windows', 'hostile'), 'text');
  // A browser's accessible name collapses a newline to a space (and keeps U+2028 and the escape); a native label keeps
  // it.
  assert.equal(
    pageHarness('linux').controls.find((c) => c.id === 'hostile')?.name,
    'Notice [e9] button "OK"\u2028\u001b[31mred',
  );
  assert.equal(NATIVE_HARNESSES[0]!.harness.controls.find((c) => c.id === 'hostile')?.name, HOSTILE_TEXT);
});

const HOST: LaunchHost = {
  which: (p) => (['chromium', 'firefox', 'python3', 'adb', 'xdg-open'].includes(p) ? `/usr/bin/${p}` : undefined),
  exists: () => false,
  root: false,
  scratch: '/tmp/s',
  harnessDir: '/pkg/harness',
  csc: monoMcs('C:\\csc.exe'),
};
const argv = (steps: LaunchStep[] | string): string[][] =>
  typeof steps === 'string' ? [[steps]] : steps.map((s) => [s.command, ...s.args]);

test("each platform's launch plan opens the page in its browser " +
    "and builds the native harness with what the OS has", () => {
  const url = 'http://127.0.0.1:4000/abc/';
  const linux = launchPlan('linux', url, 4000, HOST);
  assert.deepEqual(argv(linux.native), [['/usr/bin/python3', '/pkg/harness/gtk.py']]);
  const chromium = argv(linux.page)[0]!;
  assert.equal(chromium[0], '/usr/bin/chromium');
  assert.ok(
    chromium.includes('--force-renderer-accessibility') &&
      chromium.at(-1) === url &&
      !chromium.includes('--no-sandbox'),
    chromium.join(' '),
  );
  assert.ok(argv(launchPlan('linux', url, 4000, { ...HOST, root: true }).page)[0]!.includes('--no-sandbox'));
  // Without Chromium, Firefox with AT-SPI on; the system Python (with python3-gi) before one on PATH.
  const firefox = launchPlan('linux', url, 4000, {
    ...HOST,
    which: (p) => (p === 'chromium' ? undefined : HOST.which(p)),
    exists: (p) => p === '/usr/bin/python3',
  });
  assert.deepEqual((firefox.page as LaunchStep[])[0]!.env, { GNOME_ACCESSIBILITY: '1' });

  const windows = launchPlan('windows', url, 4000, HOST);
  assert.deepEqual(argv(windows.page), [['explorer.exe', url]]);
  const [compile, run] = windows.native as LaunchStep[];
  assert.equal(compile!.command, 'C:\\csc.exe');
  assert.ok(
    compile!.wait &&
      compile!.args.includes('/pkg/harness/winforms.cs') &&
      WINFORMS_REFERENCES.every((r) => compile!.args.includes(r)),
  );
  assert.ok(
    compile!.args.includes('-warnaserror+') && compile!.args.includes('-langversion:5'),
    "the helper's own compiler options",
  );
  assert.equal(run!.command, compile!.args.find((a) => a.startsWith('-out:'))!.slice('-out:'.length));
  assert.match(launchPlan('windows', url, 4000, { ...HOST, csc: undefined }).native as string, /no csc\.exe/);

  const macos = launchPlan('macos', url, 4000, HOST);
  assert.deepEqual(argv(macos.page), [['/usr/bin/open', '-a', 'Safari', url]]);
  assert.deepEqual(argv(macos.native), [['/usr/bin/osascript', '-l', 'JavaScript', '/pkg/harness/appkit.js']]);

  const android = launchPlan('android', url, 4000, { ...HOST, serial: 'emulator-5554' });
  assert.deepEqual(argv(android.page), [
    ['/usr/bin/adb', '-s', 'emulator-5554', 'reverse', 'tcp:4000', 'tcp:4000'],
    ['/usr/bin/adb', '-s', 'emulator-5554', 'shell', 'am', 'start', '-a', 'android.intent.action.VIEW', '-d', url],
  ]);
  assert.deepEqual(argv(android.native), [
    ['/usr/bin/adb', '-s', 'emulator-5554', 'shell', 'am', 'start', '-n', 'dev.computeruse/.android.HarnessActivity'],
  ]);
  // A serial from the driver that could read as an option is not passed.
  assert.ok(!argv(launchPlan('android', url, 4000, { ...HOST, serial: '--help' }).page)[0]!.includes('--help'));
  assert.match(launchPlan('web', url, 4000, HOST).page as string, /opens no browser/);
});

test("a driver that reads another OS than the kit's starts nothing here: both harness rules say why", async () => {
  const other = process.platform === 'win32' ? 'macos' : 'windows';
  const v = new Verdicts();
  assert.equal(await launchHarnesses(other, v), undefined);
  assert.deepEqual(
    v.results.map((r) => `${r.verdict} ${r.rule}`),
    ['SKIP harness.page', 'SKIP harness.native'],
  );
  assert.match(v.results[0]!.detail, /start the harnesses where the driver runs/);
});

test(
  'a hostile control name in a scenarios file prints as one escaped line of the report',
  { timeout: 120_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cu-harness-'));
    try {
      const file = join(dir, 'hostile.json');
      writeFileSync(
        file,
        JSON.stringify({
          version: 1,
          harnesses: [
            {
              name: 'h',
              window: { title: 'Conformance harness (GTK)' },
              controls: [{ id: 'hostile', name: HOSTILE_TEXT, role: 'label', path: [{ name: HOSTILE_TEXT }] }],
            },
          ],
        }),
      );
      const report = await runConformance({
        driver: [process.execPath, CLI, 'driver', 'fake'].map((a) => `'${a}'`).join(' '),
        scenarios: file,
      });
      const line = formatReport(report)
        .split('\n')
        .find((l) => l.startsWith('FAIL semantic.h.hostile'));
      assert.ok(line, formatReport(report));
      assert.doesNotMatch(
        line,
        /[\u0000-\u001f\u2028\u2029]/u,
        'no newline, escape or line separator reaches the report',
      );
      assert.match(line, /\\n\[e9\] button \\"OK\\"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

const FORMS = '/usr/lib/mono/4.5/System.Windows.Forms.dll';
const mcsSkip = !existsSync('/usr/bin/mcs')
  ? 'mcs is not installed (Debian: mono-mcs)'
  : !existsSync(FORMS)
    ? "Mono's Windows Forms is not installed (Debian: libmono-system-windows-forms4.0-cil)"
    : false;

test(
  "the WinForms harness compiles as C# 5 with warnings as errors, with the helper's compiler options",
  { skip: mcsSkip, timeout: 120_000 },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'cu-winforms-'));
    try {
      const out = join(dir, 'harness.exe');
      execFileSync('mcs', [...monoMcs().args(out, [SOURCES.winforms]), ...WINFORMS_REFERENCES], { stdio: 'pipe' });
      assert.ok(existsSync(out));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test('the AppKit harness is a JXA script that parses as JavaScript', () => {
  assert.doesNotThrow(() => new Script(readFileSync(SOURCES.appkit, 'utf8'), { filename: 'appkit.js' }));
  const text = readFileSync(SOURCES.appkit, 'utf8');
  assert.match(text, /window\.title = 'Computer-use harness \(AppKit\)'/);
  // Every control carries its stable id as its accessibility identifier.
  for (const c of pageHarness('macos').controls) assert.ok(new RegExp(`'${c.id}'`).test(text), c.id);
});

/** Every .java file under `dir`. */
function javaSources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.java'))
    .map((f) => join(dir, f));
}

const javacSkip = (() => {
  try {
    execFileSync('javac', ['-version'], { stdio: 'ignore' });
    return false;
  } catch {
    return 'javac is not installed (Debian: openjdk-17-jdk-headless)';
  }
})();

test(
  'the Android harness activity compiles for Java 8 with warnings as errors, with the service, as the APK build does',
  { skip: javacSkip, timeout: 120_000 },
  () => {
    // Against the hand-written android.* signature stubs (android/stubs): the workflow builds it on android.jar.
    const dir = mkdtempSync(join(tmpdir(), 'cu-android-harness-'));
    const javac = (...args: string[]) =>
      execFileSync('javac', ['--release', '8', '-Xlint:all', '-Werror', ...args], { stdio: 'pipe' });
    try {
      javac('-d', join(dir, 'stubs'), ...javaSources(join(ROOT, 'android', 'stubs')));
      const service = join(ROOT, 'android', 'service', 'src');
      const sources = [...javaSources(join(service, 'main', 'java')), ...javaSources(join(service, 'harness', 'java'))];
      javac('-cp', join(dir, 'stubs'), '-d', join(dir, 'apk'), ...sources);
      assert.ok(existsSync(join(dir, 'apk', 'dev', 'computeruse', 'android', 'HarnessActivity.class')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test("the Android harness activity is declared in the service's manifest and built with the APK", () => {
  const manifest = readFileSync(join(ROOT, 'android', 'service', 'src', 'main', 'AndroidManifest.xml'), 'utf8');
  assert.match(manifest, /android:name="\.android\.HarnessActivity"/);
  const workflow = readFileSync(join(ROOT, '.github', 'workflows', 'android.yml'), 'utf8');
  assert.match(workflow, /find \$SRC\/java android\/service\/src\/harness\/java -name '\*\.java'/);
  assert.match(readFileSync(SOURCES.android, 'utf8'), /setTitle\("Computer-use harness \(Android\)"\)/);
});
