/** `computer-use mcp` flags of the human channel: --panel, --confirm-timeout, --strict-first-use (with env fallbacks). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mcpOptionsFrom } from '../../src/hosts/options.js';

test('panel, confirm timeout and strict first use from flags or the environment', () => {
  assert.deepEqual(mcpOptionsFrom(['--panel', '--confirm-timeout', '30', '--strict-first-use'], {}), {
    panel: true,
    confirmTimeoutMs: 30_000,
    strictFirstUse: true,
  });
  assert.deepEqual(
    mcpOptionsFrom([], {
      COMPUTER_USE_PANEL: '1',
      COMPUTER_USE_STRICT_FIRST_USE: 'true',
      COMPUTER_USE_CONFIRM_TIMEOUT: '5',
    }),
    { panel: true, confirmTimeoutMs: 5000, strictFirstUse: true },
  );
  assert.deepEqual(mcpOptionsFrom([], {}), {});
  assert.throws(() => mcpOptionsFrom(['--confirm-timeout', 'soon'], {}), /--confirm-timeout takes seconds/);
  assert.deepEqual(mcpOptionsFrom(['--confirm-in', 'panel'], {}), { confirmIn: 'panel' });
  assert.throws(() => mcpOptionsFrom(['--confirm-in', 'tty'], {}), /--confirm-in takes auto or panel/);
});
