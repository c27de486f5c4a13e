/**
 * docs/policy.md, "Threat model": the panel is the tool itself, on the built-in deny list. The panel open in an
 * allow-listed Chromium (native window over AT-SPI, and its tab over the DevTools channel) while a question
 * waits: no read tool shows it, keys aimed at it are refused, the CDP channel does not list its tab, and the
 * question is still unanswered at the end (no route clicked "Allow once"). The panel opens as a new tab of a
 * window the model already holds as wN (with an OCR capture of the page before it): the window's title follows
 * the tab, so that wN, its capture and its points are refused too.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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
after(async () => {
  for (const c of cleanups.reverse()) await c();
  rmSync(profile, { recursive: true, force: true });
});

/** Chromium on `url` with its DevTools endpoint; resolves the endpoint. */
function chromium(url: string): Promise<{ proc: ChildProcess; endpoint: string }> {
  const proc = spawn(
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
      '--force-renderer-accessibility',
      `--user-data-dir=${profile}`,
      '--remote-debugging-port=0',
      url,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
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

const ORDER_PAGE = pathToFileURL(
  join(fileURLToPath(new URL('../../../../', import.meta.url)), 'test', 'fixtures', 'pages', 'cdp-app.html'),
).href;

/** Opens `url` in a new, active tab through the DevTools HTTP endpoint (as a human opening the panel would). */
function newTab(endpoint: string, url: string): Promise<number> {
  const u = new URL(endpoint);
  return new Promise((resolve, reject) => {
    request({ host: u.hostname, port: u.port, path: `/json/new?${encodeURI(url)}`, method: 'PUT' }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
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
  const { endpoint } = await chromium(ORDER_PAGE);
  const native: Computer = await openComputer({ allowApps: [...E2E_APPS, 'chromium'] });
  cleanups.push(() => native.close());
  // The model holds the browser window while it shows an ordinary page, with an OCR capture of it.
  let held: string | undefined;
  for (let i = 0; i < 300 && !held; i++) {
    held = /\[(w\d+)\] window "Order desk/.exec((await native.tools.apps()).text)?.[1];
    if (!held) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(held, 'the order page came up');
  await new Promise((r) => setTimeout(r, 1000));
  const ocr = await native.tools.screenshot({ window: held });
  assert.equal(ocr.isError, false, ocr.text);
  const capture = /capture (\S+)/.exec(ocr.text)?.[1];
  assert.ok(capture, ocr.text);
  assert.equal(await newTab(endpoint, panel.url), 200);
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
  assert.match(apps.text, /windows? hidden: it is the computer-use panel/, apps.text);
  // The app's focused window may be one of Chromium's nameless bubbles: what matters is that no panel text shows.
  outputs.push((await native.tools.observe({ full: true, app: 'chromium' })).text);
  const byTitle = await native.tools.observe({ full: true, window: 'computer-use panel' });
  outputs.push(byTitle.text);
  assert.equal(byTitle.isError, true, byTitle.text);
  const found = await native.tools.find({ text: 'Allow once' });
  outputs.push(found.text);
  const keys = await native.tools.keys({ keys: 'Tab Tab Return', window: 'computer-use panel' });
  outputs.push(keys.text);
  assert.equal(keys.isError, true, `keys reached the panel: ${keys.text}`);
  const shot = await native.tools.screenshot({ window: 'computer-use panel' });
  outputs.push(shot.text);
  assert.equal(shot.isError, true, `OCR read the panel: ${shot.text}`);
  // The window the model held before the panel's tab opened in it.
  for (const r of [
    await native.tools.observe({ full: true, window: held }),
    await native.tools.keys({ keys: 'Return', window: held }),
    await native.tools.screenshot({ window: held }),
    await native.tools.input({ action: 'click', window: held, x: 300, y: 300 }),
    await native.tools.input({ action: 'click', capture, x: 300, y: 300 }),
  ]) {
    outputs.push(r.text);
    assert.equal(r.code, 'denied_by_policy', `a route through the held window reached the panel: ${r.text}`);
  }

  const cdp = await createComputer({
    desktop: 'current',
    driver: 'cdp',
    cdpEndpoint: endpoint,
    mode: 'bypass',
    allowApps: ['chromium'],
  });
  cleanups.push(() => cdp.close());
  const tabs = await cdp.tools.apps();
  outputs.push(tabs.text);
  assert.doesNotMatch(tabs.text, /computer-use panel ·|cupanel-|\/p\//, tabs.text);
  const tab = await cdp.tools.observe({ full: true, window: 'computer-use panel' });
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
