/**
 * A target by app name when two processes carry that name and only one has a window (Thunar between two runs:
 * the one leaving the bus is still listed while the new one shows its window): tools read the one with a
 * window, where they said "<app> has no open window" before.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import type { AppInfo, WindowInfo } from '../../src/engine/node.js';
import { Policy } from '../../src/policy/policy.js';
import type { Handlers } from '../../src/protocol/peer.js';
import { Session, unfocusedPick } from '../../src/session/session.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/tool.js';
import { mailWindow, PolicyFake } from '../fixtures/policy/apps.js';

/** The fake, with a windowless process of the same name listed first. */
class TwoOfOneName extends PolicyFake {
  override handlers(): Handlers {
    const base = super.handlers();
    return {
      ...base,
      'apps.list': async (p, ctx) => {
        const r = await base['apps.list']!(p, ctx) as { apps: AppInfo[] };
        const leaving: AppInfo = { name: 'mailer', pid: 4141, id: 'app-4141', windows: [] };
        return { apps: [leaving, ...r.apps] };
      },
    };
  }
}

test('observe and wait by app name read the process of that name that has a window', async () => {
  const win = mailWindow();
  const fake = new TwoOfOneName([win]);
  const dir = mkdtempSync(join(tmpdir(), 'cu-same-name-'));
  const policy = new Policy({
    mode: 'bypass',
    allowApps: ['mailer'],
    processInfo: () => undefined,
    hostPids: [],
    audit: join(dir, 'audit.jsonl'),
    settingsPath: join(dir, 'settings.json'),
    protectedPaths: [],
  });
  const session = new Session({ device: new Device({ connect: () => fake.connect() }), gate: policy });
  const call = (name: string, params: unknown) =>
    runTool(
      TOOLS.find((t) => t.schema.name === name)!,
      { session },
      params,
    );
  try {
    const seen = await call('computer_observe', { app: win.info.app });
    assert.equal(seen.isError, false, seen.text);
    assert.match(seen.text, /textbox "To"/, seen.text);
    const waited = await call('computer_wait', { until: 'appears', text: 'Send', app: win.info.app, timeoutMs: 1000 });
    assert.equal(waited.isError, false, waited.text);
  } finally {
    await session.close();
  }
});

test('an app with no focused window: its last dialog, else its largest window (not a helper listed last)', () => {
  const w = (id: string, role: WindowInfo['role'], width: number, height: number): WindowInfo => ({
    id,
    title: id,
    app: 'Chromium',
    pid: 1,
    role,
    focused: false,
    bounds: [0, 0, width, height],
  });
  // A trial's find --app chromium searched an 880×89 helper window and answered 0 matches.
  assert.equal(unfocusedPick([w('main', 'window', 1050, 1004), w('helper', 'window', 880, 89)])?.id, 'main');
  assert.equal(
    unfocusedPick([w('main', 'window', 1050, 1004), w('ask', 'dialog', 400, 200), w('helper', 'window', 880, 89)])?.id,
    'ask',
  );
  assert.equal(unfocusedPick([]), undefined);
});
