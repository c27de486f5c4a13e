/** What a submitting key submits (session/submit.ts): the terminal's caret line, a chooser field's resolved path. */
import assert from 'node:assert/strict';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { RawNode } from '../../src/engine/node.js';
import { parseChords } from '../../src/session/chords.js';
import { caretLine, isSubmit, planSubmit } from '../../src/session/submit.js';

const node = (n: Partial<RawNode> & { role: RawNode['role'] }): RawNode => ({
  id: n.role + Math.random(),
  states: [],
  actions: [],
  ...n,
});

test('submitting chords: Return and its aliases, ctrl+m and ctrl+j; ctrl+o only in a terminal', () => {
  const [ret, kp, m, j, o, a] = parseChords('Return KP_Enter ctrl+m ctrl+j ctrl+o ctrl+a');
  for (const c of [ret!, kp!, m!, j!]) assert.ok(isSubmit(c, false));
  assert.ok(isSubmit(o!, true));
  assert.ok(!isSubmit(o!, false));
  assert.ok(!isSubmit(a!, true));
});

test('a terminal: the command line is the caret line plus the typed characters; editing keys make it unknown', () => {
  const term = node({ role: 'terminal', value: 'old output\nroot@vm:/tmp# \n\n', caret: 1013, valueStart: 1000 });
  assert.equal(caretLine(term), 'root@vm:/tmp#');
  const win = node({ role: 'window', children: [term] });
  assert.deepEqual(planSubmit(win, parseChords('r m space x Return'), []), {
    kind: 'terminal',
    at: 4,
    line: 'root@vm:/tmp#rm x',
    multiple: false,
  });
  const edited = planSubmit(win, parseChords('r m Tab Return l s Return'), []);
  assert.equal(edited?.kind === 'terminal' ? edited.line : 'x', undefined);
  assert.equal(edited?.kind === 'terminal' && edited.multiple, true);
  assert.equal(planSubmit(win, parseChords('r m'), []), undefined);
});

test('a chooser field: its text plus the typed characters, resolved against the folder the driver reports', () => {
  const field = node({ role: 'textbox', states: ['focused', 'editable'], value: '../ho' });
  const win = node({ role: 'dialog', chooser: { folder: '/tmp/other' }, children: [node({ role: 'generic' }), field] });
  const plan = planSubmit(win, parseChords('m e slash s Return'), []);
  assert.deepEqual(plan, { kind: 'field', at: 4, paths: ['/tmp/home/s', '/tmp/ho', '/tmp/other'] });
  // Outside a chooser only a path-like text names a file.
  const url = node({ role: 'textbox', states: ['focused', 'editable'], value: '~/' });
  assert.deepEqual(planSubmit(node({ role: 'window', children: [url] }), parseChords('a Return'), []), {
    kind: 'field',
    at: 1,
    paths: ['~/a'],
  });
  assert.deepEqual(
    planSubmit(
      node({ role: 'window', children: [node({ role: 'textbox', states: ['focused', 'editable'], value: 'hi' })] }),
      parseChords('Return'),
      [join(homedir(), 'x')],
    ),
    { kind: 'field', at: 0, paths: [] },
  );
});

test('the host decides by protocol facts, never by nativeRole: a ' +
    'chooser is the `chooser` fact, a terminal the `terminal` role', () => {
  // A platform name alone proves nothing: before, nativeRole 'file chooser' and 'terminal' decided both.
  const field = node({ role: 'textbox', states: ['focused', 'editable'], value: 'notes.txt' });
  assert.deepEqual(
    planSubmit(node({ role: 'dialog', nativeRole: 'file chooser', children: [field] }), parseChords('Return'), []),
    { kind: 'field', at: 0, paths: [] },
    'no chooser fact: a bare name names no file',
  );
  const unknown = planSubmit(node({ role: 'dialog', chooser: {}, children: [field] }), parseChords('Return'), [
    '/tmp/guess',
  ]);
  assert.deepEqual(
    unknown,
    { kind: 'field', at: 0, paths: [join(homedir(), 'notes.txt'), '/tmp/guess/notes.txt'] },
    'a chooser of unknown folder: every guess',
  );
  const term = node({ role: 'terminal', value: 'user@host:~$ ', caret: 13 });
  assert.equal(
    planSubmit(node({ role: 'window', children: [term] }), parseChords('l s Return'), [])?.kind,
    'terminal',
    'a terminal by its unified role',
  );
  const lookalike = node({ role: 'document', nativeRole: 'terminal', value: 'user@host:~$ ', caret: 13 });
  assert.notEqual(
    planSubmit(node({ role: 'window', children: [lookalike] }), parseChords('l s Return'), [])?.kind,
    'terminal',
    'nativeRole alone is no terminal',
  );
});
