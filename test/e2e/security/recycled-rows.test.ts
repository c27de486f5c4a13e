/**
 * Refs never move (docs/tools.md, "What the model sees"): a ref bound to an entry in a row the app recycles or scrolls
 * fails as
 * stale_ref and never follows the row on screen.
 * - test/apps/recycled-rows.py draws 12 recipient rows with a pool of four "To:" + entry widgets; a scroll
 *   (SIGUSR1) makes the same widgets show items 4-7. Setting the ref of item 0's entry must not edit item 4.
 * - claws-mail's compose window moves an address typed into the last To entry into a new row, scrolls that
 *   out of sight and a new empty entry in. Setting "the same" ref again must not add the address twice (the
 *   draft the app saves is the check, read outside the tools).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { killApp, ok, openComputer, refOn } from '../helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const APP = join(root, 'test', 'apps', 'recycled-rows.py');

/** Collects a child's stdout lines; `printed(line)` waits (event-driven, bounded) until it printed `line`. */
function watch(app: ChildProcess): { lines: () => string[]; printed: (line: string) => Promise<void> } {
  let out = '';
  const waiters: (() => void)[] = [];
  app.stdout?.setEncoding('utf8').on('data', (d: string) => { out += d; waiters.splice(0).forEach((w) => w()); });
  return {
    lines: () => out.split('\n').filter(Boolean),
    printed: async (line) => {
      const deadline = Date.now() + 20000;
      while (!out.split('\n').includes(line)) {
        if (Date.now() > deadline || app.exitCode !== null)
          assert.fail(`the app did not print "${line}"; it printed:\n${out}`);
        await new Promise<void>((r) => { waiters.push(r); setTimeout(r, 200); });
      }
    },
  };
}

function tempHome(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cu-recycled-'));
  writeFileSync(join(dir, 'settings.json'), '{}', { mode: 0o600 });
  return dir;
}

test('a recycled row widget: the ref of item 0\'s entry is ' +
    'stale_ref after the scroll, item 4 is never edited', async () => {
  const dir = tempHome();
  const computer = await openComputer({
    allowApps: [`/usr/bin/python3 ${APP}`],
    auditPath: join(dir, 'audit.jsonl'),
    settingsPath: join(dir, 'settings.json'),
  });
  const app = spawn('/usr/bin/python3', [APP], { stdio: ['ignore', 'pipe', 'inherit'] });
  const out = watch(app);
  try {
    await out.printed('ready');
    const snap = ok(await computer.tools.wait({ until: 'window_appears', text: 'Recycled rows', timeoutMs: 15000 }));
    const first = refOn(snap, /textbox value="a0@example\.com"/);
    app.kill('SIGUSR1');
    await out.printed('scrolled 4');
    const res = await computer.tools.act({ actions: [{ ref: first, op: 'set_value', value: 'mallory@example.com' }] });
    assert.equal(res.code, 'stale_ref', res.text);
    assert.match(res.text, /fresh snapshot:/);
    assert.match(res.text, /value="a4@example\.com"/, 'the fresh snapshot shows the rows now on screen');
    assert.doesNotMatch(
      res.text,
      new RegExp(`\\[${first}\\] textbox value="a4`),
      "item 0's ref shown on item 4's entry",
    );
    // A barrier: the fresh ref of item 4's entry edits item 4, once; the stale act edited nothing.
    const fourth = refOn(res.text, /textbox value="a4@example\.com"/);
    ok(await computer.tools.act({ actions: [{ ref: fourth, op: 'set_value', value: 'bob@example.com' }] }));
    await out.printed('set 4 bob@example.com');
    assert.ok(!out.lines().some((l) => l.includes('mallory')), out.lines().join('\n'));
  } finally {
    await computer.close();
    if (app.pid) await killApp(app.pid);
  }
});

