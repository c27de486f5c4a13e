/**
 * The MCP server driven by a client we did not write: `@modelcontextprotocol/inspector` in CLI mode, which
 * starts `computer-use mcp` over stdio, sends one request and prints the JSON result.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));
const server = ['node', 'dist/src/hosts/cli/main.js', 'mcp', '--desktop', 'current'];

/** Runs the inspector CLI from the package root (npx --no-install: the devDependency, never a download). */
async function inspector(...args: string[]): Promise<unknown> {
  const { stdout } = await run('npx', ['--no-install', '@modelcontextprotocol/inspector', '--cli', ...server, ...args],
    { cwd: root, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(stdout) as unknown;
}

test('inspector CLI: tools/list lists the computer_* tools with schemas and hints', async () => {
  const { tools } = (await inspector('--method', 'tools/list')) as {
    tools: { name: string; inputSchema: { type: string }; annotations?: { readOnlyHint?: boolean } }[];
  };
  assert.deepEqual(tools.map((t) => t.name).sort(), [
    'computer_act',
    'computer_apps',
    'computer_find',
    'computer_input',
    'computer_keys',
    'computer_launch',
    'computer_observe',
    'computer_screenshot',
    'computer_wait',
  ]);
  for (const t of tools) assert.equal(t.inputSchema.type, 'object', t.name);
  assert.equal(tools.find((t) => t.name === 'computer_apps')?.annotations?.readOnlyHint, true);
});

test('inspector CLI: tools/call computer_apps answers with the running apps', async () => {
  const result = (await inspector('--method', 'tools/call', '--tool-name', 'computer_apps')) as {
    content: { type: string; text: string }[];
    isError?: boolean;
  };
  assert.notEqual(result.isError, true, JSON.stringify(result));
  const text = result.content.map((c) => c.text).join('\n');
  assert.match(text, /pid=\d+|No accessible apps are running/);
});
