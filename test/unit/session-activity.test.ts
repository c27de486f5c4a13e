/** The visible agent's calls: what the pipeline asks the driver to show, and when nothing. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LiveView } from '../../src/panel/live.js';
import { activityOf, onActivity, showActing, showIdle, showPaused } from '../../src/session/activity.js';
import type { Session } from '../../src/session/session.js';

function fakeSession(options: { showActivity?: boolean; paused?: () => boolean } = {}): {
  session: Session;
  calls: unknown[][];
} {
  const calls: unknown[][] = [];
  const device = {
    lastHello: { platform: 'linux' },
    call: (m: string, p: unknown) => {
      calls.push([m, p]);
      return Promise.reject(new Error('unsupported'));
    },
  };
  return { session: { options, device } as unknown as Session, calls };
}

test('acting frames the window with "acting in <app>", idle removes it, idle with nothing shown sends nothing', () => {
  const { session, calls } = fakeSession();
  const seen: (string | undefined)[] = [];
  onActivity(session, (s) => seen.push(s));
  showIdle(session);
  assert.deepEqual(calls, []);
  showActing(session, {
    kind: 'element',
    tool: 'computer_act',
    ref: 'e1',
    op: 'click',
    role: 'button',
    app: 'gedit',
    window: 'w1',
  });
  assert.equal(activityOf(session), 'computer-use: acting in gedit');
  showIdle(session);
  assert.deepEqual(calls, [
    ['ui.highlight', { on: true, window: 'w1', status: 'computer-use: acting in gedit' }],
    ['ui.highlight', { on: false }],
  ]);
  assert.deepEqual(seen, ['computer-use: acting in gedit', undefined]);
});

test('paused: the status says so after the act and on a stop; resume clears it', () => {
  let paused = true;
  const { session, calls } = fakeSession({ paused: () => paused });
  showActing(session, { kind: 'keys', tool: 'computer_keys', keys: 'a', app: 'gedit' });
  showIdle(session);
  assert.deepEqual(calls.at(-1), ['ui.highlight', { on: true, status: 'computer-use: paused' }]);
  paused = false;
  showPaused(session, false);
  assert.deepEqual(calls.at(-1), ['ui.highlight', { on: false }]);
  showPaused(session, true);
  assert.deepEqual(calls.at(-1), ['ui.highlight', { on: true, status: 'computer-use: paused' }]);
});

test('showActivity: false sends nothing and tells no listener', () => {
  const { session, calls } = fakeSession({ showActivity: false });
  const seen: unknown[] = [];
  onActivity(session, (s) => seen.push(s));
  showActing(session, {
    kind: 'element',
    tool: 'computer_act',
    ref: 'e1',
    op: 'click',
    role: 'button',
    app: 'gedit',
    window: 'w1',
  });
  showIdle(session);
  assert.deepEqual(calls, []);
  assert.deepEqual(seen, []);
});

test('the panel live view carries the activity of a session', () => {
  const live = new LiveView();
  live.setActivity('s1', 'default', 'computer-use: acting in gedit');
  assert.equal(live.list()[0]?.activity, 'computer-use: acting in gedit');
  live.setActivity('s1', 'default', undefined);
  assert.equal(live.list()[0]?.activity, undefined);
});
