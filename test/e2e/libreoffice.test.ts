/**
 * LibreOffice Calc (gtk3 VCL plugin): the sheet's table reports 2³¹−1 children. Observing it must not hang
 * the app: the reader never asks for that child list, reads a bounded range by index, and says so.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { freshCalcProfile } from './grid/calc.js';
import { readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, test } from 'node:test';
import { LinuxDriver } from '../../src/drivers/linux/driver.js';
import { targetOf } from '../../src/drivers/linux/tree/reader.js';
import { walk, type AppInfo, type RawNode } from '../../src/engine/node.js';
import type { Computer } from '../../src/index.js';
import { formatApps } from '../../src/tools/format.js';
import { E2E_APPS, killApp, ok, openComputer } from './helpers.js';

/** The launcher script (oosplash): it starts soffice.bin, restarting it once on a fresh profile. */
const SOFFICE = 'soffice';
let computer: Computer;
const pids: number[] = [];

/** Resident memory of a process in MB, from /proc. */
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m?.[1] ? Number(m[1]) / 1024 : 0;
}

before(async () => {
  process.env['SAL_USE_VCLPLUGIN'] = 'gtk3';
  // soffice is a shell script: the policy knows it as its interpreter and the script.
  computer = await openComputer({
    allowApps: [
      ...E2E_APPS,
      'soffice',
      'soffice.bin',
      `${basename(realpathSync('/bin/sh'))} ${realpathSync('/usr/bin/soffice')}`,
    ],
  });
});
after(async () => {
  await computer?.close();
  for (const pid of pids) await killApp(pid);
});

test('Calc: observing a sheet of 2³¹−1 cells answers in time, ' +
    'says what range it shows, and leaves the app answering', { timeout: 120_000 }, async () => {
  const profile = await freshCalcProfile();
  // soffice restarts itself once on a fresh profile, so the pid to watch is the one that registers.
  const child = spawn(
    SOFFICE,
    ['--calc', '--norestore', '--nologo', '--nofirststartwizard', `-env:UserInstallation=file://${profile}`],
    { detached: true, stdio: 'ignore', env: { ...process.env, SAL_USE_VCLPLUGIN: 'gtk3' } },
  );
  child.unref();
  if (child.pid) pids.push(child.pid);
  let pid = 0;
  for (let i = 0; i < 120 && !pid; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const m = /^soffice\S* pid=(\d+)\n  /m.exec(ok(await computer.tools.apps({})));
    if (m?.[1]) pid = Number(m[1]);
  }
  assert.ok(pid > 0, 'Calc never showed a window');
  pids.push(pid);
  // Let the start-up settle: the first observe must meet the sheet, not a splash.
  await new Promise((r) => setTimeout(r, 3000));
  const rssBefore = rssMb(pid);
  const t0 = performance.now();
  const first = await computer.tools.observe({ full: true, app: 'soffice' });
  const ms1 = Math.round(performance.now() - t0);
  const t1 = performance.now();
  const second = await computer.tools.observe({ full: true, app: 'soffice' });
  const ms2 = Math.round(performance.now() - t1);
  const apps = ok(await computer.tools.apps({}));
  const rssAfter = rssMb(pid);
  console.log(`calc observe ${ms1} ms, ${ms2} ms; rss ${Math.round(rssBefore)} → ${Math.round(rssAfter)} MB`);
  // The app still answers: both observes succeed and computer_apps lists it, not as busy.
  assert.equal(first.isError, false, first.text);
  assert.equal(second.isError, false, second.text);
  assert.match(second.text, /app soffice/);
  assert.match(apps, new RegExp(`pid=${pid}`), apps);
  assert.doesNotMatch(apps, /busy/, apps);
  assert.ok(ms1 < 10_000 && ms2 < 10_000, `observes took ${ms1} and ${ms2} ms`);
  assert.ok(
    rssAfter - rssBefore < 500,
    `soffice.bin grew from ${Math.round(rssBefore)} MB to ${Math.round(rssAfter)} MB`,
  );
  // The sheet is there, and the snapshot says which of its cells it shows.
  assert.match(second.text, /table/, second.text);
  // (Since the grid work: the visible cells, read by coordinate, of the sheet's rows × columns.)
  assert.match(second.text, /table "Sheet Sheet1".* cells A1:[A-Z]+\d+ of 1,048,576 × 16,384/, second.text);
});

