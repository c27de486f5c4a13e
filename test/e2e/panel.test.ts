/**
 * The panel end to end: a real MCP server over stdio with `--panel`, the SDK Client WITHOUT
 * elicitation, and the panel page in Debian's chromium driven by playwright-core, in the sandbox desktop.
 * Ordinary edits pass on the host's approval; irreversible clicks wait for the panel; stop halts an act in
 * flight; the audit view pages through 100,000 records. Screenshots go to docs/panel-*.png.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { AuditRecord, DecidedRecord } from '../../src/policy/audit.js';
import { auditLines } from '../fixtures/panel/audit-lines.js';
import { killApp, refOn } from './helpers.js';

const cli = fileURLToPath(new URL('../../src/hosts/cli/main.js', import.meta.url));
const docs = fileURLToPath(new URL('../../../docs/', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'cu-panel-e2e-'));
const auditPath = join(home, 'plugin-data', 'computer-use', 'audit.jsonl');
let client: Client;
let browser: Browser;
let page: Page;
let panelUrl = '';
const pids: number[] = [];
const children: ChildProcess[] = [];

const text = (r: Awaited<ReturnType<Client['callTool']>>): string =>
  (r.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
const call = (name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
const decided = (): DecidedRecord[] =>
  readFileSync(auditPath, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as AuditRecord)
    .filter((r): r is DecidedRecord => r.phase === 'decided');

before(async () => {
  assert.ok(process.env['DISPLAY'], 'runs in the sandbox desktop');
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  env['COMPUTER_USE_HOME'] = home;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', '--desktop', 'current', '--panel', '--confirm-timeout', '90'],
    env,
    stderr: 'pipe',
  });
  const urlSeen = new Promise<string>((resolve) => {
    createInterface({ input: transport.stderr as unknown as NodeJS.ReadableStream }).on('line', (l) => {
      process.stderr.write(`[mcp] ${l}\n`);
      const m = /computer-use panel: (http:\/\/\S+)/.exec(l);
      if (m) resolve(m[1]!);
    });
  });
  client = new Client({ name: 'no-elicitation', version: '0' }); // no capabilities: no elicitation
  await client.connect(transport);
  panelUrl = await urlSeen;
  // Playwright gives the browser a fresh temporary profile (its own --user-data-dir) and removes it on close.
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(panelUrl);
  await page.waitForSelector('#status:not(:text("connecting"))');
});

after(async () => {
  await browser?.close().catch(() => undefined);
  await client?.close().catch(() => undefined);
  for (const c of children) c.kill('SIGKILL');
  for (const pid of pids) await killApp(pid);
});

/** A zenity question whose OK button says "Delete"; resolves its exit code. */
function deleteDialog(title: string): { exited: Promise<number | null>; proc: ChildProcess } {
  const proc = spawn(
    'zenity',
    [
      '--question',
      '--title',
      title,
      '--text',
      'Delete the file report.txt?',
      '--ok-label',
      'Delete',
      '--cancel-label',
      'Keep',
    ],
    { stdio: 'ignore' },
  );
  children.push(proc);
  return { proc, exited: new Promise((r) => proc.once('exit', (code) => r(code))) };
}

async function deleteRef(title: string): Promise<string> {
  const w = await call('computer_wait', { until: 'window_appears', text: title, timeoutMs: 20000 });
  assert.equal(w.isError, false, text(w));
  const snap = text(await call('computer_observe', { window: title, full: true }));
  return refOn(snap, /\] button "Delete"/);
}

test('an ordinary edit succeeds with no prompt: the host\'s approval stands in for first use', async () => {
  const launched = await call('computer_launch', { command: 'gedit', args: ['--new-window'], waitMs: 20000 });
  assert.equal(launched.isError, false, text(launched));
  pids.push(Number(/pid=(\d+)/.exec(text(launched))?.[1]));
  const doc = refOn(text(launched), /\] document editable/);
  const typed = await call('computer_act', { actions: [{ ref: doc, op: 'type', value: 'host approved' }] });
  assert.equal(typed.isError, false, text(typed));
  const records = decided();
  assert.ok(records.length >= 2);
  for (const r of records) assert.deepEqual([r.decision, r.approved_by], ['allowed', 'host'], JSON.stringify(r));
});

