/**
 * The tool's own files are out of reach. Through an allowed editor (gedit, bypass mode) the
 * agent may not edit settings.json, nor save over it from a Save As dialog; and a settings file rewritten
 * behind the tool's back does not lower the protection of the next session until a human confirms it.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createComputer, type Computer } from '../../../src/index.js';
import { updateSettings } from '../../../src/policy/settings.js';
import { killApp, launch, ok, openComputer, refOn } from '../helpers.js';

let dir: string;
let home: string;
let settingsPath: string;
let computer: Computer;
const pids: number[] = [];
const children: ChildProcess[] = [];

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cu-self-'));
  home = join(dir, 'home');
  process.env['COMPUTER_USE_HOME'] = home;
  settingsPath = join(home, 'settings.json');
  // Written by the tool's own writer: a confirmed file.
  updateSettings(settingsPath, (s) => { s['denyApps'] = ['xeyes']; });
  computer = await openComputer();
});

after(async () => {
  await computer.close();
  for (const c of children) if (c.pid) pids.push(c.pid);
  for (const pid of pids) await killApp(pid);
});

test('typing the settings path into gedit\'s Save As name field is refused', async () => {
  // A document in a sibling folder of the home: the Save As dialog opens there.
  await mkdir(join(dir, 'other'), { recursive: true });
  await writeFile(join(dir, 'other', 'a.txt'), 'hello\n');
  const { pid } = await launch(computer, 'gedit', ['--standalone', join(dir, 'other', 'a.txt')]);
  try {
  const opened = await computer.tools.keys({ keys: 'ctrl+shift+s', app: 'gedit' });
  let dialog = opened.text;
  if (!/"Save As"/.test(dialog))
    dialog = ok(await computer.tools.wait({ until: 'window_appears', text: 'Save As', timeoutMs: 10000 }));
  dialog = dialog.slice(dialog.search(/"Save As"/));
  const name = refOn(dialog, /\] textbox\b.*editable/);
  // Absolute, with .., in other case, and relative to the chooser's current folder (read from its path bar).
  for (const value of [
    settingsPath,
    join(dir, 'home', '..', 'home', 'settings.json'),
    settingsPath.toUpperCase(),
    '../home/settings.json',
  ]) {
    const r = await computer.tools.act({ actions: [{ ref: name, op: 'set_value', value }] });
    assert.equal(
      r.code ?? (/denied_by_policy/.test(r.text) ? 'denied_by_policy' : undefined),
      'denied_by_policy',
      `${value}:\n${r.text}`,
    );
  }
  } finally { await killApp(pid); }
});

test('an editor window showing settings.json takes no edit', async () => {
  const before = await readFile(settingsPath, 'utf8');
  // A gedit of its own (not a tab in another instance), started outside the tools.
  children.push(spawn('gedit', ['--standalone', settingsPath], { stdio: 'ignore' }));
  const shown = ok(await computer.tools.wait({ until: 'window_appears', text: 'settings.json', timeoutMs: 15000 }));
  const doc = refOn(shown, /\] document .*editable/);
  const set = await computer.tools.act({
    actions: [{ ref: doc, op: 'set_value', value: '{"mode":"bypass","allowApps":["gedit","zenity"]}' }],
  });
  assert.match(set.text, /denied_by_policy/, set.text);
  const keys = await computer.tools.keys({ keys: 'ctrl+a', window: 'settings.json' });
  assert.equal(keys.code, 'denied_by_policy', keys.text);
  assert.equal(await readFile(settingsPath, 'utf8'), before);
});

test('settings rewritten behind the tool\'s back do not lower the next session\'s protection', async () => {
  await writeFile(
    settingsPath,
    JSON.stringify({ mode: 'bypass', allowApps: ['gedit', 'zenity'], denyApps: ['xeyes'] }),
    { mode: 0o600 },
  );
  const zenity = spawn('zenity', ['--entry', '--title', 'Tamper check', '--text', 'name?'], { stdio: 'ignore' });
  children.push(zenity);
  // The next session takes its mode and allow list from the settings file only.
  const next = await createComputer({ desktop: 'current' });
  try {
    const shown = ok(await computer.tools.wait({ until: 'window_appears', text: 'Tamper check', timeoutMs: 15000 }));
    const field = refOn(shown, /\] textbox\b.*editable/);
    // The first session's refs are not the next's: observe in the next session.
    const seen = ok(await next.tools.observe({ full: true, window: 'Tamper check' }));
    const f2 = refOn(seen, /\] textbox\b.*editable/);
    void field;
    const r = await next.tools.act({ actions: [{ ref: f2, op: 'set_value', value: 'hello' }] });
    assert.match(r.text, /confirmation_required/, r.text);
    assert.ok(
      next.policy.warnings.some((w) => /not confirmed/.test(w) && /computer-use settings confirm/.test(w)),
      next.policy.warnings.join('\n'),
    );
  } finally {
    await next.close();
  }
});
