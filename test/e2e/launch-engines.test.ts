/**
 * Launch what a person types: `launch chromium URL` as root failed in a trial (Chromium refuses to run as root
 * without --no-sandbox), then timed out (no renderer accessibility, a keyring prompt). The driver recognises the
 * engine by what the program is (Debian's /usr/bin/chromium is a launcher script that runs /usr/lib/chromium/chromium)
 * and adds what it needs, saying so in one line; the page is read at once. And a launch that worked is never
 * answered "window_not_found: The element is gone" because its first window (a splash screen) closed while read.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { E2E_APPS, killApp, ok, openComputer } from './helpers.js';

test('launch chromium URL, as a person types it: the flags it ' +
    'needs are added and said in one line; its page is read', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-launch-chromium-'));
  const page = join(dir, 'hello.html');
  writeFileSync(
    page,
    '<!doctype html><title>Typed launch</title><h1>Hello from a typed launch</h1><button>Press me</button>',
  );
  const computer = await openComputer({ allowApps: [...E2E_APPS, 'chromium'] });
  let pid = 0;
  try {
    // Its own profile folder only, so that no running Chromium takes the start over.
    const text = ok(
      await computer.tools.launch({
        command: 'chromium',
        args: [`--user-data-dir=${join(dir, 'profile')}`, pathToFileURL(page).href],
        waitMs: 60000,
      }),
    );
    pid = Number(/pid=(\d+)/.exec(text)?.[1]);
    const note = text.split('\n').filter((l) => l.startsWith('added for '));
    assert.equal(note.length, 1, text);
    assert.match(
      note[0] ?? '',
      /^added for Chromium: --force-renderer-accessibility \(its pages readable\), --password-store=basic \(no keyring prompt\)/,
      text,
    );
    if (process.getuid?.() === 0)
      assert.match(note[0] ?? '', /--no-sandbox \(it refuses to run as root without it\)/, text);
    assert.match(text, /ran as given plus what the line above adds/, text);
    // Readable: the page's own elements are in the tree (the launch's first read may come before the page loaded).
    const seen = /button "Press me"/.test(text)
      ? text
      : ok(await computer.tools.wait({ until: 'appears', text: 'Press me', app: 'Chromium', timeoutMs: 20000 }));
    assert.match(seen, /button "Press me"/, seen);
  } finally {
    await computer.close();
    if (pid > 0) await killApp(pid);
  }
});

const SPLASH = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'test', 'apps', 'splash.py');

test('a first window that closes while it is read (a splash ' +
    'screen) gives way to the window that replaced it', { timeout: 60_000 }, async () => {
  const computer = await openComputer({ allowApps: [`/usr/bin/python3 ${SPLASH}`] });
  let pid = 0;
  try {
    const r = await computer.tools.launch({ command: '/usr/bin/python3', args: [SPLASH], waitMs: 20000 });
    pid = Number(/pid=(\d+)/.exec(r.text)?.[1]);
    // The launch worked, so it never answers window_not_found ("The element is gone"), which the splash closing
    // mid-read gave before. Which window it shows depends on when the read lands: the replacement when the splash
    // closed during it, else the splash itself, read whole while it showed (its progress bar changes every 50 ms).
    assert.equal(r.isError, false, r.text);
    assert.doesNotMatch(r.text, /window_not_found|is gone/, r.text);
    assert.match(
      r.text,
      /window (?:\[w\d+\] )?"Splash lab"[\s\S]*button "Ready"|window (?:\[w\d+\] )?"Starting"[\s\S]*progressbar/,
      r.text,
    );
  } finally {
    await computer.close();
    if (pid > 0) await killApp(pid);
  }
});
