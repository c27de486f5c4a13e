/**
 * The audit record of a click that opened only a popup window (a combo's list, a menu, whose items the target
 * window's tree already holds) says what the printed receipt says: a popup window opened, never that a window
 * closed when none did.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import { FakeDriver, type FakeWindow } from '../../src/drivers/fake/driver.js';
import { Policy } from '../../src/policy/policy.js';
import { Session } from '../../src/session/session.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/tool.js';
import { n } from '../fixtures/engine/build.js';

const B = ':1.77';
const PID = 7171;

/** A preferences window with a combo box whose list's items are already in its tree (GTK 3 keeps them there). */
function prefs(): FakeWindow {
  const root = n(B, 1, 'dialog', { name: 'Preferences', states: ['active'] }, [
    n(B, 2, 'combobox', { name: 'Icon View', actions: ['click'] }, [
      n(B, 3, 'menu', {}, [
        n(B, 4, 'menuitem', { name: 'Icon View', actions: ['click'] }),
        n(B, 5, 'menuitem', { name: 'List View', actions: ['click'] }),
      ]),
    ]),
    n(B, 6, 'button', { name: 'Close', actions: ['click'] }),
  ]);
  return { info: { id: root.id, title: 'Preferences', app: 'prefs', pid: PID, role: 'dialog', focused: true }, root };
}

/** The popup window the combo's click opens: the same items, under a window of its own. */
function popup(): FakeWindow {
  const root = n(B, 20, 'window', {}, [
    n(B, 3, 'menu', {}, [
      n(B, 4, 'menuitem', { name: 'Icon View', actions: ['click'] }),
      n(B, 5, 'menuitem', { name: 'List View', actions: ['click'] }),
    ]),
  ]);
  return { info: { id: root.id, title: '', app: 'prefs', pid: PID, role: 'window', focused: false }, root };
}

test('the audit detail of a click that opened only a popup says a popup opened, not that a window closed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-popup-audit-'));
  const audit = join(dir, 'audit.jsonl');
  const policy = new Policy({
    mode: 'default', allowApps: ['prefs'], processInfo: () => undefined, hostPids: [], audit,
    settingsPath: join(dir, 'home', 'settings.json'), protectedPaths: [join(dir, 'home')],
  });
  const win = prefs();
  const fake = new FakeDriver([win]);
  fake.onAct = (p) => {
    if (p.op === 'click' && p.id === win.root.children![0]!.id) fake.windows.push(popup());
    return 'Action.DoAction(0) "Click"';
  };
  const session = new Session({ device: new Device({ connect: () => fake.connect() }), gate: policy });
  const call = (name: string, params: unknown) => runTool(TOOLS.find((t) => t.schema.name === name)!, { session },
    params);
  const snap = (await call('computer_observe', {})).text;
  const combo = /\[(e\d+)\] combobox/.exec(snap)![1]!;
  const res = await call('computer_act', { actions: [{ ref: combo, op: 'click' }] });
  assert.equal(res.isError, false, res.text);
  assert.match(res.text, /^popup window \[w\d+\] opened/m, res.text);
  assert.match(res.text, new RegExp(`^ok click ${combo} · confirmed$`, 'm'), res.text);
  const done = readFileSync(audit, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((r) => r.phase === 'done');
  const detail = String(done[done.length - 1]?.detail ?? '');
  assert.doesNotMatch(detail, /a window closed/, detail);
  assert.match(detail, /a popup window opened/, detail);
  await session.close();
});
