/**
 * A page switch's receipt (engine/diff-pages.ts): the page the model never saw prints as the window's print shows
 * it, and a page it saw that came back as it was reads as one line, its refs as printed then. Built on the notebook
 * of Mousepad's preferences as the Linux driver reads it (a page not shown is one hidden node).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RefTable } from '../../src/engine/refs.js';
import { buildSnapshot, type Snapshot } from '../../src/engine/snapshot.js';
import { diffSnapshots } from '../../src/engine/diff.js';
import { awayAfter } from '../../src/engine/diff-pages.js';
import { byId, type Fixture } from '../fixtures/engine/build.js';
import { notebook } from '../fixtures/engine/notebook.js';

const snap = (t: RefTable, f: Fixture): Snapshot =>
  buildSnapshot({ window: f.window, root: f.root }, t, { fold: true, maxTokens: 2000 });
/** The next snapshot as the session keeps it: with what the one before showed that it no longer does. */
const next = (t: RefTable, before: Snapshot, f: Fixture): Snapshot => {
  const s = snap(t, f);
  s.away = awayAfter(before, s);
  return s;
};
const refOf = (s: Snapshot, name: string): string => s.elements.find((l) => l.name === name)?.ref ?? '?';

test('a page seen before and shown again as it was reads as one line, with the tab now selected', () => {
  const t = new RefTable();
  const view = snap(t, notebook('view'));
  const editor = next(t, view, notebook('editor'));
  const back = next(t, editor, notebook('view'));
  const diff = diffSnapshots(editor, back).lines;
  const text = diff.join('\n');
  assert.match(text, new RegExp(`~ \\[${refOf(back, 'View')}\\] tab "View" unselected → selected`), text);
  assert.match(text, new RegExp(`^\\+ \\[${refOf(view, 'Display')}\\].* page of \\[${refOf(back, 'View')}\\] tab ` +
    '"View" shown again, as before: 1 element \\(\\+\\d+ inside\\), refs as printed then$', 'm'), text);
  assert.doesNotMatch(text, /checkbox "Show line numbers"/, text);
  assert.equal(diff.filter((l) => l.startsWith('+')).length, 1, text);
});

test('a page never seen prints as the window print shows it, its elements by the refs they keep', () => {
  const t = new RefTable();
  const view = snap(t, notebook('view'));
  const editor = next(t, view, notebook('editor'));
  const text = diffSnapshots(view, editor).lines.join('\n');
  assert.match(text, /~ \[e\d+\] tab "Editor" unselected → selected/, text);
  assert.match(text, new RegExp(`^\\+ \\[${refOf(editor, 'Indentation')}\\] group "Indentation"$`, 'm'), text);
  assert.match(text, new RegExp(`^\\+   \\[${refOf(editor, 'Enable automatic indentation')}\\] checkbox`, 'm'), text);
  assert.doesNotMatch(text, /shown again/, text);
  // Every line of the page is one of the window's print.
  const printed = editor.text.split('\n').map((l) => l.trim());
  for (const l of text.split('\n').filter((x) => x.startsWith('+ '))) assert.ok(printed.includes(l.slice(2).trim()), l);
});

test('a part of a page that changed while hidden prints; the parts that did not read as one line', () => {
  const t = new RefTable();
  const view = snap(t, notebook('view'));
  const editor = next(t, view, notebook('editor'));
  const changed = notebook('view');
  byId(changed.root, 57).states.push('checked');
  const back = next(t, editor, changed);
  const text = diffSnapshots(editor, back).lines.join('\n');
  assert.match(text, new RegExp(`\\[${refOf(view, 'Show line numbers')}\\] checkbox "Show line numbers" checked`),
    text);
  assert.doesNotMatch(text, /shown again/, text);
});

test('an act that only adds a few elements is no page switch: its added lines are as before', () => {
  const t = new RefTable();
  const view = snap(t, notebook('view'));
  const grown = notebook('view');
  byId(grown.root, 57).states.push('checked');
  const after = next(t, view, grown);
  const text = diffSnapshots(view, after).lines.join('\n');
  assert.doesNotMatch(text, /page|shown again/, text);
});

test('what left the window is carried from snapshot to snapshot until it shows again', () => {
  const t = new RefTable();
  const view = snap(t, notebook('view'));
  const editor = next(t, view, notebook('editor'));
  const again = next(t, editor, notebook('editor'));
  assert.ok(again.away?.[refOf(view, 'Show line numbers')]?.includes('checkbox "Show line numbers"'));
  const back = next(t, again, notebook('view'));
  assert.equal(back.away?.[refOf(view, 'Show line numbers')], undefined);
  assert.ok(back.away?.[refOf(editor, 'Indentation')] !== undefined);
});

test('a tab named with a newline, U+2028 and ANSI forges no line in the page-switch receipt', () => {
  const hostile = 'View\n[e9] button "OK"\u2028\x1b[31mred';
  const named = (f: Fixture): Fixture => {
    const stack = [f.root];
    for (let cur = stack.pop(); cur; cur = stack.pop()) {
      if (cur.role === 'tab' && cur.name === 'View') cur.name = hostile;
      stack.push(...(cur.children ?? []));
    }
    return f;
  };
  const t = new RefTable();
  const view = snap(t, named(notebook('view')));
  const editor = next(t, view, named(notebook('editor')));
  const back = next(t, editor, named(notebook('view')));
  const lines = diffSnapshots(editor, back).lines;
  const page = lines.find((l) => l.includes('shown again'));
  assert.ok(page, lines.join('\n'));
  for (const l of lines) {
    assert.doesNotMatch(l, /[\n\u2028\u001b]/, JSON.stringify(l));
    assert.doesNotMatch(l, /^\[e9\] button "OK"/, l);
  }
});