test('Calc wedged by another client\'s unbounded GetChildren is ' +
    'listed as busy, and reads fail fast with a clear error', { timeout: 120_000 }, async () => {
  const driver = await LinuxDriver.start();
  try {
    const h = driver.handlers() as unknown as Record<string, (p: unknown) => Promise<any>>;
    const profile = await freshCalcProfile();
    const child = spawn(SOFFICE, ['--calc', '--norestore', '--nologo', `-env:UserInstallation=file://${profile}`],
      { detached: true, stdio: 'ignore', env: { ...process.env, SAL_USE_VCLPLUGIN: 'gtk3' } });
    child.unref();
    if (child.pid) pids.push(child.pid);
    let app: AppInfo | undefined;
    for (let i = 0; i < 120 && !app; i++) {
      await new Promise((r) => setTimeout(r, 500));
      app = ((await h['apps.list']!({})).apps as AppInfo[]).find(
        (a) => a.name === 'soffice' && a.windows.length > 0 && !pids.includes(a.pid),
      );
    }
    assert.ok(app?.windows[0], 'Calc never showed a window');
    pids.push(app.pid);
    await new Promise((r) => setTimeout(r, 3000));
    const snap = await h['tree.snapshot']!({ window: app.windows[0].id }) as { root: RawNode };
    let table: RawNode | undefined;
    walk(snap.root, (n) => { if ((n.childCount ?? 0) > 500) table = n; });
    assert.ok(table, 'no huge table in the snapshot');
    // What a naive client does: ask the table for all its children. The app stops answering.
    driver.bus
      .call(targetOf(table.id), 'org.a11y.atspi.Accessible', 'GetChildren', '', [], 600_000)
      .catch(() => undefined);
    await new Promise((r) => setTimeout(r, 2000));
    const listed = (await h['apps.list']!({})).apps as AppInfo[];
    const busy = listed.find((a) => a.pid === app!.pid);
    assert.equal(busy?.busy, true, JSON.stringify(listed));
    assert.match(
      formatApps(listed, { refOf: () => 'w1' } as unknown as Parameters<typeof formatApps>[1]),
      new RegExp(`pid=${app.pid} \\(busy: not answering\\)`),
    );
    const t0 = performance.now();
    await assert.rejects(
      h['tree.snapshot']!({ window: app.windows[0].id }),
      (e: Error & { code?: string }) =>
        e.code === 'timeout' && /the app is busy \(not answering\); try again in a moment/.test(e.message),
    );
    assert.ok(performance.now() - t0 < 2000);
  } finally {
    driver.close();
  }
});

test('computer_launch of soffice answers with Calc\'s window, which ' +
    'belongs to soffice.bin, a child of the launcher it started', { timeout: 120_000 }, async () => {
  const profile = await freshCalcProfile();
  // Before: the launch waited for a window of the launcher's own pid (oosplash, which never has one) and timed out.
  const r = await computer.tools.launch({
    command: SOFFICE,
    args: ['--calc', '--norestore', '--nologo', '--nofirststartwizard', `-env:UserInstallation=file://${profile}`],
    waitMs: 60_000,
  });
  const m = /^launched soffice pid=(\d+)/.exec(r.text);
  if (m?.[1]) pids.push(Number(m[1]));
  assert.equal(r.isError, false, r.text);
  assert.match(r.text, /· window \[w\d+\]/, r.text);
  assert.match(readFileSync(`/proc/${m?.[1] ?? 0}/cmdline`, 'utf8'), /soffice\.bin/);
});
