/**
 * What keys visibly did, in their receipt: ctrl+s saved a file and answered `unknown` because the only change was
 * the window title losing its modified mark (the diff compares elements, not the title). A title that changed is
 * said, and confirms the keys as any visible change does (in the audit too); keys that changed nothing say so. The
 * window's element keeps its old name here, as a toolkit whose frame is not named by the title does.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import type { FakeWindow } from '../../src/drivers/fake/driver.js';
import { Policy } from '../../src/policy/policy.js';
import { Session } from '../../src/session/session.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/tool.js';
import { n } from '../fixtures/engine/build.js';
import { PolicyFake } from '../fixtures/policy/apps.js';

const B = ':1.91';

function editor(): FakeWindow {
  const root = n(B, 1, 'window', { name: '*notes.txt - Editor', states: ['active'] }, [
    n(B, 2, 'textbox', {
      name: 'Body',
      value: 'hello',
      states: ['editable', 'multiline', 'focused'],
      actions: ['set_value', 'type', 'focus'],
    }),
  ]);
  return {
    info: { id: root.id, title: '*notes.txt - Editor', app: 'editor', pid: 5252, role: 'window', focused: true },
    root,
  };
}

test('ctrl+s whose effect is the title losing its modified mark ' +
    'is confirmed by it; keys that change nothing say so', async () => {
  const win = editor();
  const fake = new PolicyFake([win]);
  const dir = mkdtempSync(join(tmpdir(), 'cu-keys-title-'));
  const audit = join(dir, 'audit.jsonl');
  const policy = new Policy({ mode: 'default', allowApps: ['editor'], processInfo: () => undefined, hostPids: [], audit,
    settingsPath: join(dir, 'home', 'settings.json'), protectedPaths: [join(dir, 'home')] });
  const session = new Session({ device: new Device({ connect: () => fake.connect() }), gate: policy });
  const call = (name: string, params: unknown) =>
    runTool(
      TOOLS.find((t) => t.schema.name === name)!,
      { session },
      params,
    );
  fake.onKeys = (p) => {
    if (
      p.chords?.some((c) => c.key.toLowerCase() === 's' && (c.mods.includes('Control') || c.mods.includes('Primary')))
    ) {
      win.info.title = 'notes.txt - Editor';
    }
  };
  await call('computer_observe', {});
  const saved = await call('computer_keys', { keys: 'ctrl+s' });
  assert.match(
    saved.text,
    /^ok keys "ctrl\+s" → \[w\d+\] · confirmed \(.*the window title changed: "\*notes\.txt - Editor" → "notes\.txt - Editor"/m,
    saved.text,
  );
  const done = readFileSync(audit, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((r) => r['phase'] === 'done' || r['outcome'] !== undefined)
    .pop();
  assert.match(JSON.stringify(done), /confirmed/);
  const nothing = await call('computer_keys', { keys: 'F9' });
  assert.match(
    nothing.text,
    /^ok keys "F9" → \[w\d+\] · unknown \(.*nothing visible changed in the window/m,
    nothing.text,
  );
  await session.close();
});
