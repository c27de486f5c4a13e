/**
 * computer_launch as a model in the loop met it, through the CLI and the MCP server (README, and the Terminal row of
 * "Verified on"): the app's own flags reach it (`launch soffice --calc` opens the
 * spreadsheet, not the Start Center) and the answer says which argv ran; one allow entry, `libreoffice`, starts Calc
 * and acts in it in unattended mode; a program that exits at once is reported with its exit code and stderr, not
 * blamed on accessibility; a terminal starts with no command, and a terminal's launcher told to run one is refused.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { freshCalcProfile } from './grid/calc.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { updateSettings } from '../../src/policy/settings.js';
import { killApp } from './helpers.js';

const cli = fileURLToPath(new URL('../../src/hosts/cli/main.js', import.meta.url));
const pids: number[] = [];
after(async () => { for (const pid of pids) await killApp(pid); });

/**
 * The CLI in its own home, whose settings the user wrote (through the tool's own writer, as the panel's "always"
 * does): a flag on a call would hold only after a person's yes on a terminal, which this test has not.
 */
async function cliIn(
  settings: Record<string, unknown>,
): Promise<(...args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>> {
  const home = await mkdtemp(join(tmpdir(), 'cu-launch-e2e-'));
  updateSettings(join(home, 'settings.json'), (s) => Object.assign(s, settings));
  return (...args) => new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { env: { ...process.env, COMPUTER_USE_HOME: home, SAL_USE_VCLPLUGIN: 'gtk3' }, timeout: 90_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** The MCP server over stdio in unattended mode with these allow entries. */
async function mcp(
  allow: string[],
): Promise<{
  launch: (args: Record<string, unknown>) => Promise<{ isError: boolean; text: string }>;
  close: () => Promise<void>;
}> {
  const env: Record<string, string> = { COMPUTER_USE_HOME: await mkdtemp(join(tmpdir(), 'cu-launch-mcp-')) };
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'COMPUTER_USE_HOME') env[k] = v;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', '--desktop', 'current', '--mode', 'unattended', ...allow.flatMap((a) => ['--allow-app', a])],
    env,
    stderr: 'inherit',
  });
  const client = new Client({ name: 'e2e-launch', version: '0' });
  await client.connect(transport);
  return {
    launch: async (args) => {
      const r = await client.callTool({ name: 'computer_launch', arguments: args });
      return {
        isError: r.isError === true,
        text: (r.content as { type: string; text: string }[]).map((c) => c.text).join('\n'),
      };
    },
    close: () => client.close(),
  };
}

test('CLI: launch soffice --calc with the one entry libreoffice opens the spreadsheet and acts in it, unattended', { timeout: 180_000, skip: !existsSync('/usr/bin/soffice') && 'LibreOffice is not installed' }, async () => {
  const run = await cliIn({ mode: 'unattended', allowApps: ['libreoffice'] });
  const profile = await freshCalcProfile();
  const r = await run(
    'launch',
    '--wait',
    '60000',
    'soffice',
    '--calc',
    '--norestore',
    `-env:UserInstallation=file://${profile}`,
  );
  const pid = Number(/^launched \S+ pid=(\d+)/m.exec(r.stdout)?.[1]);
  if (pid > 0) pids.push(pid);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  // Its own flags ran, none dropped: the argv that ran is the one given.
  // One line names the launch and its window: ref, title, focus, how it ran.
  assert.match(
    r.stdout,
    /^launched soffice pid=\d+ · window \[w\d+\] "Untitled 1 - LibreOffice Calc".* · ran as given$/m,
    r.stdout,
  );
  assert.match(r.stdout, /table "Sheet Sheet1"/, r.stdout);
  assert.doesNotMatch(r.stdout, /Start Center/, r.stdout);
  // The same entry covers soffice.bin, which the launcher started: keys go to Calc, no second entry. (By the
  // launched window: the Tip of the Day dialog a fresh profile shows comes and takes the focus meanwhile.)
  const win = /^launched \S+ pid=\d+ · window \[(w\d+)\]/m.exec(r.stdout)?.[1] ?? 'w1';
  const keys = await run('keys', 'ctrl+Home', '--window', win);
  assert.equal(keys.code, 0, keys.stderr + keys.stdout);
  assert.match(keys.stdout, /^ok keys "ctrl\+Home"/m, keys.stdout);
});

