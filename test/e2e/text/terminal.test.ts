/**
 * A VTE terminal (xfce4-terminal): a command typed through computer_keys (the policy's path) and its output
 * read from the snapshot, then found by computer_find with its line and offset. Before the Text reading of
 * src/drivers/linux/tree/text.ts the terminal (named "Terminal") had its text skipped: no output to read.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, test } from 'node:test';
import type { Computer } from '../../../src/index.js';
import { E2E_APPS, killApp, ok, openComputer, refOn } from '../helpers.js';

let computer: Computer;
const pids: number[] = [];

// Commands typed into the terminal run only where a human allowed them (bypass mode refuses them otherwise).
before(async () => {
  computer = await openComputer({ allowApps: [...E2E_APPS, 'xfce4-terminal'], allowCommands: ['xfce4-terminal'] });
});
after(async () => {
  await computer?.close();
  for (const pid of pids) await killApp(pid);
});

/** Keysym chords that type `s` (letters, digits and the few symbols the commands below use). */
function keysFor(s: string): string {
  const names: Record<string, string> = { ' ': 'space', '$': 'dollar', '(': 'parenleft', ')': 'parenright', '*': 'asterisk', '-': 'minus', '+': 'plus', '_': 'underscore', ';': 'semicolon' };
  return [...s].map((c) => names[c] ?? c).join(' ');
}

/** Observes until `pattern` shows in the snapshot (the shell answers asynchronously), or fails. */
async function until(pattern: RegExp, args: Record<string, unknown> = {}): Promise<string> {
  let text = '';
  for (let i = 0; i < 40; i++) {
    text = ok(await computer.tools.observe({ full: true, app: 'xfce4-terminal', ...args }));
    if (pattern.test(text)) return text;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.fail(`${pattern} never showed in:\n${text}`);
}

test('terminal: run a command through computer_keys ' +
    'and read its output from the snapshot', { timeout: 90_000 }, async () => {
  // The user starts the terminal (computer_launch refuses a program that runs what its arguments name).
  const child = spawn('xfce4-terminal', ['--disable-server', '--hide-menubar', '--hide-toolbar'], {
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
  if (child.pid) pids.push(child.pid);
  // The prompt is text of the terminal, read even though the node is named.
  const first = await until(/terminal "Terminal" value="[^"]*[#$] /);
  const term = refOn(first, /terminal "Terminal"/);
  ok(await computer.tools.keys({ app: 'xfce4-terminal', keys: `${keysFor('echo result-$((6*7))')} Return` }));
  const after1 = await until(/result-42/);
  const line = after1.split('\n').find((l) => l.includes(`[${term}]`)) ?? '';
  // The command line and its output, in order, and the caret (the terminal's cursor) after them.
  assert.match(line, /echo result-\$\(\(6\*7\)\)\\nresult-42\\n/, line);
  assert.match(line, / caret=\d+/, line);

  const found = ok(await computer.tools.find({ app: 'xfce4-terminal', text: 'result-42' }));
  assert.match(found, new RegExp(`\\[${term}\\] terminal "Terminal" line \\d+, offset \\d+: "result-42"`), found);
});

// VTE (0.70) exposes only the rows on screen through the Text interface, not the scrollback: the snapshot must
// show the newest output, and find reports the screen line.
test('terminal: 2,000 lines of output; the snapshot shows the ' +
    'newest, a range reads as numbered lines, find reports the line', { timeout: 120_000 }, async () => {
  ok(await computer.tools.keys({ app: 'xfce4-terminal', keys: `${keysFor('clear; seq -f row-%g 2000')} Return` }));
  const snap = await until(/row-2000/);
  const term = refOn(snap, /terminal "Terminal"/);
  const line = snap.split('\n').find((l) => l.includes(`[${term}]`)) ?? '';
  // The newest output is shown; the hint names the exact range and the call that reads earlier text.
  assert.match(line, /row-2000/, line);
  assert.ok(snap.length < 12_000, `snapshot of ${snap.length} chars`);
  const hint = /\(text ([\d,]+)–([\d,]+) of ([\d,]+); (?:earlier|more): scope=(e\d+) from=(\d+)\)/.exec(snap);
  // When VTE exposes only the screen, no hint is needed; when it exposes the scrollback, the hint must be exact.
  if (hint) {
    assert.equal(hint[4], term);
    const total = Number(hint[3]!.replace(/,/g, ''));
    assert.equal(Number(hint[2]!.replace(/,/g, '')), total, 'a tail read ends at the end of the text');
  }
  // Reading a range from offset 0 shows numbered lines and where to read on.
  const range = ok(
    await computer.tools.observe({ full: true, app: 'xfce4-terminal', scope: term, from: 0, maxTokens: 1000 }),
  );
  assert.match(range, /^ {2}1│ /m, range);
  assert.match(range, /\(text 0–[\d,]+ of [\d,]+(; more: scope=e\d+ from=\d+)?\)/, range);
  // find sees the text wherever it is, with the line number the shell printed it on.
  const found = ok(await computer.tools.find({ app: 'xfce4-terminal', text: 'row-1999' }));
  assert.match(found, /line \d+, offset \d+: "row-1999"/, found);
  if (process.env['TEXT_DEBUG']) console.error(snap, '\n---\n', range, '\n---\n', found);
});
