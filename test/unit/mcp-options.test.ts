/** `computer-use mcp` options: flags, environment fallbacks, and refusals of unusable values. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mcpOptionsFrom } from '../../src/hosts/mcp-options.js';

test('flags set every option', () => {
  const o = mcpOptionsFrom(['--desktop', 'sandbox', '--mode', 'accept-edits', '--allow-app', 'gedit,mousepad', '--deny-app=firefox',
    '--settings', '/tmp/s.json', '--driver', 'cdp', '--cdp-endpoint', 'http://127.0.0.1:9333', '--max-tokens', '800', '--image-input'], {});
  assert.deepEqual(o, {
    desktop: 'sandbox', mode: 'accept-edits', allowApps: ['gedit', 'mousepad'], denyApps: ['firefox'], settingsPath: '/tmp/s.json',
    driver: 'cdp', cdpEndpoint: 'http://127.0.0.1:9333', maxTokens: 800, imageInput: true,
  });
});

test('the environment fills what flags leave out, and flags win', () => {
  const env = { COMPUTER_USE_MODE: 'plan', COMPUTER_USE_ALLOW_APPS: 'gedit', COMPUTER_USE_DESKTOP: 'current', COMPUTER_USE_MAX_TOKENS: '1200' };
  assert.deepEqual(mcpOptionsFrom([], env), { desktop: 'current', mode: 'plan', allowApps: ['gedit'], maxTokens: 1200 });
  assert.deepEqual(mcpOptionsFrom(['--mode', 'bypass', '--desktop', 'auto'], env), { desktop: 'auto', mode: 'bypass', allowApps: ['gedit'], maxTokens: 1200 });
  assert.deepEqual(mcpOptionsFrom([], {}), {});
});

test('unusable values are refused with what is accepted', () => {
  assert.throws(() => mcpOptionsFrom(['--desktop', 'laptop'], {}), /auto, current or sandbox/);
  assert.throws(() => mcpOptionsFrom(['--driver', 'uia'], {}), /native or cdp/);
  assert.throws(() => mcpOptionsFrom(['--mode', 'yolo'], {}), /Unknown mode "yolo"/);
  assert.throws(() => mcpOptionsFrom([], { COMPUTER_USE_MAX_TOKENS: '5' }), /≥ 100/);
});