/** A claws-mail home with one local account that sends nowhere, and no spell checker (it opens a dialog). */
function clawsHome(dir: string): string {
  const home = join(dir, 'home');
  for (const f of ['inbox', 'sent', 'queue', 'trash', 'draft']) mkdirSync(join(home, 'Mail', f), { recursive: true });
  mkdirSync(join(home, '.claws-mail'));
  writeFileSync(
    join(home, '.claws-mail', 'accountrc'),
    [
      '[Account: 1]',
      'account_name=test@localhost',
      'is_default=1',
      'name=Test User',
      'address=test@localhost',
      'protocol=5',
      `local_mbox=${join(home, 'mbox')}`,
      'smtp_server=127.0.0.1',
      '',
    ].join('\n'),
  );
  writeFileSync(join(home, '.claws-mail', 'clawsrc'), '[Common]\nenable_aspell=0\n');
  writeFileSync(
    join(home, '.claws-mail', 'folderlist.xml'),
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<folderlist config_version="4">',
      '<folder type="mh" path="Mail" sort="0" collapsed="0" name="Mailbox">',
      ...[
        ['inbox', 'inbox'],
        ['sent', 'outbox'],
        ['queue', 'queue'],
        ['trash', 'trash'],
        ['draft', 'draft'],
      ].map(([p, t]) => `<folderitem path="${p}" name="${p}" type="${t}" />`),
      '</folder>',
      '</folderlist>',
      '',
    ].join('\n'),
  );
  return home;
}

test('claws-mail compose: the To entry\'s ref is stale_ref once the address moved to a new row; the draft has it once', { skip: !existsSync('/usr/bin/claws-mail') && 'claws-mail is not installed (scripts/setup-debian.sh)' }, async () => {
  const dir = tempHome();
  const home = clawsHome(dir);
  const computer = await openComputer({
    allowApps: ['claws-mail'],
    auditPath: join(dir, 'audit.jsonl'),
    settingsPath: join(dir, 'settings.json'),
  });
  const app = spawn('/usr/bin/claws-mail', ['--compose'], { stdio: 'ignore', env: { ...process.env, HOME: home } });
  try {
    const snap = ok(await computer.tools.wait({ until: 'window_appears', text: 'Compose message', timeoutMs: 30000 }));
    const to = refOn(snap, /textbox (description="[^"]*" )?editable focused/);
    ok(await computer.tools.act({ actions: [{ ref: to, op: 'set_value', value: 'alice@example.com' }] }));
    // claws-mail moves the address into a row of its own from an idle handler: on a loaded machine the act's settle
    // can end before it runs. Wait (up to 10 s) until the window shows the new empty To entry under another ref (a
    // find of the address is no proof either way: the moved row may scroll out of view).
    const newEntry = /\[(e\d+)\] textbox description="Use <tab>[^"]*" editable/g;
    for (let i = 0; i < 50; i++) {
      const seen = await computer.tools.observe({});
      if ([...seen.text.matchAll(newEntry)].some((m) => m[1] !== to)) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const again = await computer.tools.act({ actions: [{ ref: to, op: 'set_value', value: 'alice@example.com' }] });
    assert.equal(again.code, 'stale_ref', `the ref followed the new empty row:\n${again.text}`);
    assert.match(again.text, /fresh snapshot:/);
    // What the app holds, read outside the tools: the draft it saves lists the address once.
    // The toolbar may print folded (`e10 "Send", … e12 "Draft"`) or a line per button.
    const draft = /\b(e\d+) "Draft"/.exec(again.text)?.[1] ?? refOn(again.text, /button "Draft"/);
    ok(await computer.tools.act({ actions: [{ ref: draft, op: 'click' }] }));
    const deadline = Date.now() + 15000;
    const saved = (): string[] => readdirSync(join(home, 'Mail', 'draft')).filter((f) => /^\d+$/.test(f));
    while (saved().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const [file] = saved();
    assert.ok(file, 'claws-mail saved no draft');
    const headers = readFileSync(join(home, 'Mail', 'draft', file), 'utf8').split(/\r?\n\r?\n/)[0] ?? '';
    assert.equal(headers.split('alice@example.com').length - 1, 1, headers);
  } finally {
    await computer.close();
    if (app.pid) await killApp(app.pid);
  }
});
