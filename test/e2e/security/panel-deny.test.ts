/**
 * README "Threat model": the panel is the tool itself, on the built-in deny list. The panel open in an
 * allow-listed Chromium (native window over AT-SPI, and its tab over the DevTools channel) while a question
 * waits: no read tool shows it, keys aimed at it are refused, the CDP channel does not list its tab, and the
 * question is still unanswered at the end (no route clicked "Allow once").
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createComputer, type Computer } from '../../../src/index.js';
import { PanelConfirmer } from '../../../src/panel/confirmations.js';
import { LiveView } from '../../../src/panel/live.js';
import { startPanel } from '../../../src/panel/server.js';
import { E2E_APPS, openComputer } from '../helpers.js';

const home = mkdtempSync(join(tmpdir(), 'cu-panel-deny-'));
process.env['COMPUTER_USE_HOME'] = home;
const profile = mkdtempSync(join(tmpdir(), 'cu-chromium-'));
const cleanups: (() => Promise<void> | void)[] = [];
after(async () => { for (const c of cleanups.reverse()) await c(); rmSync(profile, { recursive: true, force: true }); });

/** Chromium on `url` with its DevTools endpoint; resolves the endpoint. */
function chromium(url: string): Promise<{ proc: ChildProcess; endpoint: string }> {
  const proc = spawn('/usr/bin/chromium', ['--no-sandbox', '--no-first-run', '--no-default-browser-check', '--disable-gpu', '--password-store=basic',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--force-renderer-accessibility',
    `--user-data-dir=${profile}`, '--remote-debugging-port=0', url], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  cleanups.push(() => { try { process.kill(-proc.pid!, 'SIGKILL'); } catch { /* gone */ } });
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no DevTools endpoint:\n${err}`)), 30_000);
    proc.stderr!.setEncoding('utf8').on('data', (d: string) => {
      err = (err + d).slice(-8000);
      const m = /DevTools listening on ws:\/\/([\d.]+:\d+)\//.exec(err);
      if (m?.[1]) { clearTimeout(timer); resolve({ proc, endpoint: `http://${m[1]}` }); }
    });
  });
}

const PANEL_TEXT = /Pending confirmations|Nothing waits for you|computer-use panel ·|cupanel-|Delete all/;

test('the panel in an allow-listed Chromium is unseen and untouchable by every tool route', async () => {
  const confirmer = new PanelConfirmer(120_000);
  const panel = await startPanel({
    home, auditPath: join(home, 'audit.jsonl'), confirmer, live: new LiveView(),
    computer: () => Promise.reject(new Error('not needed')), mode: () => 'default', hotkey: () => undefined,
  });
  cleanups.push(() => panel.close());
  let answered: string | undefined;
  void confirmer.confirm({ title: 'Confirm: click button "Delete all"?', message: 'computer-use wants to click button "Delete all".', choices: ['allow_once', 'deny'], reason: 'irreversible' })
    .then((c) => { answered = c; }, () => undefined);
  const { endpoint } = await chromium(panel.url);
  const native: Computer = await openComputer({ allowApps: [...E2E_APPS, 'chromium'] });
  cleanups.push(() => native.close());
  // Below the tools: wait until the browser's window shows the panel (its title names it).
  let seen = false;
  for (let i = 0; i < 300 && !seen; i++) {
    const apps = await native.session.apps();
    seen = apps.some((a) => a.windows.some((w) => /computer-use panel/.test(w.title)));
    if (!seen) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(seen, 'the panel window came up in Chromium');
  await new Promise((r) => setTimeout(r, 1500)); // its content loaded

  const outputs: string[] = [];
  const apps = await native.tools.apps();
  outputs.push(apps.text);
  assert.doesNotMatch(apps.text, /computer-use panel ·|cupanel-/, apps.text);
  assert.match(apps.text, /window hidden: it is the computer-use panel/, apps.text);
  const observed = await native.tools.observe({ app: 'chromium' });
  outputs.push(observed.text);
  assert.equal(observed.isError, true, observed.text);
  const byTitle = await native.tools.observe({ window: 'computer-use panel' });
  outputs.push(byTitle.text);
  assert.equal(byTitle.isError, true, byTitle.text);
  const found = await native.tools.find({ text: 'Allow once' });
  outputs.push(found.text);
  const keys = await native.tools.keys({ keys: 'Tab Tab Return', app: 'chromium' });
  outputs.push(keys.text);
  assert.equal(keys.isError, true, `keys reached the panel: ${keys.text}`);
  const shot = await native.tools.screenshot({ app: 'chromium' });
  outputs.push(shot.text);
  assert.equal(shot.isError, true, `OCR read the panel: ${shot.text}`);

  const cdp = await createComputer({ desktop: 'current', driver: 'cdp', cdpEndpoint: endpoint, mode: 'bypass', allowApps: ['chromium'] });
  cleanups.push(() => cdp.close());
  const tabs = await cdp.tools.apps();
  outputs.push(tabs.text);
  assert.doesNotMatch(tabs.text, /computer-use panel ·|cupanel-|\/p\//, tabs.text);
  const tab = await cdp.tools.observe({ window: 'computer-use panel' });
  outputs.push(tab.text);
  assert.equal(tab.isError, true, tab.text);
  const cdpKeys = await cdp.tools.keys({ keys: 'Tab Return' });
  outputs.push(cdpKeys.text);
  assert.equal(cdpKeys.isError, true, `keys over CDP reached the panel: ${cdpKeys.text}`);

  for (const o of outputs) assert.doesNotMatch(o, PANEL_TEXT, `the panel showed through:\n${o}`);
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(answered, undefined, 'the question was answered by a tool route');
  assert.equal(confirmer.pending().length, 1);
});
