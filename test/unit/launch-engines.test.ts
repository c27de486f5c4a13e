/**
 * Launch what a person types (drivers/linux/engines.ts): a browser engine is recognised by what the program is (the
 * files its build ships beside the binary), through a symlink and through a launcher script that names it, never by
 * its name; a launch gets the flags it needs to be readable and unattended, minus those the caller gave.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { engineOfCommand, engineOfProgram, engineSetup } from '../../src/drivers/linux/apps/engines.js';

/** A folder with a program file and the files named beside it. */
function build(root: string, dir: string, program: string, beside: string[]): string {
  const d = join(root, dir);
  mkdirSync(d, { recursive: true });
  for (const f of beside) { mkdirSync(join(d, f, '..'), { recursive: true }); writeFileSync(join(d, f), ''); }
  const p = join(d, program);
  writeFileSync(p, '\x7fELF');
  chmodSync(p, 0o755);
  return p;
}

function script(path: string, text: string): string {
  writeFileSync(path, text);
  chmodSync(path, 0o755);
  return path;
}

const root = mkdtempSync(join(tmpdir(), 'cu-engines-'));
const chromium = build(root, 'lib/chromium', 'chromium', ['resources.pak', 'icudtl.dat', 'v8_context_snapshot.bin']);
const electron = build(root, 'opt/Notes', 'notes', ['resources.pak', 'icudtl.dat', 'resources/app.asar']);
const firefox = build(root, 'lib/firefox-esr', 'firefox-esr', ['libxul.so', 'omni.ja', 'application.ini']);
const plain = build(root, 'lib/editor', 'editor', ['data.pak']);
mkdirSync(join(root, 'bin'));
symlinkSync(chromium, join(root, 'bin', 'web'));
script(join(root, 'bin', 'chromium'), `#!/bin/sh\nLIBDIR=/nowhere\nexec ${chromium} --flag-from-script "$@"\n`);
symlinkSync(electron, join(root, 'bin', 'notes'));
symlinkSync(firefox, join(root, 'bin', 'firefox'));
symlinkSync(plain, join(root, 'bin', 'chromium-editor'));
const PATH = join(root, 'bin');

test('the engine is what the program is: its files, through a symlink or a launcher script, never its name', () => {
  assert.equal(engineOfProgram(chromium), 'Chromium');
  assert.equal(engineOfProgram(electron), 'Electron');
  assert.equal(engineOfProgram(firefox), 'Firefox');
  assert.equal(engineOfProgram(plain), undefined);
  assert.equal(engineOfCommand('web', PATH), 'Chromium', 'a symlink under another name');
  assert.equal(engineOfCommand('chromium', PATH), 'Chromium', 'a launcher script that names the binary');
  assert.equal(engineOfCommand('notes', PATH), 'Electron');
  assert.equal(engineOfCommand('firefox', PATH), 'Firefox');
  assert.equal(engineOfCommand('chromium-editor', PATH), undefined, 'a name is not an engine');
  assert.equal(engineOfCommand('no-such-program', PATH), undefined);
});

test('Chromium gets accessibility, no keyring prompt, no first-run ' +
    'questions, and --no-sandbox only as root; one line says so', () => {
  const asRoot = engineSetup('Chromium', ['https://example.org'], {}, 0);
  assert.deepEqual(asRoot?.args, [
    '--force-renderer-accessibility',
    '--password-store=basic',
    '--no-first-run',
    '--no-default-browser-check',
    '--no-sandbox',
  ]);
  assert.match(
    asRoot?.note ?? '',
    /^added for Chromium: --force-renderer-accessibility \(its pages readable\), --password-store=basic \(no keyring prompt\), .*--no-sandbox \(it refuses to run as root without it\)$/,
  );
  assert.doesNotMatch(asRoot?.note ?? '', /\n/);
  assert.deepEqual(engineSetup('Chromium', [], {}, 1000)?.args.includes('--no-sandbox'), false);
  // What the caller gave, in any form, stays as given.
  const given = engineSetup(
    'Chromium',
    [
      '--password-store=gnome',
      '--force-renderer-accessibility',
      '--no-first-run',
      '--no-default-browser-check',
      '--no-sandbox',
    ],
    {},
    0,
  );
  assert.equal(given, undefined);
});

test('Electron gets accessibility and the basic password store, not ' +
    'Chromium\'s first-run flags; Firefox its accessibility variable', () => {
  assert.deepEqual(engineSetup('Electron', [], {}, 1000)?.args, [
    '--force-renderer-accessibility',
    '--password-store=basic',
  ]);
  const ff = engineSetup('Firefox', ['-no-remote'], {}, 0);
  assert.deepEqual(ff?.args, []);
  assert.deepEqual(ff?.env, { GNOME_ACCESSIBILITY: '1' });
  assert.match(ff?.note ?? '', /^added for Firefox: GNOME_ACCESSIBILITY=1/);
  assert.equal(engineSetup('Firefox', [], { GNOME_ACCESSIBILITY: '0' }, 0), undefined, 'a value the user set is kept');
  assert.equal(
    engineSetup('Firefox', [], {}, 0, true),
    undefined,
    'a desktop that says accessibility is on needs nothing',
  );
  assert.equal(engineSetup(undefined, [], {}, 0), undefined);
});
