/**
 * Apps that have X11 windows but are not on the accessibility bus are listed by computer_apps
 * as not accessible, with the reason and fix, and their windows offer the OCR fallback; a denied one stays
 * unseen (its name and "denied", never its window titles). xmessage (Xaw, no AT-SPI) and a Java app started
 * WITHOUT the ATK wrapper are the two kinds.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import type { Computer } from '../../../src/index.js';
import { E2E_APPS, killApp, openComputer } from '../helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const FORM = join(root, 'test', 'apps', 'Form.java');
const TITLE = 'Quokka notice';
const children: ChildProcess[] = [];
let computer: Computer | undefined;

/** Waits (bounded) until computer_apps' text matches. */
async function listed(c: Computer, pattern: RegExp, ms = 30_000): Promise<string> {
  const deadline = Date.now() + ms;
  let text = '';
  while (Date.now() < deadline) {
    text = (await c.tools.apps({})).text;
    if (pattern.test(text)) return text;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.fail(`computer_apps never matched ${pattern}:\n${text}`);
}

before(() => {
  // Started below the tools, as a user would have: not through computer_launch.
  children.push(spawn('xmessage', ['-title', TITLE, 'The quokka says hello'], { stdio: 'ignore' }));
  const env = { ...process.env };
  delete env['JAVA_TOOL_OPTIONS'];
  children.push(spawn('java', [FORM], { stdio: 'ignore', env }));
});

after(async () => {
  for (const c of children) if (c.pid) await killApp(c.pid);
  await computer?.close();
});

test('computer_apps lists running apps that are not accessible, with reason, fix and the fallback', async () => {
  computer = await openComputer({ allowApps: [...E2E_APPS, 'xmessage'] });
  const text = await listed(
    computer,
    /xmessage pid=\d+ \(not accessible[^]*java pid=\d+ \(not accessible|java pid=\d+ \(not accessible[^]*xmessage pid=\d+ \(not accessible/,
  );
  assert.match(text, /xmessage pid=\d+ \(not accessible: its toolkit does not speak AT-SPI\)/, text);
  assert.match(text, new RegExp(`\\[(w\\d+)\\] window "${TITLE}" .*computer_screenshot`), text);
  assert.match(
    text,
    /java pid=\d+ \(not accessible: a Java app started without the ATK wrapper\)\n  fix: .*-Xbootclasspath\/a:\/usr\/share\/java\/java-atk-wrapper\.jar/,
    text,
  );
  assert.doesNotMatch(text, /No accessible apps are running/);

  // Its window has no tree: observe says why; observing by name does not say "not running".
  const ref = new RegExp(`\\[(w\\d+)\\] window "${TITLE}"`).exec(text)?.[1] ?? '';
  const obs = await computer.tools.observe({ full: true, window: ref });
  assert.equal(obs.isError, true);
  assert.match(obs.text, /not on the accessibility bus.*computer_screenshot/, obs.text);
  const byName = await computer.tools.observe({ full: true, app: 'xmessage' });
  assert.match(byName.text, /running but not accessible/, byName.text);

  // The fallback works on it: OCR reads the message.
  const ocr = await computer.tools.screenshot({ window: ref });
  assert.equal(ocr.isError, false, ocr.text);
  assert.match(ocr.text, /quokka/i, ocr.text);
});

test('a denied app that is not accessible stays unseen', async () => {
  const denied = await openComputer({ allowApps: [...E2E_APPS], denyApps: ['xmessage'] });
  try {
    const text = await listed(denied, /xmessage \(denied/);
    assert.doesNotMatch(text, new RegExp(TITLE), text);
    assert.doesNotMatch(text, /xmessage pid=/, text);
    const byName = await denied.tools.observe({ full: true, app: 'xmessage' });
    assert.equal(byName.isError, true);
    assert.doesNotMatch(byName.text, new RegExp(`${TITLE}|quokka`, 'i'), byName.text);
  } finally { await denied.close(); }
});
