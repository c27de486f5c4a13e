/**
 * `doctor --report`: the shareable report holds no private string (a user name, a home path, a host name, a
 * serial, a secret-looking window title of another app, a token) in either file, and it runs against each fake
 * platform: the macOS driver on the fake AX library, the Android driver on the fake phone, the Windows driver's
 * helper replaying under Mono.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, test } from 'node:test';
import { buildReport, writeReport, type ShareableReport } from '../../src/doctor/report.js';
import { allowedFacts, scrubber } from '../../src/doctor/report-privacy.js';
import { reportChecks } from '../../src/doctor/report-command.js';
import { fakeTasks, type SmokeTask } from '../../src/doctor/smoke-tasks.js';
import { monoMcs } from '../../src/drivers/windows/build.js';
import { HELPER_SOURCES } from '../../src/drivers/windows/helper-sources.generated.js';
import { doctorWindows } from '../../src/drivers/windows/doctor.js';
import { buildFakeAx, MACOS_FIXTURES } from '../macos/fake-ax.js';
import { FakePhone } from '../android/phone.js';

const CLI = fileURLToPath(new URL('../../src/hosts/cli/main.js', import.meta.url));
const HARNESS = fileURLToPath(new URL('../../../test/fixtures/linux/conformance-harness.json', import.meta.url));
const NOTEPAD = fileURLToPath(new URL('../../../test/fixtures/windows/notepad.helper.json', import.meta.url));
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'cu-report-test-'));
after(() => { if (!process.env["KEEP"]) rmSync(dir, { recursive: true, force: true }); });

/** Both files of a report, as written. */
function readBoth(outDir: string): { md: string; json: string; report: ShareableReport } {
  const md = readFileSync(join(outDir, 'computer-use-report.md'), 'utf8');
  const json = readFileSync(join(outDir, 'computer-use-report.json'), 'utf8');
  return { md, json, report: JSON.parse(json) as ShareableReport };
}

/** Every section a report has. */
function assertSections(md: string, report: ShareableReport, platform: string): void {
  for (const h of ['## Doctor checks', '## Conformance kit', '## Smoke task', '## Send it'])
    assert.ok(md.includes(h), `${h} missing:\n${md}`);
  assert.equal(report.os.platform, platform);
  assert.equal(report.node, process.version);
  assert.equal(report.driver.platform, platform, JSON.stringify(report.driver));
  assert.match(report.driver.protocolVersion ?? '', /^\d+\.\d+/);
  assert.ok(report.checks.length > 0);
  assert.ok(report.conformance.passed > 0, JSON.stringify(report.conformance));
  assert.ok(report.smoke.steps.length > 0);
  for (const s of report.smoke.steps) assert.equal(typeof s.ms, 'number');
  assert.match(report.send, /open an issue/i);
  assert.match(md, /attach/);
}

test('names are scrubbed as whole words, paths in every spelling, tokens by their look; facts by an allow-list', () => {
  const scrub = scrubber({
    home: 'C:\\Users\\José Smith',
    username: 'jsmith',
    hostname: 'VM',
    strings: ['Inbox — Divorce lawyer'],
    serials: ['R58M12ABCDE'],
  });
  const out = scrub(
    'C:\\Users\\José Smith\\AppData and C:/Users/José Smith/x and file:///C:/Users/Jos%C3%A9%20Smith/y; ' +
      'jsmith@VM runs JVMs; "Inbox — Divorce lawyer"; phone R58M12ABCDE; key sk-live-4f9a8b7c6d5e4f3a2b1c; password=hunter2 ok',
  );
  for (const gone of ['José', 'Jos%C3%A9', 'jsmith', 'Divorce', 'R58M12ABCDE', 'sk-live', 'hunter2'])
    assert.ok(!out.includes(gone), `${gone} in ${out}`);
  assert.match(out, /~\\AppData and ~\/x/);
  assert.match(out, /<user>@<host> runs JVMs/, 'a host name inside a word is left alone');
  assert.match(out, /phone sha256:[0-9a-f]{12}/);
  assert.equal(
    scrubber({ home: '/root', username: 'root', hostname: 'h', strings: [] })('The X root window'),
    'The X root window',
    'an account every machine has names nobody',
  );
  assert.deepEqual(
    allowedFacts({ model: 'Pixel 8', endpoint: 'http://10.0.0.5:9222', device_name: "José's phone", serial: 'R58M' }),
    { model: 'Pixel 8', serial_hash: allowedFacts({ serial: 'R58M' })['serial_hash'] },
  );
});

