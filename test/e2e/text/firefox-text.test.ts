/**
 * Firefox ESR (Gecko): paragraph text and field values read from the snapshot, find inside a long paragraph
 * with line and offset, and a password field that never shows its text anywhere. Before text.ts, Gecko's
 * answer "" to GetText(0, 400) on shorter text left paragraphs and fields empty.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Computer } from '../../../src/index.js';
import { E2E_APPS, killApp, ok, openComputer, refOn } from '../helpers.js';

let computer: Computer;
const pids: number[] = [];
const SECRET = 'hunter2-Zq8wLm';

before(async () => { computer = await openComputer({ allowApps: [...E2E_APPS, 'Firefox', 'firefox-esr'] }); });
after(async () => {
  await computer?.close();
  for (const pid of pids) await killApp(pid);
});

test('Firefox: paragraphs and field values in the snapshot, ' +
    'find in a paragraph by offset, no password text', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-ff-'));
  const page = join(dir, 'order.html');
  const filler =
    'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore. '.repeat(4);
  writeFileSync(page, `<!doctype html><html><head><title>Order form</title></head><body><h1>Order summary</h1>
<p>Your order number is 4711 and it ships on Monday.</p><p>${filler}The hidden needle is here.</p>
<label>Name <input value="Ada Lovelace"></label><label>Password <input type="password" \
value="${SECRET}"></label></body></html>`);
  const child = spawn('firefox-esr', ['--no-remote', '--profile', mkdtempSync(join(dir, 'profile-')), `file://${page}`],
    { detached: true, stdio: 'ignore', env: { ...process.env, MOZ_ENABLE_WAYLAND: '0' } });
  child.unref();
  if (child.pid) pids.push(child.pid);
  let snap = '';
  for (let i = 0; i < 120 && !/Your order number/.test(snap); i++) {
    await new Promise((r) => setTimeout(r, 500));
    const apps = ok(await computer.tools.apps({}));
    if (/Order form/.test(apps))
      snap = ok(await computer.tools.observe({ full: true, app: 'Firefox', maxTokens: 4000 }));
  }
  assert.match(snap, /paragraph value="Your order number is 4711 and it ships on Monday\."/, snap);
  assert.match(snap, /textbox "Name" value="Ada Lovelace"/, snap);
  assert.doesNotMatch(snap, new RegExp(SECRET), snap);

  const found = ok(await computer.tools.find({ app: 'Firefox', text: 'hidden needle' }));
  const para = refOn(snap, /paragraph value="Lorem ipsum/);
  assert.match(
    found,
    new RegExp(`\\[${para}\\] paragraph line 1, offset ${filler.length + 4}: "…[^"]*The hidden needle is here\\."`),
    found,
  );
  // The password's text is never searched, shown nor counted.
  const secret = ok(await computer.tools.find({ app: 'Firefox', text: SECRET.slice(0, 7) }));
  assert.match(secret, /^0 matches/, secret);
  const pw = refOn(snap, /textbox "Password"/);
  const read = await computer.tools.observe({ full: true, app: 'Firefox', scope: pw, from: 0 });
  assert.equal(read.code, 'permission_denied', read.text);
  assert.doesNotMatch(read.text, new RegExp(SECRET.slice(0, 7)), read.text);
});
