/**
 * Nothing hidden blocks the agent without being named. A credential prompt (Chromium's first start asked the keyring
 * through gcr-prompter) is on the built-in deny list, so the model cannot see it, and it holds an X keyboard grab
 * that never ends until the user answers. In a trial, keys answered that the keyboard "belongs to an app that is not
 * shown", and then even an element scroll in Chromium was refused as window_not_focused, because a scroll with no
 * scroll bar became Page keys. Now:
 * - keys are refused naming the holder (its program name, that it is denied and why) and what the user must do,
 *   never its title; the answer comes at once although the grab never ends;
 * - an element scroll of a web page moves the page through the elements' own interfaces (no key is sent);
 * - a launched program that shows no window is listed by `apps`, with the denied prompt that may be what it waits for.
 * The holder is test/apps/keyboard-grab.py named "gcr-prompter" (the deny list matches the program name).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import type { Computer } from '../../../src/index.js';
import { startBrowser, stopBrowser } from '../browsers.js';
import { E2E_APPS, killApp, ok, openComputer, refOn } from '../helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const GRABBER = join(root, 'test', 'apps', 'keyboard-grab.py');

let computer: Computer;
let gedit: ChildProcess | undefined;
let grabber: ChildProcess | undefined;
let browser: ChildProcess | undefined;
let printed = '';

/** The line of computer_apps that lists a window of `pid` whose title matches, as its wN. */
async function windowOf(pid: () => number | undefined, title: RegExp): Promise<string> {
  for (let i = 0; i < 80; i++) {
    const apps = ok(await computer.tools.apps({}));
    const block = apps.split(/\n(?=\S)/).find((b) => b.includes(`pid=${pid()}`)) ?? '';
    const m = block.split('\n').find((l) => /\[w\d+\]/.test(l) && title.test(l))?.match(/\[(w\d+)\]/);
    if (m?.[1]) return m[1];
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`no window ${title} of pid ${pid()}`);
}

/** Starts the grabber under a credential prompt's name; resolves once it holds the keyboard. */
async function grab(): Promise<void> {
  grabber = spawn('/usr/bin/python3', [GRABBER, '--as', 'gcr-prompter'], {
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  grabber.stdout?.setEncoding('utf8').on('data', (d: string) => { printed += d; });
  for (let i = 0; i < 200 && !/^grab/m.test(printed); i++) await new Promise((r) => setTimeout(r, 50));
  assert.match(printed, /^grabbed$/m, printed);
}

before(async () => {
  computer = await openComputer({ allowApps: [...E2E_APPS, 'chromium', 'sleep', `/usr/bin/python3 ${GRABBER}`] });
  gedit = spawn('gedit', ['--standalone'], { detached: true, stdio: 'ignore' });
});
after(async () => {
  await computer?.close();
  if (grabber?.pid) await killApp(grabber.pid);
  if (gedit?.pid) await killApp(gedit.pid);
  if (browser) await stopBrowser(browser);
});

test('keys blocked by a denied credential prompt\'s grab name ' +
    'the prompt, why it is denied and what the user must do', { timeout: 90_000 }, async () => {
  const window = await windowOf(() => gedit?.pid, /document|Untitled|gedit/);
  await grab();
  const r = await computer.tools.keys({ keys: 'x y z', window });
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.doesNotMatch(printed, /^key /m, `the keys reached the grabbing app (${r.code ?? 'ok'}: ${r.text})`);
  assert.equal(r.code, 'window_not_focused', r.text);
  assert.match(r.text, /holds the keyboard/, r.text);
  assert.match(r.text, /held by gcr-prompter \(pid \d+\)/, `names the holder: ${r.text}`);
  assert.match(r.text, /keyring or credential manager/, `says why it is denied: ${r.text}`);
  assert.match(r.text, /ask them to answer or close/, `says what the user must do: ${r.text}`);
  assert.doesNotMatch(r.text, /Grabber/, 'a denied window\'s title is never shown');
});

test('an element scroll of a web page works while a ' +
    'denied prompt holds the keyboard: no key is sent', { timeout: 120_000 }, async () => {
  if (!grabber) await grab();
  const dir = mkdtempSync(join(tmpdir(), 'cu-long-page-'));
  const page = join(dir, 'long.html');
  const rows = Array.from({ length: 200 }, (_, i) => `<p>Paragraph number ${i + 1} of the long page</p>`).join('\n');
  writeFileSync(
    page,
    `<!doctype html><title>Long page</title><h1>Top of the long page</h1>\n${rows}\n<h2>Bottom of the long ` +
      `page</h2>`,
  );
  browser = startBrowser('chromium', pathToFileURL(page).href);
  const window = await windowOf(() => browser?.pid, /Long page/);
  // The window is titled before its page has loaded (Chromium then replaces the document): wait for the text.
  let snap = '';
  for (let i = 0; i < 40 && !/Paragraph number 1 /.test(snap); i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 250));
    // Whole each time: a later observe prints only what changed, which need not hold the document's own line.
    snap = ok(await computer.tools.observe({ window, full: true }));
  }
  const doc = refOn(snap, /document "Long page"/);
  const r = await computer.tools.act({ actions: [{ ref: doc, op: 'scroll', value: 'down' }] });
  assert.doesNotMatch(r.text, /window_not_focused/, r.text);
  assert.equal(r.isError, false, r.text);
  assert.match(r.text, /^ok scroll/m, r.text);
  assert.doesNotMatch(printed, /^key /m, 'a key reached the grabbing app');
  // The page moved: a paragraph below the first screen is on screen now.
  const now = ok(await computer.tools.observe({ window, full: true }));
  assert.match(now, /Paragraph number (4\d|[5-9]\d|1\d\d)\b/, now);
});

test('a launch that shows no window is listed by apps, ' +
    'naming the denied prompt it may wait for', { timeout: 60_000 }, async () => {
  if (!grabber) await grab();
  const r = ok(await computer.tools.launch({ command: 'sleep', args: ['120'], waitMs: 0 }));
  const pid = Number(/pid=(\d+)/.exec(r)?.[1]);
  assert.ok(pid > 0, r);
  try {
    const apps = ok(await computer.tools.apps({}));
    assert.match(
      apps,
      new RegExp(
        `^sleep pid=${pid} \\(launched \\d+ s ago, no window: gcr-prompter, which computer-use may not see ` +
          '\\(it is a keyring or credential manager[^\\n]*ask the user to answer or close it\\)$',
        'm',
      ),
      apps,
    );
  } finally {
    await killApp(pid);
  }
});
