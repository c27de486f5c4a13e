/**
 * Input lands only where it was aimed. A denied keep-above window over an allowed one takes no
 * click and no drag release; keys for a window that cannot be activated are not typed into whatever has focus.
 * The allowed app and the denied one ("keepassxc", a password manager's name) are the GTK overlay test app.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Computer } from '../../../src/index.js';
import { X11 } from '../../../src/drivers/linux/x11/connection.js';
import { XWindows } from '../../../src/drivers/linux/x11/windows.js';
import { E2E_APPS, ok, openComputer } from '../helpers.js';
import { APP, startOverlay, type Overlay } from './overlay.js';

let computer: Computer;
const running: Overlay[] = [];

before(async () => { computer = await openComputer({ allowApps: [...E2E_APPS, `/usr/bin/python3 ${APP}`] }); });
after(async () => {
  await computer?.close();
  for (const o of running) o.kill();
});

async function overlay(args: string[]): Promise<Overlay> {
  const o = await startOverlay(args);
  running.push(o);
  return o;
}

/** Waits until computer_apps lists a window of `name` (the accessibility registry sees it a little later). */
async function waitForApp(name: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if ((await computer.tools.apps()).text.includes(`${name} pid=`)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`${name} did not appear`);
}

test('a click at pixels of an allowed window covered by a ' +
    'denied keep-above window is refused, nothing clicked', async () => {
  const notes = await overlay([
    '--name',
    'notes',
    '--label',
    'NotesButton',
    '--position',
    '100,100',
    '--size',
    '500,400',
  ]);
  const vault = await overlay([
    '--name',
    'keepassxc',
    '--label',
    'Reveal',
    '--keep-above',
    '--position',
    '250,250',
    '--size',
    '260,180',
  ]);
  try {
    await waitForApp('notes');
    // Window pixels (220, 220) of notes lie at about (320, 320+) on screen: under the keep-above vault.
    const r = await computer.tools.input({ action: 'click', app: 'notes', x: 220, y: 220 });
    assert.equal(r.isError, true, r.text);
    assert.equal(r.code, 'window_changed', r.text);
    // Control: an uncovered point of notes is clicked through the same path (and arrives after any stray click).
    ok(await computer.tools.input({ action: 'click', app: 'notes', x: 30, y: 30 }));
    await notes.waitFor(/^clicked NotesButton$/);
    assert.deepEqual(vault.lines.filter((l) => l.startsWith('clicked')), [], 'the denied button was clicked');
  } finally {
    notes.kill();
    vault.kill();
  }
});

test('a drag whose release point lies over a denied keep-above window is refused', async () => {
  const notes = await overlay([
    '--name',
    'notes',
    '--label',
    'NotesButton',
    '--position',
    '100,100',
    '--size',
    '500,400',
  ]);
  const vault = await overlay([
    '--name',
    'keepassxc',
    '--label',
    'Reveal',
    '--keep-above',
    '--position',
    '250,250',
    '--size',
    '260,180',
  ]);
  try {
    await waitForApp('notes');
    const r = await computer.tools.input({ action: 'drag', app: 'notes', x: 30, y: 30, to: { x: 220, y: 220 } });
    assert.equal(r.isError, true, r.text);
    assert.equal(r.code, 'window_changed', r.text);
    assert.deepEqual(vault.lines.filter((l) => l.startsWith('clicked')), []);
  } finally {
    notes.kill();
    vault.kill();
  }
});

test('keys for a window that cannot be activated fail with ' +
    'window_not_focused; the focused denied app gets none', async () => {
  // notes never accepts focus: the window manager cannot activate it.
  const notes = await overlay([
    '--name',
    'notes',
    '--label',
    'NotesButton',
    '--no-focus',
    '--position',
    '80,80',
    '--size',
    '400,300',
  ]);
  const vault = await overlay([
    '--name',
    'keepassxc',
    '--entry',
    '--label',
    'Unlock',
    '--position',
    '600,120',
    '--size',
    '360,200',
  ]);
  try {
    await waitForApp('notes');
    const r = await computer.tools.keys({ keys: 'h u n t e r', app: 'notes' });
    assert.equal(r.isError, true, r.text);
    assert.equal(r.code, 'window_not_focused', r.text);
    assert.deepEqual(vault.lines.filter((l) => l.startsWith('text')), [], 'keys reached the denied app');
  } finally {
    notes.kill();
    vault.kill();
  }
});

test('a forged _NET_ACTIVE_WINDOW (any client may write the root property) does not pass the focus proof', async () => {
  const notes = await overlay([
    '--name',
    'notes',
    '--label',
    'NotesButton',
    '--no-focus',
    '--position',
    '80,80',
    '--size',
    '400,300',
  ]);
  const vault = await overlay([
    '--name',
    'keepassxc',
    '--entry',
    '--label',
    'Unlock',
    '--position',
    '600,120',
    '--size',
    '360,200',
  ]);
  const x = await X11.open(process.env['DISPLAY']);
  try {
    await waitForApp('notes');
    // The focused app claims on the root window that notes is active, while it keeps the keyboard focus.
    const notesWin = (await new XWindows(x).clients()).find((c) => c.pid === notes.proc.pid);
    assert.ok(notesWin, 'the X window of notes');
    x.send(x.client, 'ChangeProperty', 0, x.root, await x.atom('_NET_ACTIVE_WINDOW'), await x.atom('WINDOW'), 32, [
      notesWin.id,
    ]);
    await x.sync();
    const r = await computer.tools.keys({ keys: 'h u n t e r', app: 'notes' });
    assert.equal(r.isError, true, r.text);
    assert.equal(r.code, 'window_not_focused', r.text);
    assert.deepEqual(vault.lines.filter((l) => l.startsWith('text')), [], 'keys reached the denied app');
  } finally {
    x.close();
    notes.kill();
    vault.kill();
  }
});
