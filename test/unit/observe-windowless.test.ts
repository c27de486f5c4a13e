/**
 * An app that runs with no window (a tray app whose only window, a help dialog, was closed): observe answered
 * "has no open window", as if it were gone. It says the app still runs, its pid, and the way to a window.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/tool.js';
import { bypassSession, PolicyFake } from '../fixtures/policy/apps.js';

test('observe on an app running with no window: it runs, its pid, and launch it again for a window', async () => {
  const fake = new PolicyFake([]);
  fake.windowless.push({ name: 'notes', pid: 4711, id: 'app-4711', windows: [] });
  const session = bypassSession(fake, ['notes']);
  const r = await runTool(TOOLS.find((t) => t.schema.name === 'computer_observe')!, { session }, { app: 'notes' });
  assert.equal(r.code, 'window_not_found', r.text);
  assert.match(r.text, /notes is running \(pid 4711\) with no open window/, r.text);
  assert.match(r.text, /launch it again/, r.text);
  await session.close();
});
