/**
 * Browsers on a local page, offline: Firefox ESR with a fresh profile whose user.js turns accessibility on and
 * every first-run page, update and telemetry off; Chromium with its renderer accessibility forced on. Used by
 * the Firefox form e2e test and the Gecko bench.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The order form page (text field, password, combo box, check box, a button that writes a result paragraph). */
export const ORDER_FORM_URL = new URL('../../../test/apps/order-form.html', import.meta.url).href;

/** Prefs of a quiet, offline, accessible Firefox profile. */
const FIREFOX_PREFS: [string, boolean | number | string][] = [
  // 0 = never disable accessibility (1 would refuse every AT client).
  ['accessibility.force_disabled', 0],
  ['browser.shell.checkDefaultBrowser', false],
  ['browser.startup.homepage_override.mstone', 'ignore'],
  ['startup.homepage_welcome_url', ''],
  ['browser.aboutwelcome.enabled', false],
  ['datareporting.policy.dataSubmissionEnabled', false],
  ['datareporting.policy.firstRunURL', ''],
  ['datareporting.healthreport.uploadEnabled', false],
  ['toolkit.telemetry.enabled', false],
  ['app.update.auto', false],
  ['app.normandy.enabled', false],
  ['extensions.update.enabled', false],
  ['network.captive-portal-service.enabled', false],
  ['network.connectivity-service.enabled', false],
  ['browser.safebrowsing.malware.enabled', false],
  ['browser.safebrowsing.phishing.enabled', false],
  ['browser.sessionstore.resume_from_crash', false],
  ['signon.rememberSignons', false],
];

/** A fresh Firefox profile folder holding the user.js above (plus `extra` prefs), in `dir` or a new temp folder. */
export function firefoxProfile(
  extra: [string, boolean | number | string][] = [],
  dir = mkdtempSync(join(tmpdir(), 'cu-firefox-')),
): string {
  writeFileSync(
    join(dir, 'user.js'),
    [...FIREFOX_PREFS, ...extra].map(([k, v]) => `user_pref(${JSON.stringify(k)}, ${JSON.stringify(v)});`).join('\n') +
      '\n',
  );
  return dir;
}

/** Command and arguments that open `url` in a browser of this family with a fresh profile. */
export function browserCommand(
  family: 'firefox' | 'chromium',
  url = ORDER_FORM_URL,
): { command: string; args: string[] } {
  if (family === 'firefox') return { command: 'firefox-esr', args: ['-profile', firefoxProfile(), '-no-remote', url] };
  const profile = mkdtempSync(join(tmpdir(), 'cu-chromium-'));
  return {
    command: 'chromium',
    args: [
      '--force-renderer-accessibility',
      '--no-sandbox',
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-gpu',
      '--password-store=basic',
      '--disable-background-networking',
      '--disable-component-update',
      `--user-data-dir=${profile}`,
      url,
    ],
  };
}

/** Starts a browser detached (its own process group, so `stopBrowser` ends its helpers too). */
export function startBrowser(family: 'firefox' | 'chromium', url = ORDER_FORM_URL): ChildProcess {
  const { command, args } = browserCommand(family, url);
  const child = spawn(command, args, { stdio: 'ignore', detached: true });
  child.unref();
  return child;
}

/** Ends a browser started by `startBrowser` and its child processes. */
export async function stopBrowser(child: ChildProcess): Promise<void> {
  if (child.pid === undefined) return;
  try { process.kill(-child.pid, 'SIGTERM'); } catch { return; }
  for (let i = 0; i < 40; i++) {
    try { process.kill(-child.pid, 0); } catch { return; }
    await new Promise((r) => setTimeout(r, 50));
  }
  try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
}
