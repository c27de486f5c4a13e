/** Starting LibreOffice Calc (gtk3 VCL plugin) on a fresh profile for the grid tests and the bench. */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Computer } from '../../../src/index.js';
import { ok, refOn } from '../helpers.js';

/** Apps to allow for Calc: the launcher script and the real process. */
export const CALC_APPS = ['soffice', 'soffice.bin'];

/**
 * A fresh LibreOffice profile folder whose settings turn off the Tip of the Day: on a new profile that dialog comes
 * a moment after the sheet and takes the focus, and a test's next observe or keys met it instead of the sheet
 * (e2e libreoffice and launch-apps, about one run in four on this machine).
 */
export async function freshCalcProfile(): Promise<string> {
  const profile = await mkdtemp(join(tmpdir(), 'cu-lo-'));
  await mkdir(join(profile, 'user'));
  await writeFile(join(profile, 'user', 'registrymodifications.xcu'), '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n' +
    '<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="ShowTipOfTheDay" oor:op="fuse"><value>false</value></prop></item>\n' +
    '</oor:items>\n');
  return profile;
}

/**
 * Starts Calc with a fresh profile (optionally opening `file`) and waits until its window is listed; returns
 * the pids to kill (the launcher's and soffice.bin's, which registers on the bus).
 */
export async function startCalc(computer: Computer, file?: string): Promise<{ pid: number; pids: number[] }> {
  const profile = await freshCalcProfile();
  const args = [
    '--calc',
    '--norestore',
    '--nologo',
    '--nofirststartwizard',
    `-env:UserInstallation=file://${profile}`,
    ...(file ? [file] : []),
  ];
  const child = spawn('soffice', args, {
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, SAL_USE_VCLPLUGIN: 'gtk3' },
  });
  child.unref();
  const pids = child.pid ? [child.pid] : [];
  let pid = 0;
  for (let i = 0; i < 120 && !pid; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const r = await computer.tools.apps({});
    const m = /^soffice\S* pid=(\d+)\n {2}\[w\d+\] window ".*LibreOffice Calc"/m.exec(r.text);
    if (m?.[1]) pid = Number(m[1]);
  }
  if (!pid) throw new Error('Calc never showed its window');
  pids.push(pid);
  return { pid, pids };
}

/** Observes Calc until the sheet's grid line is there (start-up shows a splash first): the text and the sheet's ref. */
export async function observeSheet(computer: Computer): Promise<{ text: string; table: string }> {
  let text = '';
  for (let i = 0; i < 20; i++) {
    text = ok(await computer.tools.observe({ app: 'soffice', full: true }));
    if (/table "Sheet Sheet1".* cells A1:/.test(text)) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  return { text, table: refOn(text, /table "Sheet Sheet1"/) };
}
