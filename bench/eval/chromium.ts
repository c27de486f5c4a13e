/**
 * Chromium for the evaluation: a local page opened in Debian's chromium with a fresh profile under the task's
 * folder and a DevTools port, so the checker reads the page's DOM and JS state over CDP (playwright-core), never
 * the tools' text. Teardown ends every process of that profile (Chromium's helpers included).
 */
import { readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { ROOT } from '../config.js';
import type { CheckResult, PlanStep, TaskContext, TaskSetup } from './task.js';

/** The app name computer_apps lists for Debian's chromium (`app Chromium pid=…`). */
export const CHROMIUM_APP = 'Chromium';

/**
 * What the policy must allow: the browser, and Debian's launcher, a shell script (`/usr/bin/chromium`), which the
 * policy identifies as its interpreter plus the script (an interpreter's name alone never allows).
 */
export const CHROMIUM_ALLOW = ['chromium', '/bin/sh /usr/bin/chromium'];

/** The flags the bench starts Chromium with (accessibility forced on, quiet and offline), then profile and port. */
export const CHROMIUM_FLAGS = [
  '--force-renderer-accessibility',
  '--no-sandbox',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-gpu',
  '--password-store=basic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--user-data-dir={{profile}}',
  '--remote-debugging-port={{port}}',
];

/** The plan's first step: Chromium on the setup's page. */
export const launchChromium: PlanStep = {
  do: 'launch',
  command: '/usr/bin/chromium',
  args: [...CHROMIUM_FLAGS, '{{url}}'],
};

/** The file URL of a page in bench/eval/pages. */
export function pageUrl(page: string): string {
  return pathToFileURL(join(ROOT, 'bench', 'eval', 'pages', page)).href;
}

/** A TCP port free right now on the loopback (the OS picks it). */
async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      server.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

async function sleep(ms: number): Promise<void> { await new Promise((r) => setTimeout(r, ms)); }

/** Pids whose command line names this profile folder: the Chromium this task started and its helpers. */
async function profilePids(profile: string): Promise<number[]> {
  const flag = `--user-data-dir=${profile}`;
  const pids: number[] = [];
  for (const entry of await readdir('/proc').catch(() => [])) {
    if (!/^\d+$/.test(entry)) continue;
    const cmd = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmd.split('\0').includes(flag)) pids.push(Number(entry));
  }
  return pids;
}

/** Ends the processes of a profile: TERM, then KILL what is left after a grace. */
export async function stopProfile(profile: string): Promise<void> {
  let pids = await profilePids(profile);
  for (const pid of pids) { try { process.kill(pid, 'SIGTERM'); } catch { /* gone */ } }
  for (let i = 0; i < 30 && pids.length; i++) { await sleep(100); pids = await profilePids(profile); }
  for (const pid of pids) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } }
}

/** A setup for a page: profile folder, DevTools port and the page's URL (with an optional fragment). */
export async function chromiumSetup(
  ctx: TaskContext,
  page: string,
  fragment?: string,
  vars: Record<string, string> = {},
): Promise<TaskSetup> {
  const profile = join(ctx.dir, 'chromium-profile');
  const port = String(await freePort());
  const url = pageUrl(page) + (fragment !== undefined ? `#${encodeURIComponent(fragment)}` : '');
  return { vars: { ...vars, profile, port, url }, teardown: () => stopProfile(profile) };
}

/**
 * Evaluates `expr` in the task's page over DevTools until `accept` holds for its value or the timeout passes
 * (a page may still be handling the last click). The verdict quotes the value.
 */
export async function pageState(
  vars: Record<string, string>,
  expr: string,
  accept: (v: unknown) => boolean,
  what: string,
  timeoutMs = 5000,
): Promise<CheckResult> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${vars['port'] ?? ''}`, { timeout: 10_000 });
  try {
    const page = browser
      .contexts()
      .flatMap((c) => c.pages())
      .find((p) => p.url().startsWith((vars['url'] ?? '').split('#')[0] ?? ''));
    if (!page) return { ok: false, detail: `${what}: the task's page is not open` };
    let value: unknown;
    for (const until = performance.now() + timeoutMs; ;) {
      value = await page.evaluate(expr);
      if (accept(value)) return { ok: true, detail: `${what}: ${JSON.stringify(value)}` };
      if (performance.now() > until) break;
      await sleep(100);
    }
    return { ok: false, detail: `${what}: got ${JSON.stringify(value)}` };
  } finally {
    // Disconnects only: the browser is the task's and its teardown ends it.
    await browser.close();
  }
}