test('a report planted with a user name, a home path, a host ' +
    'name, a secret title and a token shows none of them', { timeout: 120_000 }, async () => {
  const secretTitle = 'Inbox (3) — Divorce lawyer re: custody';
  const home = '/home/jsmith';
  // The fake driver shows one window: another app's, with the secret title and a path under the home.
  const fixture = JSON.parse(readFileSync(HARNESS, 'utf8')) as {
    window: Record<string, unknown>;
    root: Record<string, unknown>;
  };
  fixture.window = { ...fixture.window, title: secretTitle, app: 'mailer', executable: `${home}/.local/bin/mailer` };
  fixture.root = { ...fixture.root, name: secretTitle };
  const file = join(dir, 'planted.json');
  writeFileSync(file, JSON.stringify(fixture));
  const smoke: SmokeTask = {
    title: 'read the apps', apps: ['notes'],
    async run(step) {
      await step('list the apps', 'computer_apps', {});
      // A check whose message quotes what it saw, as a failing check would.
      await step(
        'read the mailer',
        'computer_observe',
        { app: 'mailer' },
        (r) => `saw ${r.text.split('\n').slice(0, 3).join(' ')}`,
      );
      await step('act on a ref that never existed', 'computer_act', { actions: [{ ref: 'e999', op: 'click' }] });
    },
  };
  const report = await buildReport({
    platform: 'fake', driver: { command: process.execPath, args: [CLI, 'driver', 'fake', '--fixture', file] }, smoke,
    privateFacts: { username: 'jsmith', home, hostname: 'jsmith-laptop' },
    checks: async () => reportChecks([
      { name: 'apps', ok: true, detail: `found ${home}/.config/computer-use on jsmith-laptop for jsmith` },
      { name: 'window', ok: true, warn: true, detail: `focused: "${secretTitle}"` },
      { name: 'token', ok: false, detail: 'env has OPENAI_API_KEY=sk-proj-8f7e6d5c4b3a29180f7e6d5c4b3a2918' },
    ]),
  });
  const out = join(dir, 'planted');
  writeReport(report, out);
  const { md, json } = readBoth(out);
  for (const text of [md, json]) {
    for (const gone of ['jsmith', home, 'jsmith-laptop', 'Divorce', 'custody', 'sk-proj', '8f7e6d5c4b3a2918']) {
      assert.ok(!text.includes(gone), `${JSON.stringify(gone)} is in the report:\n${text}`);
    }
  }
  assert.match(json, /found ~\/.config\/computer-use on <host> for <user>/);
  assert.match(json, /focused: \\"<private>\\"/);
  const steps = report.smoke.steps;
  assert.deepEqual(steps.map((s) => s.ok), [true, false, false]);
  assert.equal(steps[1]!.code, 'smoke_check');
  assert.equal(steps[2]!.status, 'error');
  assert.ok(steps[2]!.code && steps[2]!.message, JSON.stringify(steps[2]));
});

test('macOS on the fake AX library: the report runs through the CLI', { timeout: 240_000 }, async () => {
  const lib = buildFakeAx();
  const out = join(dir, 'macos');
  const r = await run(process.execPath, [CLI, 'doctor', '--report', '--out', out], {
    env: {
      ...process.env,
      COMPUTER_USE_HOME: join(dir, 'home-mac'),
      COMPUTER_USE_MACOS_AX_LIB: lib,
      FAKE_AX_TREE: join(MACOS_FIXTURES, 'textedit.json'),
    },
  }).catch((e: { stdout: string; stderr: string }) => e);
  assert.match(
    r.stdout,
    /Report written:\n.*computer-use-report\.md\n.*computer-use-report\.json/,
    r.stdout + r.stderr,
  );
  const { md, report } = readBoth(out);
  assertSections(md, report, 'macos');
  assert.equal(report.smoke.task, fakeTasks.macos.title);
  assert.ok(report.smoke.steps.every((s) => s.ok), md);
});

test('Android on the fake phone: the report runs ' +
    'through the CLI and shows the serial only hashed', { timeout: 240_000 }, async () => {
  const phone = new FakePhone(
    FakePhone.screen('network-internet.xml', 'com.android.settings.Settings$NetworkDashboardActivity'),
    'R58M12ABCDE',
  );
  const port = await phone.start();
  try {
    const out = join(dir, 'android');
    const r = await run(process.execPath, [CLI, 'doctor', '--report', '--device', 'adb', '--out', out], {
      env: {
        ...process.env,
        COMPUTER_USE_HOME: join(dir, 'home-android'),
        ADB_SERVER_SOCKET: `tcp:127.0.0.1:${port}`,
        COMPUTER_USE_REPORT_FAKE: '1',
      },
    }).catch((e: { stdout: string; stderr: string }) => e);
    assert.match(r.stdout, /Report written:/, r.stdout + r.stderr);
    const { md, json, report } = readBoth(out);
    assertSections(md, report, 'android');
    assert.ok(report.smoke.steps.every((s) => s.ok), md);
    assert.ok(report.checks.some((c) => c.name === 'phone' && /sha256:[0-9a-f]{12}/.test(c.detail)), md);
    for (const text of [md, json]) assert.ok(!text.includes('R58M12ABCDE'), text);
    assert.equal(
      phone.log.some((argv) => argv.join(' ').includes('svc wifi')),
      false,
      'the Wi-Fi switch was never changed',
    );
  } finally { await phone.stop(); }
});

test('Windows (the helper replaying under Mono): the report ' +
    'runs, and another app\'s window title stays out', { timeout: 300_000 }, async () => {
  const home = join(dir, 'home-win');
  const driver = {
    command: process.execPath,
    args: [CLI, 'driver', 'windows', '--replay', NOTEPAD],
    env: { COMPUTER_USE_HOME: home },
  };
  const report = await buildReport({
    platform: 'windows', driver, smoke: fakeTasks.windows,
    checks: async () => reportChecks(await doctorWindows({ compiler: monoMcs(), driversDir: join(home, 'drivers'), prebuilt: undefined,
      sources: HELPER_SOURCES, helperArgs: ['--replay', NOTEPAD] })),
  });
  const out = join(dir, 'windows');
  writeReport(report, out);
  const { md, json } = readBoth(out);
  assertSections(md, report, 'windows');
  assert.ok(report.smoke.steps.every((s) => s.ok), md);
  // The recording's other window, an elevated console, is not the smoke task's.
  for (const text of [md, json]) assert.ok(!text.includes('Administrator: Command Prompt'), text);
});
