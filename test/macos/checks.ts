#!/usr/bin/env node
/**
 * Driver-level checks on a real Mac, for .github/workflows/macos.yml (macos-latest): what is replay-tested on
 * Linux against test/macos-fake, run once against the system frameworks. Identity: a running Finder and a
 * resolved TextEdit carry the appId of Apple's validated signature, an unsigned tool is known by its path.
 * It cannot run on Linux. Exits 1 with what it saw when a check fails.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { MacDriver } from '../../src/drivers/macos/driver.js';

function main(): void {
  const d = new MacDriver();
  try {
    const finder = Number(execFileSync('pgrep', ['-x', 'Finder'], { encoding: 'utf8' }).trim().split('\n')[0]);
    const id = d.identify({ pid: finder });
    process.stdout.write(`identify Finder: ${JSON.stringify(id)}\n`);
    assert.equal(id.appId, 'com.apple.finder@apple');
    assert.equal(id.signing, 'apple');
    const te = d.resolveLaunch({ command: 'TextEdit' });
    process.stdout.write(`resolveLaunch TextEdit: ${JSON.stringify(te)}\n`);
    assert.equal(te.appId, 'com.apple.TextEdit@apple');
    assert.equal(te.executable, '/System/Applications/TextEdit.app/Contents/MacOS/TextEdit');
    assert.equal(d.resolveLaunch({ command: 'com.apple.TextEdit', kind: 'bundle' }).appId, 'com.apple.TextEdit@apple');
    const node = d.identify({ pid: process.pid });
    process.stdout.write(`identify node: ${JSON.stringify({ ...node, content: undefined })}\n`);
    assert.ok(node.signing, 'the runner\'s node says how it is signed');
  } finally {
    d.close();
  }
}

try {
  main();
} catch (e) {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
}
