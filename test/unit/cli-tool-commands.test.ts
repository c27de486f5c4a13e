/**
 * The CLI dispatches every tool command it can parse: `computer-use screenshot` was in the help and parsed into
 * computer_screenshot, but main answered "unknown command" because the command list missed it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TOOL_COMMANDS, toolCall } from '../../src/hosts/cli/tool-commands.js';
import { TOOLS } from '../../src/tools/index.js';

/** Arguments each command needs to parse. */
const SAMPLE: Record<string, string[]> = { launch: ['gedit'], find: ['Save'], act: ['e5', 'click'], wait: ['appears', '--text', 'x'], keys: ['ctrl+s'] };

test('every tool with a CLI command of its own name is dispatched by main', () => {
  for (const tool of TOOLS) {
    const command = tool.schema.name.replace(/^computer_/, '');
    let parsed: { name: string } | undefined;
    try { parsed = toolCall(command, SAMPLE[command] ?? []); } catch (e) {
      if (/unknown tool command/.test((e as Error).message)) continue; // no CLI command for this tool
      throw e;
    }
    assert.equal(parsed.name, tool.schema.name);
    assert.ok(TOOL_COMMANDS.includes(command), `computer-use ${command} parses but main does not dispatch it`);
  }
  assert.equal(toolCall('screenshot', ['gedit']).name, 'computer_screenshot');
});
