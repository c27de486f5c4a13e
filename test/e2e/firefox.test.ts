/**
 * Firefox ESR (Gecko) as a user would drive a web form through the accessibility tree:
 * fill a text field (Gecko ignores EditableText, so the driver reads back and types), a password field (its
 * text appears in no output and no audit line), a combo box (chosen in the opened dropdown, so the page sees
 * its change event), a check box; submit; read the result paragraph from the snapshot and by find. The same
 * flow runs on Chromium through the same AT-SPI driver, and once with another app's window holding the focus.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { Computer } from '../../src/index.js';
import { startBrowser, stopBrowser } from './browsers.js';
import { E2E_APPS, lineOf, ok, openComputer, refOn } from './helpers.js';

const PIN = 'pin-7305-hunter2';
const BROWSERS = ['firefox-esr', 'firefox', 'chromium'];
const started: ChildProcess[] = [];
after(async () => { for (const c of started) await stopBrowser(c); });

/** Polls observe until the page's form is in the tree; returns that snapshot. */
async function formSnapshot(computer: Computer, app: string): Promise<string> {
  let last = '';
  for (let i = 0; i < 240; i++) {
    const r = await computer.tools.observe({ full: true, app });
    last = r.text;
    if (!r.isError && /button "Place order"/.test(r.text)) return r.text;
    await new Promise((res) => setTimeout(res, 250));
  }
  assert.fail(`the order form never appeared in ${app}'s tree:\n${last}`);
}

