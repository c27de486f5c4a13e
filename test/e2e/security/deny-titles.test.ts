/**
 * docs/policy.md, "Threat model": titles match the deny list. Native windows titled Bitwarden, KeePassXC and Password
 * Manager (shown by zenity, an allow-listed app) and a Chromium tab titled "Bitwarden Web Vault" (over the
 * DevTools channel and over AT-SPI) are unseen: not listed, not observed, not found, their text never returned;
 * over CDP a tab whose URL names the vault (its title does not) is unseen too.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import { createComputer } from '../../../src/index.js';
import { E2E_APPS, openComputer } from '../helpers.js';

const SECRET = 'vault entry: hunter2 quokka';
const dir = mkdtempSync(join(tmpdir(), 'cu-deny-titles-'));
process.env['COMPUTER_USE_HOME'] = join(dir, 'home');
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) { try { process.kill(-c.pid!, 'SIGKILL'); } catch { c.kill('SIGKILL'); } }
  rmSync(dir, { recursive: true, force: true });
});

test('native windows titled like a password manager are unseen', async () => {
  const titles = ['Bitwarden', 'KeePassXC', 'Password Manager'];
  for (const t of titles)
    children.push(spawn('zenity', ['--info', '--title', t, '--text', SECRET], { stdio: 'ignore' }));
  const computer = await openComputer();
  try {
    let up = 0;
    for (let i = 0; i < 200 && up < titles.length; i++) {
      const apps = await computer.session.apps();
      up = titles.filter((t) => apps.some((a) => a.windows.some((w) => w.title === t))).length;
      if (up < titles.length) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(up, titles.length, 'the three windows came up');
    const outputs: string[] = [];
    const apps = await computer.tools.apps();
    outputs.push(apps.text);
    for (const t of titles) {
      assert.ok(!apps.text.includes(`"${t}"`), `computer_apps lists "${t}":\n${apps.text}`);
      const o = await computer.tools.observe({ full: true, window: t });
      outputs.push(o.text);
      assert.equal(o.isError, true, `observe "${t}": ${o.text}`);
      const k = await computer.tools.keys({ keys: 'Return', window: t });
      outputs.push(k.text);
      assert.equal(k.isError, true, `keys to "${t}": ${k.text}`);
    }
    const z = await computer.tools.observe({ full: true, app: 'zenity' });
    outputs.push(z.text);
    outputs.push((await computer.tools.find({ text: 'hunter2', app: 'zenity' })).text);
    for (const o of outputs) assert.ok(!o.includes('hunter2'), `the vault's text leaked:\n${o}`);
  } finally { await computer.close(); }
});

test('a Chromium tab titled "Bitwarden Web Vault" is unseen over CDP and over AT-SPI', async () => {
  const page = join(dir, 'vault.html');
  writeFileSync(
    page,
    `<!doctype html><title>Bitwarden Web Vault</title><h1>My vault</h1><p>${SECRET}</p><button>Delete ` +
      `entry</button>`,
  );
  mkdirSync(join(dir, 'bitwarden-export'));
  const byUrl = join(dir, 'bitwarden-export', 'index.html');
  writeFileSync(byUrl, `<!doctype html><title>Quiet vault</title><p>${SECRET}</p>`);
  const profile = join(dir, 'chromium');
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
      pathToFileURL(page).href,
      pathToFileURL(byUrl).href,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  children.push(proc);
  let err = '';
  const endpoint = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no DevTools endpoint:\n${err}`)), 30_000);
    proc.stderr!.setEncoding('utf8').on('data', (d: string) => {
      err = (err + d).slice(-8000);
      const m = /DevTools listening on ws:\/\/([\d.]+:\d+)\//.exec(err);
      if (m?.[1]) { clearTimeout(timer); resolve(`http://${m[1]}`); }
    });
  });
  const outputs: string[] = [];
  const cdp = await createComputer({
    desktop: 'current',
    driver: 'cdp',
    cdpEndpoint: endpoint,
    mode: 'bypass',
    allowApps: ['chromium'],
  });
  try {
    let listed = '';
    for (let i = 0; i < 100; i++) {
      const raw = await cdp.session.apps();
      if (
        raw.some((a) => a.windows.some((w) => /Bitwarden/.test(w.title))) &&
        raw.some((a) => a.windows.some((w) => /Quiet vault/.test(w.title)))
      )
        break;
      await new Promise((r) => setTimeout(r, 100));
    }
    listed = (await cdp.tools.apps()).text;
    outputs.push(listed);
    assert.doesNotMatch(listed, /Bitwarden Web Vault/, listed);
    assert.doesNotMatch(listed, /Quiet vault/, `a tab whose URL names the vault is listed:\n${listed}`);
    const quiet = await cdp.tools.observe({ full: true, window: 'Quiet vault' });
    outputs.push(quiet.text);
    assert.equal(quiet.isError, true, quiet.text);
    const o = await cdp.tools.observe({ full: true, window: 'Bitwarden Web Vault' });
    outputs.push(o.text);
    assert.equal(o.isError, true, o.text);
    outputs.push((await cdp.tools.find({ text: 'hunter2' })).text);
  } finally { await cdp.close(); }
  const native = await openComputer({ allowApps: [...E2E_APPS, 'chromium'] });
  try {
    for (let i = 0; i < 200; i++) {
      const raw = await native.session.apps();
      if (raw.some((a) => a.windows.some((w) => /Bitwarden/.test(w.title)))) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const n = await native.tools.observe({ full: true, app: 'chromium' });
    outputs.push(n.text);
    assert.equal(n.isError, true, n.text);
    outputs.push((await native.tools.apps()).text);
  } finally { await native.close(); }
  for (const out of outputs) assert.ok(!out.includes('hunter2'), `the vault's text leaked:\n${out}`);
});
