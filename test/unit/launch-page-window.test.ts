/**
 * A launched browser's page window (apps/page-window.ts) on a recorded shape of tree: the window holding a loaded
 * web document is taken over a helper window; a document still busy is waited for; a browser that shows only
 * windows without any document (a profile or crash dialog) is not waited on until the launch's deadline.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { A11yBus, Target } from '../../src/drivers/linux/bus/bus.js';
import { waitForPageWindow } from '../../src/drivers/linux/apps/page-window.js';
import type { WindowInfo } from '../../src/protocol/nodes.js';

/** A node of the fake tree: its role, children and whether it is busy. */
interface FakeNode { role: string; kids?: string[]; busy?: boolean }

/** An A11yBus answering the few calls the page-window wait makes, from a map of path → node. */
function fakeBus(nodes: Map<string, FakeNode>): A11yBus {
  const call = async (t: Target, _iface: string, member: string): Promise<unknown[]> => {
    const n = nodes.get(t.path);
    if (!n) throw new Error('gone');
    if (member === 'GetRoleName') return [n.role];
    if (member === 'GetChildren') return [(n.kids ?? []).map((k) => [':1.1', k])];
    // The busy state is bit 3 of the first state word.
    if (member === 'GetState') return [[n.busy ? 1 << 3 : 0, 0]];
    throw new Error(`unexpected ${member}`);
  };
  return { call } as unknown as A11yBus;
}

const win = (path: string, w: number, h: number): WindowInfo =>
  ({ id: `:1.1${path}`, title: path, app: 'browser', pid: 7, role: 'window', focused: false, bounds: [0, 0, w, h] });

test('the window holding the loaded page is taken, not a helper window; a busy page is waited for', async () => {
  const nodes = new Map<string, FakeNode>([
    ['/helper', { role: 'frame', kids: ['/helper/panel'] }], ['/helper/panel', { role: 'panel' }],
    ['/main', { role: 'frame', kids: ['/main/pane'] }], ['/main/pane', { role: 'panel', kids: ['/main/doc'] }],
    ['/main/doc', { role: 'document web', kids: ['/main/doc/h'], busy: true }], ['/main/doc/h', { role: 'heading' }],
  ]);
  let lists = 0;
  const list = async (): Promise<WindowInfo[]> => {
    // The page finishes loading after a few looks.
    if (++lists === 3) nodes.get('/main/doc')!.busy = false;
    return [win('/helper', 712, 89), win('/main', 1200, 800)];
  };
  const found = await waitForPageWindow(fakeBus(nodes), list, performance.now() + 600_000);
  assert.equal(found?.window.id, ':1.1/main');
  assert.equal(found?.loaded, true);
  assert.ok(lists >= 3, `answered after ${lists} looks, before the page loaded`);
});

test('windows without any document end the wait long before the launch deadline', async () => {
  const nodes = new Map<string, FakeNode>([
    ['/dialog', { role: 'dialog', kids: ['/dialog/b'] }], ['/dialog/b', { role: 'push button' }],
  ]);
  // A deadline ten minutes away: the wait must end on its own (the test would hang otherwise).
  const windows = async (): Promise<WindowInfo[]> => [win('/dialog', 400, 200)];
  const found = await waitForPageWindow(fakeBus(nodes), windows, performance.now() + 600_000);
  assert.equal(found, undefined);
});
