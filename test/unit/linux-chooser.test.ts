/** The Linux driver's file chooser fact (drivers/linux/tree/chooser.ts): which node is a chooser, the folder GTK's path
* bar shows. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RawNode } from '../../src/protocol/nodes.js';
import { folderOfBar, markChoosers } from '../../src/drivers/linux/tree/chooser.js';

const node = (n: Partial<RawNode> & { role: RawNode['role'] }): RawNode => ({
  id: n.role + Math.random(),
  states: [],
  actions: [],
  ...n,
});
const buttons = (states: Record<string, RawNode['states']>) =>
  ['home', 'cu-x', 'tmp', 'File System Root', 'Up Path', 'Down Path', 'Create Folder'].map((name) =>
    node({ role: 'button', name, states: states[name] ?? [] }),
  );

test('the folder of a GTK path bar: the checked button and the ones above it; a cut bar is unknown', () => {
  const off = { 'Up Path': ['disabled'], 'Down Path': ['disabled'] } as Record<string, RawNode['states']>;
  assert.equal(folderOfBar(buttons({ ...off, home: ['checked'] })), '/tmp/cu-x/home');
  assert.equal(folderOfBar(buttons({ ...off, 'cu-x': ['pressed'] })), '/tmp/cu-x');
  assert.equal(folderOfBar(buttons({ home: ['checked'] })), undefined, 'slider buttons enabled: the bar is cut');
  assert.equal(folderOfBar(buttons({ ...off })), undefined, 'no current folder');
  const fromHome = [
    node({ role: 'button', name: 'docs', states: ['checked'] }),
    node({ role: 'button', name: 'alice' }),
  ];
  assert.equal(folderOfBar(fromHome, '/home/alice'), '/home/alice/docs', 'a bar that starts at the home folder');
  const slash = [
    node({ role: 'button', name: 'a/b', states: ['checked'] }),
    node({ role: 'button', name: 'File System Root' }),
  ];
  assert.equal(folderOfBar(slash), undefined, 'a button name with a slash is no folder name');
});

test('markChoosers: the "file chooser" node gets the fact with the ' +
    'folder of the bar inside it (geany\'s Save File, measured)', () => {
  // geany 1.38: PathBar Layer > panel > toggle buttons, Create Folder beside the panel.
  const panel = node({ role: 'group', nativeRole: 'panel', children: [
    node({ role: 'button', name: 'trial', states: ['checked'] }),
    node({ role: 'button', name: 'tmp' }),
    node({ role: 'button', name: 'File System Root' }),
    node({ role: 'button', name: 'Up Path', states: ['disabled'] }),
    node({ role: 'button', name: 'Down Path', states: ['disabled'] }),
  ], });
  const bar = node({
    role: 'generic',
    name: 'PathBar Layer',
    children: [panel, node({ role: 'button', name: 'Create Folder' })],
  });
  const widget = node({
    role: 'dialog',
    nativeRole: 'file chooser',
    name: 'File Chooser Widget',
    children: [node({ role: 'textbox' }), bar],
  });
  const win = node({ role: 'dialog', nativeRole: 'dialog', children: [widget] });
  markChoosers(win);
  assert.deepEqual(widget.chooser, { folder: '/tmp/trial' });
  assert.equal(win.chooser, undefined);
  assert.equal(bar.chooser, undefined);
});

test('markChoosers: a bar outside any chooser marks its parent; a ' +
    'cut bar leaves the folder unknown; a stale fact is dropped', () => {
  const bar = node({ role: 'generic', name: 'PathBar Layer', children: buttons({ home: ['checked'] }) });
  const box = node({ role: 'group', children: [bar] });
  const win = node({ role: 'dialog', chooser: { folder: '/stale' }, children: [box] });
  markChoosers(win);
  assert.deepEqual(box.chooser, {}, 'the bar is cut: a chooser of unknown folder');
  assert.equal(win.chooser, undefined, 'a fact from an earlier read of a cached node is not kept');
  const plain = node({ role: 'window', children: [node({ role: 'button', name: 'PathBar' })] });
  markChoosers(plain);
  assert.equal(JSON.stringify(plain).includes('chooser'), false);
});
