/**
 * The policy decides on Windows from the facts the Windows driver proves, exactly as on Linux (README): the whole host
 * (createComputer, unattended mode, an allow list) over the real Windows driver and its
 * C# helper under Mono, replaying the assembled Notepad recording with process.identify answers varied per test.
 * An allow comes only from the proven image path; a process Windows will not show is unproven; an interpreter
 * (cmd.exe) is never allowed by its own name; a pid that now belongs to a password manager is denied; and in
 * each refused case the act never reaches the helper.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { DriverConnection } from '../../src/devices/stdio.js';
import { ensureHelper, monoMcs } from '../../src/drivers/windows/build.js';
import type { HelperClient } from '../../src/drivers/windows/helper-client.js';
import { HELPER_SOURCES } from '../../src/drivers/windows/helper-sources.generated.js';
import { createComputer } from '../../src/index.js';
import { connectWindows, notepadRecording, PID, replayHelper } from './windows-replay.js';

const NOTEPAD = {
  pid: PID,
  image: 'C:\\Windows\\System32\\notepad.exe',
  startToken: '134091108001230000',
  user: 'S-1-5-21-1004336348-1177238915-682003330-1001',
  integrity: 0x2000,
  elevated: false,
};
/** The recording's act answer is replaced by this error: a refused act must never reach the helper. */
const REACHED = 'the act reached the helper';
let dir = '';
let exe = '';
const helpers: HelperClient[] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cu-win-policy-'));
  process.env['COMPUTER_USE_HOME'] = dir;
  exe = (await ensureHelper({ sources: HELPER_SOURCES, driversDir: join(dir, 'drivers'), compiler: monoMcs() })).path;
});
after(() => { for (const h of helpers) h.close(0); rmSync(dir, { recursive: true, force: true }); });

const recording = (name: string, first: unknown[], proc?: Record<string, unknown>): string =>
  notepadRecording(dir, name, first, proc);
const connect = (rec: string): DriverConnection => connectWindows(replayHelper(exe, rec, helpers), exe);

/** Observes Notepad and sets its text field's value through the host, unattended, with `allowApps`. */
async function setText(
  rec: string,
  allowApps: string[],
): Promise<{ apps: string; act: { code?: string; text: string } }> {
  const c = await createComputer({
    desktop: 'current',
    mode: 'unattended',
    allowApps,
    settingsPath: join(dir, 'settings.json'),
    auditPath: join(dir, 'audit.jsonl'),
    connect: () => connect(rec),
    showActivity: false,
  });
  try {
    const apps = (await c.call('computer_apps', {})).text;
    const seen = await c.call('computer_observe', { window: 'w1' });
    const ref = /\[(e\d+)\] textbox/.exec(seen.text)?.[1];
    if (!ref) return { apps, act: { code: seen.code ?? 'no_textbox', text: seen.text } };
    const act = await c.call('computer_act', { actions: [{ ref, op: 'set_value', value: 'written' }] });
    return { apps, act: { ...(act.code ? { code: act.code } : {}), text: act.text } };
  } finally { await c.close(); }
}

const noAct = { op: 'act', error: { code: 'internal', message: REACHED } };

test('an allow-listed app passes by its proven image path, and the act reaches ' +
    'the helper; an unlisted one is refused naming the entry that allows it', { timeout: 120_000 }, async () => {
  const other = await setText(
    recording('unlisted', [{ op: 'identify', match: { pid: PID }, result: NOTEPAD }, noAct]),
    ['wordpad'],
  );
  assert.equal(other.act.code, 'denied_by_policy', other.act.text);
  assert.match(
    other.act.text,
    /"notepad" is not on the allow list\. Nothing was sent\. The user can allow "notepad" themselves: in the computer-use panel/,
    other.act.text,
  );
  const r = await setText(recording('allowed', [{ op: 'identify', match: { pid: PID }, result: NOTEPAD }]), [
    'notepad',
  ]);
  assert.match(r.apps, /notepad/, r.apps);
  assert.equal(r.act.code, undefined, r.act.text);
  assert.match(r.act.text, /^ok set_value e\d+ · .*Value\.SetValue/, r.act.text);
});

test('a process Windows will not show (OpenProcess denied) ' +
    'is unproven: refused unattended, nothing sent', { timeout: 120_000 }, async () => {
  const r = await setText(
    recording('unproven', [{ op: 'identify', match: { pid: PID }, result: { pid: PID, denied: true } }, noAct]),
    ['notepad'],
  );
  assert.equal(r.act.code, 'denied_by_policy', r.act.text);
  assert.doesNotMatch(r.act.text, new RegExp(REACHED));
  // "notepad" is on the list: the refusal says why it does not count, and names no entry that would change nothing.
  assert.doesNotMatch(r.act.text, /not on the (allow )?list|--allow-app|allowApps/, r.act.text);
  assert.match(r.act.text, /cannot prove which program "notepad" is \(its executable cannot be proven\)/, r.act.text);
});

test('cmd.exe is an interpreter: an allow entry naming it does not allow it', { timeout: 120_000 }, async () => {
  const cmd = { ...NOTEPAD, image: 'C:\\Windows\\System32\\cmd.exe' };
  const r = await setText(recording('cmd', [{ op: 'identify', match: { pid: PID }, result: cmd }, noAct], cmd), [
    'cmd',
  ]);
  assert.equal(r.act.code, 'denied_by_policy', r.act.text);
  assert.doesNotMatch(r.act.text, new RegExp(REACHED));
  // No entry names cmd.exe running no script: the advice is not "--allow-app cmd (notepad)", which could never match.
  assert.doesNotMatch(r.act.text, /--allow-app|allowApps/, r.act.text);
  assert.match(r.act.text, /No allow entry can name this app/, r.act.text);
});

test('a pid that process.identify proves to be a password ' +
    'manager now is denied, whatever the window list said', { timeout: 120_000 }, async () => {
  const keepass = { ...NOTEPAD, image: 'C:\\Program Files\\KeePass Password Safe 2\\KeePass.exe' };
  const r = await setText(recording('keepass', [{ op: 'identify', match: { pid: PID }, result: keepass }, noAct]), [
    'notepad',
  ]);
  assert.equal(r.act.code, 'denied_by_policy', r.act.text);
  assert.match(r.act.text, /password manager/, r.act.text);
  assert.doesNotMatch(r.act.text, new RegExp(REACHED));
});