/** Fills and submits the order form; returns every tool output (for the secret check) and the final snapshot. */
async function fillForm(computer: Computer, app: string): Promise<{ outputs: string[]; final: string }> {
  const outputs: string[] = [];
  const snap = await formSnapshot(computer, app);
  outputs.push(snap);
  const name = refOn(snap, /textbox "Name"/);
  const pin = refOn(snap, /textbox "PIN".*password/);
  const size = refOn(snap, /combobox "Size"/);
  const gift = refOn(snap, /checkbox "Gift wrap"/);
  const submit = refOn(snap, /button "Place order"/);
  // Values are shown: the combo holds its first item before anything is chosen.
  assert.match(lineOf(snap, size) ?? '', /value="Small"/, snap);

  const setName = ok(await computer.tools.act({ actions: [{ ref: name, op: 'set_value', value: 'Ada Lovelace' }] }));
  outputs.push(setName);
  assert.match(setName, new RegExp(`ok set_value ${name} · confirmed`), setName);
  const setPin = ok(await computer.tools.act({ actions: [{ ref: pin, op: 'set_value', value: PIN }] }));
  outputs.push(setPin);
  assert.match(setPin, new RegExp(`ok set_value ${pin} · (confirmed|unknown)`), setPin);
  const chosen = ok(await computer.tools.act({ actions: [{ ref: size, op: 'select', value: 'Large' }] }));
  outputs.push(chosen);
  assert.match(chosen, new RegExp(`ok select ${size} · confirmed`), chosen);
  // The page saw a change event (a silent DOM selection would leave this paragraph as it was).
  assert.match(chosen, /Size changed to Large\./, chosen);
  const toggled = ok(await computer.tools.act({ actions: [{ ref: gift, op: 'toggle' }] }));
  outputs.push(toggled);
  assert.match(toggled, new RegExp(`ok toggle ${gift} · confirmed`), toggled);
  outputs.push(ok(await computer.tools.act({ actions: [{ ref: submit, op: 'click' }] })));

  let final = '';
  for (let i = 0; i < 40 && !/Ordered:/.test(final); i++) {
    final = ok(await computer.tools.observe({ full: true, app }));
    if (!/Ordered:/.test(final)) await new Promise((r) => setTimeout(r, 100));
  }
  outputs.push(final);
  // The result paragraph, as the page wrote it from the field values it read.
  assert.match(final, /paragraph value="Ordered: Large shirt for Ada Lovelace, gift wrapped, pin 16 digits\."/, final);
  assert.match(final, new RegExp(`\\[${name}\\] textbox "Name" value="Ada Lovelace"`), final);
  assert.match(final, new RegExp(`\\[${size}\\] combobox "Size" value="Large"`), final);
  assert.doesNotMatch(final, /combobox expanded/, 'the dropdown was left open');
  const found = ok(await computer.tools.find({ app, text: 'Ordered: Large' }));
  outputs.push(found);
  // Found as the paragraph's value, or inside its text content (line and offset): either names the paragraph.
  assert.match(found, /(paragraph|text) (value=|line \d+, offset \d+: |)"Ordered: Large shirt for Ada Lovelace/, found);
  return { outputs, final };
}

function assertNoSecret(outputs: string[], auditPath: string): void {
  for (const o of outputs)
    assert.ok(!o.includes(PIN) && !o.includes('hunter2'), `the PIN leaked into an output:\n${o}`);
  const audit = readFileSync(auditPath, 'utf8');
  assert.ok(audit.length > 0, 'no audit was written');
  assert.ok(!audit.includes('hunter2'), 'the PIN leaked into the audit log');
}

test('Firefox ESR: fill a form (text, password, combo box, ' +
    'check box), submit, read the result paragraph', { timeout: 180_000 }, async () => {
  const auditPath = join(mkdtempSync(join(tmpdir(), 'cu-ff-audit-')), 'audit.jsonl');
  const computer = await openComputer({ allowApps: [...E2E_APPS, ...BROWSERS], auditPath });
  const browser = startBrowser('firefox');
  started.push(browser);
  try {
    const { outputs } = await fillForm(computer, 'firefox');
    // Gecko accepted EditableText and ignored it: the receipt names the path that did the work.
    assert.match(outputs[1] ?? '', /typed: .*SetTextContents ignored by the app/, outputs[1]);
    assertNoSecret(outputs, auditPath);
  } finally {
    await computer.close();
    await stopBrowser(browser);
  }
});

test('Firefox ESR: with another app\'s window in front, the keys ' +
    'go to Firefox only (it is activated and proven first)', { timeout: 180_000 }, async () => {
  const computer = await openComputer({ allowApps: [...E2E_APPS, ...BROWSERS] });
  const browser = startBrowser('firefox');
  started.push(browser);
  let zenity: ChildProcess | undefined;
  try {
    const snap = await formSnapshot(computer, 'firefox');
    const name = refOn(snap, /textbox "Name"/);
    // A text entry of another process takes the keyboard focus.
    zenity = spawn('zenity', ['--entry', '--title', 'Focus thief', '--text', 'Type here'], { stdio: 'ignore' });
    const thief = ok(await computer.tools.wait({ until: 'window_appears', text: 'Focus thief', timeoutMs: 15000 }));
    const entry = refOn(thief, /\] textbox/);
    assert.match(ok(await computer.tools.apps({})), /"Focus thief" focused/, 'the other app did not take the focus');
    const set = ok(await computer.tools.act({ actions: [{ ref: name, op: 'set_value', value: 'Grace Hopper' }] }));
    assert.match(set, new RegExp(`ok set_value ${name} · confirmed \\(typed:`), set);
    const other = ok(await computer.tools.observe({ full: true, window: 'Focus thief' }));
    assert.ok(lineOf(other, entry), other);
    assert.doesNotMatch(lineOf(other, entry) ?? '', /value=|Grace|Hopper/, `keys reached the other app:\n${other}`);
    const mine = ok(await computer.tools.observe({ full: true, app: 'firefox' }));
    assert.match(lineOf(mine, name) ?? '', /value="Grace Hopper"/, mine);
  } finally {
    zenity?.kill();
    await computer.close();
    await stopBrowser(browser);
  }
});

test('Chromium (--force-renderer-accessibility): ' +
    'the same form through the same AT-SPI driver', { timeout: 180_000 }, async () => {
  const auditPath = join(mkdtempSync(join(tmpdir(), 'cu-cr-audit-')), 'audit.jsonl');
  const computer = await openComputer({ allowApps: [...E2E_APPS, ...BROWSERS], auditPath });
  const browser = startBrowser('chromium');
  started.push(browser);
  try {
    const { outputs } = await fillForm(computer, 'chromium');
    assertNoSecret(outputs, auditPath);
  } finally {
    await computer.close();
    await stopBrowser(browser);
  }
});
