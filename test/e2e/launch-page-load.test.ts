/**
 * `launch chromium URL` (and firefox) answers once the page has loaded and names the window holding it. A page
 * served slowly (its first half at once, the rest 8 s later, from a server on loopback) printed an empty or half
 * document when the launch answered at the browser's first window; Chromium's first window can also be a small
 * helper, which the launch named. The launch waits, bounded by its waitMs, for the document's busy state to end.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { firefoxProfile } from './browsers.js';
import { ok, openComputer } from './helpers.js';

/** Serves a page whose end arrives `delayMs` after its start; resolves with the server and its URL. */
async function slowPage(delayMs: number): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    if (req.url !== '/slow') { res.writeHead(404).end(); return; }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.write('<!doctype html><html><head><title>Slow page</title></head><body><h1>Arriving</h1>' + ' '.repeat(4096));
    setTimeout(() => res.end('<p>Fully loaded paragraph.</p><button>Continue</button></body></html>'), delayMs);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { server, url: `http://127.0.0.1:${port}/slow` };
}

/** Ends a launched browser and the processes of its group. */
function stop(pid: number): void {
  for (const target of [-pid, pid]) { try { process.kill(target, 'SIGKILL'); } catch { /* gone */ } }
}

for (const family of ['chromium', 'firefox'] as const) {
  test(`launch ${family} URL answers with the loaded page in the window holding it`, { timeout: 120_000 }, async () => {
    const { server, url } = await slowPage(8000);
    const dir = mkdtempSync(join(tmpdir(), `cu-launch-${family}-`));
    const command = family === 'chromium' ? 'chromium' : 'firefox-esr';
    const args = family === 'chromium' ? [`--user-data-dir=${join(dir, 'profile')}`, '--no-first-run', url]
      : ['-profile', firefoxProfile([], dir), '-no-remote', url];
    const computer = await openComputer({ allowApps: ['chromium', 'firefox-esr', 'firefox'] });
    let pid = 0;
    try {
      const text = ok(await computer.tools.launch({ command, args, waitMs: 45000 }));
      pid = Number(/pid=(\d+)/.exec(text)?.[1]);
      assert.match(text, /window (?:\[w\d+\] )?"Slow page/, text);
      assert.match(text, /Fully loaded paragraph\./, text);
      assert.match(text, /button "Continue"/, text);
    } finally {
      await computer.close();
      if (pid > 0) stop(pid);
      server.closeAllConnections();
      server.close();
    }
  });
}
