/**
 * A macOS run without the Accessibility grant: the driver's permission_denied says exactly what to do (the pane,
 * what to turn on, the node binary to add with + when no app bundle started it, home shown as ~), and the
 * workflow's first check (test/macos/permission.ts) fails loudly with that instruction. Both run here on the
 * fake AX library, whose tree file says whether the process is trusted.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { accessibilityGrant, tildePath } from '../../src/drivers/macos/permission.js';
import { buildFakeAx, MACOS_FIXTURES } from '../macos/fake-ax.js';

const CHECK = fileURLToPath(new URL('../macos/permission.js', import.meta.url));
let dir = '';
let lib = '';
before(() => { dir = mkdtempSync(join(tmpdir(), 'cu-mac-tcc-')); lib = buildFakeAx(); });
after(() => { rmSync(dir, { recursive: true, force: true }); });

function tree(trusted: boolean): string {
  const doc = JSON.parse(readFileSync(join(MACOS_FIXTURES, 'textedit.json'), 'utf8')) as Record<string, unknown>;
  const p = join(dir, `textedit-${trusted}.json`);
  writeFileSync(p, JSON.stringify({ ...doc, trusted }));
  return p;
}

function check(trusted: boolean, env: Record<string, string> = {}): { status: number | null; out: string } {
  const base = { ...process.env };
  delete base['__CFBundleIdentifier'];
  delete base['TERM_PROGRAM'];
  const r = spawnSync(process.execPath, [CHECK], { encoding: 'utf8', timeout: 90_000,
    env: { ...base, COMPUTER_USE_MACOS_AX_LIB: lib, FAKE_AX_TREE: tree(trusted), COMPUTER_USE_HOME: join(dir, 'home'),
      ...env } });
  return { status: r.status, out: r.stdout };
}

test('without the grant the workflow\'s first check fails loudly with ' +
    'the driver\'s instruction: the pane and the node binary to add', { timeout: 120_000 }, () => {
  const r = check(false);
  assert.equal(r.status, 1, r.out);
  assert.match(r.out, /^::error title=macOS Accessibility not granted::/m);
  assert.match(r.out, /System Settings › Privacy & Security › Accessibility/);
  assert.match(r.out, /press \+, then ⌘⇧G and paste/);
  assert.ok(r.out.includes(tildePath(accessibilityGrant().binary)), r.out);
});

test('with the grant it passes', { timeout: 120_000 }, () => {
  const r = check(true);
  assert.equal(r.status, 0, r.out);
  assert.match(r.out, /^PASS/m);
});

test('started from an app, the instruction names the app first; the home folder is never named', () => {
  const node = '/Users/josé/.nvm/versions/node/v20.11.0/bin/node';
  const g = accessibilityGrant({ __CFBundleIdentifier: 'com.apple.Terminal' }, node, '/Users/josé');
  assert.equal(g.grant, 'com.apple.Terminal');
  assert.match(g.message, /turn on com\.apple\.Terminal/);
  assert.match(g.message, /quit com\.apple\.Terminal and start it again/);
  assert.ok(g.message.includes('~/.nvm/versions/node/v20.11.0/bin/node'));
  assert.ok(!g.message.includes('josé'), g.message);
  const bare = accessibilityGrant({}, '/opt/homebrew/bin/node', '/Users/josé');
  assert.equal(bare.grant, '/opt/homebrew/bin/node');
});
