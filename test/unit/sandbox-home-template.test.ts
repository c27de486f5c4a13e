/**
 * The files a sandbox's fresh home starts with: made once per computer-use home, by LibreOffice run in an empty home
 * of its own (never the caller's), keeping only its profile; one making for sandboxes started at once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { homeTemplate, templatePath } from '../../src/drivers/linux/sandbox/home-template.js';

/** A stand-in `soffice` that records its HOME and each run, and writes a profile and a stray file. */
function fakeSoffice(dir: string): string {
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'soffice'), `#!/bin/sh
echo "$HOME|$XDG_CONFIG_HOME|$DISPLAY" >> "${dir}/runs"
mkdir -p "$XDG_CONFIG_HOME/libreoffice/4/user" "$XDG_CACHE_HOME/stray"
echo '<items/>' > "$XDG_CONFIG_HOME/libreoffice/4/user/registrymodifications.xcu"
sleep 0.2
`);
  chmodSync(join(bin, 'soffice'), 0o755);
  return bin;
}

test('the template: one run in a home of its own, the LibreOffice profile kept, nothing else', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-template-'));
  const before = process.env['COMPUTER_USE_HOME'];
  process.env['COMPUTER_USE_HOME'] = join(dir, 'cu');
  try {
    const base = { PATH: `${fakeSoffice(dir)}:/usr/bin:/bin`, HOME: '/home/ann', XDG_CONFIG_HOME: '/home/ann/.config',
      DISPLAY: ':0' };
    const [a, b] = await Promise.all([homeTemplate(base), homeTemplate(base)]);
    assert.equal(a, templatePath());
    assert.equal(b, a);
    const runs = readFileSync(join(dir, 'runs'), 'utf8').trim().split('\n');
    assert.equal(runs.length, 1, 'sandboxes started at once share one making');
    const [home, config, display] = runs[0]!.split('|');
    assert.ok(home!.startsWith(join(dir, 'cu', 'sandboxes')), `ran in a home of its own: ${home}`);
    assert.equal(config, `${home}/.config`);
    assert.equal(display, '', 'headless: no display');
    assert.ok(existsSync(join(a!, '.config', 'libreoffice', '4', 'user', 'registrymodifications.xcu')));
    assert.deepEqual(readdirSync(a!), ['.config']);
    assert.deepEqual(readdirSync(join(dir, 'cu', 'sandboxes')), ['home-template'], 'the making is cleaned up');
    assert.equal(await homeTemplate(base), a);
    assert.equal(readFileSync(join(dir, 'runs'), 'utf8').trim().split('\n').length, 1, 'made once');
  } finally {
    if (before === undefined) delete process.env['COMPUTER_USE_HOME'];
    else process.env['COMPUTER_USE_HOME'] = before;
  }
});

test('no LibreOffice on the PATH: no template, and a sandbox starts with an empty home', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-template-'));
  const before = process.env['COMPUTER_USE_HOME'];
  process.env['COMPUTER_USE_HOME'] = join(dir, 'cu');
  try {
    assert.equal(await homeTemplate({ PATH: join(dir, 'none') }), undefined);
    assert.equal(existsSync(templatePath()), false);
  } finally {
    if (before === undefined) delete process.env['COMPUTER_USE_HOME'];
    else process.env['COMPUTER_USE_HOME'] = before;
  }
});
