/** What a submitting key submits (session/submit.ts): the terminal's caret line, a chooser field's resolved path. */
import assert from 'node:assert/strict';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { RawNode } from '../../src/engine/node.js';
import { parseChords } from '../../src/session/chords.js';
import { caretLine, isSubmit, planSubmit } from '../../src/session/submit.js';

const node = (n: Partial<RawNode> & { role: RawNode['role'] }): RawNode => ({ id: n.role + Math.random(), states: [], actions: [], ...n });

test('submitting chords: Return and its aliases, ctrl+m and ctrl+j; ctrl+o only in a terminal', () => {
  const [ret, kp, m, j, o, a] = parseChords('Return KP_Enter ctrl+m ctrl+j ctrl+o ctrl+a');
  for (const c of [ret!, kp!, m!, j!]) assert.ok(isSubmit(c, false));
  assert.ok(isSubmit(o!, true));
  assert.ok(!isSubmit(o!, false));
  assert.ok(!isSubmit(a!, true));
});

test('a terminal: the command line is the caret line plus the typed characters; editing keys make it unknown', () => {
  const term = node({ role: 'document', nativeRole: 'terminal', value: 'old output\nroot@vm:/tmp# \n\n', caret: 1013, valueStart: 1000 });
  assert.equal(caretLine(term), 'root@vm:/tmp#');
  const win = node({ role: 'window', children: [term] });
  assert.deepEqual(planSubmit(win, parseChords('r m space x Return'), []), { kind: 'terminal', at: 4, line: 'root@vm:/tmp#rm x', multiple: false });
  const edited = planSubmit(win, parseChords('r m Tab Return l s Return'), []);
  assert.equal(edited?.kind === 'terminal' ? edited.line : 'x', undefined);
  assert.equal(edited?.kind === 'terminal' && edited.multiple, true);
  assert.equal(planSubmit(win, parseChords('r m'), []), undefined);
});

test('a chooser field: its text plus the typed characters, resolved against the path bar\'s folder', () => {
  const bar = node({ role: 'generic', name: 'PathBar Layer', children: [
    node({ role: 'button', name: 'other', states: ['checked'] }), node({ role: 'button', name: 'tmp' }), node({ role: 'button', name: 'File System Root' })] });
  const field = node({ role: 'textbox', states: ['focused', 'editable'], value: '../ho' });
  const win = node({ role: 'dialog', nativeRole: 'file chooser', children: [bar, field] });
  const plan = planSubmit(win, parseChords('m e slash s Return'), []);
  assert.deepEqual(plan, { kind: 'field', at: 4, paths: ['/tmp/home/s', '/tmp/ho', '/tmp/other'] });
  // Outside a chooser only a path-like text names a file.
  const url = node({ role: 'textbox', states: ['focused', 'editable'], value: '~/' });
  assert.deepEqual(planSubmit(node({ role: 'window', children: [url] }), parseChords('a Return'), []), { kind: 'field', at: 1, paths: ['~/a'] });
  assert.deepEqual(planSubmit(node({ role: 'window', children: [node({ role: 'textbox', states: ['focused', 'editable'], value: 'hi' })] }), parseChords('Return'), [join(homedir(), 'x')]),
    { kind: 'field', at: 0, paths: [] });
});

test('a chooser\'s folder is read through the nameless panel GTK 3 puts its path bar buttons in (geany\'s Save File)', () => {
  // Measured on geany 1.38's Save File dialog: PathBar Layer > panel > toggle buttons, Create Folder beside the panel.
  const panel = node({ role: 'group', nativeRole: 'panel', children: [
    node({ role: 'button', name: 'trial', states: ['checked'] }), node({ role: 'button', name: 'tmp' }), node({ role: 'button', name: 'File System Root' }),
    node({ role: 'button', name: 'Up Path', states: ['disabled'] }), node({ role: 'button', name: 'Down Path', states: ['disabled'] })] });
  const bar = node({ role: 'generic', name: 'PathBar Layer', children: [panel, node({ role: 'button', name: 'Create Folder' })] });
  const field = node({ role: 'textbox', states: ['focused', 'editable'], value: 'hello2.py' });
  const win = node({ role: 'dialog', children: [node({ role: 'dialog', name: 'File Chooser Widget', children: [field, bar] })] });
  // A folder read as unknown made the name count as inside every protected folder, so Return was refused in every mode.
  assert.deepEqual(planSubmit(win, parseChords('Return'), ['/tmp/views-home']), { kind: 'field', at: 0, paths: ['/tmp/trial/hello2.py', '/tmp/trial'] });
});
