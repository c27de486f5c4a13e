/**
 * A busy app's windows are listed from the display under other handles (its app answers no accessibility call
 * while a modal dialog of its own waits). They keep the window refs the model already has: "Busy lab" was w1 and
 * became w2 while its Error dialog waited, two ids for one X window.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import type { AppInfo, WindowInfo } from '../../src/engine/node.js';
import { Session } from '../../src/session/session.js';

const win = (id: string, title: string, pid = 700): WindowInfo =>
  ({ id, title, app: 'lab', pid, role: 'window', focused: false, startToken: 's1' });
const app = (windows: WindowInfo[], busy = false): AppInfo =>
  ({ name: 'lab', pid: 700, id: 'app', windows, ...(busy ? { busy: true } : {}) });

test('a busy app\'s window listed from the display keeps the ref it had; a new dialog gets its own', async () => {
  const session = new Session({ device: new Device({ connect: () => new FakeDriver().connect() }) });
  session.noteApps([app([win(':1.5/w', 'Busy lab')])]);
  const main = session.windows.refOf(win(':1.5/w', 'Busy lab'));
  session.noteApps([app([win('x11:0x400001', 'Busy lab'), win('x11:0x400009', 'Error')], true)]);
  assert.equal(session.windows.refOf(win('x11:0x400001', 'Busy lab')), main);
  const dialog = session.windows.refOf(win('x11:0x400009', 'Error'));
  assert.notEqual(dialog, main);
  // Once the app answers again, its own handle is still the same ref.
  session.noteApps([app([win(':1.5/w', 'Busy lab')])]);
  assert.equal(session.windows.refOf(win(':1.5/w', 'Busy lab')), main);
  await session.close();
});

test('two known windows of the same title: a display-listed one is not guessed to be either', async () => {
  const session = new Session({ device: new Device({ connect: () => new FakeDriver().connect() }) });
  session.noteApps([app([win(':1.5/a', 'Untitled'), win(':1.5/b', 'Untitled')])]);
  const refs = [session.windows.refOf(win(':1.5/a', 'Untitled')), session.windows.refOf(win(':1.5/b', 'Untitled'))];
  session.noteApps([app([win('x11:0x1', 'Untitled')], true)]);
  assert.ok(!refs.includes(session.windows.refOf(win('x11:0x1', 'Untitled'))));
  // Another process's window of the same title is never taken for it either.
  session.noteApps([{ ...app([win('x11:0x2', 'Busy lab', 701)], true), pid: 701 }]);
  await session.close();
});
