/**
 * docs/policy.md, "Threat model": a settings file the tool did not write counts for nothing until a human confirms it,
 * every field included. A settings.json created from outside (as Save As in an allowed editor would) that moves
 * the stop hotkey and hides the activity frame is not obeyed: the panel grabs the default chord on the X
 * display, and an act in zenity still draws the frame (computer-use's own X windows, read with xwininfo).
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { ok, openComputer, refOn } from '../helpers.js';

const cli = fileURLToPath(new URL('../../../src/hosts/cli/main.js', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'cu-settings-outside-'));
process.env['COMPUTER_USE_HOME'] = home;
const children: ChildProcess[] = [];
after(() => { for (const c of children) c.kill('SIGKILL'); });

mkdirSync(home, { recursive: true, mode: 0o700 });
writeFileSync(
  join(home, 'settings.json'),
  JSON.stringify({ stopHotkey: 'ctrl+alt+shift+F12', showActivity: false }) + '\n',
  { mode: 0o600 },
);

/** computer-use's own mapped X windows (WM_CLASS "computer-use"): the activity frame and status window. */
function drawn(): number {
  const tree = execFileSync('xwininfo', ['-root', '-children'], { encoding: 'utf8' });
  let n = 0;
  for (const line of tree.split('\n')) {
    const m = /^\s+(0x[0-9a-f]+) .*\("computer-use" "computer-use"\)/.exec(line);
    if (!m?.[1]) continue;
    try {
      if (/Map State: IsViewable/.test(execFileSync('xwininfo', ['-id', m[1]], { encoding: 'utf8' }))) n++;
    } catch {
      /* gone */
    }
  }
  return n;
}

test('an outside settings.json does not move the stop hotkey', async () => {
  const proc = spawn(process.execPath, [cli, 'panel'], {
    env: { ...process.env, COMPUTER_USE_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(proc);
  let out = '';
  const chord = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no hotkey line:\n${out}`)), 30_000);
    const onLine = (l: string): void => {
      out += l + '\n';
      const m = /^stop hotkey: (\S+)/.exec(l);
      if (m) { clearTimeout(timer); resolve(m[1]!); }
      if (/\(Ctrl\+C ends it\)/.test(l) && !/stop hotkey/.test(out)) { clearTimeout(timer); resolve('none'); }
    };
    createInterface({ input: proc.stdout! }).on('line', onLine);
    createInterface({ input: proc.stderr! }).on('line', (l) => { out += l + '\n'; });
  });
  assert.equal(chord, 'ctrl+shift+Escape', out);
  proc.kill('SIGINT');
});

test('an outside settings.json does not hide the activity frame', async () => {
  const title = `Settings outside ${process.pid}`;
  children.push(spawn('zenity', ['--entry', '--title', title, '--text', 'activity test'], { stdio: 'ignore' }));
  const computer = await openComputer();
  try {
    assert.ok(
      computer.policy.warnings.some((w) => /not confirmed/.test(w) && /showActivity/.test(w) && /stopHotkey/.test(w)),
      computer.policy.warnings.join('\n'),
    );
    const waited = ok(await computer.tools.wait({ until: 'window_appears', text: title, timeoutMs: 20000 }));
    const field = refOn(waited, /\] textbox/);
    let most = 0;
    let done = false;
    const act = computer.tools
      .act({ actions: [{ ref: field, op: 'type', value: 'framed' }], settle: { quietMs: 800, timeoutMs: 5000 } })
      .finally(() => {
        done = true;
      });
    while (!done) { most = Math.max(most, drawn()); await new Promise((r) => setTimeout(r, 30)); }
    ok(await act);
    assert.ok(most > 0, 'no activity frame was drawn: the outside showActivity:false was obeyed');
  } finally { await computer.close(); }
});
