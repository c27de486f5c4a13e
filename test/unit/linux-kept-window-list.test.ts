/**
 * The act's window lists reuse the last one while nothing says a window changed
 * (drivers/linux/apps/kept-window-list.ts):
 * every event that may change a window, a display whose clients or titles moved on, a listing that was not whole or is
 * too old reads the windows again.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AppInfo } from '../../src/protocol/nodes.js';
import type { A11yEvent } from '../../src/drivers/linux/bus/events.js';
import {
  KEEP_MS,
  KeptWindowList,
  touchesWindows,
  type DisplayNow,
  type ListingFacts,
} from '../../src/drivers/linux/apps/kept-window-list.js';

const APP = ':1.7';
const ROOT = `${APP}/org/a11y/atspi/accessible/root`;
const WIN = `${APP}/org/a11y/atspi/accessible/231`;
const HIDDEN_DIALOG = `${APP}/org/a11y/atspi/accessible/400`;
const BUTTON = `${APP}/org/a11y/atspi/accessible/91`;

const apps = (): AppInfo[] => [
  {
    name: 'editor',
    pid: 42,
    id: ROOT,
    windows: [{ id: WIN, title: 'notes', app: 'editor', pid: 42, role: 'window', focused: true }],
  },
];

function rig(opts: { clients?: number[]; titles?: Record<number, string> } = {}) {
  let now = 1000;
  const listeners = new Set<(e: A11yEvent) => void>();
  const events = { subscribe: (l: (e: A11yEvent) => void) => (listeners.add(l), () => listeners.delete(l)) };
  const kept = new KeptWindowList(events, () => now);
  const display = {
    clients: opts.clients ?? [5, 6],
    titles: opts.titles ?? {},
  };
  const now_: DisplayNow = {
    clients: () => Promise.resolve(display.clients),
    title: (xid) => Promise.resolve(display.titles[xid]),
  };
  const send = (type: string, source: string): void => {
    for (const l of listeners) l({ time: now, type, source, detail: '' });
  };
  const facts = (extra: Partial<ListingFacts> = {}): ListingFacts => ({
    startedAt: now, tops: new Set([ROOT, WIN, HIDDEN_DIALOG]), clients: [5, 6], displayTitles: [], whole: true,
    ...extra,
  });
  const list = (extra: Partial<ListingFacts> = {}, during?: () => void): AppInfo[] => {
    const token = kept.begin();
    const f = facts(extra);
    during?.();
    const a = apps();
    kept.keep(token, a, f);
    return a;
  };
  return { kept, display, now_, send, list, tick: (ms: number) => (now += ms) };
}

test('a listing is reused while no event touched a window and the display lists the same clients', async () => {
  const r = rig();
  const listed = r.list();
  r.tick(300);
  r.send('object:state-changed:checked', BUTTON);
  r.send('object:children-changed:add', BUTTON);
  assert.equal(await r.kept.reuse(r.now_), listed);
  // The stacking order alone changed (a raise): the same windows.
  r.display.clients = [6, 5];
  assert.equal(await r.kept.reuse(r.now_), listed);
});

test('any event that may change a window drops the kept list', async () => {
  const cases: [string, string][] = [
    ['window:create', WIN],
    ['window:activate', `${APP}/org/a11y/atspi/accessible/999`],
    ['object:children-changed:add', ROOT],
    ['object:children-changed:remove', ':1.1/org/a11y/atspi/accessible/root'], // the registry: an app left
    ['object:state-changed:showing', HIDDEN_DIALOG], // a hidden dialog shown again
    ['object:property-change:accessible-name', WIN], // a title
    ['object:state-changed:active', WIN], // the focus
  ];
  for (const [type, source] of cases) {
    const r = rig();
    r.list();
    r.send(type, source);
    assert.equal(await r.kept.reuse(r.now_), undefined, `${type} on ${source}`);
  }
});

test('an event during the listing keeps it from being kept', async () => {
  const r = rig();
  r.list({}, () => r.send('window:create', WIN));
  assert.equal(await r.kept.reuse(r.now_), undefined);
});

test('a window the display lists anew, or a title the display changed, reads the windows again', async () => {
  const r = rig();
  r.list();
  r.display.clients = [5, 6, 7];
  assert.equal(await r.kept.reuse(r.now_), undefined);

  const t = rig({ titles: { 5: 'KCalc' } });
  const listed = t.list({ displayTitles: [{ xid: 5, title: 'KCalc' }] });
  assert.equal(await t.kept.reuse(t.now_), listed);
  t.display.titles[5] = 'KCalc - memory';
  assert.equal(await t.kept.reuse(t.now_), undefined);
});

test('a listing that was not whole, without a display, or too old is not reused', async () => {
  const busy = rig();
  busy.list({ whole: false });
  assert.equal(await busy.kept.reuse(busy.now_), undefined);

  const wayland = rig();
  wayland.list({ clients: undefined });
  assert.equal(await wayland.kept.reuse(wayland.now_), undefined);

  const old = rig();
  const listed = old.list();
  old.tick(KEEP_MS);
  assert.equal(await old.kept.reuse(old.now_), listed);
  old.tick(1);
  assert.equal(await old.kept.reuse(old.now_), undefined);
});

test('forget drops the kept list (the driver itself opened, closed or activated a window)', async () => {
  const r = rig();
  r.list();
  r.kept.forget();
  assert.equal(await r.kept.reuse(r.now_), undefined);
});

test('touchesWindows: events of an inner element do not touch the window list', () => {
  const tops = new Set([WIN]);
  const ev = (type: string, source: string): A11yEvent => ({ time: 0, type, source, detail: '' });
  assert.equal(touchesWindows(ev('object:text-changed:insert', BUTTON), tops), false);
  assert.equal(touchesWindows(ev('object:children-changed:add', BUTTON), tops), false);
  assert.equal(touchesWindows(ev('object:state-changed:iconified', WIN), tops), true);
});
