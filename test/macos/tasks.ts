#!/usr/bin/env node
/**
 * The seed's macOS tasks through the MCP server, for .github/workflows/macos.yml (macos-latest): TextEdit (set a
 * value, insert at the caret, read back Chinese text) and a Finder rename. It needs a Mac whose runner has
 * granted Accessibility to the process that runs it; it cannot run on Linux, where the driver is replay-tested
 * against test/macos-fake instead. Exits 1 with what it saw when a step fails.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const CLI = fileURLToPath(new URL('../../src/hosts/cli/main.js', import.meta.url));
const text = (r: Awaited<ReturnType<Client['callTool']>>): string =>
  (r.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function refOn(snapshot: string, pattern: RegExp): string {
  for (const line of snapshot.split('\n')) {
    const m = /\[(e\d+)\]/.exec(line);
    if (pattern.test(line) && m?.[1]) return m[1];
  }
  assert.fail(`no line matches ${pattern} in:\n${snapshot}`);
}

async function observeUntil(client: Client, app: string, pattern: RegExp, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await client.callTool({ name: 'computer_observe', arguments: { app, maxTokens: 20_000 } });
    const t = text(r);
    if (!r.isError && pattern.test(t)) return t;
    if (Date.now() > deadline) assert.fail(`${app} never showed ${pattern}:\n${t}`);
    await sleep(500);
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cu-macos-'));
  const doc = join(dir, 'note.txt');
  writeFileSync(doc, 'start');
  execFileSync('open', ['-a', 'TextEdit', doc]);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  const client = new Client({ name: 'macos-tasks', version: '0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--mode', 'bypass', '--allow-app', 'TextEdit,Finder'],
      env,
      stderr: 'inherit',
    }),
  );
  try {
    // TextEdit: set the value, insert at the caret, read the Chinese text back.
    let snap = await observeUntil(client, 'TextEdit', /textbox/);
    const box = refOn(snap, /\] textbox/);
    let r = await client.callTool({
      name: 'computer_act',
      arguments: { actions: [{ ref: box, op: 'set_value', value: 'Hello 世界' }] },
    });
    assert.equal(r.isError, false, text(r));
    r = await client.callTool({
      name: 'computer_act',
      arguments: { actions: [{ ref: box, op: 'type', value: '，中文' }] },
    });
    assert.equal(r.isError, false, text(r));
    snap = await observeUntil(client, 'TextEdit', /Hello 世界，中文/);
    process.stdout.write(`TextEdit: ok\n${snap}\n`);

    // Finder: rename a file by its name field (select the row, Return edits the name, type, Return).
    const folder = join(dir, 'finder');
    mkdirSync(folder);
    writeFileSync(join(folder, 'old-name.txt'), 'x');
    execFileSync('open', [folder]);
    snap = await observeUntil(client, 'Finder', /old-name\.txt/);
    const row = refOn(snap, /old-name\.txt/);
    r = await client.callTool({ name: 'computer_act', arguments: { actions: [{ ref: row, op: 'click' }] } });
    assert.equal(r.isError, false, text(r));
    r = await client.callTool({ name: 'computer_keys', arguments: { app: 'Finder', keys: 'Return' } });
    assert.equal(r.isError, false, text(r));
    r = await client.callTool({
      name: 'computer_keys',
      arguments: { app: 'Finder', keys: [...'new-name.txt'].join(' ') },
    });
    assert.equal(r.isError, false, text(r));
    r = await client.callTool({ name: 'computer_keys', arguments: { app: 'Finder', keys: 'Return' } });
    assert.equal(r.isError, false, text(r));
    const deadline = Date.now() + 10_000;
    while (!existsSync(join(folder, 'new-name.txt')) && Date.now() < deadline) await sleep(250);
    assert.ok(existsSync(join(folder, 'new-name.txt')), 'Finder renamed the file');
    process.stdout.write('Finder rename: ok\n');
  } finally {
    await client.close();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
