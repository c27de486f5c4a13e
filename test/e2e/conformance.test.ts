/**
 * The conformance kit (doctor --conformance) against the real drivers in the sandbox desktop: the Linux driver
 * on the GTK harness (test/apps/conformance-harness.py) and the Chromium DevTools driver on the web harness
 * (test/conformance/harness.html). Every rule must pass, and the harness rules must have run (not SKIP). Then the
 * kit's own harnesses (harness/): launched by the kit for the Linux driver (the page served on loopback and opened
 * in Chromium, read through AT-SPI; the GTK app), and the page read through the Chromium DevTools driver.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import { runConformance } from '../../src/conformance/kit.js';
import { serveHarnessPage } from '../../src/conformance/harness-page.js';
import { formatReport, type ConformanceReport } from '../../src/conformance/report.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const driverCommand = (platform: string, ...args: string[]): string =>
  [process.execPath, join(ROOT, 'dist', 'src', 'drivers', platform, 'main.js'), ...args].map((a) => `'${a}'`).join(' ');

const started: ChildProcess[] = [];
after(() => { for (const c of started) { try { process.kill(-c.pid!, 'SIGKILL'); } catch { /* gone */ } } });

/** Starts a process in its own group and resolves once its output matches `ready`. */
function startUntil(
  command: string,
  args: string[],
  ready: RegExp,
  stream: 'stdout' | 'stderr',
): Promise<{ proc: ChildProcess; match: RegExpExecArray }> {
  const proc = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  started.push(proc);
  let seen = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} not ready within 30 s:\n${seen}`)), 30_000);
    proc[stream]!.setEncoding('utf8').on('data', (d: string) => {
      seen = (seen + d).slice(-8000);
      const m = ready.exec(seen);
      if (m) { clearTimeout(timer); resolve({ proc, match: m }); }
    });
    proc.once('exit', (code) => { clearTimeout(timer); reject(new Error(`${command} exited (${code}):\n${seen}`)); });
  });
}

/** Ends a started process group and waits for its leader to exit. */
async function stop(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  try { process.kill(-proc.pid!, 'SIGTERM'); } catch { return; }
  const timer = setTimeout(() => { try { process.kill(-proc.pid!, 'SIGKILL'); } catch { /* gone */ } }, 3000);
  await exited;
  clearTimeout(timer);
}

/** No rule failed and every harness rule ran, but the ones named in `skips` (with the reason the kit gave). */
function assertConforms(report: ConformanceReport, harness: string, skips: string[] = []): void {
  const text = formatReport(report);
  const failed = report.results.filter((r) => r.verdict === 'FAIL');
  assert.deepEqual(failed, [], text);
  const harnessRules = report.results.filter((r) => r.rule.startsWith(`semantic.${harness}.`));
  assert.ok(harnessRules.length >= 10, `the ${harness} harness ran:\n${text}`);
  assert.deepEqual(
    harnessRules.filter((r) => r.verdict !== 'PASS').map((r) => r.rule),
    skips.map((s) => `semantic.${harness}.${s}`),
    text,
  );
  for (const rule of ['disabled', 'stale-ref'])
    assert.ok(
      harnessRules.some((r) => r.rule === `semantic.${harness}.${rule}`),
      `${rule} ran:\n${text}`,
    );
}

test('the Linux driver passes the kit on the GTK harness', { timeout: 180_000 }, async () => {
  const { proc } = await startUntil(
    '/usr/bin/python3',
    [join(ROOT, 'test', 'apps', 'conformance-harness.py')],
    /ready/,
    'stdout',
  );
  try {
    const report = await runConformance({ driver: driverCommand('linux') });
    assertConforms(report, 'gtk');
    assert.equal(report.results.find((r) => r.rule === 'semantic.gtk.unfocused')?.verdict, 'PASS');
  } finally { await stop(proc); }
});

test('the Chromium DevTools driver passes the kit on the web harness', { timeout: 180_000 }, async () => {
  const profile = mkdtempSync(join(tmpdir(), 'cu-chromium-'));
  const page = pathToFileURL(join(ROOT, 'test', 'conformance', 'harness.html')).href;
  const { proc, match } = await startUntil(
    '/usr/bin/chromium',
    [
      '--no-sandbox',
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-gpu',
      '--password-store=basic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      `--user-data-dir=${profile}`,
      '--remote-debugging-port=0',
      page,
    ],
    /DevTools listening on ws:\/\/([\d.]+:\d+)\//,
    'stderr',
  );
  try {
    const report = await runConformance({ driver: driverCommand('cdp', '--endpoint', `http://${match[1]!}`) });
    // DevTools input goes to the page itself, not to whatever holds the focus: no focus rule to keep.
    assertConforms(report, 'web', ['unfocused']);
  } finally {
    await stop(proc);
    rmSync(profile, { recursive: true, force: true });
  }
});

test('the kit launches its page and GTK harness for ' +
    'the Linux driver, and the driver passes both', { timeout: 300_000 }, async () => {
  const report = await runConformance({ driver: driverCommand('linux'), launch: true });
  const text = formatReport(report);
  assert.equal(report.results.find((r) => r.rule === 'harness.page')?.verdict, 'PASS', text);
  assert.equal(report.results.find((r) => r.rule === 'harness.native')?.verdict, 'PASS', text);
  assertConforms(report, 'page');
  assertConforms(report, 'native-gtk');
  for (const h of ['page', 'native-gtk']) {
    for (const rule of [
      'count.click#2',
      'later.click',
      'open-dialog.click',
      'colour.select',
      'volume.set_value',
      'secret',
      'hostile',
      'rows',
      'unfocused',
    ]) {
      assert.equal(
        report.results.find((r) => r.rule === `semantic.${h}.${rule}`)?.verdict,
        'PASS',
        `${h}.${rule}\n${text}`,
      );
    }
  }
});

test('the Chromium DevTools driver passes the kit on the served harness page', { timeout: 180_000 }, async () => {
  const page = await serveHarnessPage();
  const profile = mkdtempSync(join(tmpdir(), 'cu-chromium-'));
  const { proc, match } = await startUntil(
    '/usr/bin/chromium',
    [
      '--no-sandbox',
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-gpu',
      '--password-store=basic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      `--user-data-dir=${profile}`,
      '--remote-debugging-port=0',
      page.url,
    ],
    /DevTools listening on ws:\/\/([\d.]+:\d+)\//,
    'stderr',
  );
  try {
    const report = await runConformance({ driver: driverCommand('cdp', '--endpoint', `http://${match[1]!}`) });
    // DevTools input goes to the page itself, not to whatever holds the focus: no focus rule to keep.
    assertConforms(report, 'page', ['unfocused']);
  } finally {
    await stop(proc);
    await page.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
