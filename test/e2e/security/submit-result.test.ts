/**
 * Self-protection by result, not by keystrokes, and a terminal's commands. A protected path typed in two
 * computer_keys calls ("/tmp/…/" then the rest and Return) into gedit's Open dialog, or a relative name split
 * across calls into the Save As name field, is refused at Return: the field's whole text is read and resolved
 * as the chooser will (its folder, `..`). In xfce4-terminal, `rm -f x` then Return in accept-edits mode asks
 * first, with the command line quoted; bypass mode refuses it unless a human allowed commands there.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Computer } from '../../../src/index.js';
import type { ConfirmRequest } from '../../../src/policy/confirm.js';
import { updateSettings } from '../../../src/policy/settings.js';
import { E2E_APPS, killApp, launch, ok, openComputer, refOn } from '../helpers.js';

let dir: string;
let home: string;
const pids: number[] = [];

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'cu-submit-'));
  home = join(dir, 'home');
  process.env['COMPUTER_USE_HOME'] = home;
  updateSettings(join(home, 'settings.json'), (s) => { s['denyApps'] = ['xeyes']; });
});
after(async () => { for (const pid of pids) await killApp(pid); });

/** Keysym chords that type `s`. */
function keysFor(s: string): string {
  const names: Record<string, string> = { ' ': 'space', '-': 'minus', '/': 'slash', '.': 'period', '_': 'underscore', '~': 'asciitilde' };
  return [...s].map((c) => names[c] ?? c).join(' ');
}

const codeOf = (r: { code?: string; text: string }): string | undefined =>
  r.code ?? /\b(denied_by_policy|confirmation_declined|confirmation_required)\b/.exec(r.text)?.[1];

test('a protected path typed in two calls into ' +
    'gedit\'s Open dialog is refused at Return', { timeout: 90_000 }, async () => {
  const computer = await openComputer();
  mkdirSync(join(dir, 'other'), { recursive: true });
  writeFileSync(join(dir, 'other', 'a.txt'), 'hello\n');
  const { pid } = await launch(computer, 'gedit', ['--standalone', join(dir, 'other', 'a.txt')]);
  try {
    const opened = await computer.tools.keys({ keys: 'ctrl+o', app: 'gedit' });
    if (!/"Open/.test(opened.text))
      ok(await computer.tools.wait({ until: 'window_appears', text: 'Open', timeoutMs: 10000 }));
    const target = join(home, 'settings.json');
    const cut = target.indexOf('/home/') + 1;
    // ctrl+l opens the location entry; the first call names only the temporary folder, the second the rest.
    ok(await computer.tools.keys({ keys: 'ctrl+l', app: 'gedit' }));
    ok(await computer.tools.keys({ keys: keysFor(target.slice(0, cut)), app: 'gedit' }));
    const r = await computer.tools.keys({ keys: `${keysFor(target.slice(cut))} Return`, app: 'gedit' });
    assert.equal(codeOf(r), 'denied_by_policy', r.text);
    const apps = ok(await computer.tools.apps({}));
    assert.doesNotMatch(apps, /settings\.json/, apps);
    await computer.tools.keys({ keys: 'Escape', app: 'gedit' });
  } finally { await killApp(pid); await computer.close(); }
});

test('a relative name split across calls into Save As ' +
    'resolves against the chooser\'s folder and is refused', { timeout: 90_000 }, async () => {
  const computer = await openComputer();
  const { pid } = await launch(computer, 'gedit', ['--standalone', join(dir, 'other', 'a.txt')]);
  try {
    const opened = await computer.tools.keys({ keys: 'ctrl+shift+s', app: 'gedit' });
    if (!/"Save As"/.test(opened.text))
      ok(await computer.tools.wait({ until: 'window_appears', text: 'Save As', timeoutMs: 10000 }));
    // The name field holds "a.txt", selected: typing replaces it.
    ok(await computer.tools.keys({ keys: keysFor('../ho'), app: 'gedit' }));
    const r = await computer.tools.keys({ keys: `${keysFor('me/settings.json')} Return`, app: 'gedit' });
    assert.equal(codeOf(r), 'denied_by_policy', r.text);
    await computer.tools.keys({ keys: 'Escape', app: 'gedit' });
  } finally { await killApp(pid); await computer.close(); }
});

/** Starts an xfce4-terminal in `cwd` (the user starts it) and waits for its prompt. */
async function terminal(computer: Computer, cwd: string): Promise<number | undefined> {
  const child = spawn(
    'xfce4-terminal',
    ['--disable-server', '--hide-menubar', '--hide-toolbar', `--working-directory=${cwd}`],
    { detached: true, stdio: 'ignore' },
  );
  child.unref();
  if (child.pid) pids.push(child.pid);
  for (let i = 0; i < 60; i++) {
    const r = await computer.tools.observe({ full: true, app: 'xfce4-terminal' });
    if (/terminal "Terminal" value="[^"]*[#$] /.test(r.text)) return child.pid;
    await new Promise((res) => setTimeout(res, 250));
  }
  assert.fail('the terminal showed no prompt');
}

test('xfce4-terminal: `rm -f x` then Return in accept-edits asks ' +
    'first, quoting the command line; denied, nothing runs', { timeout: 120_000 }, async () => {
  const work = mkdtempSync(join(tmpdir(), 'cu-term-'));
  writeFileSync(join(work, 'x'), 'keep me\n');
  const asked: ConfirmRequest[] = [];
  const computer = await openComputer({ mode: 'accept-edits', allowApps: [...E2E_APPS, 'xfce4-terminal'],
    confirmer: { interactive: true, confirm: async (q) => { asked.push(q); return 'deny'; } } });
  try {
    const pid = await terminal(computer, work);
    const r = await computer.tools.keys({ app: 'xfce4-terminal', keys: `${keysFor('rm -f x')} Return` });
    assert.equal(codeOf(r), 'confirmation_declined', r.text);
    assert.equal(asked.length, 1, 'one question');
    assert.match(asked[0]!.message, /command line.*rm -f x/s, asked[0]!.message);
    assert.ok(existsSync(join(work, 'x')), 'x was not removed');
    if (pid) await killApp(pid);
  } finally { await computer.close(); }
});

test('xfce4-terminal: bypass mode refuses a command unless a ' +
    'human allowed commands there; with the allowance it runs', { timeout: 120_000 }, async () => {
  const work = mkdtempSync(join(tmpdir(), 'cu-term-'));
  writeFileSync(join(work, 'y'), 'y\n');
  const computer = await openComputer({ allowApps: [...E2E_APPS, 'xfce4-terminal'] });
  try {
    await terminal(computer, work);
    const r = await computer.tools.keys({ app: 'xfce4-terminal', keys: `${keysFor('rm -f y')} Return` });
    assert.equal(codeOf(r), 'denied_by_policy', r.text);
    assert.ok(existsSync(join(work, 'y')));
  } finally { await computer.close(); }
  const allowed = await openComputer({ allowApps: [...E2E_APPS, 'xfce4-terminal'], allowCommands: ['xfce4-terminal'] });
  try {
    // Refused above before anything was sent: the line is empty.
    ok(await allowed.tools.keys({ app: 'xfce4-terminal', keys: `${keysFor('rm -f y')} Return` }));
    for (let i = 0; i < 40 && existsSync(join(work, 'y')); i++) await new Promise((res) => setTimeout(res, 100));
    assert.ok(!existsSync(join(work, 'y')), 'the allowed terminal ran the command');
  } finally { await allowed.close(); }
});