test('CLI: launch localc with the one entry localc acts in the soffice.bin it became, in the next call too, unattended', { timeout: 180_000, skip: !existsSync('/usr/bin/localc') && 'LibreOffice is not installed' }, async () => {
  // localc is a launcher script (soffice --calc) whose command is no package name: before, the window's process,
  // soffice.bin, needed an entry of its own, and every act was refused.
  const run = await cliIn({ mode: 'unattended', allowApps: ['localc'] });
  const profile = await freshCalcProfile();
  const r = await run('launch', '--wait', '60000', 'localc', '--norestore', `-env:UserInstallation=file://${profile}`);
  const pid = Number(/^launched \S+ pid=(\d+)/m.exec(r.stdout)?.[1]);
  if (pid > 0) pids.push(pid);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  assert.doesNotMatch(r.stdout, /window_not_found/, r.stdout);
  assert.match(r.stdout, /table "Sheet Sheet1"/, r.stdout);
  const win = /^launched \S+ pid=\d+ · window \[(w\d+)\]/m.exec(r.stdout)?.[1] ?? 'w1';
  const keys = await run('keys', 'ctrl+Home', '--window', win);
  assert.equal(keys.code, 0, keys.stderr + keys.stdout);
  assert.match(keys.stdout, /^ok keys "ctrl\+Home"/m, keys.stdout);
});

test('CLI and MCP: a program that exits at once is reported with its ' +
    'exit code, stderr and argv, not as an accessibility timeout', { timeout: 120_000 }, async () => {
  const run = await cliIn({ mode: 'unattended', allowApps: ['zenity'] });
  const r = await run('launch', 'zenity', '--question', '--no-such-option');
  // A launch that failed is an error: the CLI exits non-zero (it exited 0 before).
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(
    r.stdout,
    /zenity exited with code 255 before any window appeared \(pid \d+; ran \["zenity", "--question", "--no-such-option"\]\)/,
    r.stdout + r.stderr,
  );
  assert.match(r.stdout, /stderr \(last lines\):\n {2}This option is not available/, r.stdout);
  assert.doesNotMatch(r.stdout + r.stderr, /accessib/i);
  const server = await mcp(['zenity']);
  try {
    const m = await server.launch({ command: 'zenity', args: ['--question', '--no-such-option'] });
    assert.equal(m.isError, true, m.text);
    assert.match(
      m.text,
      /zenity exited with code 255 before any window appeared \(pid \d+; ran \["zenity", "--question", "--no-such-option"\]\)/,
      m.text,
    );
    assert.match(m.text, /This option is not available/, m.text);
    assert.doesNotMatch(m.text, /accessib/i);
  } finally { await server.close(); }
});

test('MCP: a terminal with no command starts on its entry; its launcher told to run a command is refused, nothing runs', { timeout: 120_000, skip: !existsSync('/usr/bin/xfce4-terminal') && 'xfce4-terminal is not installed' }, async () => {
  const server = await mcp(['xfce4-terminal', 'x-terminal-emulator']);
  const marker = join(await mkdtemp(join(tmpdir(), 'cu-term-')), 'ran');
  try {
    const t = await server.launch({ command: 'xfce4-terminal', args: ['--disable-server'] });
    const pid = Number(/^launched \S+ pid=(\d+)/m.exec(t.text)?.[1]);
    if (pid > 0) pids.push(pid);
    assert.equal(t.isError, false, t.text);
    assert.match(t.text, /ran as given/, t.text);
    // Debian's xfce4-terminal.wrapper (x-terminal-emulator's target) hands its -e to the terminal: it ran before.
    for (const [command, args] of [
      ['xfce4-terminal', ['--disable-server', '-x', 'touch', marker]],
      ['x-terminal-emulator', ['-e', 'touch', marker]],
      ['xfce4-terminal.wrapper', ['-e', 'touch', marker]],
    ] as const) {
      const refused = await server.launch({ command, args: [...args] });
      assert.equal(refused.isError, true, refused.text);
      assert.match(refused.text, /runs a command named in them/, refused.text);
    }
    assert.equal(existsSync(marker), false, 'the command ran');
  } finally { await server.close(); }
});
