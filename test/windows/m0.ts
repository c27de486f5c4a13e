/**
 * The seed's M0 tasks on a real Windows desktop, through the MCP server as a model would drive it (run by
 * .github/workflows/windows.yml on windows-latest; it cannot run on Linux). Notepad: type Chinese and English,
 * Save As to a path, check the file's bytes. Settings › Personalization › Colors: switch the app mode to Dark and
 * read it back (then restore it). No screenshot anywhere. Writes what the model saw to `$M0_TRANSCRIPT_DIR`.
 * Exit code 0 only when both tasks were confirmed.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const CLI = fileURLToPath(new URL('../../src/hosts/cli/main.js', import.meta.url));
const OUT = process.env['M0_TRANSCRIPT_DIR'] ?? mkdtempSync(join(tmpdir(), 'cu-m0-'));
mkdirSync(OUT, { recursive: true });
const log: string[] = [];

const text = (r: Awaited<ReturnType<Client['callTool']>>): string =>
  (r.content as { type: string; text: string }[]).map((c) => c.text).join('\n');

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const r = await client.callTool({ name, arguments: args });
  const t = text(r);
  log.push(`>>> ${name} ${JSON.stringify(args)}\n${t}\n`);
  if (r.isError) throw new Error(`${name} failed: ${t}`);
  return t;
}

/** The ref of the first snapshot line matching `re` (lines read `[e12] role "name" …`). */
function ref(snapshot: string, re: RegExp): string {
  const line = snapshot.split('\n').find((l) => re.test(l));
  const m = line ? /\[(e\d+)\]/.exec(line) : null;
  if (!m) throw new Error(`no line matches ${re} in:\n${snapshot.slice(0, 4000)}`);
  return m[1]!;
}

const wait = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function notepad(client: Client): Promise<void> {
  const path = join(mkdtempSync(join(tmpdir(), 'cu-m0-notepad-')), 'm0 写入.txt');
  const content = 'Hello, computer-use! 你好，世界。';
  await call(client, 'computer_launch', { command: 'notepad.exe', waitMs: 15000 });
  let snap = await call(client, 'computer_observe', { app: 'notepad', maxTokens: 8000 });
  const editor = ref(snap, /\] (document|textbox) /);
  await call(client, 'computer_act', { actions: [{ ref: editor, op: 'type', value: content }] });
  await call(client, 'computer_keys', { app: 'notepad', keys: 'ctrl+shift+s' });
  await wait(1500);
  snap = await call(client, 'computer_observe', { app: 'notepad', maxTokens: 12000 });
  const name = ref(snap, /\] (combobox|textbox) "File name:?"/);
  await call(client, 'computer_act', { actions: [{ ref: name, op: 'set_value', value: path }] });
  snap = await call(client, 'computer_observe', { app: 'notepad', maxTokens: 12000 });
  await call(client, 'computer_act', { actions: [{ ref: ref(snap, /\] button "Save"/), op: 'click' }] });
  await wait(1500);
  const bytes = readFileSync(path);
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  assert.equal(body.toString('utf8'), content, `the file's bytes: ${bytes.toString('hex')}`);
  log.push(`=== notepad: ${path} holds ${bytes.length} bytes, as typed\n`);
}

async function darkMode(client: Client): Promise<void> {
  await call(client, 'computer_launch', { command: 'explorer.exe', args: ['ms-settings:colors'], waitMs: 15000 });
  await wait(3000);
  const apps = await call(client, 'computer_apps', {});
  // Settings is a UWP app: its window is known by its own process (SystemSettings), not the frame host's.
  if (!/SystemSettings/.test(apps)) throw new Error(`no SystemSettings app listed:\n${apps.slice(0, 4000)}`);
  const app = 'SystemSettings';
  let snap = await call(client, 'computer_observe', { app, maxTokens: 20000 });
  const mode = ref(snap, /\] combobox "Choose your (app )?mode"/);
  const before = /"Choose your (?:app )?mode"[^\n]*?(Light|Dark|Custom)/.exec(snap)?.[1];
  await call(client, 'computer_act', { actions: [{ ref: mode, op: 'select', value: 'Dark' }] });
  await wait(1500);
  snap = await call(client, 'computer_observe', { app, maxTokens: 20000 });
  assert.match(snap, /"Choose your (app )?mode"[^\n]*Dark/, 'the combo box reads Dark after the act');
  log.push('=== settings: the mode reads Dark\n');
  if (before && before !== 'Dark')
    await call(client, 'computer_act', {
      actions: [{ ref: ref(snap, /\] combobox "Choose your (app )?mode"/), op: 'select', value: before }],
    });
}

const home = mkdtempSync(join(tmpdir(), 'cu-m0-home-'));
const env: Record<string, string> = { COMPUTER_USE_HOME: home };
for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !(k in env)) env[k] = v;
const transport = new StdioClientTransport({
  command: process.execPath,
  env,
  stderr: 'inherit',
  args: [
    CLI,
    'mcp',
    '--desktop',
    'current',
    '--mode',
    'bypass',
    '--allow-app',
    'notepad',
    '--allow-app',
    'explorer',
    '--allow-app',
    'SystemSettings',
  ],
});
const client = new Client({ name: 'windows-m0', version: '0' });
let failed = false;
try {
  await client.connect(transport);
  for (const [name, task] of [['notepad', notepad], ['dark mode', darkMode]] as const) {
    try {
      await task(client);
      process.stdout.write(`PASS ${name}\n`);
    } catch (e) {
      failed = true;
      process.stdout.write(`FAIL ${name}: ${(e as Error).message}\n`);
    }
  }
} finally {
  writeFileSync(join(OUT, 'm0-transcript.txt'), log.join('\n'));
  await client.close();
}
process.exit(failed ? 1 : 0);
