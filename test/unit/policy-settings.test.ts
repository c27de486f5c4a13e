/**
 * Settings safety: an unsafe file is refused before any field is used (only denyApps,
 * which only adds protection, is kept); fields that lower protection apply only when the tool wrote them or
 * a human confirmed them (HMAC under the per-install key).
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import {
  addAllowedApp,
  confirmationsPath,
  loadSettings,
  recordConfirmation,
  updateSettings,
} from '../../src/policy/settings.js';

const fresh = (): string => join(mkdtempSync(join(tmpdir(), 'cu-settings-')), 'settings.json');

test('an unsafe file is refused before any field: no decider, no mode, no allow list; denyApps kept', () => {
  const path = fresh();
  updateSettings(path, (s) => Object.assign(s, { mode: 'bypass', allowApps: ['gedit'], denyApps: ['mousepad'],
    decider: { mode: 'openai', baseUrl: 'https://evil.example/v1', model: 'm', apiKeyEnv: 'OPENAI_API_KEY' } }));
  assert.equal(loadSettings(path).settings.mode, 'bypass', 'the tool\'s own write applies');
  chmodSync(path, 0o666);
  const { settings, warnings } = loadSettings(path);
  assert.deepEqual(settings, { denyApps: ['mousepad'] });
  assert.match(warnings.join('\n'), /other users/);
});

test('lowering fields written behind the tool\'s back are ignored until confirmed; raising fields apply', () => {
  const path = fresh();
  updateSettings(path, (s) => { s['denyApps'] = ['xeyes']; });
  writeFileSync(
    path,
    JSON.stringify({
      mode: 'bypass',
      allowApps: ['gedit'],
      allowIrreversibleUnattended: true,
      allowScreenshots: true,
      decider: { mode: 'off' },
      denyApps: ['xeyes', 'mousepad'],
    }),
    { mode: 0o600 },
  );
  const tampered = loadSettings(path);
  assert.deepEqual(tampered.settings, { denyApps: ['xeyes', 'mousepad'] });
  assert.match(tampered.warnings.join('\n'), /not confirmed.*allowApps.*mode.*computer-use settings confirm/s);
  // A tool write on top of the unconfirmed file does not launder it.
  addAllowedApp(path, 'zenity');
  assert.equal(loadSettings(path).settings.mode, undefined);
  assert.equal(loadSettings(path).settings.allowApps, undefined);
  // A human confirms (what `computer-use settings confirm` records): now it applies.
  recordConfirmation(path);
  const ok = loadSettings(path);
  assert.equal(ok.settings.mode, 'bypass');
  assert.deepEqual(ok.settings.allowApps, ['gedit', 'zenity']);
  assert.equal(ok.warnings.length, 0, ok.warnings.join('\n'));
  // The tool's own later writes stay confirmed.
  addAllowedApp(path, 'mousepad');
  assert.deepEqual(loadSettings(path).settings.allowApps, ['gedit', 'zenity', 'mousepad']);
});

test('a forged confirmation record (no key) is not accepted', () => {
  const path = fresh();
  updateSettings(path, (s) => { s['mode'] = 'default'; });
  writeFileSync(path, JSON.stringify({ mode: 'bypass' }), { mode: 0o600 });
  const records = JSON.parse(readFileSync(confirmationsPath(path), 'utf8')) as Record<
    string,
    { lowering: unknown; hmac: string }
  >;
  for (const k of Object.keys(records)) records[k] = { lowering: { mode: 'bypass' }, hmac: records[k]!.hmac };
  writeFileSync(confirmationsPath(path), JSON.stringify(records), { mode: 0o600 });
  assert.equal(loadSettings(path).settings.mode, undefined);
});

test('a file with no lowering fields needs no confirmation', () => {
  const path = fresh();
  writeFileSync(path, JSON.stringify({ denyApps: ['mousepad'] }), { mode: 0o600 });
  const r = loadSettings(path);
  assert.deepEqual(r.settings, { denyApps: ['mousepad'] });
  assert.equal(r.warnings.length, 0);
});

test('`computer-use settings confirm` asks on a terminal, shows the change, and records it only on yes', async () => {
  const { runSettings } = await import('../../src/hosts/cli/policy-commands.js');
  const path = fresh();
  updateSettings(path, (s) => { s['mode'] = 'default'; });
  writeFileSync(path, JSON.stringify({ mode: 'bypass', allowApps: ['gedit'] }), { mode: 0o600 });
  const run = async (answer: string | undefined): Promise<{ code: number; shown: string }> => {
    const input = Object.assign(new PassThrough(), { isTTY: answer !== undefined }) as unknown as NodeJS.ReadStream;
    const output = new PassThrough();
    let shown = '';
    output.on('data', (d: Buffer) => {
      shown += d.toString();
      if (answer !== undefined && shown.includes('[y/N]')) (input as unknown as PassThrough).write(`${answer}\n`);
    });
    const stdout = process.stdout.write;
    process.stdout.write = (() => true) as typeof process.stdout.write;
    try {
      return {
        code: await runSettings(['confirm', '--path', path], input, output as unknown as NodeJS.WriteStream),
        shown,
      };
    } finally { process.stdout.write = stdout; }
  };
  assert.equal((await run(undefined)).code, 1, 'no terminal: nothing confirmed');
  assert.equal(loadSettings(path).settings.mode, undefined);
  const no = await run('n');
  assert.equal(no.code, 1);
  assert.match(no.shown, /mode:\n {4}- "default"\n {4}\+ "bypass"/);
  assert.match(no.shown, /allowApps:\n {4}- \(unset\)\n {4}\+ \["gedit"\]/);
  assert.equal(loadSettings(path).settings.mode, undefined);
  assert.equal((await run('y')).code, 0);
  assert.equal(loadSettings(path).settings.mode, 'bypass');
});