test('an irreversible click waits for the panel, is approved there and lands', async () => {
  const title = `Delete test ${process.pid}`;
  const dialog = deleteDialog(title);
  const ref = await deleteRef(title);
  const progress: string[] = [];
  const pending = client.callTool({ name: 'computer_act', arguments: { actions: [{ ref, op: 'click' }] } }, undefined,
    { timeout: 120_000, resetTimeoutOnProgress: true, onprogress: (p) => { progress.push(p.message ?? ''); } });
  const q = page.locator('.q');
  await q.waitFor({ timeout: 20000 });
  const shown = await q.innerText();
  assert.match(shown, /click button "Delete"/);
  assert.match(shown, /zenity/);
  assert.match(shown, new RegExp(title));
  assert.match(shown, /not be undoable/);
  mkdirSync(docs, { recursive: true });
  await page.screenshot({ path: join(docs, 'panel-1280.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(docs, 'panel-390.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  await q.getByRole('button', { name: 'Allow once' }).click();
  const r = await pending;
  assert.equal(r.isError, false, text(r));
  assert.equal(await dialog.exited, 0, 'zenity saw the click on Delete');
  // The model is told a question waits; the URL (and its token) went to stderr for the human only.
  assert.ok(
    progress.some((m) => /Waiting for the user to answer in the computer-use panel/.test(m)),
    `progress: ${progress.join(' | ')}`,
  );
  assert.ok(
    !progress.some((m) => m.includes(new URL(panelUrl).searchParams.get('token')!)),
    `progress carried the token: ${progress.join(' | ')}`,
  );
  const last = decided().at(-1)!;
  assert.deepEqual([last.decision, last.answer, last.approved_by], ['allowed', 'allow_once', 'host']);
});

test('a declined irreversible click sends nothing', async () => {
  const title = `Decline test ${process.pid}`;
  const dialog = deleteDialog(title);
  const ref = await deleteRef(title);
  const pending = call('computer_act', { actions: [{ ref, op: 'click' }] });
  const q = page.locator('.q');
  await q.waitFor({ timeout: 20000 });
  await q.getByRole('button', { name: 'Decline' }).click();
  const r = await pending;
  assert.equal(r.isError, true);
  assert.match(text(r), /confirmation_declined/);
  assert.equal(dialog.proc.exitCode, null, 'the dialog is still open: nothing was clicked');
  assert.equal(decided().at(-1)!.decision, 'declined');
  dialog.proc.kill();
});

test('a call the client cancels takes its question off the panel; nothing is sent', async () => {
  const title = `Cancel test ${process.pid}`;
  const dialog = deleteDialog(title);
  const ref = await deleteRef(title);
  const controller = new AbortController();
  const pending = client.callTool({ name: 'computer_act', arguments: { actions: [{ ref, op: 'click' }] } }, undefined, {
    signal: controller.signal,
    timeout: 120_000,
  });
  await page.locator('.q').waitFor({ timeout: 20000 });
  controller.abort();
  await assert.rejects(pending);
  await page.locator('.q').waitFor({ state: 'detached', timeout: 5000 });
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(dialog.proc.exitCode, null, 'the dialog is still open: nothing was clicked');
  dialog.proc.kill();
});

function raw(path: string, headers: Record<string, string>): Promise<number> {
  const u = new URL(panelUrl);
  return new Promise((resolve, reject) => {
    request({ host: u.hostname, port: u.port, path, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });
}

test('a wrong token, no session cookie or a foreign Origin gets 403', async () => {
  const token = new URL(panelUrl).searchParams.get('token')!;
  assert.equal(await raw(`/?token=${token}`, {}), 303, 'the token is traded for a cookie');
  assert.equal(await raw(`/api/state?token=${token}`, {}), 403, 'the token alone opens no API');
  assert.equal(await raw('/api/state?token=wrong', {}), 403);
  assert.equal(await raw('/?token=', {}), 403);
  assert.equal(await raw(`/?token=${token}`, { origin: 'http://attacker.example' }), 403);
  assert.doesNotMatch(page.url(), /token/, 'the address bar holds no token');
  // From a page of another origin in the browser: the request is refused too.
  const other = await browser.newPage();
  await other.goto('about:blank');
  const status = await other.evaluate(
    async (u) => {
      try {
        return (await fetch(u, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status;
      } catch {
        return -1;
      }
    },
    `${new URL(panelUrl).origin}/api/stop?token=${token}`,
  );
  assert.ok(status === 403 || status === -1, `status ${status}`);
  await other.close();
  assert.doesNotMatch(await page.locator('#status').innerText(), /PAUSED/);
});

test('an allow edit in the Apps list lands in settings.json (mode 0600)', async () => {
  await page.reload();
  const row = page.locator('#applist tr', { hasText: 'gedit' }).first();
  await row.waitFor({ timeout: 20000 });
  await row.getByRole('button', { name: 'Always' }).click();
  await page.locator('#lists', { hasText: 'gedit' }).waitFor();
  const path = join(home, 'settings.json');
  const settings = JSON.parse(readFileSync(path, 'utf8')) as { allowApps?: string[] };
  assert.ok(settings.allowApps?.includes('gedit'), JSON.stringify(settings));
  assert.equal(statSync(path).mode & 0o777, 0o600);
  assert.match(await page.locator('#lists').innerText(), /Built-in deny list \(cannot be lifted\): a password manager/);
});

test('the stop button halts an act in flight; resume lets acts run again', async () => {
  const snap = text(await call('computer_observe', { app: 'gedit', full: true }));
  const doc = refOn(snap, /\] document .*editable/);
  const before = decided().length;
  const started = Date.now();
  const pending = call('computer_act', {
    actions: [{ ref: doc, op: 'focus' }],
    settle: { quietMs: 5000, timeoutMs: 30000 },
  });
  const returned = pending.then(() => Date.now());
  for (let i = 0; i < 200 && decided().length <= before; i++) await new Promise((r) => setTimeout(r, 25));
  await new Promise((r) => setTimeout(r, 200)); // in the 5 s settle
  const clicked = Date.now();
  await page.click('#stop');
  const r = await pending;
  const latency = (await returned) - clicked;
  const pause = JSON.parse(readFileSync(join(home, 'paused'), 'utf8')) as { time: number; reason: string };
  process.stdout.write(
    `# stop latency: ${latency} ms from the click (${(await returned) - pause.time} ms from the pause file), ` +
      `act ran ${(await returned) - started} ms\n`,
  );
  assert.equal(pause.reason, 'panel');
  assert.match(text(r), /paused/);
  // The latency is printed above and measured in the closing notes; on a shared noisy machine the test only
  // proves the stop reached the act in flight long before its 5 s settle would have ended.
  assert.ok(latency < 4000, `${latency} ms`);
  await page.locator('#stop', { hasText: 'RESUME' }).waitFor();
  const blocked = await call('computer_act', { actions: [{ ref: doc, op: 'focus' }] });
  assert.match(text(blocked), /paused/);
  await page.click('#stop');
  await page.locator('#stop', { hasText: 'STOP' }).waitFor();
  const again = await call('computer_act', { actions: [{ ref: doc, op: 'focus' }] });
  assert.equal(again.isError, false, text(again));
  assert.match(await page.locator('#sessions').innerText(), /last diff/);
});

test('the global hotkey ctrl+shift+Escape stops too (X11 grab in the MCP process)', async () => {
  assert.match(await page.locator('#status').innerText(), /stop hotkey ctrl\+shift\+Escape/);
  const pressed = Date.now();
  await new Promise<void>((resolve, reject) =>
    spawn('xdotool', ['key', 'ctrl+shift+Escape'], { stdio: 'ignore' }).once('exit', (c) =>
      c === 0 ? resolve() : reject(new Error(`xdotool ${c}`)),
    ),
  );
  await page.locator('#stop', { hasText: 'RESUME' }).waitFor({ timeout: 5000 });
  const pause = JSON.parse(readFileSync(join(home, 'paused'), 'utf8')) as { time: number; reason: string };
  assert.equal(pause.reason, 'stop hotkey');
  process.stdout.write(`# hotkey: paused ${pause.time - pressed} ms after xdotool started\n`);
  await page.click('#stop');
  await page.locator('#stop', { hasText: 'STOP' }).waitFor();
});

test('the self-check shows the doctor\'s results with their fixes', async () => {
  await page.click('#rundoctor');
  await page.locator('#checks', { hasText: /checks (passed|failed)/ }).waitFor({ timeout: 60000 });
  assert.match(await page.locator('#checks').innerText(), /display: X11 display/);
});

test('the audit view pages through 100,000 records', async () => {
  appendFileSync(auditPath, auditLines(100_000, Date.UTC(2026, 0, 1)));
  await page.reload();
  await page.locator('#auditinfo', { hasText: 'indexed' }).waitFor({ timeout: 20000 });
  await page.click('#auditform button[type=submit]');
  await page.locator('#auditinfo', { hasText: /of 1\d{5} records/ }).waitFor();
  const ms = Number(await page.locator('#auditinfo').getAttribute('data-ms'));
  process.stdout.write(`# audit page over ${await page.locator('#auditinfo').innerText()}\n`);
  // Printed above (282–748 ms measured); the bound only catches a page that reads the whole log.
  assert.ok(ms < 10_000, `${ms} ms`);
  await page.fill('#auditform input[name=app]', 'zenity');
  await page.selectOption('#auditform select[name=decision]', 'denied');
  await page.click('#auditform button[type=submit]');
  await page.locator('#auditinfo', { hasText: /^50 shown/ }).waitFor();
  await page.click('#older');
  await page.locator('#auditinfo', { hasText: /^100 shown/ }).waitFor();
  const rows = await page.locator('#auditrows tr').allInnerTexts();
  assert.equal(rows.length, 100);
  for (const row of rows) assert.match(row, /denied[\s\S]*zenity/);
  await page.screenshot({ path: join(docs, 'panel-audit-1280.png') });
});
