/** The HOME a sandbox's apps run with: a home of the sandbox's own, inside its folder, never the caller's. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isAbsolute, relative } from 'node:path';
import { buildSandboxEnv, HOME_VARS, ownHomeWanted } from '../../src/drivers/linux/sandbox/env.js';
import { sandboxEnv, type SandboxInfo } from '../../src/drivers/linux/sandbox/sandbox.js';
import { sandboxDir, sandboxHome, SANDBOX_HOME_REL } from '../../src/paths.js';

const CALLER = {
  HOME: '/home/ann', XDG_CONFIG_HOME: '/home/ann/.config', XDG_DATA_HOME: '/home/ann/.local/share',
  XDG_CACHE_HOME: '/home/ann/.cache', XDG_STATE_HOME: '/home/ann/.local/state', PATH: '/usr/bin', LANG: 'C.UTF-8',
};

/** True when `p` is `dir` or lies inside it. */
const within = (p: string, dir: string): boolean => {
  const r = relative(dir, p);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
};

test('the sandbox env: HOME and every XDG base folder inside the sandbox folder, none at the caller\'s', () => {
  const before = process.env['COMPUTER_USE_HOME'];
  process.env['COMPUTER_USE_HOME'] = '/tmp/cu-test-home';
  try {
    const info: SandboxInfo = {
      display: ':91', kind: 'xvfb', dbusAddress: 'unix:path=/tmp/d', a11yAddress: 'unix:path=/tmp/a',
      runtimeDir: sandboxDir(':91'), home: sandboxHome(':91'), pids: { xvfb: 1, dbus: 2, atspi: 3 },
      startedAt: '2026-01-01T00:00:00Z', owned: true,
    };
    assert.equal(info.runtimeDir, '/tmp/cu-test-home/sandboxes/display-91');
    const env = sandboxEnv(info, CALLER);
    assert.equal(env['HOME'], '/tmp/cu-test-home/sandboxes/display-91/home');
    for (const k of HOME_VARS) {
      const v = env[k];
      assert.ok(v !== undefined && within(v, info.home!), `${k}=${v} lies in the sandbox home`);
      assert.ok(!within(v, CALLER.HOME), `${k}=${v} is not the caller's`);
    }
    assert.equal(env['XDG_CONFIG_HOME'], `${info.home}/.config`);
    assert.equal(env['XDG_DATA_HOME'], `${info.home}/.local/share`);
    assert.equal(env['XDG_CACHE_HOME'], `${info.home}/.cache`);
    assert.equal(env['XDG_STATE_HOME'], `${info.home}/.local/state`);
    // computer-use inside the sandbox (sandbox exec, a driver) keeps the caller's tool home, not one in the new HOME.
    assert.equal(env['COMPUTER_USE_HOME'], '/tmp/cu-test-home');
    assert.equal(env['PATH'], '/usr/bin');
    assert.match(relative('/tmp/cu-test-home', env['HOME']!), SANDBOX_HOME_REL);
  } finally {
    if (before === undefined) delete process.env['COMPUTER_USE_HOME'];
    else process.env['COMPUTER_USE_HOME'] = before;
  }
});

test('a sandbox without a home of its own (the opt-out, or recorded before homes) passes the caller\'s on', () => {
  const env = buildSandboxEnv({ display: ':92', runtimeDir: '/r/display-92' }, CALLER);
  for (const k of HOME_VARS) assert.equal(env[k], CALLER[k]);
});

test('COMPUTER_USE_SANDBOX_HOME: unset or fresh isolates, own ' +
    'keeps the caller\'s home, anything else is an error', () => {
  assert.equal(ownHomeWanted(undefined), false);
  assert.equal(ownHomeWanted(''), false);
  assert.equal(ownHomeWanted('fresh'), false);
  assert.equal(ownHomeWanted('own'), true);
  assert.equal(ownHomeWanted('Caller'), true);
  assert.throws(() => ownHomeWanted('/root'), /COMPUTER_USE_SANDBOX_HOME="\/root": use fresh \(the default\) or own/);
});
