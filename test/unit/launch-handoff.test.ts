/**
 * A second start of Firefox (gedit, soffice, Thunar) hands its work to the running instance and exits with 0: the
 * launch answer says so and names that instance's windows, instead of "check its arguments" (measured by hand with
 * firefox-esr: `exited with code 0 before any window appeared … The program ended by itself: check its arguments`).
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import { Policy } from '../../src/policy/policy.js';
import type { Handlers } from '../../src/protocol/peer.js';
import { Session } from '../../src/session/session.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/tool.js';
import { n } from '../fixtures/engine/build.js';
import { PolicyFake } from '../fixtures/policy/apps.js';

class HandoffFake extends PolicyFake {
  override handlers(): Handlers {
    return { ...super.handlers(), 'apps.launch': () => ({ pid: 9999, exited: { code: 0, stderr: '' } }) };
  }
}

function setup(running: boolean) {
  const fake = new HandoffFake(
    running
      ? [
          {
            info: {
              id: 'w-ff',
              title: 'Introduction — Mozilla Firefox',
              app: 'Firefox',
              pid: 3809,
              role: 'window',
              focused: true,
            },
            root: n(':1.3', 1, 'window', { name: 'Introduction — Mozilla Firefox' }),
          },
        ]
      : [],
  );
  const dir = mkdtempSync(join(tmpdir(), 'cu-handoff-'));
  const policy = new Policy({
    mode: 'bypass',
    allowApps: ['firefox-esr', 'Firefox'],
    processInfo: () => undefined,
    hostPids: [],
    audit: join(dir, 'audit.jsonl'),
    settingsPath: join(dir, 'home', 'settings.json'),
    protectedPaths: [join(dir, 'home')],
  });
  const session = new Session({ device: new Device({ connect: () => fake.connect() }), gate: policy });
  return {
    session,
    call: (params: unknown) =>
      runTool(
        TOOLS.find((t) => t.schema.name === 'computer_launch')!,
        { session },
        params,
      ),
  };
}

test('a start handed to the running instance names it and its windows', async () => {
  const s = setup(true);
  await s.session.apps();
  const r = await s.call({ command: 'firefox-esr', args: ['file:///tmp/x.html'] });
  assert.match(r.text, /exited with code 0 before any window appeared/, r.text);
  assert.match(
    r.text,
    /hands the start to its instance already running: Firefox pid=3809 was running before this launch \(\[w\d+\] "Intro/,
    r.text,
  );
  assert.doesNotMatch(r.text, /check its arguments/, r.text);
  await s.session.close();
});

test('a start handed to a process the session had not seen before the launch does not say it ran already ' +
    '(Thunar\'s settings command starts Thunar and hands it the start: "already running" every time before)',
async () => {
  const s = setup(true);
  const r = await s.call({ command: 'firefox-esr', args: ['file:///tmp/x.html'] });
  assert.match(r.text, /exited with code 0 before any window appeared/, r.text);
  assert.match(
    r.text,
    /hands the start to a process of its own \(one running already, or one it started\): Firefox/,
    r.text,
  );
  assert.match(r.text, /Firefox pid=3809 runs now \(\[w\d+\] "Introduction — Mozilla Firefox"\)/, r.text);
  assert.doesNotMatch(r.text, /already running:|was running before/, r.text);
  await s.session.close();
});

test('with no instance running, an exit with 0 still says to check the arguments', async () => {
  const s = setup(false);
  const r = await s.call({ command: 'firefox-esr', args: [] });
  assert.match(r.text, /check its arguments/, r.text);
  await s.session.close();
});

/** A start that opened its own window while another instance of the same app runs (its own profile, a file lock). */
class SecondInstanceFake extends PolicyFake {
  override handlers(): Handlers {
    const win = { id: 'w-new', title: 'Text Import - sales.csv', app: 'soffice', pid: 5000, role: 'dialog' as const,
      focused: true };
    return { ...super.handlers(), 'apps.launch': () => ({ pid: 5000, window: win }) };
  }
}

test('a launch that opens its own window while the app already runs names the running windows', async () => {
  const fake = new SecondInstanceFake([
    { info: { id: 'w-old', title: 'sales.csv - LibreOffice Calc', app: 'soffice', pid: 3809, role: 'window',
      focused: false },
      root: n(':1.3', 1, 'window', { name: 'sales.csv - LibreOffice Calc' }) },
    { info: { id: 'w-new', title: 'Text Import - sales.csv', app: 'soffice', pid: 5000, role: 'dialog', focused: true },
      root: n(':1.4', 1, 'dialog', { name: 'Text Import - sales.csv' }, [n(':1.4', 2, 'button', { name: 'OK' })]) },
  ]);
  const dir = mkdtempSync(join(tmpdir(), 'cu-second-'));
  const policy = new Policy({
    mode: 'bypass',
    allowApps: ['soffice', 'libreoffice'],
    processInfo: () => undefined,
    hostPids: [],
    audit: join(dir, 'audit.jsonl'),
    settingsPath: join(dir, 'home', 'settings.json'),
    protectedPaths: [join(dir, 'home')],
  });
  const session = new Session({ device: new Device({ connect: () => fake.connect() }), gate: policy });
  const tool = TOOLS.find((t) => t.schema.name === 'computer_launch')!;
  // Started by another name than the app's (the libreoffice script starts soffice): the window's app names it.
  const before = await runTool(tool, { session }, { command: 'libreoffice', args: ['--calc', '/tmp/sales.csv'] });
  assert.match(before.text, /soffice pid=3809 runs too \(\[w\d+\] "sales\.csv - LibreOffice Calc"\)/, before.text);
  // Seen by the session before the launch: it was running already.
  const r = await runTool(tool, { session }, { command: 'libreoffice', args: ['--calc', '/tmp/sales.csv'] });
  assert.match(r.text, /launched libreoffice pid=5000/, r.text);
  assert.match(r.text, /soffice pid=3809 was already running \(\[w\d+\] "sales\.csv - LibreOffice Calc"\)/, r.text);
  await session.close();
});
