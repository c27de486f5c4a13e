/**
 * createComputer drives this machine's own desktop through its platform's built-in driver (docs/platforms.md, "macOS",
 * "Windows"):
 * a Mac gets the macOS driver and its own desktop, never the Linux driver in an Xvfb sandbox.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { builtinDriver } from '../../src/devices/stdio.js';
import { nativeDesktop } from '../../src/index.js';

test('each Node platform gets its own driver; Windows and macOS ' +
    'drive their own desktop, Linux may start a sandbox', () => {
  assert.deepEqual(nativeDesktop('darwin'), { platform: 'macos', ownDesktop: true });
  assert.deepEqual(nativeDesktop('win32'), { platform: 'windows', ownDesktop: true });
  assert.deepEqual(nativeDesktop('linux'), { platform: 'linux', ownDesktop: false });
  assert.deepEqual(nativeDesktop('freebsd'), { platform: 'linux', ownDesktop: false });
  for (const p of ['darwin', 'win32', 'linux'])
    assert.ok(existsSync(builtinDriver(nativeDesktop(p).platform).args[0]!), p);
});
