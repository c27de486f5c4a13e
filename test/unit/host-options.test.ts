/** The hosts' option table: MCP, pi and CLI flags, environment fallbacks, and refusals of unusable values. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cliOptionsFrom, HOST_OPTIONS, mcpOptionsFrom, piFlags, piOptionsFrom } from '../../src/hosts/options.js';

test('flags set every option', () => {
  const o = mcpOptionsFrom(
    [
      '--desktop',
      'sandbox',
      '--mode',
      'accept-edits',
      '--allow-app',
      'gedit,mousepad',
      '--deny-app=firefox',
      '--settings',
      '/tmp/s.json',
      '--driver',
      'cdp',
      '--cdp-endpoint',
      'http://127.0.0.1:9333',
      '--max-tokens',
      '800',
      '--image-input',
    ],
    {},
  );
  assert.deepEqual(o, {
    desktop: 'sandbox',
    mode: 'accept-edits',
    allowApps: ['gedit', 'mousepad'],
    denyApps: ['firefox'],
    settingsPath: '/tmp/s.json',
    driver: 'cdp',
    cdpEndpoint: 'http://127.0.0.1:9333',
    maxTokens: 800,
    imageInput: true,
  });
});

test('the environment fills what flags leave out, and flags win', () => {
  const env = {
    COMPUTER_USE_MODE: 'plan',
    COMPUTER_USE_ALLOW_APPS: 'gedit',
    COMPUTER_USE_DESKTOP: 'current',
    COMPUTER_USE_MAX_TOKENS: '1200',
  };
  assert.deepEqual(mcpOptionsFrom([], env), {
    desktop: 'current',
    mode: 'plan',
    allowApps: ['gedit'],
    maxTokens: 1200,
  });
  assert.deepEqual(mcpOptionsFrom(['--mode', 'bypass', '--desktop', 'auto'], env), {
    desktop: 'auto',
    mode: 'bypass',
    allowApps: ['gedit'],
    maxTokens: 1200,
  });
  assert.deepEqual(mcpOptionsFrom([], {}), {});
});

test('unusable values are refused with what is accepted', () => {
  assert.throws(() => mcpOptionsFrom(['--desktop', 'laptop'], {}), /auto, current or sandbox/);
  assert.throws(() => mcpOptionsFrom(['--driver', 'uia'], {}), /native or cdp/);
  assert.throws(() => mcpOptionsFrom(['--mode', 'yolo'], {}), /Unknown mode "yolo"/);
  assert.throws(() => mcpOptionsFrom([], { COMPUTER_USE_MAX_TOKENS: '5' }), /≥ 100/);
});

test('list flags repeat and split on commas; booleans take =1 or nothing', () => {
  assert.deepEqual(
    mcpOptionsFrom(['--allow-app', 'gedit', '--allow-app=a, b', '--panel=1', '--image-input=false'], {}),
    { allowApps: ['gedit', 'a', 'b'], panel: true },
  );
  assert.throws(() => mcpOptionsFrom(['--mode'], {}), /--mode needs a value/);
});

test('pi registers --computer-<flag> for its options and reads ' +
    'them through getFlag, the environment filling in', () => {
  const names = piFlags().map((f) => f.name);
  assert.deepEqual(names, HOST_OPTIONS.filter((o) => o.hosts.includes('pi')).map((o) => `computer-${o.flag}`));
  assert.ok(
    names.includes('computer-desktop') && names.includes('computer-allow-app') && !names.includes('computer-panel'),
  );
  const flags: Record<string, string> = { 'computer-desktop': 'current', 'computer-allow-app': 'zenity,gedit' };
  assert.deepEqual(
    piOptionsFrom((n) => flags[n], { COMPUTER_USE_MODE: 'plan', COMPUTER_USE_PANEL: '1' }),
    { desktop: 'current', mode: 'plan', allowApps: ['zenity', 'gedit'] },
  );
  assert.throws(
    () => piOptionsFrom((n) => (n === 'computer-desktop' ? 'laptop' : undefined), {}),
    /--computer-desktop takes auto, current or sandbox/,
  );
});

test('the CLI takes only the policy flags out of a tool command and leaves the rest, in order', () => {
  const { options, rest } = cliOptionsFrom(
    ['observe', 'gedit', '--mode', 'plan', '--max-tokens', '500', '--deny-app=x', '--', '--mode'],
    { COMPUTER_USE_ALLOW_APPS: 'gedit' },
  );
  assert.deepEqual(options, { mode: 'plan', allowApps: ['gedit'], denyApps: ['x'] });
  assert.deepEqual(rest, ['observe', 'gedit', '--max-tokens', '500', '--', '--mode']);
});

test('--hide-activity (mcp) and --computer-hide-activity (pi) turn the visible agent off', () => {
  assert.deepEqual(mcpOptionsFrom(['--hide-activity'], {}), { showActivity: false });
  assert.deepEqual(mcpOptionsFrom([], { COMPUTER_USE_HIDE_ACTIVITY: '1' }), { showActivity: false });
  assert.deepEqual(
    piOptionsFrom((n) => (n === 'computer-hide-activity' ? true : undefined), {}),
    { showActivity: false },
  );
});

test('--action-timeout sets the actionability wait on every host; the environment too; bad values are refused', () => {
  assert.equal(mcpOptionsFrom(['--action-timeout', '500'], {}).actionTimeoutMs, 500);
  assert.equal(mcpOptionsFrom([], { COMPUTER_USE_ACTION_TIMEOUT: '0' }).actionTimeoutMs, 0);
  assert.equal(cliOptionsFrom(['observe', '--action-timeout=750'], {}).options.actionTimeoutMs, 750);
  assert.equal(piOptionsFrom((n) => (n === 'computer-action-timeout' ? '1200' : undefined), {}).actionTimeoutMs, 1200);
  assert.throws(() => mcpOptionsFrom(['--action-timeout', '2.5'], {}), /whole milliseconds/);
  assert.throws(() => mcpOptionsFrom(['--action-timeout', '100000'], {}), /0 to 60000/);
});
